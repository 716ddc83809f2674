"""The room screens' change signal (README, "See it at once"; docs/tournaments.md §4.11).

The dashboard, the projector and "my table now" each keep one Server-Sent Events stream
open, as a table's sheet does (``prefscore/games/views/events.py``). It says only "the
tournament's version is now V"; the page (``static/js/room-push.js``) then asks its
ordinary poll for its region, so who may see what stays in the ordinary views.

The version changes when any table of the tournament changes its own (a deal, a
correction, a closing), when a round is drawn, published, rescheduled or discarded, when
a table is closed, and when the tournament's status moves on (a cut, the finish). A
stream watches, through ``games.events``' fan-out, the tournament's own key
(``"tournament:<id>"``: announced on PostgreSQL by :func:`connect`'s signals, read by the
SQLite watcher through :func:`round_states`) and each of its tables still being played.

Who may listen is checked as for the screen the stream serves, on connecting and again at
every change; a check that fails ends the stream with ``event: gone``.
"""

from __future__ import annotations

import asyncio
import functools
import hashlib
import time
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from typing import Any

from django.core.handlers.asgi import ASGIRequest
from django.db import connection
from django.db.models.signals import post_delete, post_save
from django.http import Http404, HttpResponse, HttpResponseForbidden, StreamingHttpResponse
from django.utils.cache import add_never_cache_headers
from django.views.decorators.http import require_safe

from prefscore.clubs.permissions import MEMBERS, ORGANISERS, may
from prefscore.games import events as pulka_events
from prefscore.games.models import Pulka
from prefscore.games.views import events
from prefscore.web.htmx import HtmxHttpRequest

from .models import Round, TableClosure, Tournament

KIND = "tournament"
# Who may open each screen (room_views.py): the projector is also anyone's when public.
SCREENS = {"room": ORGANISERS, "projector": ORGANISERS, "my_table": MEMBERS}


def key(tournament_id: int) -> str:
    return f"{KIND}:{int(tournament_id)}"


def round_states(tournament_ids: list[int]) -> dict[int, object]:
    """Per tournament, a value that changes with its status, its rounds and its closed
    tables (the SQLite watcher's reader; three queries for all of them)."""
    found: dict[int, list[Any]] = {
        pk: [status, []]
        for pk, status in Tournament.objects.filter(pk__in=tournament_ids).values_list(
            "pk", "status"
        )
    }
    rounds = Round.objects.filter(tournament_id__in=tournament_ids).order_by("pk")
    fields = ("tournament_id", "pk", "status", "stage", "published_at", "starts_at", "tables")
    for tournament_id, *row in rounds.values_list(*fields):
        found.setdefault(tournament_id, [None, []])[1].append(row)
    closed = TableClosure.objects.filter(pulka__tournament_id__in=tournament_ids)
    for tournament_id, pk in closed.values_list("pulka__tournament_id", "pk").order_by("pk"):
        found.setdefault(tournament_id, [None, []]).append(pk)
    return {pk: repr(value) for pk, value in found.items()}


def _announce(sender: type, instance: Any, **kwargs: Any) -> None:
    if connection.vendor != "postgresql":
        return  # the watcher reads the round state (round_states)
    tournament_id = instance.pk if isinstance(instance, Tournament) else None
    if isinstance(instance, Round):
        tournament_id = instance.tournament_id
    elif isinstance(instance, TableClosure):
        tournament_id = (
            Pulka.objects.filter(pk=instance.pulka_id)
            .values_list("tournament_id", flat=True)
            .first()
        )
    if tournament_id is not None:
        pulka_events.announce(key(tournament_id))


def connect() -> None:
    """Announce the tournament's key wherever its round state is written (PostgreSQL's
    ``NOTIFY``, delivered at the commit), and let the SQLite watcher read it."""
    pulka_events.register(KIND, round_states)
    for model in (Tournament, Round, TableClosure):
        uid = f"tournaments.room_events.{model.__name__}"
        post_save.connect(_announce, sender=model, dispatch_uid=f"{uid}.save")
        post_delete.connect(_announce, sender=model, dispatch_uid=f"{uid}.delete")


