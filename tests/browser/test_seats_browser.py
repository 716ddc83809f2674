"""Accounts are seats, in Chromium on a phone (390×844), in Russian and English.

A newcomer signs up from an invitation link, says she is the guest Анна, and her past
pulka comes with her; she then starts a pulka sitting as herself and finds it among her
pulkas. A club admin merges two players on the players page. Each screen fits the phone,
reads in its language, has tap targets of 44 px and passes axe-core.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import Page, expect

from prefscore.clubs import invitations
from prefscore.clubs.models import Club, Membership, Player, PlayerEvent, Role
from prefscore.games.models import PulkaSeat
from tests.browser.support import (
    OVERFLOW_JS,
    TAP,
    TAP_TARGETS_JS,
    axe_violations,
    screenshot,
    sign_in,
)
from tests.browser.test_screens_browser import TEXTS_JS, other_language
from tests.web.fixtures_club import club_pulka

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LANGUAGES = {"ru": "ru-RU", "en": "en-US"}
PASSWORD = "pw-seats-browser-2468"
GUESTS = ("Анна", "Борис", "Вера")
WORDS = {
    "ru": {"iam": "Я — Анна", "accept": "Принять приглашение", "merge": "Объединить",
           "merged": "Игроки объединены: Гена → Геннадий"},
    "en": {"iam": "I am Анна", "accept": "Accept the invitation", "merge": "Merge",
           "merged": "Гена is merged into Геннадий"},
}  # fmt: skip


def the_club(*, with_pulka: bool = True) -> dict[str, Any]:
    olga = get_user_model().objects.create_user("olga", password=PASSWORD)
    club = Club.objects.create(name="Пятница", slug="pyatnica")
    Membership.objects.create(club=club, user=olga, role=Role.ADMIN)
    Player.objects.create(club=club, name="olga", user=olga)
    past = club_pulka(club, GUESTS, title="Прошлая пятница") if with_pulka else None
    return {"club": club, "olga": olga, "past": past}


def check_phone(page: Page, language: str, data: list[str]) -> None:
    """The screen fits 390 px, reads in its language, has 44 px targets, passes axe."""
    assert page.locator("html").get_attribute("lang") == language
    problems: dict[str, Any] = {}
    strays = other_language(page.evaluate(TEXTS_JS), language, data)
    if strays:
        problems["other language"] = strays
    overflow = page.evaluate(OVERFLOW_JS)
    if overflow["scrollWidth"] > overflow["innerWidth"]:
        problems["sideways"] = overflow
    small = page.evaluate(TAP_TARGETS_JS, TAP)
    if small:
        problems["tap targets"] = small
    violations = axe_violations(page)
    if violations:
        problems["axe"] = violations
    assert not problems, problems


@pytest.mark.parametrize("language", ["ru"])  # one walk, one language: CONTRIBUTING.md, "Tests"
def test_a_newcomer_claims_a_guest_then_starts_a_pulka_sitting_as_herself(
    live_server, new_context, presets, screenshot_dir, language
):
    world = the_club()
    # The link names the guest it is for: only its invitee may say she is Анна.
    anna = world["club"].players.get(name="Анна")
    invitation = invitations.create_invitation(
        world["club"], world["olga"], Role.MEMBER, guest=anna
    )
    words = WORDS[language]
    page = new_context(locale=LANGUAGES[language], bypass_csp=True).new_page()
    data = [*GUESTS, "Пятница", "olga", "anna", "prefscore"]

    page.goto(f"{live_server.url}/invitations/{invitation.token}/")
    page.locator("a[href^='/accounts/signup/']").click()
    page.locator("#id_username").fill("anna")
    page.locator("#id_email").fill("anna@example.com")
    page.locator("#id_password1").fill(PASSWORD)
    page.locator("#id_password2").fill(PASSWORD)
    page.locator("form.form button[type=submit]").click()
    page.wait_for_url(f"**/invitations/{invitation.token}/")
    expect(page.get_by_label(words["iam"])).to_be_visible()
    check_phone(page, language, data)
    screenshot(page, str(screenshot_dir / f"seats-claim-{language}-phone.png"), full_page=True)
    page.get_by_label(words["iam"]).check()
    page.get_by_role("button", name=words["accept"]).click()
    page.wait_for_url("**/clubs/pyatnica/members/")

    anna = get_user_model().objects.get(username="anna")
    claimed = Player.objects.get(club=world["club"], user=anna)
    assert claimed.name == "Анна"
    assert PulkaSeat.objects.get(pulka=world["past"], seat=0).player == claimed

    page.goto(f"{live_server.url}/clubs/pyatnica/pulkas/new/")
    form = page.locator("#new-pulka-form")
    form.locator("#id_convention").select_option("sochi")
    for seat, name in enumerate(("Анна", "Борис", "olga"), start=1):
        form.locator(f"#id_player_{seat}").select_option(label=name)
    form.locator("#id_target").fill("10")
    form.locator("button[type=submit]").click()
    page.wait_for_url(re.compile(r"/pulkas/\d+/$"))
    pk = int(page.url.rstrip("/").rsplit("/", 1)[-1])

    assert PulkaSeat.objects.get(pulka=pk, seat=0).player.user == anna
    page.goto(f"{live_server.url}/")
    mine = page.locator(f"#pulkas a[href='/pulkas/{pk}/']")
    expect(mine).to_be_visible()
    # The past pulka is hers as well now: it came with the guest she claimed.
    expect(page.locator(f"#pulkas a[href='/pulkas/{world['past'].pk}/']")).to_be_visible()
    check_phone(page, language, [*data, "Прошлая пятница"])


@pytest.mark.parametrize("language", ["en"])  # one walk, one language: CONTRIBUTING.md, "Tests"
def test_an_admin_merges_two_players_on_the_players_page(
    live_server, new_context, presets, screenshot_dir, language
):
    world = the_club(with_pulka=False)
    club = world["club"]
    twin = Player.objects.create(club=club, name="Гена")
    kept = Player.objects.create(club=club, name="Геннадий")
    pulka = club_pulka(club, ("olga", "Гена", "Вера"), title="Среда")
    context = new_context(locale=LANGUAGES[language], bypass_csp=True)
    sign_in(context, live_server.url, world["olga"])
    page = context.new_page()
    page.on("dialog", lambda dialog: dialog.accept())  # hx-confirm asks first

    page.goto(f"{live_server.url}/clubs/pyatnica/members/")
    page.locator("a[href='/clubs/pyatnica/players/']").click()
    page.wait_for_url("**/clubs/pyatnica/players/")
    check_phone(page, language, ["Пятница", "olga", "Гена", "Геннадий", "Вера", "prefscore"])
    page.locator("#merge-drop").select_option(label="Гена")
    page.locator("#merge-keep").select_option(label="Геннадий")
    page.get_by_role("button", name=words_merge(language), exact=True).click()

    expect(page.locator("#players .messages")).to_contain_text(WORDS[language]["merged"])
    expect(page.locator(".player-history__item").first).to_contain_text("olga")
    assert not Player.objects.filter(pk=twin.pk).exists()
    assert PulkaSeat.objects.get(pulka=pulka, seat=1).player == kept
    assert PlayerEvent.objects.get(action="merged").by == world["olga"]
    check_phone(page, language, ["Пятница", "olga", "Гена", "Геннадий", "Вера", "prefscore"])
    screenshot(page, str(screenshot_dir / f"seats-players-{language}-phone.png"), full_page=True)


def words_merge(language: str) -> str:
    return WORDS[language]["merge"]
