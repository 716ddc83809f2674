"""Conventions as players read them: the list, one convention, two side by side.

Signed-in players see the presets and their own clubs' conventions; a convention of
another club is 403, an unknown one 404. The rules are generated from the options
(scoring.rules_text) and every figure comes from the engine (scoring.presenters).
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpResponse
from django.shortcuts import get_object_or_404
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe

from prefscore.web.htmx import HtmxHttpRequest, render_page
from scoring.engine.conventions import Convention as EngineConvention
from scoring.engine.errors import ConventionError

from . import presenters
from .models import Convention, translated
from .rules_text import rules


def convention_for(request: HtmxHttpRequest, slug: str) -> Convention:
    """The convention if the user may read it, else 404 (unknown) or 403 (other club)."""
    convention = get_object_or_404(Convention.objects.select_related("owner"), slug=slug)
    user = request.user
    if convention.owner is None or user.is_superuser:
        return convention
    if convention.owner.role_of(user) is None:
        raise PermissionDenied(_("This convention belongs to a club you are not a member of."))
    return convention


def _engine(convention: Convention) -> tuple[EngineConvention | None, str]:
    """The engine's convention, or the reason a stored one no longer passes its checks."""
    try:
        return convention.to_engine(), ""
    except ConventionError as error:
        return None, " ".join(translated(error).messages)


@require_safe
@login_required
def convention_list(request: HtmxHttpRequest) -> HttpResponse:
    """Presets first, then each of the user's clubs with its own conventions."""
    conventions = Convention.objects.visible_to(request.user).select_related("owner")
    context = {"groups": presenters.convention_groups(conventions)}
    return render_page(request, "scoring/convention_list.html", context, "conventions")


@require_safe
@login_required
def convention_detail(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    """One convention: its rules in words, its game values, every option."""
    convention = convention_for(request, slug)
    engine, problem = _engine(convention)
    context: dict[str, Any] = {
        "convention": convention,
        "problem": problem,
        "others": Convention.objects.visible_to(request.user).exclude(pk=convention.pk),
        "admin_url": _admin_url(request, convention),
    }
    if engine is not None:
        context.update(
            topics=rules(engine),
            sizes=presenters.size_labels(),
            values=presenters.value_rows(engine),
            options=presenters.option_sections(engine),
        )
    return render_page(request, "scoring/convention_detail.html", context, "convention")


@require_safe
@login_required
def compare(request: HtmxHttpRequest) -> HttpResponse:
    """Two conventions side by side, every option and game value, differences marked."""
    a_slug, b_slug = request.GET.get("a", ""), request.GET.get("b", "")
    context: dict[str, Any] = {
        "choices": Convention.objects.visible_to(request.user).select_related("owner"),
        "a_slug": a_slug or "sochi",
        "b_slug": b_slug or "leningrad",
        "comparison": None,
    }
    if a_slug and b_slug:
        a, b = convention_for(request, a_slug), convention_for(request, b_slug)
        context["comparison"] = _comparison(a, b)
    return render_page(request, "scoring/compare.html", context, "comparison")


def _comparison(a: Convention, b: Convention) -> dict[str, Any]:
    (engine_a, problem_a), (engine_b, problem_b) = _engine(a), _engine(b)
    comparison: dict[str, Any] = {"a": a, "b": b, "problem": problem_a or problem_b}
    if engine_a is not None and engine_b is not None:
        options = presenters.option_sections(engine_a, engine_b)
        comparison.update(
            options=options,
            values=presenters.value_sections(engine_a, engine_b),
            differences=sum(row.differs for section in options for row in section.rows),
        )
    return comparison


def _admin_url(request: HtmxHttpRequest, convention: Convention) -> str:
    """Where a staff user changes (or, for a preset, duplicates) this convention."""
    if not request.user.is_staff:
        return ""
    if not Convention.objects.editable_by(request.user).filter(pk=convention.pk).exists():
        if not convention.is_preset:
            return ""
    return reverse("admin:scoring_convention_change", args=[convention.pk])
