"""How many event streams a process holds (games/stream_limits.py): per account and per
address a 429 with Retry-After, in all a 503, never a 500; the other phones go on
recording and hearing. Through Django's AsyncClient, as test_events.py; transactional.
"""

from __future__ import annotations

from typing import Any

import pytest
from asgiref.sync import sync_to_async
from django.test import AsyncClient
from django.urls import reverse

from prefscore.games import joining, stream_limits
from tests.web.fixtures_table import HTMX, deal_form, legal_deals
from tests.web.test_events import events_url, next_message, run, signed_in

pytestmark = pytest.mark.django_db(transaction=True)

NAMES = ("Anna", "Boris", "Vera")


def test_one_account_past_its_limit_gets_429_while_another_phone_records(
    make_table_pulka, table_world, table_client, settings
):
    pulka = make_table_pulka(deals=legal_deals(NAMES, 1))
    limit = settings.STREAMS_PER_ACCOUNT
    anna = table_client("anna")

    async def scenario() -> tuple[list[int], Any, int, str, int]:
        boris = await signed_in(table_world.users["boris"])
        held = [await boris.get(events_url(pulka)) for _ in range(limit)]
        refused = await boris.get(events_url(pulka))
        bodies = [aiter(response.streaming_content) for response in held]
        for body in bodies:
            await next_message(body)
        # Anna's phone: her own stream, and a deal recorded while Boris is refused.
        anna_stream = aiter(
            (
                await (await signed_in(table_world.users["anna"])).get(events_url(pulka))
            ).streaming_content
        )
        await next_message(anna_stream)
        posted = await sync_to_async(anna.post)(
            reverse("games:record", args=[pulka.pk]), deal_form(2), headers=HTMX
        )
        heard = await next_message(anna_stream)
        # A stream given up gives its place back: Boris connects again.
        await bodies[0].aclose()
        await sync_to_async(held[0].close)()
        again = await boris.get(events_url(pulka))
        return [r.status_code for r in held], refused, posted.status_code, heard, again.status_code

    statuses, refused, posted, heard, again = run(scenario)

    assert statuses == [200] * limit
    assert refused.status_code == 429
    assert int(refused["Retry-After"]) > 0
    assert posted == 200
    assert heard == f"event: version\ndata: {pulka.version + 1}\n\n"
    assert again == 200


def test_one_address_past_its_limit_gets_429(make_table_pulka, table_world, settings):
    settings.STREAMS_PER_ADDRESS = 3
    settings.TRUSTED_PROXY_COUNT = 1  # so that a header can say "from elsewhere"
    pulka = make_table_pulka()
    token = joining.spectator_token(joining.open_spectator_link(pulka, table_world.users["anna"]))
    url = reverse("games:watch_events", args=[token])

    async def scenario() -> list[int]:
        here = [(await AsyncClient().get(url)).status_code for _ in range(4)]
        elsewhere = await AsyncClient().get(url, headers={"X-Forwarded-For": "192.0.2.9"})
        return [*here, elsewhere.status_code]

    assert run(scenario) == [200, 200, 200, 429, 200]


def test_past_the_process_limit_the_answer_is_503(make_table_pulka, table_world, settings):
    settings.STREAMS_MAX = 2
    pulka = make_table_pulka()

    async def scenario() -> tuple[list[int], str, int]:
        users = table_world.users
        clients = [await signed_in(users[name]) for name in ("anna", "boris", "anna")]
        answers = [await client.get(events_url(pulka)) for client in clients]
        return (
            [a.status_code for a in answers],
            answers[2]["Retry-After"],
            stream_limits.open_streams(),
        )

    statuses, retry, open_now = run(scenario)

    assert statuses == [200, 200, 503]
    assert int(retry) > 0
    assert open_now == 2


def test_the_process_limit_stays_below_the_open_files(settings, monkeypatch):
    settings.STREAMS_MAX = 0
    monkeypatch.setattr(stream_limits, "file_limit", lambda: 1024)
    assert stream_limits.most_streams() == 1024 - stream_limits.RESERVED_FILES
    monkeypatch.setattr(stream_limits, "file_limit", lambda: 100)
    assert stream_limits.most_streams() == 0
    monkeypatch.setattr(stream_limits, "file_limit", lambda: None)
    assert stream_limits.most_streams() == stream_limits.MOST_STREAMS


def test_the_soft_file_limit_is_raised_as_far_as_the_hard_one_allows():
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    try:
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(256, hard), hard))
        before, after = stream_limits.raise_file_limit(wanted=min(4096, hard))  # type: ignore[misc]
        assert before == min(256, hard)
        assert after == min(4096, hard)
        assert resource.getrlimit(resource.RLIMIT_NOFILE)[0] == after
    finally:
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))


def test_a_stream_refused_under_wsgi_takes_no_place(make_table_pulka, table_client):
    pulka = make_table_pulka()

    for _ in range(20):
        assert table_client("anna").get(events_url(pulka)).status_code == 204

    assert stream_limits.open_streams() == 0
