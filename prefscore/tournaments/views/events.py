"""The room screens' event streams (docs/tournaments.md §4.11): the dashboard, the
projector and "my table now" each keep one open, through the one stream of
``prefscore/games/streams.py``, with the screen's own check.

What moves a stream is the tournament's version (``tournaments/events.py``); who may
listen is checked as for the screen the stream serves (``views/room.py``), on connecting
and again at every change, after the session that opened it still holds
(``games/listeners.py``); a check that fails ends the stream with ``event: gone``.
"""

from __future__ import annotations

from django.http import Http404, HttpResponse
from django.views.decorators.http import require_safe

from prefscore.clubs.models import Membership
from prefscore.clubs.permissions import MEMBERS, ORGANISERS, may
from prefscore.games import streams
from prefscore.games.listeners import Listener
from prefscore.web.htmx import HtmxHttpRequest

from ..events import key, room_state
from ..models import Tournament

# Who may open each screen (views/room.py): the projector is also anyone's when public.
SCREENS = {"room": ORGANISERS, "projector": ORGANISERS, "my_table": MEMBERS}


def _tournament(club: str, slug: str) -> Tournament | None:
    found = Tournament.objects.select_related("club").filter(club__slug=club, slug=slug)
    return found.first()


def allowed(tournament: Tournament, listener: Listener, screen: str) -> bool:
    """The screen's own rule (views/room.py): its roles, or a public tournament's wall."""
    if screen == "projector" and tournament.public:
        return True
    if listener.user_id is None:
        return False
    roles = Membership.objects.filter(club_id=tournament.club_id, user_id=listener.user_id)
    return may(roles.order_by("pk").values_list("role", flat=True).first(), SCREENS[screen])


def room_screen(club: str, slug: str, screen: str) -> streams.Screen:
    """The screen's check for a listener: the tournament's version and the keys that move
    it (its own and each table still being played), while he may see the screen."""

    def for_listener(listener: Listener) -> streams.Check:
        def check() -> streams.Reading | None:
            tournament = _tournament(club, slug)
            if tournament is None or not allowed(tournament, listener, screen):
                return None
            state = room_state(tournament.pk)
            return streams.Reading(state.version, frozenset({key(tournament.pk), *state.live}))

        return check

    return for_listener


async def _stream(request: HtmxHttpRequest, club: str, slug: str, screen: str) -> HttpResponse:
    found = await streams.in_thread(request, _tournament)(club, slug)
    if found is None:
        raise Http404
    return await streams.respond(request, room_screen(club, slug, screen))


@require_safe
async def room_events(request: HtmxHttpRequest, club: str, slug: str) -> HttpResponse:
    """The dashboard's stream: the organisers'."""
    return await _stream(request, club, slug, "room")


@require_safe
async def projector_events(request: HtmxHttpRequest, club: str, slug: str) -> HttpResponse:
    """The projector's stream: anyone's when the tournament is public."""
    return await _stream(request, club, slug, "projector")


@require_safe
async def my_table_events(request: HtmxHttpRequest, club: str, slug: str) -> HttpResponse:
    """ "My table now"'s stream: the club's members'."""
    return await _stream(request, club, slug, "my_table")
