"""Phones in Debian's Chromium that trust the site's certificate for real, signed in
through the sign-in form, and the measure of a deal's way from one phone to another.

Trust: Caddy's root certificate goes into an NSS database (certutil, libnss3-tools)
under a home folder of the browser's own, where Chromium on Linux looks for the
authorities a user added, as a phone that installed the club's root would. Nothing is
ignored: a certificate error would stop the page, and a service worker does not register
over one.
"""

from __future__ import annotations

import os
import statistics
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, Page, expect, sync_playwright

from tests.browser.conftest import CHROMIUM, CHROMIUM_ARGS, PHONE
from tests.browser.support import fill_deal

CERTUTIL = "/usr/bin/certutil"
# The page's poll timer set to 10 minutes once its stream is up: only the stream can
# bring a deal in time (as in tests/browser/test_push_browser.py).
LONG_TIMER = """() => {
    const poll = document.getElementById('poll');
    poll.setAttribute('hx-trigger', 'every 600s, prefscore:changed');
    htmx.process(poll);
}"""
# When each deal's entry left the recording phone (the form's submit, before htmx sends
# it), by the deal's number; and when each deal's line appeared on a watching phone.
MARK_SENT = """() => {
    window.__sent = {};
    document.addEventListener('submit', event => {
        const number = event.target.querySelector('input[name=number]');
        if (number) window.__sent[number.value] = Date.now();
    }, true);
}"""
MARK_SEEN = """() => {
    window.__seen = {};
    const look = () => {
        for (const line of document.querySelectorAll('#protocol li[value]')) {
            const number = line.getAttribute('value');
            if (!(number in window.__seen)) window.__seen[number] = Date.now();
        }
    };
    look();
    new MutationObserver(look).observe(document.body, {childList: true, subtree: true});
}"""


def trusting_home(root_certificate: Path, home: Path) -> Path:
    """A home folder whose NSS database trusts ``root_certificate`` to name web sites."""
    database = home / ".pki" / "nssdb"
    database.mkdir(parents=True, exist_ok=True)
    where = f"sql:{database}"
    subprocess.run([CERTUTIL, "-N", "-d", where, "--empty-password"], check=True)
    subprocess.run(
        [CERTUTIL, "-A", "-d", where, "-n", "prefscore test authority", "-t", "C,,",
         "-i", str(root_certificate)],
        check=True,
    )  # fmt: skip
    return home


@contextmanager
def trusting_chromium(root_certificate: Path, home: Path) -> Iterator[Browser]:
    """Chromium with that home: the site's authority trusted, nothing else changed."""
    env = {**os.environ, "HOME": str(trusting_home(root_certificate, home))}
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, env=env)
        try:
            yield browser
        finally:
            browser.close()


def signed_in_phone(browser: Browser, origin: str, username: str, password: str,
                    locale: str, page_path: str) -> Page:  # fmt: skip
    """A phone (390×844) signed in through the form, on ``page_path``."""
    context = browser.new_context(viewport=PHONE, device_scale_factor=2, locale=locale)
    context.set_default_timeout(15_000)
    page = context.new_page()
    page.goto(f"{origin}/accounts/login/?next={page_path}")
    page.locator("#id_username").fill(username)
    page.locator("#id_password").fill(password)
    page.locator("form.form button[type=submit]").click()
    page.wait_for_url(f"{origin}{page_path}")
    return page


def with_push(page: Page) -> Page:
    """Once the page's stream is up; its polls from then on counted in ``page.polls``."""
    expect(page.locator("html")).to_have_attribute("data-push", "up")
    page.polls = []  # type: ignore[attr-defined]
    page.on("request", lambda request: "/poll/" in request.url and page.polls.append(request.url))
    return page


# Where a deal's time went on the watching phone, from the Resource Timing of its last
# poll (epoch milliseconds, as Date.now()).
LAST_POLL = """() => {
    const polls = performance.getEntriesByType('resource').filter(e => e.name.includes('/poll/'));
    const last = polls[polls.length - 1];
    return {start: performance.timeOrigin + last.startTime,
            end: performance.timeOrigin + last.responseEnd};
}"""


def push_delays(
    recorder: Page, watcher: Page, deals: list[dict[str, Any]], first: int
) -> list[dict[str, float]]:
    """Record ``deals`` on one phone, numbered from ``first``; for each, in milliseconds,
    ``total``: from its entry leaving that phone to its line showing on the other, whose
    poll timer waits 10 minutes (so only the push brings it); of which ``signal``: until
    the other phone asks its poll (the record, PostgreSQL's NOTIFY, the stream), ``poll``:
    the poll's answer, ``swap``: htmx putting it on the page."""
    watcher.evaluate(LONG_TIMER)
    recorder.evaluate(MARK_SENT)
    watcher.evaluate(MARK_SEEN)
    watcher.evaluate("() => performance.setResourceTimingBufferSize(10000)")
    timings = []
    for number, facts in enumerate(deals, first):
        fill_deal(recorder, facts)
        recorder.locator("#entry-form button[type=submit]").click()
        watcher.wait_for_function("n => window.__seen[n] !== undefined", arg=str(number))
        expect(recorder.locator("#entry-form input[name=number]")).to_have_value(str(number + 1))
        sent = recorder.evaluate(f"window.__sent['{number}']")
        seen = watcher.evaluate(f"window.__seen['{number}']")
        poll = watcher.evaluate(LAST_POLL)
        timings.append({"total": seen - sent, "signal": poll["start"] - sent,
                        "poll": poll["end"] - poll["start"], "swap": seen - poll["end"]})  # fmt: skip
    return timings


def summary(delays: list[float]) -> dict[str, float]:
    ordered = sorted(delays)
    return {
        "median": statistics.median(ordered),
        "p90": ordered[min(len(ordered) - 1, round(0.9 * (len(ordered) - 1)))],
        "max": ordered[-1],
        "deals": len(ordered),
    }
