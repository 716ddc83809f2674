"""The outbox counts only an answer (static/js/outbox.js; docs/design.md, "Never lose a
deal"): a phone whose browser says it is offline while its network works still sends,
and a request that stalls is given up and the entry sent again. Phone size.

The entry is put into the outbox as network.js puts it before sending, and not sent:
the page is then loaded again, and the outbox sends it on load. (Chromium's offline
emulation is not used to keep it unsent: it now and then delivers a POST it failed,
CONTRIBUTING.md, "Tests".)
"""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Page, Route, expect

from tests.browser.support import TWELVE_DEALS, fill_deal
from tests.browser.test_outbox_browser import (
    OUTBOX_ROUND,
    deals_of,
    open_table,
    outbox,
    outbox_empties,
)
from tests.web.fixtures_access import build_world

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# What some phones say on a working network (and Chromium now and then after its
# offline emulation is lifted): navigator.onLine false.
SAYS_OFFLINE = "Object.defineProperty(Navigator.prototype, 'onLine', { get: () => false });"

KEEP_UNSENT = """() => {
    const form = document.querySelector('#entry-form');
    const id = window.prefscoreOutbox.newId();
    const params = [];
    new FormData(form).forEach((value, name) => {
        if (name !== 'csrfmiddlewaretoken' && name !== 'client_id') params.push([name, value]);
    });
    params.push(['client_id', id]);
    window.prefscoreOutbox.put({
        id: id, url: form.getAttribute('hx-post'), params: params, label: 'deal 3',
        pulka: window.location.pathname, state: 'waiting',
    });
}"""


def deal_three_waiting(page: Page) -> None:
    """Deal 3 filled in and put into the outbox as if its sending had failed."""
    fill_deal(page, TWELVE_DEALS[2])
    page.evaluate(KEEP_UNSENT)
    assert [entry["state"] for entry in outbox(page)] == ["waiting"]


@pytest.mark.parametrize("locale", ["en-US"])  # one walk, one language: CONTRIBUTING.md, "Tests"
def test_a_phone_that_says_it_is_offline_while_its_network_works_still_sends(
    live_server: Any, new_context: Any, locale: str
) -> None:
    world = build_world()
    pk = world.pulka.pk
    page = open_table(new_context, live_server.url, world.users["member"], pk, locale)
    deal_three_waiting(page)
    page.context.add_init_script(SAYS_OFFLINE)

    page.reload()

    assert page.evaluate("navigator.onLine") is False
    expect(page.locator("#protocol li[value='3']")).to_be_visible(timeout=OUTBOX_ROUND)
    outbox_empties(page)
    deals = deals_of(pk)
    assert [d.number for d in deals] == [1, 2, 3]
    assert deals[2].facts == TWELVE_DEALS[2]


# LATE in static/js/outbox-core.js: the time without an answer before a request is
# given up. The page's clock is moved past it rather than waited out (20 s).
LATE_MS = 20_000


# One language: what is tested is a wait (LATE), and no word.
def test_a_request_that_stalls_is_given_up_and_the_entry_sent_again(
    live_server: Any, new_context: Any
) -> None:
    world = build_world()
    pk = world.pulka.pk
    page = open_table(new_context, live_server.url, world.users["member"], pk, "ru-RU")
    deal_three_waiting(page)
    stalled: list[Route] = []

    def stall_the_first(route: Route) -> None:
        if stalled:
            route.fallback()
        else:
            stalled.append(route)  # never answered: a connection that hangs

    page.context.route("**/outbox/session/", stall_the_first)
    page.clock.install()  # the page's timers, from the reload on, run on a clock of ours

    page.reload()
    page.wait_for_function("() => document.readyState === 'complete'")
    while not stalled:  # the outbox has asked, and hangs on the answer
        page.wait_for_timeout(50)
    page.clock.fast_forward(LATE_MS - 1_000)
    page.wait_for_timeout(500)
    assert outbox(page)[0]["state"] == "waiting"  # not given up before its time
    assert [d.number for d in deals_of(pk)] == [1, 2]
    page.clock.fast_forward(1_000)  # LATE reached: given up, tried again after its wait

    # The first wait after a failure (BACKOFF in outbox-core.js) is 2 s; were the
    # request given up later than LATE, the sheet would not show the deal in this wait.
    expect(page.locator("#protocol li[value='3']")).to_be_visible(timeout=15_000)
    assert len(stalled) == 1
    outbox_empties(page)
    assert [d.number for d in deals_of(pk)] == [1, 2, 3]
