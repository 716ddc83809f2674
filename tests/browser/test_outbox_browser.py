"""The outbox and the sheet offline (static/js/outbox.js, network.js, /sw.js): a phone
that records deals offline and is reloaded keeps them and shows the sheet it had; two
phones that record the same deal offline see both entries and one chooses; an expired
session keeps the entries until the player signs in again. Phone size. Each walk in one
language, half in each (CONTRIBUTING.md, "Tests"); the words outbox.js and network.js show
here are read in both by the last test.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.contrib.sessions.models import Session
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Page, expect

from prefscore.games.models import AuditEvent, Deal, Pulka
from tests.browser.support import (
    TWELVE_DEALS,
    axe_violations,
    fill_deal,
    screenshot,
    script_word,
    sign_in,
)
from tests.web.fixtures_access import PASSWORD, build_world

# How long an outbox round may take: on load it may find the phone still offline, then
# waits its backoff (2 s, 5 s, 10 s, 20 s, 30 s: static/js/outbox.js); on a loaded CI
# machine a try or two can fail, and the fifth comes 37 s after the page loads. It
# bounds a wait for the answer; it times nothing.
OUTBOX_ROUND = 60_000

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LANGUAGES = {
    "ru-RU": {
        "waits": "Сдача {n} сохранена на этом телефоне и ждёт отправки",
        "same": "Сдача 3 уже ждёт отправки на этом телефоне",
        "as_next": "Записать её как сдачу 5",
        "offline": "Нет связи — лист на",
        "two_waiting": "2 записи ждут отправки",
        "both": "Две записи сдачи 3",
        "theirs": "В листе, запись: admin",
        "mine_as_4": "Записать мою как сдачу 4",
        "sign_in": "Войдите, чтобы отправить 1 сохранённую запись",
        "not_sent": "Не отправлено",
        "discard": "Удалить",
        "ready": "Готова новая версия.",
        "reload": "Перезагрузить",
        "not_sent_yet": "1 запись ещё не отправлена",
        "sign_out_anyway": "Всё равно выйти",
    },
    "en-US": {
        "waits": "Deal {n} is saved on this phone and waits to be sent",
        "same": "Deal 3 already waits on this phone to be sent",
        "as_next": "Record it as deal 5",
        "offline": "Offline — the sheet as of",
        "two_waiting": "2 entries are waiting to be sent",
        "both": "Two entries for deal 3",
        "theirs": "On the sheet, recorded by admin",
        "mine_as_4": "Record mine as deal 4",
        "sign_in": "Sign in to send 1 saved entry",
        "not_sent": "Not sent",
        "discard": "Discard",
        "ready": "A new version is ready.",
        "reload": "Reload",
        "not_sent_yet": "1 entry has not been sent yet",
        "sign_out_anyway": "Sign out anyway",
    },
}

SUBMIT = "#entry-form button[type=submit]"
NUMBER = "#entry-form input[name=number]"


def waits(page: Page, number: int) -> None:
    """The deal's entry waits in the outbox, and the form has moved on past it."""
    expect(page.locator(f"#entry-form [data-net-waiting='{number}']")).to_be_visible()


def open_table(new_context: Any, base_url: str, user: Any, pk: int, locale: str) -> Page:
    context = new_context(locale=locale, bypass_csp=True)
    sign_in(context, base_url, user)
    page = context.new_page()
    page.goto(f"{base_url}/pulkas/{pk}/")
    return page


def kept_by_the_worker(page: Page) -> None:
    """The service worker controls the page, and has kept the sheet as it stands."""
    page.evaluate("navigator.serviceWorker.ready")
    page.reload()  # now through the worker: network first, and kept
    page.wait_for_function("navigator.serviceWorker.controller !== null")


def outbox(page: Page) -> list[dict[str, Any]]:
    return json.loads(page.evaluate("localStorage.getItem('prefscore.outbox') || '[]'"))


def outbox_empties(page: Page) -> None:
    """Wait for the page's outbox to hold nothing. The sheet can show a deal before the
    outbox has the answer to sending it: once the deal is committed, the push brings it
    to every page of the table, this one too, while the answer to its own request is
    still on its way (seen on a loaded machine)."""
    page.wait_for_function(
        "(localStorage.getItem('prefscore.outbox') || '[]') === '[]'", timeout=OUTBOX_ROUND
    )


def deals_of(pk: int) -> list[Deal]:
    return list(Deal.objects.filter(pulka_id=pk).current().order_by("number"))


