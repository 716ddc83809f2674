"""A phone on a bad network (static/js/network.js, games/views/sheet.py): a deal sent
while the connection drops arrives once, a race lost shows both entries side by side
and records the player's as the next deal at his word, a poll does not wipe a half-filled entry, a server error says "not saved" and the
retry records it, and a refusal keeps the page under DEBUG too. Phone size. Each walk
in one language, half in each (CONTRIBUTING.md, "Tests"); the words network.js shows are
read in both by the last test."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.db.models import F
from playwright.sync_api import Page, expect

from prefscore.games.models import AuditEvent, Deal, Pulka
from prefscore.games.services import record_deal
from tests.browser.support import (
    TWELVE_DEALS,
    axe_violations,
    fill_deal,
    screenshot,
    script_word,
    sign_in,
)
from tests.browser.support import record_deal as record_on
from tests.web.fixtures_access import DEALS, build_world

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

assert list(DEALS) == list(TWELVE_DEALS[:2])  # the access world's pulka: two deals

LANGUAGES = {
    "ru-RU": {
        "not_saved": "Не сохранено",
        "retry": "Повторить сейчас",
        "saving": "Сохраняю…",
        "conflict": "Сдачу 3 уже записали с другого устройства.",
        "both": "Две записи сдачи 3",
        "theirs": "В листе, запись: admin",
        "mine_as_4": "Записать мою как сдачу 4",
        "elsewhere": "Сдачу 3 записали с другого устройства, пока вы её заполняли.",
        "restore": "Вернуть мою запись как сдачу 4",
        "record_4": "Записать сдачу 4",
        "pencil": "Изменить или отменить последнюю сдачу может только тот, кто её записал",
    },
    "en-US": {
        "not_saved": "Not saved",
        "retry": "Retry now",
        "saving": "Saving…",
        "conflict": "Deal 3 was already recorded on another device.",
        "both": "Two entries for deal 3",
        "theirs": "On the sheet, recorded by admin",
        "mine_as_4": "Record mine as deal 4",
        "elsewhere": "Deal 3 was recorded on another device while you were filling it in.",
        "restore": "Put my entry back as deal 4",
        "record_4": "Record deal 4",
        "pencil": "Only whoever recorded the last deal",
    },
}

SUBMIT = "#entry-form button[type=submit]"
STATUS = "#entry-form .net-status"
WAITING = "#entry-form [data-net-waiting='3']"  # deal 3 waits; the form is deal 4's


def open_table(new_context, base_url, user, pk, locale, **options) -> Page:
    context = new_context(locale=locale, **options)
    sign_in(context, base_url, user)
    page = context.new_page()
    page.goto(f"{base_url}/pulkas/{pk}/")
    page.evaluate("window.__prefscoreMarker = 'not reloaded'")
    return page


def hold_polls(page: Page) -> None:
    """No poll gets through: the page changes only by its own requests."""
    page.route("**/poll/**", lambda route: route.abort())


def as_params(facts: dict[str, Any]) -> dict[str, str]:
    """``form_facts`` as the fields the form posts (what the outbox keeps)."""
    fields = dict(chip.rsplit("-", 1) for chip in facts["checked"])
    return {"number": facts["number"], **fields, **facts["tricks"]}


def kept_params(page: Page) -> list[dict[str, str]]:
    """The fields of each entry the outbox keeps, but for its client id."""
    kept = page.evaluate("JSON.parse(localStorage.getItem('prefscore.outbox') || '[]')")
    return [{k: v for k, v in entry["params"] if v and k != "client_id"} for entry in kept]


def form_facts(page: Page) -> dict[str, Any]:
    """What the entry form holds: its deal number, checked chips, trick counts."""
    return page.evaluate(
        """() => {
            const form = document.getElementById('entry-form');
            const out = {number: form.querySelector('input[name=number]').value, checked: [],
                         tricks: {}};
            form.querySelectorAll('input[type=radio]:checked').forEach(
                i => { if (i.value) out.checked.push(i.id); });
            form.querySelectorAll('.entry__tricks .stepper__input').forEach(
                i => { if (i.value) out.tricks[i.name] = i.value; });
            out.checked.sort();
            return out;
        }"""
    )


def deals_of(pk: int) -> list[Deal]:
    """The deals that stand (an undone one is kept, withdrawn)."""
    return list(Deal.objects.filter(pulka_id=pk).current().order_by("number"))


# --- offline mid-record, then online ------------------------------------------------------


@pytest.mark.parametrize("locale", ["ru-RU"])  # one walk, one language: CONTRIBUTING.md, "Tests"
def test_a_deal_whose_answer_is_lost_offline_arrives_once_when_the_phone_is_back_online(
    live_server, new_context, locale
):
    world = build_world()
    pk = world.pulka.pk
    page = open_table(new_context, live_server.url, world.users["member"], pk, locale)
    fill_deal(page, TWELVE_DEALS[2])
    typed = form_facts(page)
    seen: dict[str, Any] = {}

    def reach_the_server_then_drop(route):
        # The deal reaches the server and is recorded; the phone goes offline before the
        # answer comes back, so the phone does not know.
        seen["status"] = route.fetch().status
        page.context.set_offline(True)
        route.abort("internetdisconnected")

    page.route("**/deals/", reach_the_server_then_drop, times=1)
    page.locator(SUBMIT).click()

    # Kept in the outbox, the form moved on to deal 4: nothing typed next replaces it.
    expect(page.locator(WAITING)).to_be_visible()
    expect(page.locator("#entry-form input[name=number]")).to_have_value("4")
    assert seen["status"] == 200
    assert kept_params(page) == [as_params(typed)]  # the facts as typed, kept
    assert len(deals_of(pk)) == 3
    expect(page.locator("#outbox [data-outbox-send]")).to_be_visible()
    expect(page.locator(SUBMIT)).to_be_enabled()

    page.context.set_offline(False)  # the `online` event: sent again by itself

    expect(page.locator("#protocol li[value='3']")).to_be_visible()
    expect(page.locator("#entry-form input[name=number]")).to_have_value("4")
    expect(page.locator(STATUS)).to_have_count(0)
    expect(page.locator("#entry .notice")).to_have_count(0)
    assert [d.number for d in deals_of(pk)] == [1, 2, 3]
    assert Deal.objects.filter(pulka_id=pk).count() == 3  # withdrawn ones included
    assert deals_of(pk)[2].facts == TWELVE_DEALS[2]
    recorded = AuditEvent.objects.filter(pulka_id=pk, action=AuditEvent.Action.RECORDED)
    assert recorded.filter(deal_number=3).count() == 1
    assert page.evaluate("window.__prefscoreMarker") == "not reloaded"


@pytest.mark.parametrize("locale", ["en-US"])  # one walk, one language: CONTRIBUTING.md, "Tests"
def test_a_deal_sent_while_offline_waits_and_is_sent_once_the_connection_returns(
    live_server, new_context, locale
):
    world = build_world()
    pk = world.pulka.pk
    page = open_table(new_context, live_server.url, world.users["member"], pk, locale)
    fill_deal(page, TWELVE_DEALS[2])
    page.context.set_offline(True)

    page.locator(SUBMIT).click()

    expect(page.locator(WAITING)).to_be_visible()
    page.wait_for_timeout(300)
    assert len(deals_of(pk)) == 2
    page.context.set_offline(False)
    expect(page.locator("#protocol li[value='3']")).to_be_visible()
    assert len(deals_of(pk)) == 3


# --- a server error: "not saved", then the retry -----------------------------------------


@pytest.mark.parametrize("locale", ["ru-RU"])  # one walk, one language: CONTRIBUTING.md, "Tests"
def test_a_server_error_keeps_the_deal_waiting_and_send_now_records_it_once(
    live_server, new_context, locale, screenshot_dir
):
    world = build_world()
    pk = world.pulka.pk
    page = open_table(
        new_context, live_server.url, world.users["member"], pk, locale, bypass_csp=True
    )
    words = LANGUAGES[locale]
    fill_deal(page, TWELVE_DEALS[2])
    typed = form_facts(page)
    in_flight: dict[str, Any] = {"failing": True}

    def fail(route):
        # The server fails until the test has looked (the phone retries by itself).
        if not in_flight["failing"]:
            route.continue_()
            return
        in_flight.setdefault(
            "button", page.locator(SUBMIT).evaluate("b => [b.disabled, b.textContent]")
        )
        route.fulfill(status=500, body="<h1>Server Error (500)</h1>")

    page.route("**/deals/", fail)
    page.locator(SUBMIT).click()

    expect(page.locator(WAITING)).to_be_visible()
    assert in_flight["button"] == [True, words["saving"]]
    assert kept_params(page) == [as_params(typed)]
    assert len(deals_of(pk)) == 2
    assert axe_violations(page) == []
    page.locator(WAITING).scroll_into_view_if_needed()
    screenshot(page, screenshot_dir / f"not-saved-{locale[:2]}.png")
    in_flight["failing"] = False

    page.locator("#outbox [data-outbox-send]").click()  # the outbox's "send now"

    expect(page.locator("#protocol li[value='3']")).to_be_visible()
    expect(page.locator(WAITING)).to_have_count(0)
    assert len(deals_of(pk)) == 3
    assert deals_of(pk)[2].facts == TWELVE_DEALS[2]


# --- a race lost: both entries side by side, the player chooses --------------------------


@pytest.mark.parametrize("locale", ["ru-RU"])  # one walk, one language: CONTRIBUTING.md, "Tests"
def test_the_phone_that_loses_a_race_sees_both_entries_and_records_its_own_as_the_next_deal(
    live_server, new_context, locale, screenshot_dir
):
    world = build_world()
    pk = world.pulka.pk
    winner = open_table(new_context, live_server.url, world.users["admin"], pk, "en-US")
    loser = open_table(
        new_context, live_server.url, world.users["member"], pk, locale, bypass_csp=True
    )
    words = LANGUAGES[locale]
    hold_polls(loser)  # the loser's form is still deal 3's when it is sent
    fill_deal(loser, TWELVE_DEALS[3])
    record_on(winner, TWELVE_DEALS[2], 3)

    loser.locator(SUBMIT).click()

    notice = loser.locator("#entry .notice")
    expect(notice).to_contain_text(words["conflict"])
    expect(loser.locator("#entry-heading")).to_have_text(words["both"])
    expect(loser.locator(".conflict")).to_contain_text(words["theirs"])
    expect(loser.locator("#protocol li[value='3']")).to_be_visible()  # the new sheet
    assert loser.locator("#entry-form input[type=radio]").count() == 0  # nothing pre-filled
    expect(loser.locator(SUBMIT)).to_have_text(words["mine_as_4"])
    assert axe_violations(loser) == []
    notice.scroll_into_view_if_needed()
    screenshot(loser, screenshot_dir / f"race-lost-{locale[:2]}.png")

    loser.locator(SUBMIT).click()  # one tap: the player's choice

    expect(loser.locator("#protocol li[value='4']")).to_be_visible()
    expect(loser.locator("#entry-form input[name=number]")).to_have_value("5")
    deals = deals_of(pk)
    assert [d.number for d in deals] == [1, 2, 3, 4]
    assert deals[2].facts == TWELVE_DEALS[2]
    assert deals[2].entered_by == world.users["admin"]
    assert deals[3].facts == TWELVE_DEALS[3]
    assert deals[3].entered_by == world.users["member"]
    assert loser.evaluate("localStorage.getItem('prefscore.outbox')") == "[]"


# --- a poll does not wipe a half-filled entry ---------------------------------------------


@pytest.mark.parametrize("locale", ["en-US"])  # one walk, one language: CONTRIBUTING.md, "Tests"
def test_a_poll_keeps_a_half_filled_entry_and_says_when_the_deal_was_recorded_elsewhere(
    live_server, new_context, locale, screenshot_dir
):
    world = build_world()
    pk = world.pulka.pk
    page = open_table(
        new_context, live_server.url, world.users["member"], pk, locale, bypass_csp=True
    )
    words = LANGUAGES[locale]
    half = {"contract": "7H", "declarer": "Boris"}
    fill_deal(page, half)
    page.locator("#tricks_1").fill("5")
    typed = form_facts(page)

    # Something changes that leaves the next deal as it was: the poll brings the
    # regions, and the half-filled form is filled in again.
    Pulka.objects.filter(pk=pk).update(version=F("version") + 1)
    version = Pulka.objects.get(pk=pk).version
    page.wait_for_function(
        "v => document.getElementById('poll').getAttribute('hx-get').includes('v=' + v + '&')",
        arg=version,
        timeout=6000,
    )
    page.wait_for_timeout(100)  # the settle
    assert form_facts(page) == typed

    # Another device records deal 3: the form moves on to deal 4 and says so, with one
    # tap to put the entry back.
    record_deal(pk, TWELVE_DEALS[2], world.users["admin"], 3)
    elsewhere = page.locator("#entry .net-elsewhere")
    expect(elsewhere).to_contain_text(words["elsewhere"], timeout=6000)
    expect(page.locator("#entry-form input[name=number]")).to_have_value("4")
    assert form_facts(page)["checked"] == []
    assert axe_violations(page) == []
    elsewhere.scroll_into_view_if_needed()
    screenshot(page, screenshot_dir / f"recorded-elsewhere-{locale[:2]}.png")

    elsewhere.get_by_role("button", name=words["restore"]).click()

    assert form_facts(page) == {**typed, "number": "4"}
    expect(elsewhere).to_have_count(0)
    assert page.evaluate("window.__prefscoreMarker") == "not reloaded"


def test_a_poll_leaves_an_untouched_entry_to_move_on_without_a_word(live_server, new_context):
    world = build_world()
    pk = world.pulka.pk
    page = open_table(new_context, live_server.url, world.users["member"], pk, "en-US")

    record_deal(pk, TWELVE_DEALS[2], world.users["admin"], 3)

    expect(page.locator("#entry-form input[name=number]")).to_have_value("4", timeout=6000)
    expect(page.locator("#entry .net-elsewhere")).to_have_count(0)


# --- a refusal keeps the page, under DEBUG too --------------------------------------------


# The server's refusal, in each language once and under each DEBUG setting once.
@pytest.mark.parametrize(("locale", "debug"), [("ru-RU", True), ("en-US", False)])
def test_a_refused_undo_keeps_the_page_and_says_why_whatever_the_debug_setting(
    live_server, new_context, settings, locale, debug
):
    settings.DEBUG = debug
    world = build_world()
    pk = world.pulka.pk
    page = open_table(new_context, live_server.url, world.users["member"], pk, locale)
    assert page.locator("script[src*='django-htmx']").count() == 0
    hold_polls(page)
    record_on(page, TWELVE_DEALS[2], 3)  # the member holds the pencil on deal 3 ...
    record_deal(pk, TWELVE_DEALS[3], world.users["admin"], 4)  # ... until deal 4 elsewhere
    page.on("dialog", lambda dialog: dialog.accept())

    page.locator("#protocol li[value='3'] .pencil button[name=action]").click()

    notice = page.locator("#entry .notice")
    expect(notice).to_contain_text(LANGUAGES[locale]["pencil"])
    expect(page.locator(".site-header")).to_be_visible()  # the page, not a bare fragment
    expect(page.locator("#protocol li[value='4']")).to_be_visible()  # the sheet as it stands
    assert page.evaluate("window.__prefscoreMarker") == "not reloaded"
    assert page.evaluate("document.querySelectorAll('html').length") == 1
    assert len(deals_of(pk)) == 4


# --- the other actions of the screen -------------------------------------------------------


@pytest.mark.parametrize("locale", ["en-US"])  # one walk, one language: CONTRIBUTING.md, "Tests"
def test_an_undo_sent_offline_is_sent_again_once_online_without_asking_twice(
    live_server, new_context, locale
):
    world = build_world()
    pk = world.pulka.pk
    page = open_table(new_context, live_server.url, world.users["member"], pk, locale)
    record_on(page, TWELVE_DEALS[2], 3)
    questions: list[str] = []

    def answer(dialog):
        questions.append(dialog.message)
        dialog.accept()

    page.on("dialog", answer)
    page.context.set_offline(True)
    undo = page.locator("#protocol li[value='3'] .pencil form")

    undo.locator("button[name=action]").click()

    expect(undo.locator(".net-status")).to_contain_text(LANGUAGES[locale]["not_saved"])
    assert len(deals_of(pk)) == 3
    page.context.set_offline(False)
    expect(page.locator("#protocol li[value='3']")).to_have_count(0)
    expect(page.locator("#entry-form input[name=number]")).to_have_value("3")
    assert len(deals_of(pk)) == 2
    assert Deal.objects.filter(pulka_id=pk, withdrawn_at__isnull=False).count() == 1
    assert len(questions) == 1  # asked when tapped, not again when sent again


def test_a_link_that_could_not_load_its_form_says_so_and_loads_when_tapped_again(
    live_server, new_context
):
    world = build_world()
    pk = world.pulka.pk
    page = open_table(new_context, live_server.url, world.users["member"], pk, "en-US")
    record_on(page, TWELVE_DEALS[2], 3)
    bad_gateway = lambda route: route.fulfill(status=502, body="Bad gateway")  # noqa: E731
    page.route(re.compile(r"\?change=3"), bad_gateway, times=1)
    change = page.locator("#protocol li[value='3'] .pencil a")

    change.click()

    note = page.locator("#protocol li[value='3'] .net-status--link")
    expect(note).to_contain_text("Not loaded")
    expect(page.locator("#entry-form")).to_have_attribute("data-mode", "record")
    change.click()
    expect(page.locator("#entry-form")).to_have_attribute("data-mode", "change")
    expect(note).to_have_count(0)


# --- the script's words, in both languages --------------------------------------------------


@pytest.mark.parametrize("locale", list(LANGUAGES))
def test_the_words_network_js_shows_read_in_each_language(live_server, new_context, locale):
    """The walks above read these words in one language each; here all of them in both, as
    the page gives them to the script and filled in as it fills them."""
    world = build_world()
    pk = world.pulka.pk
    page = open_table(new_context, live_server.url, world.users["member"], pk, locale)
    words = LANGUAGES[locale]

    assert script_word(page, "#net-strings", "saving") == words["saving"]
    assert script_word(page, "#net-strings", "retry") == words["retry"]
    assert script_word(page, "#net-strings", "failed").startswith(words["not_saved"])
    assert script_word(page, "#net-strings", "elsewhere", number=3) == words["elsewhere"]
    assert script_word(page, "#net-strings", "restore", number=4) == words["restore"]
