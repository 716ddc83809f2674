"""The screen kept awake in a real browser (docs/design.md, "The screen kept awake").

navigator.wakeLock is stubbed in the page to write down every request and release, and
document.visibilityState to be set by the test: the lock is taken while the pulka runs,
taken again when the page is shown again, let go when the last deal ends the pulka and
when the switch is turned off (remembered after a reload). Without a wake lock the
switch is disabled, its hint says why, and the page throws nothing. At 390 px, in
Russian and English.
"""

from __future__ import annotations

import time
from typing import Any

import pytest
from playwright.sync_api import expect

from prefscore.games.models import Pulka
from tests.browser.support import record_deal, sign_in
from tests.web import fixtures_club

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

club_world = fixtures_club.club_world

NAMES = ("olga", "ivan", "Guest Gena")
# A Sochi pulka to 2 that the fourth deal ends (engine-checked: the three pulyas closed).
DEALS: tuple[dict[str, Any], ...] = (
    {"contract": "6S", "declarer": "olga", "whists": {"ivan": "whist", "Guest Gena": "pass"},
     "tricks": {"olga": 6, "ivan": 3, "Guest Gena": 1}},
    {"contract": "7H", "declarer": "ivan", "whists": {"olga": "whist", "Guest Gena": "whist"},
     "tricks": {"ivan": 5, "olga": 3, "Guest Gena": 2}},
    {"contract": "6S", "declarer": "ivan", "whists": {"olga": "pass", "Guest Gena": "pass"}},
    {"contract": "6S", "declarer": "Guest Gena", "whists": {"olga": "pass", "ivan": "pass"}},
)  # fmt: skip

# The browser's wake lock, written down: window.wakeLog holds "request" and "release".
STUB = """
window.wakeLog = [];
window.wakeLocks = [];
window.pageShown = true;
Object.defineProperty(document, 'visibilityState', {get: () => window.pageShown ? 'visible' : 'hidden'});
Object.defineProperty(Navigator.prototype, 'wakeLock', {configurable: true, get: () => ({
  request(type) {
    window.wakeLog.push('request ' + type);
    const listeners = [];
    const lock = {released: false, type,
      addEventListener(name, fn) { if (name === 'release') listeners.push(fn); },
      release() {
        if (!this.released) { this.released = true; window.wakeLog.push('release'); listeners.forEach(f => f()); }
        return Promise.resolve();
      }};
    window.wakeLocks.push(lock);
    return Promise.resolve(lock);
  }})});
"""
NO_WAKE_LOCK = "delete Navigator.prototype.wakeLock;"

WORDS = {
    "en-US": {"switch": "Keep the screen on", "hint": "plain http"},
    "ru-RU": {"switch": "Не гасить экран", "hint": "http"},
}


def _pulka(club: Any, deals: int) -> Pulka:
    return fixtures_club.club_pulka(club, NAMES, DEALS[:deals], target=2)


def _log(page: Any) -> list[str]:
    return list(page.evaluate("window.wakeLog"))


def _wait_for_log(page: Any, length: int, seconds: float = 10) -> None:
    """Until the stub has logged ``length`` calls. Polled from here: the page's content
    security policy forbids the string evaluation that ``wait_for_function`` polls with
    once its first try fails."""
    deadline = time.monotonic() + seconds
    while page.evaluate("window.wakeLog.length") < length:
        assert time.monotonic() < deadline, f"the wake lock log stayed at {_log(page)}"
        page.wait_for_timeout(50)


@pytest.mark.parametrize("locale", ["en-US"])  # one walk, one language: CONTRIBUTING.md, "Tests"
def test_the_lock_is_held_while_the_pulka_runs_taken_again_when_shown_and_let_go_at_the_end(
    live_server, new_context, club_world, locale
):
    pulka = _pulka(club_world.club, 3)
    context = new_context(locale=locale)
    context.add_init_script(STUB)
    sign_in(context, live_server.url, club_world.users["olga"])
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"{live_server.url}/pulkas/{pulka.pk}/")

    switch = page.locator("#wake-switch")
    expect(switch).to_be_visible()
    expect(switch).to_contain_text(WORDS[locale]["switch"])
    expect(switch.locator("input")).to_be_checked()
    _wait_for_log(page, 1)
    assert _log(page) == ["request screen"]

    # The page goes to the background: the browser lets the lock go; shown again, taken again.
    page.evaluate(
        "window.pageShown = false; window.wakeLocks[0].release();"
        "document.dispatchEvent(new Event('visibilitychange'))"
    )
    page.evaluate("window.pageShown = true; document.dispatchEvent(new Event('visibilitychange'))")
    _wait_for_log(page, 3)
    assert _log(page) == ["request screen", "release", "request screen"]

    # The last deal ends the pulka: the lock is let go and the switch goes.
    record_last_deal(page)
    _wait_for_log(page, 4)
    assert _log(page)[-1] == "release"
    expect(switch).to_be_hidden()
    pulka.refresh_from_db()
    assert pulka.status == Pulka.Status.FINISHED
    assert errors == []


def record_last_deal(page: Any) -> None:
    from tests.browser.support import fill_deal

    fill_deal(page, DEALS[3], NAMES)
    page.locator("#entry-form button[type=submit]").click()
    expect(page.locator("#entry")).to_have_attribute("data-running", "false")


@pytest.mark.parametrize("locale", ["ru-RU"])
def test_the_switch_turned_off_lets_the_lock_go_and_is_remembered(
    live_server, new_context, club_world, locale
):
    pulka = _pulka(club_world.club, 1)
    context = new_context(locale=locale)
    context.add_init_script(STUB)
    sign_in(context, live_server.url, club_world.users["ivan"])
    page = context.new_page()
    page.goto(f"{live_server.url}/pulkas/{pulka.pk}/")
    _wait_for_log(page, 1)

    page.locator("#wake-switch label").click()
    _wait_for_log(page, 2)
    assert _log(page) == ["request screen", "release"]

    page.reload()
    expect(page.locator("#wake-switch input")).not_to_be_checked()
    page.wait_for_timeout(300)
    assert _log(page) == []  # off on this phone: not asked again

    record_deal(page, DEALS[1], 2, NAMES)  # the switch stays off through swaps
    assert _log(page) == []
    page.locator("#wake-switch label").click()
    _wait_for_log(page, 1)


@pytest.mark.parametrize("locale", ["ru-RU"])  # one walk, one language: CONTRIBUTING.md, "Tests"
def test_without_a_wake_lock_the_switch_is_disabled_and_says_why(
    live_server, new_context, club_world, locale
):
    pulka = _pulka(club_world.club, 1)
    context = new_context(locale=locale)
    context.add_init_script(NO_WAKE_LOCK)
    sign_in(context, live_server.url, club_world.users["olga"])
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"{live_server.url}/pulkas/{pulka.pk}/")

    switch = page.locator("#wake-switch")
    expect(switch).to_have_attribute("data-unsupported", "true")
    expect(switch.locator("input")).to_be_disabled()
    expect(switch.locator(".hint")).to_contain_text(WORDS[locale]["hint"])
    record_deal(page, DEALS[1], 2, NAMES)
    assert errors == []
