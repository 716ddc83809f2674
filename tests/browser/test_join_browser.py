"""Joining a table from another phone, and watching it from outside, at
390×844 in Russian and in English.

- a member opens the table's link and lands on its sheet;
- an outsider opens it, signs in from the page, asks to join; an admin approves on the
  members page; the link then opens the sheet;
- a spectator (nobody signed in) opens the spectator link a player made from the sheet's
  panel, sees the sheet, no control, and the deal recorded on the player's phone; when
  the player stops the link, the spectator's page says so;
- the new screens fit the phone, read in their language and pass axe.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from prefscore.clubs.models import Membership, MembershipRequest
from prefscore.games import joining
from tests.browser.support import (
    OVERFLOW_JS,
    TAP,
    TAP_TARGETS_JS,
    TWELVE_DEALS,
    axe_violations,
    ensure_presets,
    record_deal,
    screenshot,
    sign_in,
)
from tests.browser.test_screens_browser import TEXTS_JS, data_strings, other_language
from tests.web.fixtures_access import PASSWORD, build_world

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LANGUAGES = {"ru": "ru-RU", "en": "en-US"}


def world_with_links() -> Any:
    ensure_presets()
    world = build_world()
    world.join_path = "/join/" + joining.join_token(joining.links_of(world.pulka)) + "/"
    return world


def phone_of(new_context, base_url: str, user: Any, language: str, **options: Any) -> Page:
    context = new_context(locale=LANGUAGES[language], **options)
    if user is not None:
        sign_in(context, base_url, user)
    return context.new_page()


@pytest.mark.parametrize("language", ["en"])  # one walk, one language: CONTRIBUTING.md, "Tests"
def test_a_member_opening_the_join_link_lands_on_the_sheet(live_server, new_context, language):
    world = world_with_links()
    page = phone_of(new_context, live_server.url, world.users["member"], language)

    page.goto(live_server.url + world.join_path)

    assert page.url == f"{live_server.url}/pulkas/{world.pulka.pk}/"
    expect(page.locator("#sheet svg").first).to_be_visible()
    expect(page.locator("#entry-form")).to_be_visible()
    assert page.locator("html").get_attribute("lang") == language


@pytest.mark.parametrize("language", ["ru"])  # one walk, one language: CONTRIBUTING.md, "Tests"
def test_an_outsider_signs_in_asks_to_join_and_an_admin_approves(
    live_server, new_context, language
):
    world = world_with_links()
    outsider = phone_of(new_context, live_server.url, None, language)
    outsider.goto(live_server.url + world.join_path)
    outsider.locator(".join-page .actions a").first.click()  # sign in
    outsider.locator("input[name=username]").fill("outsider")
    outsider.locator("input[name=password]").fill(PASSWORD)
    outsider.locator("main form button[type=submit]").click()
    outsider.wait_for_url(live_server.url + world.join_path)

    outsider.locator(".join-page__ask button[type=submit]").click()
    expect(outsider.locator(".join-page .banner[role=status]")).to_be_visible()
    expect(outsider.locator(".join-page__ask")).to_have_count(0)
    asked = MembershipRequest.objects.get(user=world.users["outsider"])

    admin = phone_of(new_context, live_server.url, world.users["admin"], language)
    admin.goto(f"{live_server.url}/clubs/{world.club.slug}/members/")
    row = admin.locator(f"#request-{asked.pk}")
    expect(row).to_contain_text("outsider")
    admin.locator(f"#request-{asked.pk} form").first.locator("button").click()
    expect(admin.locator(f"#request-{asked.pk}")).to_have_count(0)
    expect(admin.locator("#requests .messages__item--success")).to_contain_text("outsider")
    assert Membership.objects.filter(club=world.club, user=world.users["outsider"]).exists()

    outsider.goto(live_server.url + world.join_path)
    assert outsider.url == f"{live_server.url}/pulkas/{world.pulka.pk}/"
    expect(outsider.locator("#entry-form")).to_be_visible()


@pytest.mark.parametrize("language", ["en"])  # one walk, one language: CONTRIBUTING.md, "Tests"
def test_a_spectator_sees_the_sheet_follow_the_table_and_no_controls(
    live_server, new_context, language
):
    world = world_with_links()
    player = phone_of(new_context, live_server.url, world.users["admin"], language)
    player.goto(f"{live_server.url}/pulkas/{world.pulka.pk}/")
    player.locator("#join summary").click()
    expect(player.locator("#join svg.qr__code").first).to_be_visible()
    player.locator("#join button[name=action][value=open]").click()
    link = player.locator("#spectator-link")
    expect(link).to_be_visible()
    url = link.input_value()
    assert re.fullmatch(re.escape(live_server.url) + r"/watch/[\w-]+:[\w-]+/", url), url
    expect(player.locator("#join svg.qr__code")).to_have_count(2)

    spectator = phone_of(new_context, live_server.url, None, language)
    spectator.goto(url)
    expect(spectator.locator("#sheet svg").first).to_be_visible()
    expect(spectator.locator("#protocol li[value='2']")).to_be_visible()
    assert spectator.locator("main form, main button, #entry, #join").count() == 0
    assert spectator.locator("main a").count() == 0
    spectator.evaluate("window.__prefscoreMarker = 'not reloaded'")

    record_deal(player, TWELVE_DEALS[2], 3)

    expect(spectator.locator("#protocol li[value='3']")).to_be_visible(timeout=5000)
    assert spectator.evaluate("window.__prefscoreMarker") == "not reloaded"
    assert spectator.locator("main form, main button, #entry").count() == 0

    # The player stops the link: the spectator's page says so by itself.
    player.locator("#join button[name=action][value=revoke]").click()
    expect(player.locator("#spectator-link")).to_have_count(0)
    expect(spectator.locator(".error-page")).to_be_visible(timeout=5000)
    expect(spectator.locator("#sheet")).to_have_count(0)


# --- the new screens on a phone --------------------------------------------------------


def _open_panel(page: Page, world: Any) -> None:
    page.locator("#join summary").click()


SCREENS = {
    "join-anonymous": (None, lambda w: w.join_path, None),
    "join-outsider": ("outsider", lambda w: w.join_path, None),
    "join-gone": (None, lambda w: "/join/no-such:link/", None),
    "sheet-join-panel": ("admin", lambda w: f"/pulkas/{w.pulka.pk}/", _open_panel),
    "spectator": (None, lambda w: "/watch/" + w.watch_token + "/", None),
    "members-requests": ("admin", lambda w: f"/clubs/{w.club.slug}/members/", None),
}


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_join_screens_fit_a_phone_read_in_their_language_and_pass_axe(
    live_server, new_context, screenshot_dir, language
):
    """Every screen of ``SCREENS`` in turn on one world, each on a new phone of its
    viewer; every screen's problems reported."""
    world = world_with_links()
    world.watch_token = joining.spectator_token(joining.open_spectator_link(world.pulka, None))
    MembershipRequest.objects.create(club=world.club, user=world.users["outsider"])
    found = {}
    for screen, (user, path, then) in SCREENS.items():
        page = phone_of(
            new_context,
            live_server.url,
            world.users[user] if user else None,
            language,
            bypass_csp=True,
        )
        page.goto(live_server.url + path(world))
        if then:
            then(page, world)

        problems: dict[str, list[str]] = {}
        if page.locator("html").get_attribute("lang") != language:
            problems["language"] = [str(page.locator("html").get_attribute("lang"))]
        strays = other_language(page.evaluate(TEXTS_JS), language, data_strings(world))
        if strays:
            problems["text in the other language"] = strays
        overflow = page.evaluate(OVERFLOW_JS)
        if overflow["scrollWidth"] > overflow["innerWidth"]:
            problems["sideways scrolling"] = overflow["wide"]
        small = page.evaluate(TAP_TARGETS_JS, TAP)
        if small:
            problems["tap targets"] = small
        violations = axe_violations(page)
        if violations:
            problems["axe"] = violations
        screenshot(page, f"{screenshot_dir / screen}-{language}-phone.png", full_page=True)
        page.context.close()
        if problems:
            found[screen] = problems
    assert not found, f"({language}): {found}"
