"""A club's season in a real browser (docs/seasons.md): on a phone and a laptop, in Russian
and English, with axe. An organiser creates the season through its form over six evenings
already played, reads the table and a player's line, then qualifies the top three and a
wildcard to the final."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from prefscore.seasons.models import Qualification, Season
from tests.browser.support import axe_violations, sign_in
from tests.web import fixtures_access
from tests.web.fixtures_tournaments import make_tournament
from tests.web.season_fixtures import play_series

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

access_world = fixtures_access.access_world

SCREENS = {"phone": {"width": 390, "height": 844}, "laptop": {"width": 1280, "height": 800}}
WORDS = {
    "en-US": {"dropped": "dropped", "more": "2 more events to be ranked", "wild": "wildcard"},
    "ru-RU": {"dropped": "не в зачёте", "more": "ещё 2 события до места", "wild": "по выбору"},
}


def fits(page, screen: str) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= SCREENS[screen]["width"], f"{width} px wide"


@pytest.mark.parametrize("locale", ["en-US", "ru-RU"])
@pytest.mark.parametrize("screen", ["phone", "laptop"])
def test_create_a_season_read_it_and_qualify_to_the_final(
    live_server, new_context, access_world, screenshot_dir, locale, screen
):
    play_series(access_world.club)
    words = WORDS[locale]
    context = new_context(locale=locale, viewport=SCREENS[screen], bypass_csp=True)
    sign_in(context, live_server.url, access_world.users["organiser"])
    page = context.new_page()

    page.goto(f"{live_server.url}/clubs/home/seasons/new/")
    page.fill("#id_name", "Spring series")
    page.fill("#id_slug", "spring")
    page.fill("#id_starts_on", "2026-05-01")
    page.fill("#id_ends_on", "2026-07-01")
    page.select_option("#id_aggregate", "best")
    page.fill("#id_best_n", "4")
    page.fill("#id_minimum", "3")
    page.fill("#id_coefficients_text", "sochi = 2")
    page.select_option("#id_first_tie_break", "best_result")
    page.select_option("#id_second_tie_break", "attended")
    fits(page, screen)
    assert axe_violations(page) == []
    page.locator("#season-form button[type=submit]").click()

    page.wait_for_url("**/clubs/home/seasons/spring/")
    rows = page.locator(".season-table tbody tr")
    expect(rows).to_have_count(6)
    expect(rows.first).to_contain_text("Bella")
    expect(rows.last).to_contain_text(words["more"])
    fits(page, screen)
    assert axe_violations(page) == []
    page.screenshot(path=str(screenshot_dir / f"season-{screen}-{locale}.png"), full_page=True)

    page.locator(".season-table a", has_text="Cyril").click()
    expect(page.locator(".season-line tr.dropped")).to_have_count(1)
    expect(page.locator(".season-line tr.dropped")).to_contain_text(words["dropped"])
    fits(page, screen)

    season = Season.objects.get(slug="spring")
    season.final = make_tournament(access_world.club, name="Final")
    season.save()
    page.goto(f"{live_server.url}/clubs/home/seasons/spring/final/")
    page.fill("#id_top", "3")
    page.locator("label", has_text="Xenia").locator("input").check()
    page.locator("#qualify button[type=submit]").click()
    expect(page.locator(".qualified tbody tr")).to_have_count(4)
    expect(page.locator(".qualified tbody tr").last).to_contain_text(words["wild"])
    fits(page, screen)
    assert axe_violations(page) == []
    assert list(Qualification.objects.order_by("seed").values_list("player__name", flat=True)) == [
        "Bella",
        "Cyril",
        "Alla",
        "Xenia",
    ]