def recorded_lines(pk: int, number: int) -> int:
    rows = AuditEvent.objects.filter(pulka_id=pk, action=AuditEvent.Action.RECORDED)
    return rows.filter(deal_number=number).count()


# --- offline, then reload -----------------------------------------------------------------


@pytest.mark.parametrize("locale", ["en-US"])  # one walk, one language: CONTRIBUTING.md, "Tests"
def test_two_deals_recorded_offline_survive_a_reload_and_arrive_once_each_in_order(
    live_server, new_context, locale, screenshot_dir
):
    world = build_world()
    pk = world.pulka.pk
    words = LANGUAGES[locale]
    page = open_table(new_context, live_server.url, world.users["member"], pk, locale)
    kept_by_the_worker(page)
    page.context.set_offline(True)

    fill_deal(page, TWELVE_DEALS[2])
    page.locator(SUBMIT).click()
    # Saved, waiting: the form moves on to deal 4 at once, so that the next tap of
    # Record can never replace deal 3.
    waits(page, 3)
    expect(page.locator("#entry-form .net-offline-next")).to_contain_text(
        words["waits"].format(n=3)
    )
    expect(page.locator(NUMBER)).to_have_value("4")
    expect(page.locator("#entry-heading")).to_contain_text("4")
    screenshot(page, screenshot_dir / f"offline-waits-{locale[:2]}.png")
    fill_deal(page, TWELVE_DEALS[3])
    page.locator(SUBMIT).click()
    waits(page, 4)
    expect(page.locator(NUMBER)).to_have_value("5")
    assert [e["params"][0] for e in outbox(page)] == [["number", "3"], ["number", "4"]]

    page.reload()  # offline: the copy the worker kept, marked, with the entries waiting

    status = page.locator("#outbox")
    expect(status).to_contain_text(words["offline"])
    expect(status).to_contain_text(words["two_waiting"])
    expect(status.locator(".outbox__item")).to_have_count(2)
    expect(page.locator("#protocol li[value='2']")).to_be_visible()  # the last sheet
    assert len(deals_of(pk)) == 2
    assert axe_violations(page) == []
    screenshot(page, screenshot_dir / f"offline-reloaded-{locale[:2]}.png")

    page.context.set_offline(False)  # the `online` event: the outbox is sent

    expect(page.locator("#protocol li[value='4']")).to_be_visible(timeout=OUTBOX_ROUND)
    expect(status).not_to_contain_text(words["two_waiting"])
    expect(status).not_to_contain_text(words["offline"])  # the server answers again
    assert outbox(page) == []
    deals = deals_of(pk)
    assert [d.number for d in deals] == [1, 2, 3, 4]
    assert [d.facts for d in deals[2:]] == [TWELVE_DEALS[2], TWELVE_DEALS[3]]
    assert Deal.objects.filter(pulka_id=pk).count() == 4  # nothing twice, nothing withdrawn
    assert recorded_lines(pk, 3) == recorded_lines(pk, 4) == 1


# --- a race offline -----------------------------------------------------------------------


@pytest.mark.parametrize("locale", ["en-US"])  # one walk, one language: CONTRIBUTING.md, "Tests"
def test_two_phones_record_the_same_deal_offline_and_the_second_chooses(
    live_server, new_context, locale, screenshot_dir
):
    world = build_world()
    pk = world.pulka.pk
    words = LANGUAGES[locale]
    first = open_table(new_context, live_server.url, world.users["admin"], pk, "en-US")
    second = open_table(new_context, live_server.url, world.users["member"], pk, locale)
    for phone, facts in ((first, TWELVE_DEALS[2]), (second, TWELVE_DEALS[3])):
        phone.context.set_offline(True)
        fill_deal(phone, facts)
        phone.locator(SUBMIT).click()
        waits(phone, 3)

    first.context.set_offline(False)
    expect(first.locator("#protocol li[value='3']")).to_be_visible(timeout=OUTBOX_ROUND)
    second.context.set_offline(False)

    panel = second.locator("#entry")
    expect(panel.locator("#entry-heading")).to_have_text(words["both"], timeout=OUTBOX_ROUND)
    expect(panel.locator(".conflict")).to_contain_text(words["theirs"])
    assert [d.entered_by for d in deals_of(pk)][2] == world.users["admin"]
    assert second.locator("#entry-form input[type=radio]").count() == 0  # nothing pre-filled
    assert [e["state"] for e in outbox(second)] == ["conflict"]
    assert axe_violations(second) == []
    screenshot(second, screenshot_dir / f"race-offline-{locale[:2]}.png")

    second.get_by_role("button", name=words["mine_as_4"]).click()

    expect(second.locator("#protocol li[value='4']")).to_be_visible()
    deals = deals_of(pk)
    assert [(d.number, d.entered_by, d.facts) for d in deals[2:]] == [
        (3, world.users["admin"], TWELVE_DEALS[2]),
        (4, world.users["member"], TWELVE_DEALS[3]),
    ]
    assert outbox(second) == []
    assert recorded_lines(pk, 3) == recorded_lines(pk, 4) == 1


