"""A pulka's life in a real browser: importing the same file twice asks first,
an export says what it is, and a finished pulka says one thing. At 390 px, in Russian
and English."""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import expect

from prefscore.games.models import Pulka
from tests.browser.support import screenshot, sign_in
from tests.web import fixtures_club
from tests.web.fixtures_club import example_input

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

club_world = fixtures_club.club_world

WORDS = {
    "en-US": {"asked": "This file was imported before", "again": "Import it again",
              "over": "the pulka is over and takes no more deals"},
    "ru-RU": {"asked": "Этот файл уже импортировали", "again": "Импортировать ещё раз",
              "over": "пулька окончена, новые сдачи не записываются"},
}  # fmt: skip


@pytest.mark.parametrize("locale", ["ru-RU"])  # one walk, one language: CONTRIBUTING.md, "Tests"
def test_the_same_file_imported_twice_asks_first_and_a_finished_pulka_says_so(
    live_server, new_context, club_world, screenshot_dir, locale
):
    words = WORDS[locale]
    context = new_context(locale=locale)
    sign_in(context, live_server.url, club_world.users["ivan"])
    page = context.new_page()
    text = json.dumps(example_input("009-6.6c-sochi-4p-nine-closes-and-helps.json"))

    def paste_and_import() -> None:
        page.goto(f"{live_server.url}/clubs/friday/pulkas/import/")
        page.locator("textarea[name=text]").first.fill(text)
        page.locator("#import form button[type=submit]").first.click()

    paste_and_import()
    page.wait_for_url(f"{live_server.url}/pulkas/*/")
    expect(page.locator("#entry .banner")).to_contain_text(words["over"])
    first = Pulka.objects.get()
    assert first.status == Pulka.Status.FINISHED

    paste_and_import()
    expect(page.locator(".import-again")).to_contain_text(words["asked"])
    screenshot(page, str(screenshot_dir / f"import-again-{locale}.png"), full_page=True)
    assert Pulka.objects.count() == 1
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, f"{width} px wide"

    page.locator(".import-again button", has_text=words["again"]).click()
    page.wait_for_url(f"{live_server.url}/pulkas/*/")
    assert Pulka.objects.count() == 2

    exported = context.request.get(f"{live_server.url}/pulkas/{first.pk}/export.json").json()
    assert exported["club"] == club_world.club.name and exported["date"]
