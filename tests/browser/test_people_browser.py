"""The people at the table, on phones at 390×844 in Russian and in English.

Three accounts with names at the table (Анна, Борис and Вера) sit as themselves: Анна
and Борис are members, Вера has played as the club's guest. Вера opens the table's
link from her own phone and asks to join; Анна, at the table, sees the request on the
sheet, follows it, and with one tap approves her as the guest Вера. Вера's link then
opens the sheet, where she sits as herself, with no second "Вера" beside her.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import Page, expect

from prefscore.clubs.models import Club, Membership, Player, Role
from prefscore.clubs.players import ensure_player
from prefscore.games import joining
from tests.browser.support import OVERFLOW_JS, ensure_presets, sign_in
from tests.web.fixtures_access import PASSWORD, make_pulka

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LANGUAGES = {"ru": "ru-RU", "en": "en-US"}
NAMES = ("Анна", "Борис", "Вера")


def the_club() -> Any:
    ensure_presets()
    User = get_user_model()
    anna = User.objects.create_user("anna", password=PASSWORD, first_name="Анна")
    boris = User.objects.create_user("boris", password=PASSWORD, first_name="Борис")
    vera = User.objects.create_user("vera", password=PASSWORD, first_name="Вера")
    club = Club.objects.create(name="Пятничный клуб", slug="friday")
    Membership.objects.create(club=club, user=anna, role=Role.ADMIN)
    Membership.objects.create(club=club, user=boris, role=Role.MEMBER)
    for user in (anna, boris):
        ensure_player(club, user)  # named by the name at the table
    guest = Player.objects.create(club=club, name="Вера")  # Вера played here as a guest
    pulka = make_pulka(club, NAMES, anna)
    join_path = "/join/" + joining.join_token(joining.links_of(pulka)) + "/"
    return anna, boris, vera, club, guest, pulka, join_path


def phone(new_context, base_url: str, user: Any, language: str) -> Page:
    context = new_context(locale=LANGUAGES[language])
    sign_in(context, base_url, user)
    return context.new_page()


def fits(page: Page) -> None:
    overflow = page.evaluate(OVERFLOW_JS)
    assert overflow["scrollWidth"] <= 390, overflow


@pytest.mark.parametrize("language", ["en"])  # one walk, one language: CONTRIBUTING.md, "Tests"
def test_three_named_accounts_sit_as_themselves_and_one_joins_as_her_guest(
    live_server, new_context, language
):
    anna, boris, vera, club, guest, pulka, join_path = the_club()
    assert sorted(club.players.values_list("name", flat=True)) == sorted(NAMES)

    # Борис at the table: the header and the sheet call him and the others by name.
    boris_phone = phone(new_context, live_server.url, boris, language)
    boris_phone.goto(f"{live_server.url}/pulkas/{pulka.pk}/")
    expect(boris_phone.locator(".site-nav__user")).to_have_text("Борис")
    for name in NAMES:
        expect(boris_phone.locator("#sheet .sheet__name", has_text=name)).to_have_count(1)
    fits(boris_phone)

    # Вера opens the table's link and asks to join.
    vera_phone = phone(new_context, live_server.url, vera, language)
    vera_phone.goto(live_server.url + join_path)
    vera_phone.locator(".join-page__ask button[type=submit]").click()
    expect(vera_phone.locator(".join-page .banner[role=status]")).to_be_visible()
    fits(vera_phone)

    # Анна sees the request on the sheet, follows it, and taps once.
    anna_phone = phone(new_context, live_server.url, anna, language)
    anna_phone.goto(f"{live_server.url}/pulkas/{pulka.pk}/")
    banner = anna_phone.locator(".banner--requests")
    expect(banner).to_be_visible()
    fits(anna_phone)
    banner.locator("a").click()
    fits(anna_phone)
    anna_phone.locator("#requests button[name=guest]", has_text="Вера").click()
    expect(anna_phone.locator("#requests .messages__item--success")).to_contain_text("Вера")
    guest.refresh_from_db()
    assert guest.user == vera
    assert club.players.filter(user=vera).count() == 1
    assert club.players.count() == 3  # no second Вера

    # Her link now opens the sheet, and she sits as herself.
    vera_phone.goto(live_server.url + join_path)
    assert vera_phone.url == f"{live_server.url}/pulkas/{pulka.pk}/"
    expect(vera_phone.locator("#entry-form")).to_be_visible()
    expect(vera_phone.locator(".site-nav__user")).to_have_text("Вера")
    fits(vera_phone)
