"""The change signal: a Server-Sent Events stream per table page (README, "See it at once").

The stream carries only the pulka's version (``event: version``, ``data: N``), first on
connecting and then at each change; the page (``static/js/push.js``) then asks the
ordinary poll for the regions. Who may listen is checked as for the poll, on connecting
and again at every change: the sheet's stream by the device's ticket or its session's
membership, the spectator's by its link. A check that fails ends the stream with
``event: gone``, and the page's poll then says why (sign in, the link no longer works).

Only under ASGI (uvicorn: ``make run``, and the events path in production): an open
stream there is some 50 KiB of an event loop's memory and no thread (bench/push.py),
where under WSGI it would hold a worker. Under WSGI the answer is 204, which tells the browser's ``EventSource`` not to
connect again; the page then polls every 2 s as before.
"""

from __future__ import annotations

import asyncio
import functools
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import TypeVar

from asgiref.sync import sync_to_async
from django.contrib.auth import SESSION_KEY
from django.core.handlers.asgi import ASGIRequest
from django.http import HttpRequest, HttpResponse, HttpResponseForbidden, StreamingHttpResponse
from django.utils.cache import add_never_cache_headers
from django.views.decorators.http import require_safe

from prefscore.web.htmx import HtmxHttpRequest

from .. import events, joining
from ..models import Pulka
from .sheet import version_for_ticket

# A comment line this often keeps proxies (nginx's proxy_read_timeout is 60 s, as are most
# load balancers' idle timeouts) and NATs from closing an idle stream; the browser ignores
# it. Each costs the server about 1.5 ms of CPU (bench/push.py), hence not more often.
HEARTBEAT_SECONDS = 20
# A stream ends after this long and the browser connects again (``retry``): the check
# is then made afresh even at a table where nothing happens.
STREAM_SECONDS = 30 * 60
RETRY_MILLISECONDS = 3000

Check = Callable[[], "int | None"]
T = TypeVar("T")


def _member_check(request: HtmxHttpRequest, pk: int) -> Check:
    """The poll's own check: the ticket sealed to a live session, or else the session's
    membership of the pulka's club. Read once here (the session is loaded now)."""
    ticket = request.GET.get("t", "")
    user_id = request.session.get(SESSION_KEY)

    def check() -> int | None:
        version = version_for_ticket(request, pk)
        if version is None and not ticket and user_id is not None:
            version = Pulka.objects.version_for_member(pk, user_id)
        return version

    return check


def _spectator_check(token: str) -> Check:
    return lambda: joining.spectator_version(token)


def message(event: str, data: object) -> bytes:
    return f"event: {event}\ndata: {data}\n\n".encode()


async def changes_of(pulka_id: int, check: Check) -> AsyncIterator[bytes]:
    """The stream's body: the version now, then each new one; a heartbeat when idle."""
    checked = functools.partial(events.in_check_thread, check)
    ends = time.monotonic() + STREAM_SECONDS
    with events.hub().watching(pulka_id) as woken:
        shown = await checked()  # again, now that changes wake this stream
        if shown is None:
            yield message("gone", "")
            return
        yield f"retry: {RETRY_MILLISECONDS}\n".encode() + message("version", shown)
        while time.monotonic() < ends:
            try:
                await asyncio.wait_for(woken.wait(), HEARTBEAT_SECONDS)
            except TimeoutError:
                yield b": heartbeat\n\n"
                continue
            woken.clear()
            version = await checked()
            if version is None:
                yield message("gone", "")
                return
            if version != shown:
                shown = version
                yield message("version", version)


def in_thread(request: HttpRequest, function: Callable[..., T]) -> Callable[..., Awaitable[T]]:
    """``function`` run off the event loop: under ASGI in the checks' few threads, whose
    database connections every stream shares (a thread of the request's own would keep
    a connection per open stream); under WSGI in the request's thread, and its transaction.
    """
    if isinstance(request, ASGIRequest):
        return functools.partial(events.in_check_thread, function)
    return sync_to_async(function)


async def _stream(request: HttpRequest, pulka_id: int | None, check: Check) -> HttpResponse:
    if pulka_id is None or await in_thread(request, check)() is None:
        return HttpResponseForbidden()
    if not isinstance(request, ASGIRequest):
        return HttpResponse(status=204)  # under WSGI: no stream, the page polls
    response = StreamingHttpResponse(changes_of(pulka_id, check), content_type="text/event-stream")
    add_never_cache_headers(response)
    response["X-Accel-Buffering"] = "no"  # nginx: pass each event on at once
    return response  # type: ignore[return-value]


@require_safe
async def sheet_events(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """The sheet's stream; 403 for anyone the poll would not answer."""
    check = await in_thread(request, _member_check)(request, pk)
    return await _stream(request, pk, check)


@require_safe
async def watch_events(request: HttpRequest, token: str) -> HttpResponse:
    """A spectator link's stream; 403 once the link no longer works."""
    pulka_id = await in_thread(request, joining.spectator_pulka_id)(token)
    return await _stream(request, pulka_id, _spectator_check(token))
