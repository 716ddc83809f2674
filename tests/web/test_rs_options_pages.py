"""RS's two options on the table's pages: the settlement with the gora shared by the
others (docs/rules.md §3.7, ``mountain_divisor``) and a half-whist played out through
the entry form (§3.10.7, ``half_whist_played``)."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from prefscore.games.models import Deal, Pulka
from tests.web.fixtures_table import EN, HTMX, deal_form, region

pytestmark = pytest.mark.django_db

# tests/engine/examples/peers/rs-sochi-13: B's shortfall of 8 and two unplayed sixes.
RS_13 = [
    {"contract": "6S", "declarer": "A", "whists": {"B": "whist", "C": "pass"},
     "tricks": {"A": 10, "B": 0, "C": 0}},
    {"contract": "6S", "declarer": "B", "whists": {"C": "pass", "A": "pass"}},
    {"contract": "6S", "declarer": "C", "whists": {"A": "pass", "B": "pass"}},
]  # fmt: skip


@pytest.fixture
def rs_pulka(make_table_pulka) -> Pulka:
    return make_table_pulka(("A", "B", "C"), convention="rs-sochi", target=2, deals=RS_13)


def settlement(pulka: Pulka, query: str = "") -> str:
    return reverse("games:settlement", args=[pulka.pk]) + query


def results(html: str, kind: str) -> list[str]:
    return re.findall(rf'data-result="{kind}">([^<]*)<', html)


def test_rs_settles_the_gora_among_the_others_by_both_methods(rs_pulka, table_client):
    response = table_client().get(settlement(rs_pulka), headers=EN)

    html = response.content.decode()
    assert response.status_code == 200
    for kind in ("exact", "whole", "pairwise", "average"):
        assert results(html, kind) == ["40", "−80", "40"], kind
    assert "Each other player writes 10 × gora ÷ 2 whists on the gora&#x27;s owner." in html or (
        "Each other player writes 10 × gora ÷ 2 whists on the gora's owner." in html
    )
    assert "10 × 3 ÷ 2 × (average − his gora)" in html


def test_the_same_sheet_under_sochi_keeps_the_mean_mountain(make_table_pulka, table_client):
    pulka = make_table_pulka(("A", "B", "C"), target=2, deals=RS_13)

    html = table_client().get(settlement(pulka), headers=EN).content.decode()

    assert results(html, "exact") == ["26.67", "−53.33", "26.67"]
    assert "÷ 2 ×" not in html and "10 × gora ÷ 3" in html


def test_with_htmx_only_the_settlement_region_comes_and_in_russian(rs_pulka, table_client):
    response = table_client().get(settlement(rs_pulka, "?first_seat=1"), headers=HTMX)

    html = response.content.decode()
    assert response.status_code == 200
    assert "<html" not in html and html.lstrip().startswith('<div id="settlement"')
    russian = table_client().get(settlement(rs_pulka)).content.decode()
    assert "10 × 3 ÷ 2 × (средняя − его гора)" in russian


def test_the_settlement_is_refused_to_outsiders_and_a_post(rs_pulka, table_client):
    assert table_client("olaf").get(settlement(rs_pulka)).status_code == 403
    assert table_client().post(settlement(rs_pulka)).status_code == 405


# --- a half-whist played out through the entry form ---------------------------------------


def record_url(pulka: Pulka) -> str:
    return reverse("games:record", args=[pulka.pk])


def sheet_url(pulka: Pulka) -> str:
    return reverse("games:sheet", args=[pulka.pk])


HALF_PLAYED = {"word_1": "pass", "word_2": "half", "tricks_0": "9", "tricks_1": "0"}


def test_the_tricks_hint_says_a_played_half_whist_takes_them(make_table_pulka, table_client):
    def hint(pulka: Pulka) -> str:
        html = table_client().get(sheet_url(pulka), headers=EN).content.decode()
        return region(html, "entry-tricks-hint")

    played_out = "A half-whisted contract played out takes its tricks too."
    assert played_out in hint(make_table_pulka(convention="rs-sochi"))
    assert played_out not in hint(make_table_pulka())


@pytest.mark.parametrize("headers", [EN, HTMX], ids=["plain", "htmx"])
def test_a_half_whist_played_out_is_recorded(make_table_pulka, table_client, headers):
    pulka = make_table_pulka(convention="rs-sochi")

    response = table_client().post(
        record_url(pulka), deal_form(**HALF_PLAYED, tricks_2="1"), headers=headers
    )

    assert response.status_code == (200 if headers is HTMX else 302)
    assert Deal.objects.get(pulka=pulka).facts["tricks"] == {"Anna": 9, "Boris": 0, "Vera": 1}
    html = table_client().get(sheet_url(pulka), headers=EN).content.decode()
    assert "6♠/½+3" in html


def test_under_sochi_its_tricks_are_refused_beside_them(make_table_pulka, table_client):
    pulka = make_table_pulka()

    response = table_client().post(
        record_url(pulka), deal_form(**HALF_PLAYED, tricks_2="1"), headers=EN
    )

    html = response.content.decode()
    assert "is not played: leave the tricks empty" in region(html, "entry-tricks-errors")
    assert not Deal.objects.filter(pulka=pulka).exists()


def test_tricks_that_do_not_add_up_are_refused_in_russian(make_table_pulka, table_client):
    pulka = make_table_pulka(convention="rs-sochi")

    response = table_client().post(record_url(pulka), deal_form(**HALF_PLAYED, tricks_2="3"))

    errors = region(response.content.decode(), "entry-tricks-errors")
    assert "Взяток в сумме 12, а должно быть 10." in errors
    assert not Deal.objects.filter(pulka=pulka).exists()


# --- the compare page and the rules in words ------------------------------------------------


def test_the_compare_page_marks_both_options_where_rs_differs(
    conventions_client, conventions_world
):
    from tests.web.test_convention_peer_presets import cells, compare

    html = conventions_client("mila").get(compare("sochi", "rs-sochi")).content.decode()

    for key in ("mountain_divisor", "half_whist_played"):
        opening = re.search(rf'<tr role="row" data-key="{key}"[^>]*>', html)
        assert opening is not None and "is-different" in opening.group(0), key
    assert cells(html, "mountain_divisor") == [
        "every player, its owner too (the mean mountain)",
        "the other players only",
    ]


def test_rs_sochis_page_says_both_rules_in_russian(conventions_client, conventions_world):
    url = reverse("conventions:detail", args=["rs-sochi"])
    html = conventions_client("mila", language="ru").get(url).content.decode()

    assert "которые делят остальные игроки" in html
    assert "Игру при полвисте можно разыграть" in html
