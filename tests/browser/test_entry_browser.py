"""The entry form on a phone: the trick counts keep the total at 10, and an ordinary
deal or an all-pass takes no more taps than paper allows (at 390×844; each walk in one
language, half in each).

Taps are counted as the test makes them: each ``tap`` is one touch of the screen; no
key is pressed. The deal recorded is then read back from the database.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.browser.support import OVERFLOW_JS, TAP, TAP_TARGETS_JS, sign_in
from tests.web.fixtures_access import build_world

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_last_trick_count_is_filled_with_the_rest_and_follows_the_chips(
    live_server, new_context
):
    world = build_world()
    context = new_context(locale="en-US")
    sign_in(context, live_server.url, world.users["member"])
    page = context.new_page()
    page.goto(f"{live_server.url}/pulkas/{world.pulka.pk}/")
    form = page.locator("#entry-form")
    form.locator(".bidbox__bid[data-contract='allpass']").click()
    total = form.locator("[data-tricks-sum]")

    form.locator("#tricks_0").fill("2")
    expect(form.locator("#tricks_2")).to_have_value("")
    form.locator("#tricks_1").fill("5")
    expect(form.locator("#tricks_2")).to_have_value("3")
    expect(total).to_have_text("Σ 10 / 10")

    # A chip of the first player takes the trick from the count filled in for him.
    form.locator(".trick-chips[data-for='tricks_0'] .trick-chip[value='3']").click()
    expect(form.locator("#tricks_0")).to_have_value("3")
    expect(form.locator("#tricks_2")).to_have_value("2")
    expect(total).to_have_text("Σ 10 / 10")

    # A count the player typed himself is his: the total may then be off, and says so.
    form.locator("#tricks_2").fill("4")
    form.locator("#tricks_0").fill("2")
    expect(form.locator("#tricks_2")).to_have_value("4")
    expect(total).to_have_text("Σ 11 / 10")


LANGUAGES = {"ru": "ru-RU", "en": "en-US"}


class Taps:
    """Taps on the screen, counted."""

    def __init__(self, page: Page) -> None:
        self.page, self.count = page, 0

    def on(self, selector: str) -> None:
        self.page.locator(selector).click()
        self.count += 1


def table_of(live_server, new_context, language):
    world = build_world()  # Anna, Boris and Vera, two deals recorded: Vera deals next
    context = new_context(locale=LANGUAGES[language])
    sign_in(context, live_server.url, world.users["member"])
    page = context.new_page()
    page.goto(f"{live_server.url}/pulkas/{world.pulka.pk}/")
    return world, page


def recorded(page: Page, world, number: int):
    expect(page.locator("#entry-form input[name=number]")).to_have_value(str(number + 1))
    return world.pulka.deals.current().get(number=number).facts


@pytest.mark.parametrize("language", ["ru"])  # one walk, one language: CONTRIBUTING.md, "Tests"
def test_an_ordinary_deal_takes_five_taps(live_server, new_context, language):
    """7♠ made, Boris whists and takes 2, Vera passes: the bid, the declarer, the whist,
    Boris's two tricks, record. Vera's pass and Anna's seven are filled in."""
    world, page = table_of(live_server, new_context, language)
    assert page.evaluate(OVERFLOW_JS)["scrollWidth"] <= 390
    assert not page.evaluate(TAP_TARGETS_JS, TAP)
    tap = Taps(page)
    tap.on("#entry-form .bidbox__bid[data-contract='7'][data-suit='S']")
    tap.on("#entry-form label[for='declarer-0']")
    tap.on("#entry-form label[for='word_1-whist']")
    tap.on("#entry-form .trick-chips[data-for='tricks_1'] .trick-chip[value='2']")
    tap.on("#entry-form button[type=submit]")
    assert tap.count <= 5
    assert recorded(page, world, 3) == {
        "contract": "7S",
        "declarer": "Anna",
        "whists": {"Boris": "whist", "Vera": "pass"},
        "tricks": {"Anna": 7, "Boris": 2, "Vera": 1},
    }


@pytest.mark.parametrize("language", ["en"])  # one walk, one language: CONTRIBUTING.md, "Tests"
def test_an_all_pass_takes_four_taps(live_server, new_context, language):
    """All-pass, two players' tricks (the third is the rest), record."""
    world, page = table_of(live_server, new_context, language)
    tap = Taps(page)
    tap.on("#entry-form .bidbox__bid[data-contract='allpass']")
    tap.on("#entry-form .trick-chips[data-for='tricks_0'] .trick-chip[value='4']")
    tap.on("#entry-form .trick-chips[data-for='tricks_1'] .trick-chip[value='2']")
    tap.on("#entry-form button[type=submit]")
    assert tap.count <= 4
    assert recorded(page, world, 3) == {
        "contract": "allpass",
        "tricks": {"Anna": 4, "Boris": 2, "Vera": 4},
    }


def test_the_filled_in_outcome_yields_to_what_the_table_says(live_server, new_context):
    """Anna made an overtrick and both defenders whisted: the filled-in pass and the
    filled-in seven are changed with one tap each, and the rest follows."""
    world, page = table_of(live_server, new_context, "en")
    form = page.locator("#entry-form")
    form.locator(".bidbox__bid[data-contract='6'][data-suit='H']").click()
    form.locator("label[for='declarer-0']").click()
    form.locator("label[for='word_1-whist']").click()
    expect(form.locator("#word_2-pass")).to_be_checked()
    expect(form.locator("#tricks_0")).to_have_value("6")
    form.locator("label[for='word_2-whist']").click()
    form.locator(".trick-chips[data-for='tricks_0'] .trick-chip[value='7']").click()
    form.locator(".trick-chips[data-for='tricks_1'] .trick-chip[value='2']").click()
    expect(form.locator("#tricks_2")).to_have_value("1")
    form.locator("button[type=submit]").click()
    assert recorded(page, world, 3) == {
        "contract": "6H",
        "declarer": "Anna",
        "whists": {"Boris": "whist", "Vera": "whist"},
        "tricks": {"Anna": 7, "Boris": 2, "Vera": 1},
    }
