"""The director's controls on a phone (390×844), in Russian and in English: a player
checks in himself with the tournament's QR link (also on each printed table card), the
organiser checks in the rest in one submit, gives a card and a fine (written on the
player's sheet), and the page shows them on the player's line; nothing sideways, axe
finds nothing serious (docs/tournaments.md §7)."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from prefscore.clubs.models import Club, Membership, Player, Role
from prefscore.games.manual_entries import is_manual_row
from prefscore.games.models import Pulka
from prefscore.games.services import standing_deals
from prefscore.tournaments import checkin
from prefscore.tournaments.models import TournamentEntry, TournamentEvent
from tests.browser.support import OVERFLOW_JS, axe_violations, ensure_presets, sign_in
from tests.web.fixtures_tournaments import NAMES, enter, make_tournament

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LANGUAGES = {"ru": "ru-RU", "en": "en-US"}
PHONE = {"width": 390, "height": 844}
WORDS = {
    "ru": {"checked": "вы отметились", "bulk": "Отметить выбранных игроков", "fine": "1 жёлтая карточка · штраф 10 вистов"},
    "en": {"checked": "you are checked in", "bulk": "Check in the ticked players", "fine": "1 yellow card · fined 10 whists"},
}  # fmt: skip


@pytest.mark.parametrize("language", ["en"])  # one walk, one language: CONTRIBUTING.md, "Tests"
def test_check_in_a_card_and_a_fine_on_a_phone(live_server, new_context, language):
    ensure_presets()
    users = get_user_model().objects
    director = users.create_user("director", password="pw-director-1234")
    anna_user = users.create_user("anna", password="pw-anna-12345678")
    club = Club.objects.create(name="Cup club", slug="cup")
    Membership.objects.create(club=club, user=director, role=Role.ORGANISER)
    Membership.objects.create(club=club, user=anna_user, role=Role.MEMBER)
    players = [Player.objects.create(club=club, name=name) for name in NAMES[:6]]
    Player.objects.filter(pk=players[0].pk).update(user=anna_user)
    cup = make_tournament(club)
    enter(cup, players)
    base = f"{live_server.url}/tournaments/cup/{cup.slug}"
    words = WORDS[language]

    phone = new_context(locale=LANGUAGES[language], viewport=PHONE)
    sign_in(phone, live_server.url, anna_user)
    anna = phone.new_page()
    anna.goto(f"{base}/check-in/{checkin.token(cup)}/")
    anna.locator("#check-in button[type=submit]").click()
    anna.wait_for_url("**/check-in/**")
    assert words["checked"] in anna.locator("#check-in").inner_text()

    laptop = new_context(locale=LANGUAGES[language], viewport=PHONE, bypass_csp=True)
    sign_in(laptop, live_server.url, director)
    page = laptop.new_page()
    page.goto(f"{base}/print/cards/")  # a card per table, each with the check-in code
    assert page.locator(".table-card svg.qr__code").count() == 2
    assert page.evaluate(OVERFLOW_JS)["scrollWidth"] <= PHONE["width"]
    assert not axe_violations(page)
    page.goto(f"{base}/")
    assert page.locator("svg.qr__code").count() == 1
    for box in page.locator("#check-in input[name=entries]").all():
        box.check()
    page.get_by_role("button", name=words["bulk"]).click()
    page.wait_for_load_state()
    states = set(cup.entries.values_list("state", flat=True))
    assert states == {TournamentEntry.State.CHECKED_IN}
    assert page.evaluate(OVERFLOW_JS)["scrollWidth"] <= PHONE["width"]

    page.locator("#draw form[action$='/rounds/'] button").click()
    page.wait_for_url("**#draft-1")
    page.locator("form[action$='/rounds/1/publish/'] button").click()
    page.wait_for_url("**#round-1")
    boris = cup.entries.get(player__name=NAMES[1])
    page.goto(f"{base}/entries/{boris.pk}/discipline/")
    page.locator("input[value=fine]").check()
    page.locator("input[name=points]").fill("10")
    page.locator("input[name=reason]").fill("Phone")
    page.locator("#discipline-form button[type=submit]").click()
    page.wait_for_url("**#decisions")
    page.goto(f"{base}/entries/{boris.pk}/discipline/")
    page.locator("input[value=yellow_card]").check()
    page.locator("input[name=reason]").fill("Late")
    page.locator("#discipline-form button[type=submit]").click()
    page.wait_for_url("**#decisions")

    line = page.locator(".entry-list__item", has_text=NAMES[1]).first.inner_text()
    assert words["fine"] in line
    table = Pulka.objects.get(tournament=cup, seats__player=boris.player)
    assert all(is_manual_row(deal) for deal in standing_deals(table))
    assert TournamentEvent.objects.filter(action=TournamentEvent.Action.FINE).count() == 1
    assert page.evaluate(OVERFLOW_JS)["scrollWidth"] <= PHONE["width"]
    assert not axe_violations(page)
