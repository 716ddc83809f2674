"""The organiser's seating constraints (docs/tournaments.md §4.3): home clubs kept apart
in round 1, and pairs who never sit together. Organisers and admins only (403 to
members); a refusal shows the form again with the reason, nothing saved."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from prefscore.clubs.permissions import ORGANISERS
from prefscore.web.htmx import HtmxHttpRequest, redirect_to, render_page

from .. import constraints
from ..forms.constraints import HomeClubsForm, PairForm
from ..models import Tournament, TournamentEntry
from ..services import TournamentError
from .tournament import _tournament

ACTIONS = ("clubs", "forbid", "allow")


@require_http_methods(["GET", "HEAD", "POST"])
@login_required
def seating_constraints(request: HtmxHttpRequest, club: str, slug: str) -> HttpResponse:
    """Home clubs and pairs kept apart; each POST names its ``action``."""
    tournament, _role = _tournament(request, club, slug, ORGANISERS)
    entries = list(
        tournament.entries.exclude(state__in=TournamentEntry.OUT)
        .select_related("player")
        .order_by("player__name")
    )
    action = str(request.POST.get("action", "")) if request.method == "POST" else ""
    clubs_form = HomeClubsForm(request.POST if action == "clubs" else None, entries=entries)
    pair_form = PairForm(request.POST if action in ("forbid", "allow") else None, entries=entries)
    error = ""
    if action in ACTIONS:
        try:
            if _apply(tournament, action, clubs_form, pair_form):
                here = reverse("tournaments:constraints", args=[club, slug])
                return redirect_to(request, here)
        except TournamentError as refusal:
            error = str(refusal)
    elif action:
        error = _("Choose what to change.")
    context: dict[str, Any] = {
        "club": tournament.club,
        "tournament": tournament,
        "clubs_form": clubs_form,
        "pair_form": pair_form,
        "pairs": constraints.pair_rows(tournament, entries),
        "error": error,
        "finished": tournament.finished,
    }
    return render_page(request, "tournaments/constraints.html", context, "constraints")


def _apply(tournament: Tournament, action: str, clubs: HomeClubsForm, pair: PairForm) -> bool:
    """Save what the form asks; False when the form itself was refused."""
    if action == "clubs":
        if not clubs.is_valid():
            return False
        constraints.set_home_clubs(tournament, clubs.clubs())
        return True
    if not pair.is_valid():
        return False
    first, second = pair.cleaned_data["first"], pair.cleaned_data["second"]
    if action == "forbid":
        constraints.forbid(tournament, first, second)
    else:
        constraints.allow(tournament, first, second)
    return True