def test_discarding_the_entry_that_lost_the_race_leaves_the_sheet_as_it_is(
    live_server, new_context
):
    world = build_world()
    pk = world.pulka.pk
    first = open_table(new_context, live_server.url, world.users["admin"], pk, "en-US")
    second = open_table(new_context, live_server.url, world.users["member"], pk, "en-US")
    second.context.set_offline(True)
    fill_deal(second, TWELVE_DEALS[3])
    second.locator(SUBMIT).click()
    waits(second, 3)
    fill_deal(first, TWELVE_DEALS[2])
    first.locator(SUBMIT).click()
    expect(first.locator("#protocol li[value='3']")).to_be_visible()
    second.context.set_offline(False)
    expect(second.locator(".conflict")).to_be_visible(timeout=OUTBOX_ROUND)

    second.get_by_role("link", name="Discard mine").click()

    expect(second.locator("#entry-form input[name=number]")).to_have_value("4")
    expect(second.locator(".conflict")).to_have_count(0)
    assert outbox(second) == []
    assert len(deals_of(pk)) == 3


# --- an expired session -------------------------------------------------------------------


@pytest.mark.parametrize("locale", ["ru-RU"])  # one walk, one language: CONTRIBUTING.md, "Tests"
def test_entries_of_an_expired_session_are_kept_and_sent_after_signing_in(
    live_server, new_context, locale
):
    world = build_world()
    pk = world.pulka.pk
    words = LANGUAGES[locale]
    page = open_table(new_context, live_server.url, world.users["member"], pk, locale)
    page.context.set_offline(True)
    fill_deal(page, TWELVE_DEALS[2])
    page.locator(SUBMIT).click()
    waits(page, 3)
    Session.objects.all().delete()  # the session expires meanwhile

    page.context.set_offline(False)

    sign_in_link = page.locator("[data-outbox-signin]")
    expect(sign_in_link).to_have_text(words["sign_in"], timeout=OUTBOX_ROUND)
    assert len(outbox(page)) == 1
    assert len(deals_of(pk)) == 2
    sign_in_link.click()
    expect(page.locator("[data-outbox-signin]")).to_have_text(words["sign_in"])  # there too
    page.locator("input[name=username]").fill("member")
    page.locator("input[name=password]").fill(PASSWORD)
    page.locator("main button[type=submit]").click()

    expect(page.locator("#protocol li[value='3']")).to_be_visible(timeout=OUTBOX_ROUND)
    assert outbox(page) == []
    assert [d.facts for d in deals_of(pk)][2] == TWELVE_DEALS[2]
    assert recorded_lines(pk, 3) == 1


# --- refused for good: "not sent", to copy or discard ---------------------------------------


@pytest.mark.parametrize("locale", ["ru-RU"])  # one walk, one language: CONTRIBUTING.md, "Tests"
def test_an_entry_refused_for_good_is_listed_as_not_sent_with_the_reason(
    live_server, new_context, locale
):
    world = build_world()
    pk = world.pulka.pk
    words = LANGUAGES[locale]
    reason = {  # the server's reason (games/services.py), not the script's word
        "ru-RU": "Пулька окончена: новые сдачи не записываются.",
        "en-US": "This pulka is over: it takes no more deals.",
    }[locale]
    page = open_table(new_context, live_server.url, world.users["member"], pk, locale)
    page.context.set_offline(True)
    # Over meanwhile, while this phone is offline and still shows it running. Before the
    # entry, not after: Chromium's offline emulation fails a POST to the page at once,
    # yet now and then delivers it to the server when the page navigates away (seen in
    # CI: deal 3 was recorded at the moment of the "about:blank" below). Finished first,
    # the server refuses the entry whenever it arrives, and that is what is tested.
    Pulka.objects.filter(pk=pk).update(status=Pulka.Status.FINISHED)
    fill_deal(page, TWELVE_DEALS[2])
    page.locator(SUBMIT).click()
    waits(page, 3)
    page.goto("about:blank")  # the tab closed, the entry in the outbox
    page.context.set_offline(False)

    page.goto(f"{live_server.url}/")  # any page of the site sends the outbox on load

    refused = page.locator("[data-outbox-refused]")
    expect(refused).to_have_count(1, timeout=OUTBOX_ROUND)
    expect(page.locator(".outbox__refused h2")).to_have_text(words["not_sent"])
    expect(refused.locator(".outbox__reason")).to_contain_text(reason)
    copy = refused.locator(".outbox__copy")
    assert "number=3" in copy.input_value() and "contract=7" in copy.input_value()
    assert [e["state"] for e in outbox(page)] == ["refused"]
    assert len(deals_of(pk)) == 2
    assert axe_violations(page) == []

    refused.get_by_role("button", name=words["discard"]).click()

    expect(refused).to_have_count(0)
    assert outbox(page) == []


