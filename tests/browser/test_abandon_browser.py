"""Abandoning a pulka started by mistake, in a real browser on phones.

Anna proposes it on her phone; the proposal reaches Boris's and Vera's phones by the
poll; each agrees on his own, and every phone then shows the pulka abandoned. In both
languages, at 390 px, with axe.
"""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Page, expect

from prefscore.games.models import Pulka
from tests.browser.support import axe_violations, screenshot, sign_in
from tests.web import fixtures_corrections

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

seated_world = fixtures_corrections.seated_world

WORDS = {
    "en-US": {
        "open": "Abandon this pulka",
        "propose": "Propose abandoning it",
        "pending": "Abandon this pulka? Proposed by anna",
        "agree": "Agree",
        "done": "This pulka was abandoned",
        "badge": "abandoned",
    },
    "ru-RU": {
        "open": "Прервать эту пульку",
        "propose": "Предложить прервать",
        "pending": "Прервать эту пульку? Предложение: anna",
        "agree": "Согласиться",
        "done": "Эта пулька прервана",
        "badge": "прервана",
    },
}


def open_table(new_context, base_url: str, user: Any, pulka: Pulka, locale: str) -> Page:
    context = new_context(locale=locale, bypass_csp=True)
    sign_in(context, base_url, user)
    page = context.new_page()
    page.goto(f"{base_url}/pulkas/{pulka.pk}/")
    return page


@pytest.mark.parametrize("locale", ["ru-RU"])  # one walk, one language: CONTRIBUTING.md, "Tests"
def test_the_table_abandons_a_pulka_each_on_his_own_phone(
    live_server, new_context, seated_world, screenshot_dir, locale
):
    words = WORDS[locale]
    pulka = seated_world.pulka
    users = seated_world.users
    anna, boris, vera = (
        open_table(new_context, live_server.url, users[name], pulka, locale)
        for name in ("anna", "boris", "vera")
    )

    anna.locator("#entry summary", has_text=words["open"]).click()
    anna.locator("#abandon-reason").fill("wrong convention")
    anna.locator("#entry button", has_text=words["propose"]).click()

    for page in (boris, vera):
        expect(page.locator("#forgotten .abandon-pending")).to_contain_text(
            words["pending"], timeout=5000
        )
    screenshot(boris, str(screenshot_dir / f"abandon-pending-{locale}.png"), full_page=True)
    assert axe_violations(boris) == []
    boris.locator("#forgotten .abandon-pending button", has_text=words["agree"]).click()
    expect(vera.locator("#forgotten .abandon-pending")).to_contain_text("Boris:", timeout=5000)
    vera.locator("#forgotten .abandon-pending button", has_text=words["agree"]).click()

    for page in (anna, boris, vera):
        expect(page.locator("#entry")).to_contain_text(words["done"], timeout=5000)
        expect(page.locator("#status .badge")).to_have_text(words["badge"])
        expect(page.locator("#entry-form")).to_have_count(0)
    pulka.refresh_from_db()
    assert pulka.status == Pulka.Status.ARCHIVED
