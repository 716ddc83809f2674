"""A player's statistics and the club rating in a real browser: on a phone
and a laptop, in Russian and English, with axe; the chart's text alternative opens."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from prefscore.clubs.models import Player
from prefscore.games.models import Pulka
from prefscore.stats import ratings
from prefscore.stats.summaries import summarise
from tests.browser.support import axe_violations, screenshot, sign_in
from tests.engine.test_stats import THREE
from tests.web import fixtures_corrections

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

seated_world = fixtures_corrections.seated_world

SCREENS = {"phone": {"width": 390, "height": 844}, "laptop": {"width": 1280, "height": 800}}
WORDS = {
    "en-US": {
        "played": "Pulkas played",
        "table": "The figures as a table",
        "rating": "Club rating",
    },
    "ru-RU": {
        "played": "Сыграно пулек",
        "table": "Те же данные таблицей",
        "rating": "Рейтинг клуба",
    },
}


def finished_pulka(world) -> Pulka:
    from prefscore.games.models import Deal

    pulka = world.pulka
    Deal.objects.bulk_create(
        Deal(pulka=pulka, number=n, facts=facts, entered_by=world.users["anna"])
        for n, facts in enumerate(THREE["deals"], start=1)
    )
    Pulka.objects.filter(pk=pulka.pk).update(status=Pulka.Status.FINISHED, target=20)
    summarise(pulka.pk)
    ratings.recompute_club(pulka.club_id)
    return pulka


# Each size once and each language once (CONTRIBUTING.md, "Tests").
@pytest.mark.parametrize(("screen", "locale"), [("phone", "ru-RU"), ("laptop", "en-US")])
def test_a_player_page_and_the_leaderboard(
    live_server, new_context, seated_world, screenshot_dir, locale, screen
):
    finished_pulka(seated_world)
    words = WORDS[locale]
    context = new_context(locale=locale, viewport=SCREENS[screen], bypass_csp=True)
    sign_in(context, live_server.url, seated_world.users["boris"])
    page = context.new_page()
    anna = Player.objects.get(club=seated_world.club, name="Anna")

    page.goto(f"{live_server.url}/clubs/friday/stats/players/{anna.pk}/")

    expect(page.locator(".stat-figures").first).to_contain_text(words["played"])
    expect(page.locator("#results-chart-title")).to_have_count(1)
    page.locator(".chart__data summary", has_text=words["table"]).click()
    expect(page.locator(".chart__data table tbody tr")).to_have_count(1)
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= SCREENS[screen]["width"], f"{width} px wide"
    screenshot(page, str(screenshot_dir / f"stats-player-{screen}-{locale}.png"), full_page=True)
    assert axe_violations(page) == []

    page.goto(f"{live_server.url}/clubs/friday/rating/")
    expect(page.locator("h1")).to_contain_text(words["rating"])
    expect(page.locator(".leaderboard tbody tr")).to_have_count(3)
    screenshot(page, str(screenshot_dir / f"stats-rating-{screen}-{locale}.png"), full_page=True)
    assert axe_violations(page) == []
