"""HTML and JSON answers are gzipped; the event stream and a 304 are not (README,
"Running in production"; prefscore/web/middleware.py)."""

from __future__ import annotations

import gzip

import pytest
from asgiref.sync import async_to_sync
from django.test import AsyncClient
from django.urls import reverse

from prefscore.games import events as pulka_events
from tests.web.fixtures_table import HTMX, legal_deals

NAMES = ("Anna", "Boris", "Vera")
GZIP = {"Accept-Encoding": "gzip, deflate, br"}


@pytest.mark.django_db
def test_the_sheet_page_and_the_poll_are_gzipped_and_vary_on_the_encoding(
    make_table_pulka, table_client
):
    pulka = make_table_pulka(deals=legal_deals(NAMES, 4))
    client = table_client()

    page = client.get(reverse("games:sheet", args=[pulka.pk]), headers=GZIP)
    poll = client.get(f"{reverse('games:poll', args=[pulka.pk])}?v=0", headers={**GZIP, **HTMX})
    plain = client.get(reverse("games:sheet", args=[pulka.pk]))

    for response in (page, poll):
        assert response["Content-Encoding"] == "gzip"
        assert "Accept-Encoding" in response["Vary"]
    assert b'id="sheet"' in gzip.decompress(page.content)
    assert len(page.content) * 3 < len(plain.content)
    assert not plain.has_header("Content-Encoding")


@pytest.mark.django_db
def test_the_json_export_is_gzipped(make_table_pulka, table_client):
    pulka = make_table_pulka(deals=legal_deals(NAMES, 4))

    response = table_client().get(reverse("games:export", args=[pulka.pk]), headers=GZIP)

    assert response["Content-Encoding"] == "gzip"


@pytest.mark.django_db
def test_an_unchanged_poll_stays_empty(make_table_pulka, table_client):
    pulka = make_table_pulka()
    url = f"{reverse('games:poll', args=[pulka.pk])}?v={pulka.version}"

    response = table_client().get(url, headers={**GZIP, **HTMX})

    assert response.status_code == 304
    assert not response.has_header("Content-Encoding")


@pytest.mark.django_db(transaction=True)
def test_the_event_stream_is_not_gzipped(make_table_pulka, table_world):
    pulka = make_table_pulka()

    async def scenario() -> tuple[bool, bytes]:
        client = AsyncClient()
        await client.aforce_login(table_world.users["anna"])
        response = await client.get(reverse("games:events", args=[pulka.pk]), headers=GZIP)
        first = await anext(aiter(response.streaming_content))
        await pulka_events.hub().stop()
        return response.has_header("Content-Encoding"), first

    try:
        encoded, first = async_to_sync(scenario)()
    finally:
        pulka_events.release_connections()

    assert not encoded
    assert first.startswith(b"retry: ")
