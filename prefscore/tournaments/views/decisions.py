"""The arbiter's decisions after a result is final: reopening a finished tournament,
correcting an arbiter's final sheet, redoing a cut a correction changed
(docs/tournaments.md §4.9, §4.10; Кодекс 4.2.16).

Organisers and admins only (403 to members, 404 for what is not this tournament's). A
refusal re-renders the form with the reason; nothing is saved. Each decision is audited
(``decisions.py``) and listed on the tournament page.
"""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import get_object_or_404
from django.views.decorators.http import require_http_methods, require_POST

from prefscore.clubs.permissions import ORGANISERS
from prefscore.web.htmx import HtmxHttpRequest, render_page

from .. import decisions, recut
from ..forms.tournament import CorrectClosureForm, DecisionReasonForm
from ..models import TableClosure
from ..services import TournamentError, live_pulkas
from .tournament import _detail, _tournament, reload_at


@require_POST
@login_required
def reopen(request: HtmxHttpRequest, club: str, slug: str) -> HttpResponse:
    """Reopen the finished tournament, with a reason (§4.10)."""
    tournament, role = _tournament(request, club, slug, ORGANISERS)
    form = DecisionReasonForm(request.POST)
    if not form.is_valid():
        return _detail(request, tournament, role, "draw", reopen_form=form)
    try:
        decisions.reopen(tournament.pk, request.user, form.cleaned_data["reason"])
    except TournamentError as error:
        return _detail(request, tournament, role, "draw", draw_error=str(error))
    return reload_at(request, tournament, "draw")


@require_POST
@login_required
def redo_cut(request: HtmxHttpRequest, club: str, slug: str) -> HttpResponse:
    """Redo the last cut from the standings as they are now, with a reason (§4.10)."""
    tournament, role = _tournament(request, club, slug, ORGANISERS)
    form = DecisionReasonForm(request.POST)
    if not form.is_valid():
        return _detail(request, tournament, role, "draw", recut_form=form)
    try:
        round_ = recut.redo_cut(tournament.pk, request.user, form.cleaned_data["reason"])
    except TournamentError as error:
        return _detail(request, tournament, role, "draw", draw_error=str(error))
    return reload_at(request, tournament, f"draft-{round_.number}")


@require_http_methods(["GET", "HEAD", "POST"])
@login_required
def correct_closure(request: HtmxHttpRequest, club: str, slug: str, pulka: int) -> HttpResponse:
    """Correct the arbiter's final sheet of a closed table, with a reason (Кодекс 4.2.16)."""
    tournament, _role = _tournament(request, club, slug, ORGANISERS)
    table = get_object_or_404(
        live_pulkas(tournament).select_related("closure"),
        pk=pulka,
        closure__reason=TableClosure.Reason.ARBITER,
    )
    names = list(table.player_names)
    data = request.POST if request.method == "POST" else None
    form = CorrectClosureForm(data, names=names, whists=table.closure.whists)
    if request.method == "POST" and form.is_valid():
        try:
            decisions.correct_closure(
                table.pk, tournament, request.user, form.whists(), form.cleaned_data["reason"]
            )
        except TournamentError as error:
            form.add_error(None, str(error))
        else:
            return reload_at(request, tournament, "decisions")
    context = {
        "club": tournament.club,
        "tournament": tournament,
        "table": table,
        "form": form,
        "finished": tournament.finished,
    }
    return render_page(request, "tournaments/correct_closure.html", context, "form")
