"""gchet's two rules in the admin (docs/rules.md §3.3, §3.10.3): the zero-trick bonus in
gora units and both consolations of a returned whist save, and each objection shows
next to its own field, in Russian too, with nothing saved."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from scoring.models import Convention
from tests.web.fixtures_conventions import ADD, assert_refused_beside, form_errors, new_data

pytestmark = pytest.mark.django_db


def test_a_club_admin_saves_gchets_two_rules(conventions_client, conventions_world):
    data = new_data(
        conventions_world,
        allpass_zero_bonus="pulya_scaled",
        returned_whist_alone=True,
        returned_whist_consolation="both",
    )

    response = conventions_client("ada").post(ADD, data)

    assert response.status_code == 302, form_errors(response)
    conv = Convention.objects.get(slug="thursday").to_engine()
    assert (conv.allpass_zero_bonus, conv.returned_whist_consolation) == ("pulya_scaled", "both")


@pytest.mark.parametrize(
    ("changes", "field", "message"),
    [
        (
            {"returned_whist_alone": False, "returned_whist_consolation": "both"},
            "returned_whist_consolation",
            "only when a returned whist is played alone",
        ),
        (
            {
                "allpass_scoring": "whists",
                "allpass_amnesty": False,
                "allpass_dealer_talon": False,
                "allpass_zero_bonus": "pulya_scaled",
            },
            "allpass_zero_bonus",
            "only to all-pass in the gora",
        ),
        ({"returned_whist_consolation": "twice"}, "returned_whist_consolation", "Select a valid"),
    ],
)
def test_each_objection_appears_next_to_its_field_and_nothing_is_saved(
    conventions_client, conventions_world, changes, field, message
):
    data = new_data(conventions_world, **changes)

    assert_refused_beside(conventions_client("ada"), data, field, message)


@pytest.mark.parametrize(
    ("changes", "field", "words"),
    [
        (
            {"returned_whist_alone": False, "returned_whist_consolation": "both"},
            "returned_whist_consolation",
            "возвращённый вист играется одним",
        ),
        (
            {
                "allpass_scoring": "whists",
                "allpass_amnesty": False,
                "allpass_dealer_talon": False,
                "allpass_zero_bonus": "pulya_scaled",
            },
            "allpass_zero_bonus",
            "только при распасах в гору",
        ),
    ],
)
def test_the_objection_is_in_russian_for_a_russian_reader(
    conventions_client, conventions_world, changes, field, words
):
    data = new_data(conventions_world, **changes)

    response = conventions_client("ada").post(ADD, data, headers={"accept-language": "ru"})

    errors = form_errors(response)[field]
    assert any(words in text for text in errors), errors


def _compare_row(html: str, key: str) -> list[str]:
    rows = re.findall(rf'<tr role="row" data-key="{key}"[^>]*>(.*?)</tr>', html, re.S)
    return [c.strip() for c in re.findall(r"<td[^>]*>(.*?)</td>", rows[-1], re.S)]


def test_the_compare_page_shows_both_rules_for_gchet_and_sochi(
    conventions_client, conventions_world
):
    url = reverse("conventions:compare") + "?a=sochi&b=gchet"
    html = conventions_client("mila").get(url).content.decode()

    consolation = _compare_row(html, "returned_whist_consolation")
    bonus = _compare_row(html, "allpass_zero_bonus")
    assert "his own only" in consolation[0] and "the half-whister" in consolation[1]
    assert "the price to the pulya" in bonus[0]
    assert "the price of a trick in the gora, to the pulya" in bonus[1]


def test_the_gchet_page_says_both_rules_in_words_in_russian(conventions_client, conventions_world):
    url = reverse("conventions:detail", args=["gchet"])
    html = conventions_client("mila").get(url, headers={"accept-language": "ru"}).content.decode()

    assert "ещё и консоляцию сказавшего полвиста" in html
    assert "сколько стоит взятка этих распасов в горе" in html
