"""The director's discipline: cards and whist fines per player (docs/tournaments.md §4.9).

Organisers and admins only (403 to members, 404 for another tournament's entry). A
refusal shows the form again with the reason, nothing saved; each decision is audited
(``discipline.py``) and shown on the tournament page and the player's line.
"""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import get_object_or_404
from django.views.decorators.http import require_http_methods

from prefscore.clubs.permissions import ORGANISERS
from prefscore.web.htmx import HtmxHttpRequest, render_page

from .. import discipline
from ..forms.discipline import DisciplineForm
from ..models import TournamentEvent
from ..services import TournamentError
from .tournament import _tournament, reload_at


@require_http_methods(["GET", "HEAD", "POST"])
@login_required
def discipline_view(request: HtmxHttpRequest, club: str, slug: str, entry: int) -> HttpResponse:
    """Give a player a card or fine him whists at his table, with a reason (§4.9)."""
    tournament, _role = _tournament(request, club, slug, ORGANISERS)
    found = get_object_or_404(tournament.entries.select_related("player"), pk=entry)
    form = DisciplineForm(request.POST if request.method == "POST" else None)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            if data["action"] == TournamentEvent.Action.FINE:
                discipline.fine(tournament, found.pk, data["points"], data["reason"], request.user)
            else:
                discipline.give_card(
                    tournament, found.pk, data["action"], data["reason"], request.user
                )
        except TournamentError as error:
            form.add_error(None, str(error))
        else:
            return reload_at(request, tournament, "decisions")
    table = discipline.playing_table(tournament, found)
    context = {
        "club": tournament.club,
        "tournament": tournament,
        "entry": found,
        "table": table,
        "form": form,
        "marks": discipline.marks(tournament).get(found.pk, discipline.DisciplineMarks()),
        "finished": tournament.finished,
    }
    return render_page(request, "tournaments/discipline.html", context, "form")
