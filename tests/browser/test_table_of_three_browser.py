"""Three players at one table, each on his own phone.

Three browser contexts, each signed in as a different member, sit at one table: each
records deals and consents for himself; a fourth person, outside the club, watches by
the spectator link shown beside its QR code; one phone goes offline while it records,
and its deal arrives exactly once when it is back. In Russian and in English, at 390 px.
"""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Page, expect

from prefscore.games.models import AuditEvent, Deal, Pulka
from tests.browser.support import fill_deal, record_deal, screenshot, sign_in
from tests.web import fixtures_corrections

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

seated_world = fixtures_corrections.seated_world

# Sochi to 10 between Anna, Boris and Vera: none of these closes the pulka.
DEALS = [
    {"contract": "6S", "declarer": "Anna", "whists": {"Boris": "whist", "Vera": "pass"},
     "tricks": {"Anna": 6, "Boris": 3, "Vera": 1}},
    {"contract": "allpass", "tricks": {"Anna": 3, "Boris": 3, "Vera": 4}},
    {"contract": "6H", "declarer": "Vera", "whists": {"Anna": "pass", "Boris": "whist"},
     "tricks": {"Vera": 7, "Boris": 2, "Anna": 1}},
]  # fmt: skip
FORGOTTEN = {"contract": "allpass", "tricks": {"Anna": 2, "Boris": 4, "Vera": 4}}
OFFLINE = {"contract": "7C", "declarer": "Boris", "whists": {"Anna": "whist", "Vera": "pass"},
           "tricks": {"Boris": 7, "Anna": 2, "Vera": 1}}  # fmt: skip


def phone(new_context, base_url: str, user: Any, locale: str) -> Page:
    context = new_context(locale=locale)
    if user is not None:
        sign_in(context, base_url, user)
    return context.new_page()


def waits_for_deal(page: Page, number: int) -> None:
    """The poll has brought deal ``number - 1``: the form asks for deal ``number``."""
    expect(page.locator("#entry-form input[name=number]")).to_have_value(str(number), timeout=8000)


def standing(pulka: Pulka) -> list[Deal]:
    return list(Deal.objects.filter(pulka=pulka).current().order_by("number"))


@pytest.mark.parametrize("locale", ["ru-RU"])  # one walk, one language: CONTRIBUTING.md, "Tests"
def test_three_players_each_on_his_own_phone_a_spectator_and_a_phone_offline(
    live_server, new_context, seated_world, screenshot_dir, locale
):
    world, pulka, base = seated_world, seated_world.pulka, live_server.url
    anna, boris, vera = (
        phone(new_context, base, world.users[name], locale) for name in ("anna", "boris", "vera")
    )
    for page in (anna, boris, vera):
        page.goto(f"{base}/pulkas/{pulka.pk}/")

    # Each records a deal on his own phone; the others' phones follow by the poll.
    for number, (page, facts) in enumerate(zip((anna, boris, vera), DEALS, strict=True), 1):
        waits_for_deal(page, number)
        record_deal(page, facts, number)
    assert [d.entered_by.username for d in standing(pulka)] == ["anna", "boris", "vera"]

    # A forgotten deal: Vera proposes it, Anna and Boris each agree on their own phone.
    waits_for_deal(vera, 4)
    vera.locator("#entry a[href*='propose=1']").click()
    expect(vera.locator("#entry-form")).to_have_attribute("data-mode", "propose")
    fill_deal(vera, FORGOTTEN)
    vera.locator("#entry-form button[type=submit]").click()
    for page in (anna, boris):
        agree = page.locator("#forgotten .forgotten button[value=agree]")
        expect(agree).to_have_count(1, timeout=8000)  # his own seat only: no proxy
        agree.click()
    expect(anna.locator("#protocol li[value='4']")).to_be_visible(timeout=8000)
    answers = AuditEvent.objects.filter(pulka=pulka, action=AuditEvent.Action.CONSENTED)
    assert sorted(answers.values_list("user__username", flat=True)) == ["anna", "boris", "vera"]

    # Anna opens the spectator link beside its QR code; a fourth phone, signed in as
    # nobody, opens it and watches.
    anna.locator("#join summary").click()
    anna.locator("#join button[name=action][value=open]").click()
    link = anna.locator("#spectator-link")
    expect(link).to_be_visible()
    expect(anna.locator("#join svg.qr__code")).to_have_count(2)
    watcher = phone(new_context, base, None, locale)
    watcher.goto(link.input_value())
    expect(watcher.locator("#protocol li[value='4']")).to_be_visible()
    assert watcher.locator("main form, main button, #entry").count() == 0

    # Boris's phone goes offline as he records deal 5: kept, waiting; back online,
    # it is sent by itself and recorded once; the spectator sees it.
    waits_for_deal(boris, 5)
    fill_deal(boris, OFFLINE)
    boris.context.set_offline(True)
    boris.locator("#entry-form button[type=submit]").click()
    expect(boris.locator("#entry-form [data-net-waiting='5']")).to_be_visible()
    assert len(standing(pulka)) == 4
    boris.context.set_offline(False)

    waits_for_deal(boris, 6)
    expect(watcher.locator("#protocol li[value='5']")).to_be_visible(timeout=8000)
    assert [d.number for d in standing(pulka)] == [1, 2, 3, 4, 5]
    assert Deal.objects.filter(pulka=pulka, number=5).count() == 1
    assert standing(pulka)[4].facts == OFFLINE
    recorded = AuditEvent.objects.filter(pulka=pulka, action=AuditEvent.Action.RECORDED)
    assert recorded.filter(deal_number=5).count() == 1
    for page in (anna, vera):
        waits_for_deal(page, 6)
    screenshot(watcher, str(screenshot_dir / f"table-of-three-spectator-{locale}.png"))