# --- a new release --------------------------------------------------------------------------


@pytest.mark.parametrize("locale", ["en-US"])  # one walk, one language: CONTRIBUTING.md, "Tests"
def test_a_new_release_offers_one_reload_and_takes_over_with_it(
    live_server, new_context, monkeypatch, locale
):
    ready, reload = LANGUAGES[locale]["ready"], LANGUAGES[locale]["reload"]
    world = build_world()
    page = open_table(new_context, live_server.url, world.users["member"], world.pulka.pk, locale)
    kept_by_the_worker(page)
    monkeypatch.setattr("prefscore.offline.release", lambda: "0123456789abcdef")
    page.evaluate("window.__prefscoreMarker = 'not reloaded'")

    page.evaluate("navigator.serviceWorker.getRegistration().then(r => r.update())")

    note = page.locator("#outbox-update")
    expect(note).to_contain_text(ready, timeout=OUTBOX_ROUND)
    assert page.evaluate("window.__prefscoreMarker") == "not reloaded"  # the player decides
    note.get_by_role("button", name=reload).click()

    page.wait_for_function("window.__prefscoreMarker === undefined")
    page.wait_for_function("navigator.serviceWorker.controller !== null")
    expect(page.locator("#outbox-update")).to_have_count(0)
    kept = page.evaluate("caches.keys()")
    assert "prefscore-static-0123456789abcdef" in kept
    assert not [
        name for name in kept if name.startswith("prefscore-static-") and "0123" not in name
    ]


# --- another account ------------------------------------------------------------------------


def test_signing_out_drops_the_pages_the_worker_kept(live_server, new_context):
    world = build_world()
    page = open_table(new_context, live_server.url, world.users["member"], world.pulka.pk, "en-US")
    kept_by_the_worker(page)
    kept = "caches.open('prefscore-pages').then(c => c.keys()).then(k => k.map(r => r.url))"
    assert any(url.endswith(f"/pulkas/{world.pulka.pk}/") for url in page.evaluate(kept))

    page.get_by_role("button", name="Sign out").click()
    page.wait_for_load_state()

    page.wait_for_function(f"{kept}.then(urls => urls.length === 0)")
    page.context.set_offline(True)
    with pytest.raises(PlaywrightError, match="ERR_FAILED"):  # nothing of the account to show
        page.goto(f"{live_server.url}/pulkas/{world.pulka.pk}/", wait_until="commit")


# --- the form never replaces a waiting entry -----------------------------------------------


@pytest.mark.parametrize("locale", ["ru-RU"])  # one walk, one language: CONTRIBUTING.md, "Tests"
def test_an_entry_for_a_deal_already_waiting_asks_first_and_both_deals_arrive(
    live_server, new_context, locale, screenshot_dir
):
    """Deals 3 and 4 wait; the page reloaded offline is the sheet as kept, whose form asks
    for deal 3 again. Recording there asks before anything is replaced."""
    world = build_world()
    pk = world.pulka.pk
    words = LANGUAGES[locale]
    page = open_table(new_context, live_server.url, world.users["member"], pk, locale)
    kept_by_the_worker(page)
    page.context.set_offline(True)
    for number in (3, 4):
        fill_deal(page, TWELVE_DEALS[number - 1])
        page.locator(SUBMIT).click()
        waits(page, number)
    page.reload()  # offline: the copy kept, whose form is deal 3's again
    expect(page.locator(NUMBER)).to_have_value("3")

    fill_deal(page, TWELVE_DEALS[4])
    page.locator(SUBMIT).click()

    question = page.locator("#entry-form .net-status")
    expect(question).to_contain_text(words["same"])
    assert [dict(e["params"])["number"] for e in outbox(page)] == ["3", "4"]  # nothing replaced
    assert axe_violations(page) == []
    screenshot(page, screenshot_dir / f"asks-first-{locale[:2]}.png")
    page.get_by_role("button", name=words["as_next"]).click()
    waits(page, 5)
    assert [dict(e["params"])["number"] for e in outbox(page)] == ["3", "4", "5"]

    page.context.set_offline(False)

    expect(page.locator("#protocol li[value='5']")).to_be_visible(timeout=OUTBOX_ROUND)
    assert [d.facts for d in deals_of(pk)][2:] == list(TWELVE_DEALS[2:5])
    assert outbox(page) == []


