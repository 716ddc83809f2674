"""A page's query count does not grow with the number of deals or players (design.md)."""

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from prefscore.games.models import Pulka
from tests.web.fixtures_table import HTMX, legal_deals

pytestmark = pytest.mark.django_db

THREE = ("Anna", "Boris", "Vera")
FOUR = ("Anna", "Boris", "Vera", "Gleb")
SIZES = [(THREE, 5), (THREE, 100), (FOUR, 5), (FOUR, 100)]


def queries(client, method: str, url: str, data=None, headers=None) -> int:
    with CaptureQueriesContext(connection) as captured:
        response = getattr(client, method)(url, data or {}, headers=headers or {})
    assert response.status_code in (200, 302, 304), response.status_code
    return len(captured)


@pytest.fixture
def pulkas(make_table_pulka) -> list[Pulka]:
    return [
        make_table_pulka(names, deals=legal_deals(names, count), target=1000, bulk=True)
        for names, count in SIZES
    ]


def counts(pulkas, measure) -> list[int]:
    return [measure(pulka) for pulka in pulkas]


def test_the_sheet_page_costs_the_same_whatever_the_deals_and_players(pulkas, table_client):
    client = table_client()
    page = counts(pulkas, lambda p: queries(client, "get", reverse("games:sheet", args=[p.pk])))
    htmx = counts(
        pulkas, lambda p: queries(client, "get", reverse("games:sheet", args=[p.pk]), headers=HTMX)
    )

    assert len(set(page)) == 1, page
    assert len(set(htmx)) == 1, htmx


def test_the_pencil_change_form_costs_the_same_whatever_the_deals(pulkas, table_client):
    client = table_client()

    def change(pulka: Pulka) -> int:
        url = reverse("games:sheet", args=[pulka.pk]) + f"?change={pulka.deals.count()}"
        with CaptureQueriesContext(connection) as captured:
            html = client.get(url, headers=HTMX).content.decode()
        assert 'id="entry-form"' in html and 'name="action" value="change"' in html
        return len(captured)

    measured = counts(pulkas, change)

    assert len(set(measured)) == 1, measured


def test_the_poll_costs_the_same_whatever_the_deals_and_players(pulkas, table_client):
    client = table_client()

    def poll(pulka: Pulka, version: int) -> int:
        url = f"{reverse('games:poll', args=[pulka.pk])}?v={version}"
        return queries(client, "get", url, headers=HTMX)

    unchanged = counts(pulkas, lambda p: poll(p, p.version))
    changed = counts(pulkas, lambda p: poll(p, p.version - 1))

    assert unchanged == [2, 2, 2, 2]
    assert len(set(changed)) == 1, changed


def test_the_settlement_page_costs_the_same_whatever_the_deals_and_players(pulkas, table_client):
    client = table_client()
    measured = counts(
        pulkas, lambda p: queries(client, "get", reverse("games:settlement", args=[p.pk]))
    )

    assert len(set(measured)) == 1, measured


def next_deal_form(pulka: Pulka) -> dict[str, str]:
    """The form for the next legal deal of a legal_deals pulka, by seat numbers."""
    names = list(pulka.player_names)
    number = pulka.deals.count() + 1
    facts = legal_deals(names, number)[-1]
    seat = {name: str(i) for i, name in enumerate(names)}
    level = re.match(r"\d+", facts["contract"])
    form = {"number": str(number), "contract": level.group(0) if level else facts["contract"]}
    if level:
        form["suit"] = facts["contract"][level.end() :]
        form["declarer"] = seat[facts["declarer"]]
        form.update({f"word_{seat[n]}": w for n, w in facts["whists"].items()})
    form.update({f"tricks_{seat[n]}": str(t) for n, t in facts.get("tricks", {}).items()})
    return form


@pytest.mark.parametrize("headers", [{}, HTMX], ids=["page", "htmx"])
def test_recording_a_deal_costs_the_same_whatever_the_deals_and_players(
    headers, pulkas, table_client
):
    client = table_client()
    measured = counts(
        pulkas,
        lambda p: queries(
            client, "post", reverse("games:record", args=[p.pk]), next_deal_form(p), headers
        ),
    )

    assert len(set(measured)) == 1, measured
    assert all(p.deals.count() == c + 1 for p, (_, c) in zip(pulkas, SIZES, strict=True))
