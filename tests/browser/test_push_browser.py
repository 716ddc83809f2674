"""Push, not polling: three phones and a spectator see a deal recorded on one of them
without a poll timer firing (docs/push.md; static/js/push.js).

The site runs under uvicorn (``asgi_live_server``), where the change signal streams. On
every page but the recorder's the poll's timer is set to 10 minutes after the stream is
up, so only the signal can bring the new deal in time.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from prefscore.games import joining
from tests.browser.asgi_server import asgi_live_server  # noqa: F401 (a fixture)
from tests.browser.support import (
    TWELVE_DEALS,
    engine_output,
    engine_sheet,
    record_deal,
    screenshot,
    sheet_on_screen,
    sign_in,
)
from tests.web.fixtures_access import build_world

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LONG_TIMER = """() => {
    const poll = document.getElementById('poll');
    poll.setAttribute('hx-trigger', 'every 600s, prefscore:changed');
    htmx.process(poll);
}"""


def open_page(new_context, url: str, locale: str, user=None, base: str = "") -> Page:
    """The page, once its stream is up; ``page.polls`` lists the polls it has sent."""
    context = new_context(locale=locale)
    if user is not None:
        sign_in(context, base, user)
    page = context.new_page()
    page.polls = []  # type: ignore[attr-defined]
    page.on("request", lambda request: "/poll/" in request.url and page.polls.append(request.url))
    page.goto(url)
    expect(page.locator("html")).to_have_attribute("data-push", "up")
    return page


@pytest.mark.parametrize("language", ["en-US"])  # one walk, one language: CONTRIBUTING.md, "Tests"
def test_a_deal_recorded_on_one_phone_reaches_the_others_and_a_spectator_by_push(
    asgi_live_server,  # noqa: F811 (the fixture)
    new_context,
    language,
    screenshot_dir,  # noqa: F811 (the fixture)
):
    base = asgi_live_server
    world = build_world()
    pk = world.pulka.pk
    other = "en-US" if language == "ru-RU" else "ru-RU"
    token = joining.spectator_token(joining.open_spectator_link(world.pulka, world.users["admin"]))
    sheet = f"{base}/pulkas/{pk}/"
    recorder = open_page(new_context, sheet, language, world.users["member"], base)
    watchers = [
        open_page(new_context, sheet, other, world.users["admin"], base),
        open_page(new_context, sheet, language, world.users["organiser"], base),
        open_page(new_context, f"{base}/watch/{token}/", other),
    ]
    for page in watchers:
        page.evaluate(LONG_TIMER)

    record_deal(recorder, TWELVE_DEALS[2], 3)

    expected = engine_sheet(engine_output(TWELVE_DEALS[:3], stake=None))
    for page in watchers:
        expect(page.locator("#protocol li[value='3']")).to_be_visible()
        assert sheet_on_screen(page) == expected
        # One poll as the stream connected, one the change asked for, no timer's: or
        # one only, when the connecting poll was still on its way as the deal came in
        # and brought it (a busy machine), the change's then finding nothing new.
        assert 1 <= len(page.polls) <= 2, page.polls
    for page in watchers[:2]:
        expect(page.locator("#entry-form input[name=number]")).to_have_value("4")
    screenshot(watchers[2], screenshot_dir / f"push-spectator-{language}.png")


def polls_of(page: Page) -> list[str]:
    """The polls this page sends from now on."""
    seen: list[str] = []
    page.on("request", lambda request: "/poll/" in request.url and seen.append(request.url))
    return seen


@pytest.mark.parametrize("language", ["ru-RU"])  # one walk, one language: CONTRIBUTING.md, "Tests"
def test_while_the_stream_is_up_the_timer_waits_and_a_return_to_the_tab_polls_once(
    asgi_live_server,  # noqa: F811 (the fixture)
    new_context,
    language,
):
    world = build_world()
    page = open_page(
        new_context, f"{asgi_live_server}/pulkas/{world.pulka.pk}/", language,
        world.users["member"], asgi_live_server,
    )  # fmt: skip
    page.evaluate(LONG_TIMER.replace("every 600s", "every 1s"))

    page.wait_for_timeout(3_500)  # three ticks of a 1 s timer: all held back
    held = len(page.polls)
    page.evaluate("document.dispatchEvent(new Event('visibilitychange'))")
    page.wait_for_function("n => performance.getEntriesByType('resource')"
                           ".filter(e => e.name.includes('/poll/')).length > n", arg=held)  # fmt: skip

    assert held == 1  # the one poll the stream's first version asked for
    assert len(page.polls) == 2


def test_without_a_stream_the_page_polls_as_before(live_server, new_context):
    """pytest-django's live server is WSGI: the events path answers 204, the page polls."""
    world = build_world()
    context = new_context(locale="en-US")
    sign_in(context, live_server.url, world.users["member"])
    page = context.new_page()
    seen = polls_of(page)
    page.goto(f"{live_server.url}/pulkas/{world.pulka.pk}/")

    expect(page.locator("html")).to_have_attribute("data-push", "down")
    page.wait_for_function("() => performance.getEntriesByType('resource')"
                           ".filter(e => e.name.includes('/poll/')).length >= 2")  # fmt: skip

    assert len(seen) >= 2  # the 2 s timer, not held back
