"""Manual entries on the sheet (docs/rules.md §3.11): writing one, correcting one.

``manual_entry`` shows the form (GET) and records the line (POST); ``manual_correct``
shows a standing line in the form again and records its correction. Who may is
``prefscore.games.manual_entries``: the club's admins, and a tournament's organisers.
As elsewhere: with htmx the form region is swapped and a success sends the browser to
the sheet with ``HX-Redirect``; without it a success redirects (POST/redirect/GET). A
wrong entry is 422 (htmx) or 200 (page); not his to do 403; not now (finished pulka,
the number taken meanwhile) 409.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from prefscore.web.htmx import HtmxHttpRequest, invalid_status, redirect_to, render_page
from scoring.engine.errors import DealError
from scoring.engine.manual import MAX_POINTS, MAX_REASON, describe

from .. import manual_entries, services
from ..access import pulka_for
from ..corrections import Refusal
from ..manual_forms import ManualEntryForm, values_of
from ..models import Deal, Pulka
from ..presenters.manual import manual_page
from ..presenters.protocol import ManualNote, manual_notes
from ..services import load_corrections, load_deals
from .corrections import later_deal_error
from .sheet import once_per_entry

TEMPLATE = "games/manual.html"


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
@once_per_entry
def manual_entry(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """The manual entry form, and recording its line as the next of the log."""
    pulka = pulka_for(request, pk, change=True)
    refusal = manual_entries.manual_refusal(pulka, request.user)
    if refusal is not None:
        return _refused(request, pulka, refusal)
    deals = load_deals(pulka)
    form = ManualEntryForm(tuple(pulka.player_names), request.POST or None)
    status = 200
    if request.method == "POST":
        status = invalid_status(request)
        if form.is_valid():
            assert form.line_number is not None
            try:
                manual_entries.record_manual(pulka.pk, form.facts, request.user, form.line_number)
            except DealError as error:
                form.add_engine_error(error)
            except services.Conflict as error:
                form.add_notice(str(error))
                status = 409
            except services.NotAllowed as error:
                return _refused(request, pulka, Refusal(str(error), True))
            else:
                return redirect_to(request, reverse("games:sheet", args=[pulka.pk]))
    action = reverse("games:manual", args=[pulka.pk])
    context = _context(pulka, form, action, len(deals) + 1, _lines(pulka, deals))
    return render_page(request, TEMPLATE, context, "manual_form", status=status)


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
@once_per_entry
def manual_correct(request: HtmxHttpRequest, pk: int, number: int) -> HttpResponse:
    """Manual entry ``number`` in the form again, and recording its correction."""
    pulka = pulka_for(request, pk, change=True)
    deals = load_deals(pulka)
    if not 1 <= number <= len(deals) or not manual_entries.is_manual_row(deals[number - 1]):
        raise Http404(_("There is no manual entry %(number)s.") % {"number": number})
    refusal = manual_entries.correction_refusal(pulka, request.user, deals, number)
    if refusal is not None:
        return _refused(request, pulka, refusal)
    names = tuple(pulka.player_names)
    form = ManualEntryForm(names, request.POST or None)
    status = 200
    if request.method == "POST":
        status = invalid_status(request)
        if form.is_valid():
            try:
                manual_entries.correct_manual(pulka.pk, request.user, number, form.facts)
            except DealError as error:
                if error.places:
                    form.add_notice(later_deal_error(error, number))
                else:
                    form.add_engine_error(error)
            except services.NotAllowed as error:
                form.add_notice(str(error))
                status = 409
            else:
                return redirect_to(request, reverse("games:sheet", args=[pulka.pk]))
    scored = services.score(pulka, load_deals(pulka), load_corrections(pulka))
    if request.method != "POST":
        line = describe(scored.records[number - 1].deal)
        assert line is not None  # a manual line is corrected only by a manual line
        form = ManualEntryForm(names, initial=values_of(line, names))
    action = reverse("games:manual_correct", args=[pulka.pk, number])
    lines = manual_notes(scored, pulka.pk)
    context = _context(pulka, form, action, number, lines, correcting=number)
    return render_page(request, TEMPLATE, context, "manual_form", status=status)


def _lines(pulka: Pulka, deals: list[Deal]) -> tuple[ManualNote, ...]:
    """The manual lines that stand, with their correction links (one fold)."""
    if not any(manual_entries.is_manual_row(deal) for deal in deals):
        return ()
    return manual_notes(services.score(pulka, deals, load_corrections(pulka)), pulka.pk)


def _context(
    pulka: Pulka,
    form: ManualEntryForm,
    action: str,
    number: int,
    lines: tuple[ManualNote, ...],
    correcting: int | None = None,
) -> dict[str, Any]:
    return {
        "pulka": pulka,
        "page": manual_page(pulka, form, action, number, lines, correcting),
        "max_points": MAX_POINTS,
        "max_reason": MAX_REASON,
    }


def _refused(request: HtmxHttpRequest, pulka: Pulka, refusal: Refusal) -> HttpResponse:
    """The page with the reason and no form: 403 not his to do, 409 not now."""
    status = 403 if refusal.forbidden else 409
    context = {"pulka": pulka, "page": None, "notice": refusal.message}
    return render_page(request, TEMPLATE, context, "manual_form", status=status)
