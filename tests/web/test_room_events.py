"""The room screens' change signal (tournaments:room_events, projector_events,
my_table_events): Server-Sent Events under ASGI, as the tables' (test_events.py).

Driven through Django's AsyncClient; the SQLite watcher runs in the test's event loop.
Transactional: the stream reads the database from other threads.
"""

from __future__ import annotations

from typing import Any

import pytest
from asgiref.sync import sync_to_async
from django.test import AsyncClient
from django.utils import timezone

from prefscore.clubs.models import Membership, Role
from prefscore.games import streams
from prefscore.games.models import Pulka
from prefscore.games.services import record_deal
from prefscore.tournaments import events
from prefscore.tournaments.models import Round, Tournament
from tests.web.fixtures_tournaments import client_as, draw, table_deals, url
from tests.web.test_events import next_message, run, signed_in

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def drawn(tournament_world: Any, cup: Tournament) -> Tournament:
    """The (private) cup with round 1 drawn and published: three tables of three."""
    assert draw(tournament_world, cup).status_code == 302
    return cup


def first_table(tournament: Tournament) -> Pulka:
    return Pulka.objects.filter(tournament=tournament).order_by("pk").first()  # type: ignore[return-value]


async def client_for(world: Any, role: str) -> AsyncClient:
    return AsyncClient() if role == "anonymous" else await signed_in(world.users[role])


def test_a_deal_at_a_table_of_the_tournament_sends_a_new_version(tournament_world, drawn):
    table = first_table(drawn)
    deal = table_deals(table)[0]

    async def scenario() -> tuple[Any, str, str]:
        client = await signed_in(tournament_world.users["organiser"])
        response = await client.get(url("room_events", drawn))
        body = aiter(response.streaming_content)
        first = await next_message(body)
        await sync_to_async(record_deal)(table.pk, deal, tournament_world.users["organiser"], 1)
        return response, first, await next_message(body)

    response, first, after = run(scenario)

    assert response.status_code == 200
    assert response["Content-Type"] == "text/event-stream"
    assert "no-cache" in response["Cache-Control"]
    assert response["X-Accel-Buffering"] == "no"
    assert first.startswith("retry: 3000\n")
    before = events.room_state(drawn.pk)  # the version after the deal
    assert first.split("data: ")[1] != after.split("data: ")[1]
    assert after == f"event: version\ndata: {before.version}\n\n"


def test_a_rounds_new_schedule_sends_a_new_version(tournament_world, drawn):
    """The round state, which no table's version shows (here: its scheduled start)."""

    async def scenario() -> tuple[str, str]:
        client = await signed_in(tournament_world.users["organiser"])
        response = await client.get(url("projector_events", drawn))
        body = aiter(response.streaming_content)
        first = await next_message(body)
        found = await Round.objects.aget(tournament=drawn, number=1)
        found.starts_at = timezone.now()
        await sync_to_async(found.save)()
        return first, await next_message(body)

    first, after = run(scenario)

    assert after.startswith("event: version\ndata: ")
    assert after.split("data: ")[1] != first.split("data: ")[1]


@pytest.mark.parametrize(
    ("name", "role", "public", "expected"),
    [
        ("room_events", "organiser", False, 200),
        ("room_events", "admin", False, 200),
        ("room_events", "member", False, 403),
        ("room_events", "outsider", False, 403),
        ("room_events", "anonymous", True, 403),
        ("projector_events", "anonymous", True, 200),
        ("projector_events", "outsider", True, 200),
        ("projector_events", "anonymous", False, 403),
        ("projector_events", "member", False, 403),
        ("projector_events", "organiser", False, 200),
        ("my_table_events", "member", False, 200),
        ("my_table_events", "outsider", False, 403),
        ("my_table_events", "anonymous", False, 403),
    ],
)
def test_each_stream_lets_in_whom_its_screen_does(
    tournament_world, drawn, name, role, public, expected
):
    Tournament.objects.filter(pk=drawn.pk).update(public=public)

    async def scenario() -> int:
        client = await client_for(tournament_world, role)
        return (await client.get(url(name, drawn))).status_code

    assert run(scenario) == expected