@dataclass(frozen=True)
class RoomState:
    version: str  # changes with any table's version and the round state
    live: frozenset[int]  # the tables still being played, each watched by the stream


def room_state(tournament_id: int) -> RoomState:
    """The tournament's version now: two queries (its pulkas and its round state)."""
    pulkas = Pulka.objects.filter(tournament_id=tournament_id).order_by("pk")
    rows = list(pulkas.values_list("pk", "version", "status"))
    state = round_states([tournament_id]).get(tournament_id)
    digest = hashlib.sha256(repr((rows, state)).encode()).hexdigest()[:16]
    live = frozenset(pk for pk, _version, status in rows if status == Pulka.Status.RUNNING)
    return RoomState(digest, live)


def _tournament(club: str, slug: str) -> Tournament | None:
    found = Tournament.objects.select_related("club").filter(club__slug=club, slug=slug)
    return found.first()


def allowed(tournament: Tournament, user: Any, screen: str) -> bool:
    """The screen's own rule (room_views.py): its roles, or a public tournament's wall."""
    if screen == "projector" and tournament.public:
        return True
    return may(tournament.club.role_of(user), SCREENS[screen])


def _check(club: str, slug: str, user: Any, screen: str) -> Callable[[], RoomState | None]:
    def check() -> RoomState | None:
        tournament = _tournament(club, slug)
        if tournament is None or not allowed(tournament, user, screen):
            return None
        return room_state(tournament.pk)

    return check


async def room_changes(
    tournament_id: int, check: Callable[[], RoomState | None]
) -> AsyncIterator[bytes]:
    """The stream's body: the version now, then each new one; a heartbeat when idle."""
    checked = functools.partial(pulka_events.in_check_thread, check)
    ends = time.monotonic() + events.STREAM_SECONDS
    hub = pulka_events.hub()
    woken = asyncio.Event()
    watched: set[pulka_events.Key] = {key(tournament_id)}
    hub.add(key(tournament_id), woken)  # before the first read: no change falls between
    try:
        shown = None
        while time.monotonic() < ends:
            state = await checked()
            if state is None:
                yield events.message("gone", "")
                return
            wanted: set[pulka_events.Key] = {key(tournament_id), *state.live}
            for added in wanted - watched:
                hub.add(added, woken)
                woken.set()  # a change before it was watched: read once more
            for dropped in watched - wanted:
                hub.discard(dropped, woken)
            watched = wanted
            if state.version != shown:
                first = f"retry: {events.RETRY_MILLISECONDS}\n" if shown is None else ""
                shown = state.version
                yield first.encode() + events.message("version", shown)
            while not woken.is_set() and time.monotonic() < ends:
                try:
                    await asyncio.wait_for(woken.wait(), events.HEARTBEAT_SECONDS)
                except TimeoutError:
                    yield b": heartbeat\n\n"
            woken.clear()
    finally:
        for watched_key in watched:
            hub.discard(watched_key, woken)


async def _stream(request: HtmxHttpRequest, club: str, slug: str, screen: str) -> HttpResponse:
    def first_check() -> tuple[Tournament | None, Callable[[], RoomState | None]]:
        user = request.user
        user.is_authenticated  # noqa: B018 - the session is read here, in this thread
        return _tournament(club, slug), _check(club, slug, user, screen)

    tournament, check = await events.in_thread(request, first_check)()
    if tournament is None:
        raise Http404
    if await events.in_thread(request, check)() is None:
        return HttpResponseForbidden()
    if not isinstance(request, ASGIRequest):
        return HttpResponse(status=204)  # under WSGI: no stream, the page polls
    body = room_changes(tournament.pk, check)
    response = StreamingHttpResponse(body, content_type="text/event-stream")
    add_never_cache_headers(response)
    response["X-Accel-Buffering"] = "no"  # nginx: pass each event on at once
    return response  # type: ignore[return-value]


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
