"""One Server-Sent Events stream of a screen's version, for every screen that listens
(docs/push.md): the table's sheet and the spectator's page
(``views/events.py``), and the tournament room's dashboard, projector and "my table now"
(``tournaments/views/events.py``). Each gives :func:`respond` its own check; this module
keeps the stream itself, who holds it (``listeners.py``) and how many are open.

A screen's check reads what its page would show, as its poll would: a :class:`Reading`
(the version the page is told, and the keys whose change may move it: a pulka's id, or a
``"<kind>:<id>"`` of ``games.events``), or None when the listener may no longer see it.
The stream sends the version on connecting (``event: version``) and again whenever a
watched key changes and the check reads a new one; a check that fails ends the stream
with ``event: gone``, and the page's poll then says why. The check runs on connecting and
at every change, after the listener's own (his session, his account: ``listeners.py``),
whose keys the stream watches too, so that signing out or losing the right ends it at
once.

Only under ASGI (uvicorn: ``make run``, and the events path in production): an open
stream there is a few dozen KiB of an event loop's memory and no thread (bench/push.py),
where under WSGI it would hold a worker. Under WSGI the answer is 204, which tells the
browser's ``EventSource`` not to connect again; the page then polls every 2 s as before.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from typing import TypeVar

from asgiref.sync import sync_to_async
from django.core.handlers.asgi import ASGIRequest
from django.db import DatabaseError
from django.http import HttpRequest, HttpResponse, HttpResponseForbidden, StreamingHttpResponse
from django.utils.cache import add_never_cache_headers

from . import events, listeners, stream_limits
from .listeners import Listener

# A comment line this often keeps proxies (nginx's proxy_read_timeout is 60 s, as are most
# load balancers' idle timeouts) and NATs from closing an idle stream; the browser ignores
# it. Each costs the server about 1.5 ms of CPU (bench/push.py), hence not more often.
HEARTBEAT_SECONDS = 20
# A stream ends after this long and the browser connects again (``retry``): everything is
# then checked afresh, even at a table where nothing happens.
STREAM_SECONDS = 30 * 60
RETRY_MILLISECONDS = 3000

T = TypeVar("T")
logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class Reading:
    """What a screen's check read: the version its page is told (sent as text), and the
    keys whose change may move it."""

    version: object
    keys: frozenset[events.Key]


Check = Callable[[], "Reading | None"]
# A screen's check for one listener, made once on connecting (it reads nothing itself).
Screen = Callable[[Listener], Check]


def message(event: str, data: object) -> bytes:
    return f"event: {event}\ndata: {data}\n\n".encode()


def in_thread(request: HttpRequest, function: Callable[..., T]) -> Callable[..., Awaitable[T]]:
    """``function`` run off the event loop: under ASGI in the checks' few threads, whose
    database connections every stream shares (a thread of the request's own would keep
    a connection per open stream); under WSGI in the request's thread, and its transaction.
    """
    if isinstance(request, ASGIRequest):
        return functools.partial(events.in_check_thread, function)
    return sync_to_async(function)


def held(listener: Listener, check: Check) -> Check:
    """``check`` while the listener still holds his session and account; his own keys
    watched beside the screen's."""

    def both() -> Reading | None:
        if not listeners.holds(listener):
            return None
        reading = check()
        if reading is None:
            return None
        return Reading(reading.version, reading.keys | listeners.keys(listener))

    return both


async def respond(request: HttpRequest, screen: Screen, *, anyones: bool = False) -> HttpResponse:
    """The stream of ``screen`` for this request: 403 if its check fails now, 204 under
    WSGI, 429 or 503 at a limit of open streams (``stream_limits``). ``anyones``: a
    screen that asks nobody's account (a spectator link), whose stream no session holds.

    A database that cannot be reached, or a process out of files (a flood of
    connections), is a 503 with ``Retry-After`` too, written without a template: the page
    polls meanwhile, and the error page would need files of its own.
    """
    try:
        return await _respond(request, screen, anyones)
    except (DatabaseError, OSError) as error:
        logger.warning("an event stream refused for now: %s", error)
        return stream_limits.refused(503)


