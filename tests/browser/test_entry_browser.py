"""The entry form on a phone: the trick steppers keep the total at 10."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.support import sign_in
from tests.web.fixtures_access import build_world

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_last_trick_count_is_filled_with_the_rest_and_follows_the_steppers(
    live_server, new_context
):
    world = build_world()
    context = new_context(locale="en-US")
    sign_in(context, live_server.url, world.users["member"])
    page = context.new_page()
    page.goto(f"{live_server.url}/pulkas/{world.pulka.pk}/")
    form = page.locator("#entry-form")
    form.locator("label[for='contract-allpass']").click()
    total = form.locator("[data-tricks-sum]")

    form.locator("#tricks_0").fill("2")
    expect(form.locator("#tricks_2")).to_have_value("")
    form.locator("#tricks_1").fill("5")
    expect(form.locator("#tricks_2")).to_have_value("3")
    expect(total).to_have_text("Σ 10 / 10")

    # The + of the first player takes the trick from the count filled in for him.
    form.locator("[data-step='1'][aria-controls='tricks_0']").click()
    expect(form.locator("#tricks_0")).to_have_value("3")
    expect(form.locator("#tricks_2")).to_have_value("2")
    expect(total).to_have_text("Σ 10 / 10")

    # A count the player typed himself is his: the total may then be off, and says so.
    form.locator("#tricks_2").fill("4")
    form.locator("#tricks_0").fill("2")
    expect(form.locator("#tricks_2")).to_have_value("4")
    expect(total).to_have_text("Σ 11 / 10")
