"""A page's query count does not grow with the number of deals or players (docs/design.md)."""

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


# --- corrections (Кодекс 4.2.7–4.2.10): constant in the deals and in the corrections ---------

CORRECTED = [(5, 1), (100, 10)]  # deals, corrections


def corrected_pulka(make_table_pulka, table_world, deals: int, corrections: int) -> Pulka:
    """A pulka of THREE whose all-passes (every 4th deal from the 2nd) are corrected, each
    right after it was recorded, and a forgotten deal waiting for the table's consent."""
    from prefscore.clubs.models import Player
    from prefscore.games.models import Correction, ForgottenDeal

    facts = legal_deals(THREE, deals)
    pulka = make_table_pulka(THREE, deals=facts, target=1000, bulk=True)
    anna = table_world.users["anna"]
    # Anna sits at the table: her page has the Correct buttons and the banner's answers.
    Player.objects.filter(club=table_world.club, name="Anna").update(user=anna)
    for number in range(2, 2 + 4 * corrections, 4):
        tricks = facts[number - 1]["tricks"]
        shifted = dict(zip(tricks, sorted(tricks.values(), reverse=True), strict=True))
        Correction.objects.create(
            pulka=pulka,
            deal_number=number,
            after_deal=number,
            facts={"contract": "allpass", "tricks": shifted},
            kind=Correction.Kind.CORRECTION,
            asked_by=anna,
        )
    ForgottenDeal.objects.create(
        pulka=pulka, number=deals + 1, facts=legal_deals(THREE, deals + 1)[-1], proposed_by=anna
    )
    return pulka


@pytest.fixture
def corrected_pulkas(make_table_pulka, table_world) -> list[Pulka]:
    return [corrected_pulka(make_table_pulka, table_world, d, c) for d, c in CORRECTED]


def test_the_sheet_page_costs_the_same_whatever_the_deals_and_corrections(
    corrected_pulkas, table_client
):
    client = table_client()

    def measure(pulka: Pulka, headers: dict[str, str]) -> int:
        url = reverse("games:sheet", args=[pulka.pk])
        with CaptureQueriesContext(connection) as captured:
            html = client.get(url, headers=headers).content.decode()
        assert "sheet__struck" in html and 'id="forgotten"' in html and "Agree" in html
        assert reverse("games:correct", args=[pulka.pk, 1]) in html
        return len(captured)

    page = counts(corrected_pulkas, lambda p: measure(p, {"accept-language": "en"}))
    htmx = counts(corrected_pulkas, lambda p: measure(p, HTMX))

    assert len(set(page)) == 1, page
    assert len(set(htmx)) == 1, htmx


@pytest.mark.parametrize("headers", [{}, HTMX], ids=["page", "htmx"])
def test_the_correction_form_costs_the_same_whatever_the_deals_and_corrections(
    headers, corrected_pulkas, table_client
):
    client = table_client()
    measured = counts(
        corrected_pulkas,
        lambda p: queries(client, "get", reverse("games:correct", args=[p.pk, 3]), None, headers),
    )

    assert len(set(measured)) == 1, measured


def test_a_correction_costs_the_same_whatever_the_deals_and_corrections(
    corrected_pulkas, table_client
):
    from prefscore.games.models import Deal

    client = table_client()

    def correct(pulka: Pulka) -> int:
        Deal.objects.filter(pulka=pulka).update(entered_by=None)  # the pencil is down
        names = list(pulka.player_names)
        last = pulka.deals.count()
        # The last deal is a made 6 (a 100-deal pulka) or an all-pass (5 deals): correct it
        # into an all-pass with other tricks, which any deal may be.
        form = {"number": str(last), "contract": "allpass"}
        form.update({f"tricks_{s}": t for s, t in enumerate(("2", "4", "4"))})
        url = reverse("games:correct", args=[pulka.pk, last])
        with CaptureQueriesContext(connection) as captured:
            response = client.post(url, form, headers=HTMX)
        assert response.status_code == 200, response.content.decode()[:2000]
        assert names
        return len(captured)

    measured = counts(corrected_pulkas, correct)

    assert len(set(measured)) == 1, measured