def test_an_unknown_tournaments_stream_is_not_found(tournament_world, drawn):
    async def scenario() -> int:
        client = await signed_in(tournament_world.users["organiser"])
        found = await client.get(f"/tournaments/{drawn.club.slug}/no-such-cup/room/events/")
        return found.status_code

    assert run(scenario) == 404


@pytest.mark.parametrize("name", ["room_events", "projector_events", "my_table_events"])
def test_the_streams_answer_405_to_a_post(tournament_world, drawn, name):
    async def scenario() -> int:
        client = await signed_in(tournament_world.users["organiser"])
        return (await client.post(url(name, drawn))).status_code

    assert run(scenario) == 405


def test_an_organiser_made_a_member_hears_gone_at_the_next_change(tournament_world, drawn):
    organiser = tournament_world.users["organiser"]
    table = first_table(drawn)
    deal = table_deals(table)[0]

    async def scenario() -> str:
        client = await signed_in(organiser)
        response = await client.get(url("room_events", drawn))
        body = aiter(response.streaming_content)
        await next_message(body)
        await Membership.objects.filter(user=organiser).aupdate(role=Role.MEMBER)
        await sync_to_async(record_deal)(table.pk, deal, organiser, 1)
        return await next_message(body)

    assert run(scenario) == "event: gone\ndata: \n\n"


def test_under_wsgi_the_answer_is_204_and_the_screen_polls(tournament_world, drawn):
    client = client_as(tournament_world, "organiser")

    assert client.get(url("room_events", drawn)).status_code == 204
    assert client_as(tournament_world, "member").get(url("room_events", drawn)).status_code == 403


@pytest.mark.parametrize(
    ("screen", "role", "events"),
    [
        ("room", "organiser", "room_events"),
        ("projector", "organiser", "projector_events"),
        ("my_table", "member", "my_table_events"),
    ],
)
def test_each_screen_listens_to_its_stream(tournament_world, drawn, screen, role, events):
    html = client_as(tournament_world, role).get(url(screen, drawn)).content.decode()

    assert f'data-events="{url(events, drawn)}"' in html
    assert "s, prefscore:changed" in html
    assert "js/room-push.js" in html
    # room-push.js keeps its stream through stream.js, which must run first (both deferred).
    assert html.index("js/stream.js") < html.index("js/room-push.js")


def test_the_projector_shows_its_current_page_again_on_a_change(tournament_world, drawn):
    html = client_as(tournament_world, "organiser").get(url("projector", drawn)).content.decode()

    assert f'data-changed-get="{url("projector", drawn)}?page=0"' in html


def test_the_asgi_entry_knows_the_room_streams_paths(tournament_world, drawn):
    from prefscore.asgi import EVENT_STREAMS

    for name in ("room_events", "projector_events", "my_table_events"):
        assert EVENT_STREAMS.match(url(name, drawn))
    for name in ("room", "projector", "my_table"):
        assert not EVENT_STREAMS.match(url(name, drawn))


def test_an_idle_stream_sends_heartbeats_and_ends_in_time(tournament_world, drawn, monkeypatch):
    """The browser then connects again, and the check is made afresh."""
    monkeypatch.setattr(streams, "HEARTBEAT_SECONDS", 0.05)
    monkeypatch.setattr(streams, "STREAM_SECONDS", 0.5)

    async def scenario() -> list[str]:
        client = await signed_in(tournament_world.users["organiser"])
        response = await client.get(url("room_events", drawn))
        return [chunk.decode() async for chunk in response.streaming_content]

    chunks = run(scenario)

    assert chunks[0].startswith("retry: 3000\nevent: version\n")
    assert chunks[1:] and set(chunks[1:]) == {": heartbeat\n\n"}
