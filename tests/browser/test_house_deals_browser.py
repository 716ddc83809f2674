"""Recording a concession with a shown talon on a phone (docs/rules.md §3.10), ru and en.

A 4-player table whose convention allows уход без трёх and penalises a shown talon
(gchet's): the player ticks both boxes of the "special deal" area; the protocol shows
the concession, the page fits 390 px, reads in its language, and axe finds nothing
serious.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from prefscore.clubs.models import Player
from prefscore.games.models import Pulka, PulkaSeat
from scoring.engine.conventions import from_options, preset
from tests.browser.support import (
    OVERFLOW_JS,
    TAP,
    TAP_TARGETS_JS,
    axe_violations,
    choose_contract,
    sign_in,
)
from tests.browser.test_screens_browser import TEXTS_JS, data_strings, other_language
from tests.web.fixtures_access import build_world

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

FOUR = ("Anna", "Boris", "Vera", "Gleb")
GCHET = {
    "whist_scale": 2,
    "gora_scale": 2,
    "concede_levels": [6, 7],
    "talon_shown_penalty": "whists",
}
LANGUAGES = {"ru": "ru-RU", "en": "en-US"}


def _pulka(world) -> Pulka:
    pulka = Pulka.objects.create(
        club=world.club,
        convention_name="sochi",
        convention_options=from_options(GCHET, preset("sochi")).to_options(),
        player_names=list(FOUR),
        target=10,
        first_dealer=3,
        created_by=world.users["member"],
    )
    for seat, name in enumerate(FOUR):
        player, _ = Player.objects.get_or_create(club=world.club, name=name)
        PulkaSeat.objects.create(pulka=pulka, seat=seat, player=player)
    return pulka


@pytest.mark.parametrize("language", ["en"])  # one walk, one language: CONTRIBUTING.md, "Tests"
def test_a_concession_with_a_shown_talon_is_recorded_on_a_phone(live_server, new_context, language):
    world = build_world()
    pulka = _pulka(world)
    context = new_context(locale=LANGUAGES[language], bypass_csp=True)
    sign_in(context, live_server.url, world.users["member"])
    page = context.new_page()
    page.goto(f"{live_server.url}/pulkas/{pulka.pk}/")
    form = page.locator("#entry-form")

    choose_contract(form, "7S")
    form.locator("label[for='declarer-0']").click()
    form.locator("label[for='special-conceded']").click()
    form.locator("label[for='special-talon_shown']").click()
    form.locator("button[type=submit]").click()

    expect(page.locator("#entry-form input[name=number]")).to_have_value("2")
    conceded = {"ru": "7♠/уход", "en": "7♠/conceded"}[language]  # presenters/numbers.py
    expect(page.locator("#protocol")).to_contain_text(conceded)
    deal = pulka.deals.get()
    assert deal.facts == {
        "contract": "7S",
        "declarer": "Anna",
        "conceded": True,
        "talon_shown": True,
    }

    strays = other_language(page.evaluate(TEXTS_JS), language, [*FOUR, *data_strings(world)])
    assert not strays
    overflow = page.evaluate(OVERFLOW_JS)
    assert overflow["scrollWidth"] <= overflow["innerWidth"], overflow["wide"]
    assert not page.evaluate(TAP_TARGETS_JS, TAP)
    assert not axe_violations(page)
