"""Two phones at one table: what one records the other shows, and a deal recorded on
both at once is kept once."""

from __future__ import annotations

import time

import pytest
from playwright.sync_api import expect

from prefscore.games.models import Deal
from tests.browser.support import (
    TWELVE_DEALS,
    engine_output,
    engine_sheet,
    fill_deal,
    record_deal,
    sheet_on_screen,
    sign_in,
)
from tests.web.fixtures_access import DEALS, build_world

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# The access world's pulka has two deals, the same as the first two of TWELVE_DEALS.
assert list(DEALS) == list(TWELVE_DEALS[:2])


def open_table(new_context, base_url, user, pk, **options):
    context = new_context(**options)
    sign_in(context, base_url, user)
    page = context.new_page()
    page.goto(f"{base_url}/pulkas/{pk}/")
    return page


def test_a_deal_recorded_on_one_phone_shows_on_the_other_within_three_seconds(
    live_server, new_context
):
    world = build_world()
    pk = world.pulka.pk
    recorder = open_table(new_context, live_server.url, world.users["member"], pk)
    watcher = open_table(new_context, live_server.url, world.users["admin"], pk, locale="en-US")
    watcher.evaluate("window.__prefscoreMarker = 'not reloaded'")

    record_deal(recorder, TWELVE_DEALS[2], 3)
    recorded_at = time.monotonic()

    expect(watcher.locator("#protocol li[value='3']")).to_be_visible(timeout=3000)
    assert time.monotonic() - recorded_at < 3
    assert watcher.locator("#entry-form input[name=number]").input_value() == "4"
    assert sheet_on_screen(watcher) == sheet_on_screen(recorder)
    assert sheet_on_screen(watcher) == engine_sheet(engine_output(TWELVE_DEALS[:3], stake=None))
    assert watcher.evaluate("window.__prefscoreMarker") == "not reloaded"


def test_a_deal_sent_from_two_phones_at_once_is_kept_once_and_one_phone_says_why(
    live_server, new_context
):
    world = build_world()
    pk = world.pulka.pk
    phones = [
        open_table(new_context, live_server.url, world.users["member"], pk),
        open_table(new_context, live_server.url, world.users["admin"], pk, locale="en-US"),
    ]
    for phone in phones:
        # Held polls: the second phone's form must still be the one it filled in when it
        # is sent, however long the first phone's answer takes (no race with the poll).
        phone.route("**/poll/**", lambda route: route.abort())
        fill_deal(phone, TWELVE_DEALS[2])

    for phone in phones:
        phone.locator("#entry-form button[type=submit]").click()
    for phone in phones:
        phone.wait_for_function(
            "() => document.querySelector('#protocol li[value=\"3\"]')"
            " || document.querySelector('#entry .notice')"
        )
    notices = [phone.locator("#entry .notice") for phone in phones]

    assert sorted(notice.count() for notice in notices) == [0, 1]
    refused = next(notice for notice in notices if notice.count())
    assert "3" in refused.inner_text()
    for phone in phones:
        expect(phone.locator("#protocol li[value='3']")).to_have_count(1)
        expect(phone.locator("#entry-form input[name=number]")).to_have_value("4")
    assert Deal.objects.filter(pulka_id=pk, number=3).count() == 1
    assert Deal.objects.filter(pulka_id=pk).count() == 3
