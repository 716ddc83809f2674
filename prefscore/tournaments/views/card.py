"""A tournament's standings card, readable as its standings are: anyone's when the
standings are public, else the club's members' (docs/design.md, "Sharing a result").
Each card is drawn once per figure, language and reader (``prefscore.cards.store``)."""

from __future__ import annotations

from django.http import HttpResponse
from django.views.decorators.http import require_safe

from prefscore.clubs.models import Player
from prefscore.games.views.sharing import card_response
from prefscore.web.htmx import HtmxHttpRequest

from .. import services
from ..models import Tournament
from ..presenters.card import standings_card
from ..presenters.tournament import standings_table
from .tournament import _readable


def reader_name(request: HtmxHttpRequest, tournament: Tournament) -> str | None:
    """The name of the reader's player in the tournament's club, if he has one."""
    if not request.user.is_authenticated:
        return None
    names = Player.objects.filter(club=tournament.club, user=request.user).values_list(
        "name", flat=True
    )
    return names.first()


@require_safe
def standings_card_png(request: HtmxHttpRequest, club: str, slug: str) -> HttpResponse:
    found = _readable(request, club, slug)
    if isinstance(found, HttpResponse):
        return found
    tournament, _role = found
    table = standings_table(tournament, services.standings(tournament))
    card = standings_card(tournament, table, reader_name(request, tournament))
    return card_response(request, card, public=tournament.public)
