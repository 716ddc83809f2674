"""The change signal of a table: the sheet's and the spectator's Server-Sent Events
streams (docs/push.md; the stream itself: ``games/streams.py``).

The stream carries only the pulka's version; the page (``static/js/push.js``) then asks
the ordinary poll for the regions. Who may listen is checked as for the poll, on
connecting and again at every change: the sheet's stream by the session that opened it
(``games/listeners.py``) and its membership of the pulka's club, the spectator's by its
link and the club's switch, each of which it also watches, so that a revoked link ends
it at once.
"""

from __future__ import annotations

from django.http import HttpResponse
from django.views.decorators.http import require_safe

from prefscore.web.htmx import HtmxHttpRequest

from .. import joining, streams
from ..listeners import Listener
from ..models import Pulka
from ..streams import Check, Reading


def member_screen(pk: int) -> streams.Screen:
    """The sheet's check: the listener is a member of the pulka's club."""

    def screen(listener: Listener) -> Check:
        def check() -> Reading | None:
            if listener.user_id is None:
                return None
            version = Pulka.objects.version_for_member(pk, listener.user_id)
            return None if version is None else Reading(version, frozenset({pk}))

        return check

    return screen


def spectator_screen(token: str) -> streams.Screen:
    """The spectator's check: the link still works and the club allows spectators."""

    def screen(listener: Listener) -> Check:
        def check() -> Reading | None:
            found = joining.spectator_table(token)
            if found is None:
                return None
            pulka_id, version = found
            return Reading(version, frozenset({pulka_id, joining.links_key(pulka_id)}))

        return check

    return screen


@require_safe
async def sheet_events(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """The sheet's stream; 403 for anyone the poll would not answer."""
    return await streams.respond(request, member_screen(pk))


@require_safe
async def watch_events(request: HtmxHttpRequest, token: str) -> HttpResponse:
    """A spectator link's stream; 403 once the link no longer works."""
    return await streams.respond(request, spectator_screen(token), anyones=True)