async def _respond(request: HttpRequest, screen: Screen, anyones: bool) -> HttpResponse:
    if anyones:
        listener = listeners.anyone(request)
    else:
        listener = await in_thread(request, listeners.listener_of)(request)
    check = held(listener, screen(listener))
    first = await in_thread(request, check)()
    if first is None:
        return HttpResponseForbidden(content_type="text/plain")
    if not isinstance(request, ASGIRequest):
        return HttpResponse(status=204)  # under WSGI: no stream, the page polls
    admitted = stream_limits.admit(listener.user_id, listener.address)
    if isinstance(admitted, HttpResponse):
        return admitted
    response = EventStream(changes(check, first, admitted), admitted)
    add_never_cache_headers(response)
    response["X-Accel-Buffering"] = "no"  # nginx: pass each event on at once
    return response  # type: ignore[return-value]


class EventStream(StreamingHttpResponse):
    """A stream's answer, which gives its place back when the server closes it: whether
    its body ran to its end or never started (the browser went at once)."""

    def __init__(self, body: AsyncIterator[bytes], place: stream_limits.Place) -> None:
        super().__init__(body, content_type="text/event-stream")
        self.place = place

    def close(self) -> None:
        try:
            super().close()
        finally:
            self.place.release()


async def changes(
    check: Check, first: Reading, place: stream_limits.Place | None = None
) -> AsyncIterator[bytes]:
    """The stream's body: the version now, then each new one; a heartbeat when idle.

    The keys of the first reading are watched before the check is made again, so that no
    change falls between; a key that a later reading adds is read once more at once. A
    check that cannot be made (the database gone, no file left) ends the stream without
    a word: the browser connects again after the retry time, and its page polls.
    """
    ends = time.monotonic() + STREAM_SECONDS
    hub = events.hub()
    woken = asyncio.Event()
    watched: set[events.Key] = set(first.keys)
    for key in watched:
        hub.add(key, woken)
    shown: object = None
    sent = time.monotonic()
    try:
        reading = await _checked(check)  # again, now that changes wake this stream
        while reading is not None and not hub.closing:
            for added in reading.keys - watched:
                hub.add(added, woken)
                woken.set()  # a change before it was watched: read once more
            for dropped in watched - reading.keys:
                hub.discard(dropped, woken)
            watched = set(reading.keys)
            if shown is None or reading.version != shown:
                first_line = f"retry: {RETRY_MILLISECONDS}\n" if shown is None else ""
                shown = reading.version
                yield first_line.encode() + message("version", shown)
                sent = time.monotonic()
            while not woken.is_set():
                now = time.monotonic()
                if now >= ends:
                    return
                # Counted from the last byte sent, not the last wake: a stream woken
                # often with nothing new (its listener's session touched) would else
                # go silent past a proxy's read timeout.
                quiet = HEARTBEAT_SECONDS - (now - sent)
                if quiet <= 0:
                    yield b": heartbeat\n\n"
                    sent = time.monotonic()
                    continue
                # asyncio.timeout, not wait_for: Python 3.11's wait_for swallows a
                # cancellation (the browser gone) that comes in the tick of a wake.
                with contextlib.suppress(TimeoutError):
                    async with asyncio.timeout(min(quiet, ends - now)):
                        await woken.wait()
            woken.clear()
            if hub.closing:  # the server stops (ChangeHub.close): ended as at its time
                return
            reading = await _checked(check)
        if reading is None:
            yield message("gone", "")
    except Unchecked:
        return
    finally:
        for key in watched:
            hub.discard(key, woken)
        if place is not None:
            place.release()


class Unchecked(Exception):
    """The check could not be made now."""


async def _checked(check: Check) -> Reading | None:
    try:
        return await events.in_check_thread(check)
    except (DatabaseError, OSError) as error:
        logger.warning("an event stream ended, its check failed: %s", error)
        raise Unchecked from error
