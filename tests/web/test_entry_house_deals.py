"""Recording the deals with facts of their own through the entry form (games:record).

docs/rules.md §3.10: the form offers the dealer's word and the "special deal" boxes only
where the table's convention allows them; the engine refuses the rest, with its message
beside the field, and nothing is saved.
"""

from __future__ import annotations

import pytest
from django.urls import reverse

from prefscore.games.models import Deal, Pulka
from tests.web.fixtures_table import EN, HTMX, deal_form, region

pytestmark = pytest.mark.django_db

FOUR = ("Anna", "Boris", "Vera", "Gleb")
GCHET = {
    "whist_scale": 2,
    "gora_scale": 2,
    "concede_levels": [6, 7],
    "dealer_whist": "liable",
    "talon_shown_penalty": "whists",
    "totus_bonus": 5,
}


def record_url(pulka: Pulka) -> str:
    return reverse("games:record", args=[pulka.pk])


def sheet_url(pulka: Pulka) -> str:
    return reverse("games:sheet", args=[pulka.pk])


def test_the_form_offers_nothing_new_under_a_preset(make_table_pulka, table_client):
    pulka = make_table_pulka(FOUR, first_dealer=3)

    html = table_client().get(sheet_url(pulka), headers=EN).content.decode()

    assert "Special deal" not in html
    assert 'name="word_3"' not in html  # Gleb deals and has no word


def test_the_form_offers_what_the_convention_allows(make_table_pulka, table_client):
    pulka = make_table_pulka(FOUR, options=GCHET, first_dealer=3)

    html = region(table_client().get(sheet_url(pulka), headers=EN).content.decode(), "entry")

    assert "Special deal" in html
    for name in ("conceded", "totus", "talon_shown"):
        assert f'name="{name}"' in html
    assert "Gleb (dealer)" in html and 'name="word_3"' in html


@pytest.mark.parametrize("headers", [EN, HTMX], ids=["plain", "htmx"])
def test_a_concession_with_a_shown_talon_is_recorded(make_table_pulka, table_client, headers):
    pulka = make_table_pulka(FOUR, options=GCHET, first_dealer=3)
    form = deal_form(
        contract="7",
        word_1="",
        word_2="",
        tricks_0="",
        tricks_1="",
        tricks_2="",
        conceded="on",
        talon_shown="on",
    )

    response = table_client().post(record_url(pulka), form, headers=headers)

    assert response.status_code == (200 if headers is HTMX else 302)
    assert Deal.objects.get(pulka=pulka).facts == {
        "contract": "7S",
        "declarer": "Anna",
        "conceded": True,
        "talon_shown": True,
    }
    html = table_client().get(sheet_url(pulka), headers=EN).content.decode()
    assert "7♠/conceded" in html and "7♠/уход" not in html  # presenters/numbers.py
    assert "Anna: 24 into the gora for conceding without three" in html
    assert "Anna → Gleb: 16 whists, the talon was shown" in html


@pytest.mark.parametrize("headers", [EN, HTMX], ids=["plain", "htmx"])
def test_the_dealer_whists_through_the_form(make_table_pulka, table_client, headers):
    pulka = make_table_pulka(FOUR, options=GCHET, first_dealer=3)
    form = deal_form(
        word_1="pass", word_2="pass", word_3="whist", tricks_0="5", tricks_1="5", tricks_2="0"
    )

    response = table_client().post(record_url(pulka), form, headers=headers)

    assert response.status_code == (200 if headers is HTMX else 302)
    facts = Deal.objects.get(pulka=pulka).facts
    assert facts["whists"] == {"Boris": "pass", "Vera": "pass", "Gleb": "whist"}
    html = table_client().get(sheet_url(pulka), headers=EN).content.decode()
    assert "Gleb → Anna: 20 whists for the defence&#x27;s tricks" in html or (
        "Gleb → Anna: 20 whists for the defence's tricks" in html
    )


@pytest.mark.parametrize("headers", [EN, HTMX], ids=["plain", "htmx"])
def test_a_fact_the_convention_does_not_allow_is_refused_beside_its_area(
    make_table_pulka, table_client, headers
):
    pulka = make_table_pulka(FOUR, first_dealer=3)  # Sochi: no concession

    response = table_client().post(
        record_url(pulka),
        deal_form(word_1="", word_2="", tricks_0="", tricks_1="", tricks_2="", conceded="on"),
        headers=headers,
    )

    html = response.content.decode()
    assert response.status_code in (200, 422)
    assert "does not allow conceding this contract without three" in html
    assert not Deal.objects.filter(pulka=pulka).exists()


def test_the_refusal_is_in_russian_for_a_russian_reader(make_table_pulka, table_client):
    pulka = make_table_pulka(FOUR, options={"concede_levels": [6]}, first_dealer=3)
    form = deal_form(
        contract="8", word_1="", word_2="", tricks_0="", tricks_1="", tricks_2="", conceded="on"
    )

    response = table_client().post(record_url(pulka), form, headers={"accept-language": "ru"})

    html = response.content.decode()
    assert "уйти без трёх нельзя" in html
    assert "entry-special-errors" in html
    assert "уйти без трёх нельзя" in region(html, "entry-special-errors")
    assert not Deal.objects.filter(pulka=pulka).exists()


def test_a_totus_is_recorded_with_its_bonus(make_table_pulka, table_client):
    pulka = make_table_pulka(FOUR, options=GCHET, first_dealer=3, target=30)
    form = deal_form(
        contract="10",
        word_1="pass",
        word_2="pass",
        tricks_0="",
        tricks_1="",
        tricks_2="",
        totus="on",
    )

    response = table_client().post(record_url(pulka), form, headers=EN)

    assert response.status_code == 302
    assert Deal.objects.get(pulka=pulka).facts["totus"] is True
    html = table_client().get(sheet_url(pulka), headers=EN).content.decode()
    assert "Anna: 5 more into the pulya for the totus" in html


def test_the_hint_says_either_defender_may_half_whist_where_the_first_may(
    make_table_pulka, table_client
):
    plain = make_table_pulka()
    first = make_table_pulka(options={"half_whist_first": True})

    def hint(pulka: Pulka) -> str:
        html = table_client().get(sheet_url(pulka), headers=EN).content.decode()
        return region(html, "entry-whists-hint")

    assert "after the first defender passed" in hint(plain)
    assert "by either defender, after the other passed" in hint(first)
