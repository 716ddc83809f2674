"""RS's two options on a phone (docs/rules.md §3.7, §3.10.7), in Russian and English.

Under the "RS Sochi" preset a player records a half-whist played out (the words pass and
half with the tricks): the protocol shows it; then the settlement of that table shares
the gora among the others. Each page fits 390 px, reads in its language, has 44 px tap
targets, and axe-core finds nothing serious.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from prefscore.clubs.models import Player
from prefscore.games.models import Pulka, PulkaSeat
from scoring.engine.conventions import preset
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

THREE = ("Anna", "Boris", "Vera")
LANGUAGES = {"ru": "ru-RU", "en": "en-US"}
# The circle of method 2 with the gora shared by the two others.
CIRCLE = {"ru": "10 × 3 ÷ 2 × (средняя − его гора)", "en": "10 × 3 ÷ 2 × (average − his gora)"}


def _pulka(world) -> Pulka:
    pulka = Pulka.objects.create(
        club=world.club,
        convention_name="rs-sochi",
        convention_options=preset("rs-sochi").to_options(),
        player_names=list(THREE),
        target=10,
        first_dealer=0,
        created_by=world.users["member"],
    )
    for seat, name in enumerate(THREE):
        player, _ = Player.objects.get_or_create(club=world.club, name=name)
        PulkaSeat.objects.create(pulka=pulka, seat=seat, player=player)
    return pulka


def _fits_and_reads(page, language: str, world) -> None:
    strays = other_language(page.evaluate(TEXTS_JS), language, [*THREE, *data_strings(world)])
    assert not strays
    overflow = page.evaluate(OVERFLOW_JS)
    assert overflow["scrollWidth"] <= overflow["innerWidth"], overflow["wide"]
    assert not page.evaluate(TAP_TARGETS_JS, TAP)
    assert not axe_violations(page)


@pytest.mark.parametrize("language", ["en"])  # one walk, one language: CONTRIBUTING.md, "Tests"
def test_a_half_whist_played_out_is_recorded_and_settled_on_a_phone(
    live_server, new_context, language
):
    world = build_world()
    pulka = _pulka(world)
    context = new_context(locale=LANGUAGES[language], bypass_csp=True)
    sign_in(context, live_server.url, world.users["member"])
    page = context.new_page()
    page.goto(f"{live_server.url}/pulkas/{pulka.pk}/")
    form = page.locator("#entry-form")

    choose_contract(form, "6S")
    form.locator("label[for='declarer-0']").click()
    form.locator("label[for='word_1-pass']").click()
    form.locator("label[for='word_2-half']").click()
    form.locator("#tricks_0").fill("9")
    form.locator("#tricks_1").fill("0")
    form.locator("#tricks_2").fill("1")
    form.locator("button[type=submit]").click()

    expect(page.locator("#entry-form input[name=number]")).to_have_value("2")
    expect(page.locator("#protocol")).to_contain_text("6♠/½+3")
    assert pulka.deals.get().facts["tricks"] == {"Anna": 9, "Boris": 0, "Vera": 1}
    _fits_and_reads(page, language, world)

    page.goto(f"{live_server.url}/pulkas/{pulka.pk}/settlement/")
    expect(page.locator("#settlement")).to_contain_text(CIRCLE[language])
    _fits_and_reads(page, language, world)