@pytest.mark.parametrize("locale", ["en-US"])  # one walk, one language: CONTRIBUTING.md, "Tests"
def test_signing_out_with_entries_waiting_says_so_first(live_server, new_context, locale):
    world = build_world()
    pk = world.pulka.pk
    warning = (LANGUAGES[locale]["not_sent_yet"], LANGUAGES[locale]["sign_out_anyway"])
    page = open_table(new_context, live_server.url, world.users["member"], pk, locale)
    page.context.set_offline(True)
    fill_deal(page, TWELVE_DEALS[2])
    page.locator(SUBMIT).click()
    waits(page, 3)
    page.route("**/outbox/session/", lambda route: route.abort())  # it stays unsent
    page.context.set_offline(False)

    page.locator("form[data-sign-out] button").click()

    said = page.locator("[data-outbox-sign-out]")
    expect(said).to_contain_text(warning[0])
    assert "/pulkas/" in page.url  # still here: nothing signed out yet
    assert axe_violations(page) == []
    said.get_by_role("button", name=warning[1]).click()
    page.wait_for_url(lambda url: "/pulkas/" not in url)
    assert len(outbox(page)) == 1  # kept on the phone, for this account's next sign-in
    assert not Session.objects.exists()


def test_the_offline_mark_goes_as_soon_as_the_outbox_has_sent(live_server, new_context):
    """Not one poll later: the outbox's own answer is the server answering again."""
    world = build_world()
    pk = world.pulka.pk
    page = open_table(new_context, live_server.url, world.users["member"], pk, "en-US")
    kept_by_the_worker(page)
    page.context.set_offline(True)
    fill_deal(page, TWELVE_DEALS[2])
    page.locator(SUBMIT).click()
    waits(page, 3)
    page.reload()
    status = page.locator("#outbox")
    expect(status).to_contain_text("Offline — the sheet as of")
    page.route("**/poll/**", lambda route: route.abort())  # no poll brings it

    page.context.set_offline(False)

    expect(status).not_to_contain_text("Offline — the sheet as of", timeout=OUTBOX_ROUND)
    assert outbox(page) == []


# --- the scripts' words, in both languages ---------------------------------------------------


@pytest.mark.parametrize("locale", list(LANGUAGES))
def test_the_words_the_outbox_shows_read_in_each_language(live_server, new_context, locale):
    """The walks above read these words in one language each; here all of them in both, as
    the page gives them to the scripts and filled in as they fill them."""
    world = build_world()
    page = open_table(new_context, live_server.url, world.users["member"], world.pulka.pk, locale)
    words = LANGUAGES[locale]
    net = "#net-strings"

    assert script_word(page, net, "waits", number=3).startswith(words["waits"].format(n=3))
    assert script_word(page, net, "same-waiting", number=3).startswith(words["same"])
    assert script_word(page, net, "as-next", number=5) == words["as_next"]
    assert script_word(page, "#outbox", "offline").startswith(words["offline"])
    assert script_word(page, "#outbox", "waiting", count=2) == words["two_waiting"]
    assert script_word(page, "#outbox", "signin", count=1) == words["sign_in"]
    assert script_word(page, "#outbox", "not-sent") == words["not_sent"]
    assert script_word(page, "#outbox", "discard") == words["discard"]
    assert script_word(page, "#outbox", "updated") == words["ready"]
    assert script_word(page, "#outbox", "reload") == words["reload"]
    assert script_word(page, "#outbox", "sign-out", count=1).startswith(words["not_sent_yet"])
    assert script_word(page, "#outbox", "sign-out-anyway") == words["sign_out_anyway"]
