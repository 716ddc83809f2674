"""A whole evening at one table, in a real browser: from signing up to the settlement.

The figures read off the screen are the engine's for the same deals
(``scoring.engine.protocol.score_text``); the sheet changes after every deal without
the page being loaded again.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from prefscore.games.models import Deal, Pulka
from tests.browser.support import (
    NAMES,
    STAKE,
    TARGET,
    TWELVE_DEALS,
    engine_output,
    engine_sheet,
    record_deal,
    screenshot,
    settlement_on_screen,
    sheet_on_screen,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

MARKER = "window.__prefscoreMarker"


def sign_up(page: Page, base_url: str) -> None:
    page.goto(base_url + "/accounts/signup/")
    page.fill("#id_username", "host")
    page.fill("#id_email", "host@example.com")
    page.fill("#id_password1", "misere-without-a-trick")
    page.fill("#id_password2", "misere-without-a-trick")
    page.locator("main button[type=submit]").click()
    page.wait_for_url(base_url + "/")


def create_club(page: Page) -> None:
    form = page.locator("#create-club form")
    form.locator("#id_name").fill("Thursday club")
    form.locator("button[type=submit]").click()
    page.wait_for_url("**/clubs/thursday-club/")


def add_guests(page: Page) -> None:
    for name in NAMES:
        players = page.locator("#players")
        players.locator("input[name=name]").fill(name)
        players.locator("button[type=submit]").click()
        expect(page.locator("#players .player-list__name", has_text=name)).to_be_visible()


def start_pulka(page: Page) -> int:
    page.locator("a[href$='/clubs/thursday-club/pulkas/new/']").click()
    form = page.locator("#new-pulka-form")
    form.locator("#id_convention").select_option("sochi")
    for seat, name in enumerate(NAMES, start=1):
        form.locator(f"#id_player_{seat}").select_option(label=name)
    form.locator("#id_target").fill(str(TARGET))
    form.locator("#id_stake").fill(STAKE)
    form.locator("button[type=submit]").click()
    page.wait_for_url(re.compile(r"/pulkas/\d+/$"))
    return int(page.url.rstrip("/").rsplit("/", 1)[-1])


def test_a_new_player_runs_a_whole_pulka_on_a_phone_and_reads_the_engines_figures(
    live_server, new_context, presets, screenshot_dir
):
    page = new_context().new_page()
    sign_up(page, live_server.url)
    create_club(page)
    add_guests(page)
    pk = start_pulka(page)
    page.evaluate(f"{MARKER} = 'the page was never loaded again'")

    for number, facts in enumerate(TWELVE_DEALS, start=1):
        before = page.locator("#sheet").inner_html()
        record_deal(page, facts, number)

        expected = engine_output(TWELVE_DEALS[:number])
        assert page.evaluate(MARKER) == "the page was never loaded again", number
        assert page.locator("#sheet").inner_html() != before, number
        assert sheet_on_screen(page) == engine_sheet(expected), number
        notation = page.locator(f"#protocol li[value='{number}'] .protocol__notation")
        assert notation.inner_text().strip() == expected["deals"][-1]["notation"]
        if number in (5, 12):
            screenshot(page, screenshot_dir / f"flow-sheet-after-deal-{number}.png")

    assert Deal.objects.filter(pulka_id=pk).count() == len(TWELVE_DEALS)
    assert Pulka.objects.get(pk=pk).status == Pulka.Status.RUNNING
    page.locator("#status a[href$='/settlement/']").click()
    page.wait_for_url(f"**/pulkas/{pk}/settlement/")
    final = engine_output(TWELVE_DEALS)
    assert settlement_on_screen(page, "exact") == pytest.approx(
        [final["result"][name] for name in NAMES], abs=0.005
    )
    assert settlement_on_screen(page, "whole") == [final["result_whole"][name] for name in NAMES]
    assert settlement_on_screen(page, "money") == pytest.approx(
        [final["money"][name] for name in NAMES]
    )
    screenshot(page, screenshot_dir / "flow-settlement.png", full_page=True)
