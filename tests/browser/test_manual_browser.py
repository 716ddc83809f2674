"""A manual entry in a real browser (docs/rules.md §3.11), on a phone, in Russian and in
English: an admin taps "Manual entry" on the sheet, writes a fine with its reason, and
the sheet and the protocol show it. The form page fits 390 px, its tap targets are
44 px, no text is left in the other language and axe-core finds nothing serious.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from prefscore.games.models import Deal
from tests.browser.support import (
    OVERFLOW_JS,
    TAP,
    TAP_TARGETS_JS,
    axe_violations,
    screenshot,
    sign_in,
)
from tests.browser.test_screens_browser import (
    LANGUAGES,
    TEXTS_JS,
    build_screens_world,
    data_strings,
    other_language,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

REASONS = {"ru": "Показал карту", "en": "Showed a card"}
WORDS = {
    "ru": {"link": "Ручная запись", "gora": "гора", "submit": "Записать", "hand": "вручную"},
    "en": {"link": "Manual entry", "gora": "gora", "submit": "Write the entry", "hand": "by hand"},
}


@pytest.mark.parametrize("language", ["ru"])  # one walk, one language: CONTRIBUTING.md, "Tests"
def test_an_admin_writes_a_fine_on_a_phone_and_the_sheet_shows_its_reason(
    live_server, new_context, screenshot_dir, language
):
    world = build_screens_world()
    pulka = world.evening
    before = Deal.objects.filter(pulka=pulka).count()
    context = new_context(locale=LANGUAGES[language], bypass_csp=True)
    sign_in(context, live_server.url, world.users["admin"])
    page = context.new_page()
    page.goto(f"{live_server.url}/pulkas/{pulka.pk}/")
    words = WORDS[language]

    page.get_by_role("link", name=words["link"]).click()
    expect(page.locator("#manual-form")).to_be_visible()

    problems: dict[str, list[str]] = {}
    overflow = page.evaluate(OVERFLOW_JS)
    if overflow["scrollWidth"] > overflow["innerWidth"]:
        problems["overflow"] = overflow["wide"]
    small = page.evaluate(TAP_TARGETS_JS, TAP)
    if small:
        problems["tap targets"] = small
    strays = other_language(page.evaluate(TEXTS_JS), language, data_strings(world))
    if strays:
        problems["other language"] = strays
    serious = axe_violations(page)
    if serious:
        problems["axe"] = serious
    screenshot(page, str(screenshot_dir / f"manual-{language}-390.png"), full_page=True)
    assert not problems, problems

    page.locator("label[for=manual-player-0]").click()
    page.locator("label[for=manual-section-gora]").click()
    page.locator("#manual-points").fill("6")
    page.locator("#manual-reason").fill(REASONS[language])
    page.get_by_role("button", name=words["submit"]).click()

    expect(page).to_have_url(f"{live_server.url}/pulkas/{pulka.pk}/")
    expect(page.locator("#sheet .manual-notes")).to_contain_text(REASONS[language])
    expect(page.locator("#protocol")).to_contain_text(REASONS[language])
    expect(page.locator("#protocol")).to_contain_text(words["hand"])
    assert Deal.objects.filter(pulka=pulka).count() == before + 1
    last = Deal.objects.filter(pulka=pulka).order_by("-number").first()
    assert last is not None and last.facts["manual"]["reason"] == REASONS[language]
    screenshot(page, str(screenshot_dir / f"manual-sheet-{language}-390.png"), full_page=True)


@pytest.mark.parametrize("language", ["en"])  # one walk, one language: CONTRIBUTING.md, "Tests"
def test_a_manual_entry_written_offline_is_kept_and_written_once_when_online(
    live_server, new_context, language
):
    world = build_screens_world()
    pulka = world.evening
    before = Deal.objects.filter(pulka=pulka).count()
    context = new_context(locale=LANGUAGES[language], bypass_csp=True)
    sign_in(context, live_server.url, world.users["admin"])
    page = context.new_page()
    page.goto(f"{live_server.url}/pulkas/{pulka.pk}/manual/")
    page.locator("label[for=manual-player-0]").click()
    page.locator("label[for=manual-section-gora]").click()
    page.locator("#manual-points").fill("6")
    page.locator("#manual-reason").fill(REASONS[language])
    context.set_offline(True)

    page.get_by_role("button", name=WORDS[language]["submit"]).click()

    expect(page.locator("#manual-form .net-status")).to_be_visible()
    expect(page.locator("#outbox [data-outbox-count]")).to_have_attribute("data-outbox-count", "1")
    assert Deal.objects.filter(pulka=pulka).count() == before
    context.set_offline(False)  # sent again by the outbox, answered as the form would be

    page.wait_for_function("localStorage.getItem('prefscore.outbox') === '[]'", timeout=10_000)
    assert Deal.objects.filter(pulka=pulka).count() == before + 1
    last = Deal.objects.filter(pulka=pulka).order_by("-number").first()
    assert last is not None and last.facts["manual"]["reason"] == REASONS[language]
