"""The change signal (games:events, games:watch_events): Server-Sent Events under ASGI.

Driven through Django's AsyncClient, whose requests are ASGI requests as uvicorn's are;
the SQLite watcher (``games.events``) runs in the test's event loop. Transactional: the
stream reads the database from other threads.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

import pytest
from asgiref.sync import async_to_sync, sync_to_async
from django.db import connection
from django.test import AsyncClient, Client
from django.urls import reverse

from prefscore.clubs.models import Membership
from prefscore.games import events as pulka_events
from prefscore.games import joining, poll_tickets
from prefscore.games.models import Pulka
from prefscore.games.services import record_deal
from prefscore.games.views import events
from tests.web.fixtures_table import HTMX, legal_deals

pytestmark = pytest.mark.django_db(transaction=True)

NAMES = ("Anna", "Boris", "Vera")
WAIT = 5.0  # seconds: a bound on a wait that normally takes a fraction of a second


def events_url(pulka: Pulka) -> str:
    return reverse("games:events", args=[pulka.pk])


async def signed_in(user: Any) -> AsyncClient:
    client = AsyncClient()
    await client.aforce_login(user)
    return client


async def next_message(body: AsyncIterator[bytes]) -> str:
    """The next message that is not a heartbeat."""
    while True:
        chunk = (await asyncio.wait_for(anext(body), WAIT)).decode()
        if not chunk.startswith(":"):
            return chunk


def run(coroutine_function: Any) -> Any:
    """The scenario in an event loop; then the change feed stopped and the checks'
    connections closed, as the test database is dropped after the test."""

    async def scenario() -> Any:
        try:
            return await coroutine_function()
        finally:
            await pulka_events.hub().stop()

    try:
        return async_to_sync(scenario)()
    finally:
        pulka_events.release_connections()


def test_the_stream_says_the_version_now_and_then_each_new_one(make_table_pulka, table_world):
    pulka = make_table_pulka(deals=legal_deals(NAMES, 1))
    second = legal_deals(NAMES, 2)[1]

    async def scenario() -> list[str]:
        client = await signed_in(table_world.users["boris"])
        response = await client.get(events_url(pulka))
        assert response.status_code == 200
        assert response["Content-Type"] == "text/event-stream"
        assert "no-cache" in response["Cache-Control"]
        assert response["X-Accel-Buffering"] == "no"
        body = aiter(response.streaming_content)
        first = await next_message(body)
        await sync_to_async(record_deal)(pulka.pk, second, table_world.users["anna"], 2)
        after = await next_message(body)
        return [first, after]

    first, after = run(scenario)

    assert first == f"retry: 3000\nevent: version\ndata: {pulka.version}\n\n"
    assert after == f"event: version\ndata: {pulka.version + 1}\n\n"


def test_the_stream_with_the_pages_ticket_needs_its_session(make_table_pulka, table_world):
    pulka = make_table_pulka(deals=legal_deals(NAMES, 1))

    async def scenario() -> tuple[int, int]:
        client = await signed_in(table_world.users["anna"])
        session_key = client.cookies["sessionid"].value
        user = table_world.users["anna"]
        ticket = poll_tickets.issue(pulka, user.pk, session_key, user.password)
        good = await client.get(events_url(pulka), {"t": ticket})
        stranger = AsyncClient()  # the same ticket without the session cookie
        bad = await stranger.get(events_url(pulka), {"t": ticket})
        return good.status_code, bad.status_code

    assert run(scenario) == (200, 403)


def test_the_stream_refuses_whom_the_poll_refuses(make_table_pulka, table_world):
    pulka = make_table_pulka()

    async def scenario() -> list[int]:
        outsider = await signed_in(table_world.users["olaf"])
        return [
            (await AsyncClient().get(events_url(pulka))).status_code,
            (await outsider.get(events_url(pulka))).status_code,
            (await outsider.get(reverse("games:events", args=[999999]))).status_code,
        ]

    assert run(scenario) == [403, 403, 403]


def test_the_stream_answers_405_to_a_post(make_table_pulka, table_world):
    pulka = make_table_pulka()

    async def scenario() -> int:
        client = await signed_in(table_world.users["anna"])
        return (await client.post(events_url(pulka))).status_code

    assert run(scenario) == 405


def test_a_member_removed_hears_gone_at_the_next_change(make_table_pulka, table_world):
    pulka = make_table_pulka(deals=legal_deals(NAMES, 1))
    boris = table_world.users["boris"]

    async def scenario() -> str:
        client = await signed_in(boris)
        response = await client.get(events_url(pulka))
        body = aiter(response.streaming_content)
        await next_message(body)
        await sync_to_async(Membership.objects.filter(user=boris).delete)()
        deal = legal_deals(NAMES, 2)[1]
        await sync_to_async(record_deal)(pulka.pk, deal, table_world.users["anna"], 2)
        return await next_message(body)

    assert run(scenario) == "event: gone\ndata: \n\n"


def test_an_idle_stream_sends_heartbeats(make_table_pulka, table_world, monkeypatch):
    pulka = make_table_pulka()
    monkeypatch.setattr(events, "HEARTBEAT_SECONDS", 0.05)

    async def scenario() -> str:
        client = await signed_in(table_world.users["anna"])
        response = await client.get(events_url(pulka))
        body = aiter(response.streaming_content)
        await next_message(body)
        return (await asyncio.wait_for(anext(body), WAIT)).decode()

    assert run(scenario) == ": heartbeat\n\n"


def test_a_spectator_link_has_its_stream_until_it_is_revoked(make_table_pulka, table_world):
    pulka = make_table_pulka(deals=legal_deals(NAMES, 1))
    anna = table_world.users["anna"]
    token = joining.spectator_token(joining.open_spectator_link(pulka, anna))
    url = reverse("games:watch_events", args=[token])

    async def scenario() -> tuple[str, str, int]:
        response = await AsyncClient().get(url)
        body = aiter(response.streaming_content)
        first = await next_message(body)
        await sync_to_async(joining.revoke_spectator_link)(pulka, anna)
        deal = legal_deals(NAMES, 2)[1]
        await sync_to_async(record_deal)(pulka.pk, deal, anna, 2)
        gone = await next_message(body)
        again = await AsyncClient().get(url)
        return first, gone, again.status_code

    first, gone, status = run(scenario)

    assert first.endswith(f"event: version\ndata: {pulka.version}\n\n")
    assert gone == "event: gone\ndata: \n\n"
    assert status == 403


def test_under_wsgi_the_answer_is_204_and_the_page_polls(make_table_pulka, table_client):
    pulka = make_table_pulka()

    response = table_client().get(events_url(pulka), headers=HTMX)

    assert response.status_code == 204


def test_the_watcher_wakes_the_streams_of_a_changed_pulka_only():
    versions = {1: 5, 2: 7}

    async def scenario() -> tuple[bool, bool, int]:
        hub = pulka_events.ChangeHub()
        hub.feed = asyncio.get_running_loop().create_task(asyncio.sleep(0))  # no real feed
        with hub.watching(1) as one, hub.watching(2) as two:
            task = asyncio.create_task(pulka_events.watch(hub, lambda ids: dict(versions)))
            await asyncio.sleep(pulka_events.WATCH_SECONDS / 2)
            one.clear(), two.clear()  # the first read wakes both: they may have changed
            versions[1] = 6
            await asyncio.sleep(pulka_events.WATCH_SECONDS * 2)
            woken = one.is_set(), two.is_set()
            streams = hub.streams()
        await asyncio.wait_for(task, WAIT)  # ends with no stream left
        return (*woken, streams)

    assert run(scenario) == (True, False, 2)


def test_announcing_a_change_notifies_on_postgresql_only(
    make_table_pulka, django_assert_num_queries
):
    pulka = make_table_pulka()
    postgresql = connection.vendor == "postgresql"

    with django_assert_num_queries(1 if postgresql else 0) as seen:
        pulka_events.announce(pulka.pk)

    if postgresql:
        assert "pg_notify" in seen.captured_queries[0]["sql"]


def test_the_poll_element_listens_for_the_change_signal(make_table_pulka, table_client):
    pulka = make_table_pulka()

    html = table_client().get(reverse("games:sheet", args=[pulka.pk])).content.decode()

    assert 'hx-trigger="every 2s, prefscore:changed"' in html
    assert "js/push.js" in html
    # push.js keeps its stream through stream.js, which must run first (both deferred).
    assert html.index("js/stream.js") < html.index("js/push.js")
    assert Client().get(events_url(pulka)).status_code == 403  # checked under WSGI too


def test_the_asgi_entry_knows_the_event_streams_paths(make_table_pulka, table_world):
    from prefscore.asgi import EVENT_STREAMS

    pulka = make_table_pulka()
    link = joining.open_spectator_link(pulka, table_world.users["anna"])
    token = joining.spectator_token(link)

    assert EVENT_STREAMS.match(events_url(pulka))
    assert EVENT_STREAMS.match(reverse("games:watch_events", args=[token]))
    assert not EVENT_STREAMS.match(reverse("games:poll", args=[pulka.pk]))
    assert not EVENT_STREAMS.match(reverse("games:sheet", args=[pulka.pk]))


def test_a_page_that_goes_away_leaves_no_stream_behind(make_table_pulka, table_world):
    """Through the ASGI entry itself: the browser disconnects after the first event."""
    from prefscore.asgi import application

    pulka = make_table_pulka()
    client = Client()
    client.force_login(table_world.users["anna"])
    session = client.cookies["sessionid"].value

    async def scenario() -> tuple[int, int, int]:
        gone = asyncio.Event()
        sent: list[dict[str, Any]] = []
        asked: list[bool] = []

        async def receive() -> dict[str, Any]:
            if not asked:  # the request's (empty) body, then nothing until it goes
                asked.append(True)
                return {"type": "http.request", "body": b"", "more_body": False}
            await gone.wait()
            return {"type": "http.disconnect"}

        async def send(message: dict[str, Any]) -> None:
            sent.append(message)
            if message.get("body", b"").startswith(b"retry:"):
                streams.append(pulka_events.hub().streams())
                gone.set()

        streams: list[int] = []
        scope = {
            "type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1",
            "method": "GET", "scheme": "http", "path": events_url(pulka), "raw_path": b"",
            "query_string": b"", "root_path": "",
            "headers": [(b"host", b"testserver"), (b"cookie", f"sessionid={session}".encode())],
            "client": ("127.0.0.1", 50000), "server": ("testserver", 80),
        }  # fmt: skip
        await asyncio.wait_for(application(scope, receive, send), WAIT)
        return sent[0]["status"], streams[0], pulka_events.hub().streams()

    status, while_open, after = run(scenario)

    assert (status, while_open, after) == (200, 1, 0)
