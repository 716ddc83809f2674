"""The deal in by keyboard (static/js/table.js): each chip row is one stop, as a WAI-ARIA
radio group (arrows move and choose, Tab leaves), a digit chooses tricks, the declarer's
own word is skipped: an ordinary deal in under 15 keys, where the form had 81 stops and
took 76. A phone's width (390×844); each walk in one language but "10NT" on one line, in both."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.browser.support import sign_in
from tests.web.fixtures_access import build_world

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LANGUAGES = {"ru": "ru-RU", "en": "en-US"}
MOST_KEYS = 14  # under 15


class Keys:
    """Keys pressed, counted."""

    def __init__(self, page: Page) -> None:
        self.page, self.count = page, 0

    def press(self, key: str) -> None:
        self.page.keyboard.press(key)
        self.count += 1

    def tab_to(self, selector: str, most: int = 12) -> None:
        """Tab until ``selector`` has the focus (each Tab counted)."""
        for _ in range(most):
            if self.page.evaluate(f"document.activeElement.matches({selector!r})"):
                return
            self.press("Tab")
        raise AssertionError(f"{selector} not reached in {most} tabs")


def table_of(live_server, new_context, language):
    world = build_world()  # Anna, Boris and Vera, two deals recorded: Vera deals next
    context = new_context(locale=LANGUAGES[language])
    sign_in(context, live_server.url, world.users["member"])
    page = context.new_page()
    page.goto(f"{live_server.url}/pulkas/{world.pulka.pk}/")
    page.locator("#entry-form .bidbox").wait_for()
    return world, page


@pytest.mark.parametrize("language", ["en"])  # one walk, one language: CONTRIBUTING.md, "Tests"
def test_an_ordinary_deal_takes_under_fifteen_keys(live_server, new_context, language):
    """7♠ made, Boris whists and takes 2, Vera passes, by keyboard alone."""
    world, page = table_of(live_server, new_context, language)
    form = page.locator("#entry-form")
    expect(form.locator(".bidbox [role=radio][tabindex='0']")).to_have_count(1)
    form.locator(".bidbox [tabindex='0']").focus()  # the form's first stop: the bids
    keys = Keys(page)

    keys.press("ArrowDown")  # 6♠ → 7♠, chosen as it is reached
    keys.tab_to("#declarer-0")
    keys.press("Space")  # Anna declares
    keys.tab_to("[name=word_1]")  # Anna's own word is no stop
    keys.press("ArrowRight")  # Boris: from "—" to whist; Vera's pass and Anna's 7 follow
    keys.tab_to(".trick-chips[data-for='tricks_1'] .trick-chip")
    keys.press("2")  # Boris's two; Vera's one is the rest
    keys.tab_to("#entry-form button[type=submit]")
    keys.press("Enter")

    expect(page.locator("#entry-form input[name=number]")).to_have_value("4")
    assert world.pulka.deals.current().get(number=3).facts == {
        "contract": "7S",
        "declarer": "Anna",
        "whists": {"Boris": "whist", "Vera": "pass"},
        "tricks": {"Anna": 7, "Boris": 2, "Vera": 1},
    }
    assert keys.count <= MOST_KEYS, keys.count


@pytest.mark.parametrize("language", ["ru"])  # one walk, one language: CONTRIBUTING.md, "Tests"
def test_each_chip_row_is_one_stop_as_a_radio_group(live_server, new_context, language):
    _world, page = table_of(live_server, new_context, language)
    form = page.locator("#entry-form")

    for group in form.locator(".bidbox, .trick-chips").all():
        assert group.get_attribute("role") == "radiogroup"
        expect(group.locator("[role=radio][tabindex='0']")).to_have_count(1)
    stops = page.evaluate(
        "() => [...document.querySelectorAll('#entry-form .bidbox__bid, #entry-form .trick-chip')]"
        ".filter(el => el.tabIndex >= 0).length"
    )
    assert stops == 4  # the bids, and a row of tricks for each of three players
    # The arrows choose: the chip reached is checked, and the group's stop moves with it.
    form.locator(".trick-chips[data-for='tricks_0'] [tabindex='0']").focus()
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    chip = form.locator(".trick-chips[data-for='tricks_0'] .trick-chip[value='2']")
    expect(chip).to_have_attribute("aria-checked", "true")
    expect(chip).to_have_attribute("tabindex", "0")
    expect(form.locator("#tricks_0")).to_have_value("2")
    page.keyboard.press("1")
    page.keyboard.press("0")  # "1" then "0": ten
    expect(form.locator("#tricks_0")).to_have_value("10")


@pytest.mark.parametrize("language", LANGUAGES)
def test_ten_no_trumps_stays_on_one_line_at_a_phones_width(live_server, new_context, language):
    _world, page = table_of(live_server, new_context, language)

    heights = page.evaluate(
        """() => [...document.querySelectorAll('#entry-form .bidbox__bid[data-contract="10"]')]
            .map(b => {
                const range = document.createRange();
                range.selectNodeContents(b);
                return [b.textContent, range.getClientRects().length];
            })"""
    )

    assert heights and all(lines == 1 for _text, lines in heights), heights
