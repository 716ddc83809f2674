"""With JavaScript off, a deal is still recorded: the form posts, the server redirects,
and the sheet shows it."""

from __future__ import annotations

import pytest

from prefscore.games.models import Deal
from tests.browser.support import (
    TWELVE_DEALS,
    engine_output,
    engine_sheet,
    fill_deal,
    screenshot,
    sheet_on_screen,
    sign_in,
)
from tests.web.fixtures_access import build_world

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_phone_without_javascript_records_a_deal_by_post_and_redirect(
    live_server, new_context, screenshot_dir
):
    world = build_world()
    pk = world.pulka.pk
    context = new_context(java_script_enabled=False)
    sign_in(context, live_server.url, world.users["member"])
    page = context.new_page()
    page.goto(f"{live_server.url}/pulkas/{pk}/")
    posts = []
    page.on("request", lambda r: posts.append(r) if r.method == "POST" else None)

    fill_deal(page, TWELVE_DEALS[2])
    with page.expect_navigation() as navigation:
        page.locator("#entry-form button[type=submit]").click()

    assert navigation.value is not None and navigation.value.ok
    assert [(r.url, "hx-request" in r.headers) for r in posts] == [
        (f"{live_server.url}/pulkas/{pk}/deals/", False)
    ]
    assert posts[0].response().status == 302
    assert page.url == f"{live_server.url}/pulkas/{pk}/"
    assert page.locator("#protocol li[value='3']").count() == 1
    assert page.locator("#entry-form input[name=number]").input_value() == "4"
    assert sheet_on_screen(page) == engine_sheet(engine_output(TWELVE_DEALS[:3], stake=None))
    assert Deal.objects.filter(pulka_id=pk).count() == 3
    screenshot(page, screenshot_dir / "no-javascript-sheet.png", full_page=True)
