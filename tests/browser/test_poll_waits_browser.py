"""While a phone's own deal is on its way, its poll waits (static/js/network.js): the
answer brings the new regions, so a poll meanwhile is one more full answer for a busy
server to render (docs/design.md, "How the table screen is cached"), and could put the
version before it back on the screen.
The polls go on once the answer is in. Phone size, one language (CONTRIBUTING.md, "Tests")."""

from __future__ import annotations

import time

import pytest
from playwright.sync_api import expect

from tests.browser.support import TWELVE_DEALS, fill_deal, sign_in
from tests.web.fixtures_access import build_world

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

HELD_SECONDS = 5  # more than two of the poll's 2 s ticks
# The page's own log of what htmx sent: a poll that was let through, the deal's post.
LOG_REQUESTS = """() => {
    window.__sent = [];
    document.addEventListener("htmx:beforeSend", (event) => {
        const elt = event.detail.elt;
        const kind = elt.id === "poll" ? "poll" : (elt.id === "entry-form" ? "deal" : "other");
        window.__sent.push([kind, performance.now()]);
    });
    document.addEventListener("htmx:beforeSwap", (event) => {  // while the form is still in place
        if (event.detail.elt.id === "entry-form") window.__sent.push(["answer", performance.now()]);
    });
}"""


@pytest.mark.parametrize("locale", ["en-US"])  # one walk, one language: CONTRIBUTING.md, "Tests"
def test_no_poll_is_sent_while_the_phones_own_deal_is_on_its_way(live_server, new_context, locale):
    world = build_world()
    context = new_context(locale=locale)
    sign_in(context, live_server.url, world.users["member"])
    page = context.new_page()
    page.goto(f"{live_server.url}/pulkas/{world.pulka.pk}/")
    page.evaluate(LOG_REQUESTS)

    def slow_server(route):
        time.sleep(HELD_SECONDS)  # the room's server is busy: the answer takes its time
        route.continue_()

    page.route("**/deals/", slow_server, times=1)
    fill_deal(page, TWELVE_DEALS[2])
    page.locator("#entry-form button[type=submit]").click()
    expect(page.locator("#protocol li[value='3']")).to_be_visible(timeout=15_000)
    page.wait_for_function(  # the answer in, then a poll after it: the polls go on
        """() => {
            const answer = window.__sent.find(([kind]) => kind === "answer");
            return answer && window.__sent.some(([kind, at]) => kind === "poll" && at > answer[1]);
        }""",
        timeout=10_000,
    )

    sent = page.evaluate("window.__sent")
    posted = next(at for kind, at in sent if kind == "deal")
    answered = next(at for kind, at in sent if kind == "answer")
    assert answered - posted >= HELD_SECONDS * 1000 * 0.9
    polls = [at for kind, at in sent if kind == "poll"]
    assert not [at for at in polls if posted < at < answered], sent
    assert [at for at in polls if at > answered], sent  # and the polls go on after
