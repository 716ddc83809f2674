"""A finished pulka's result shared, in a real browser at 390 × 844, in Russian and
English (docs/design.md, "Sharing a result"): the last deal ends the pulka, a player
makes the result public and shares it (the Web Share API stubbed in the page to write
down what it was given), a stranger signed out opens the link and sees the result and
the card, the link is taken back, and the stranger gets 404. Where the share sheet
takes no files the fallbacks copy the link and the text and download the card."""

from __future__ import annotations

import json
from io import BytesIO
from pathlib import Path
from typing import Any

import pytest
from PIL import Image
from playwright.sync_api import expect

from prefscore.games.models import Pulka
from scoring.engine.protocol import score_text
from tests.browser.support import OVERFLOW_JS, fill_deal, screenshot, sign_in
from tests.web import fixtures_club

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

club_world = fixtures_club.club_world

NAMES = ("olga", "ivan", "Guest Gena")
# A Sochi pulka to 2 that its fourth deal ends (engine-checked), at 0.5 a whist.
DEALS: tuple[dict[str, Any], ...] = (
    {"contract": "6S", "declarer": "olga", "whists": {"ivan": "whist", "Guest Gena": "pass"},
     "tricks": {"olga": 6, "ivan": 3, "Guest Gena": 1}},
    {"contract": "7H", "declarer": "ivan", "whists": {"olga": "whist", "Guest Gena": "whist"},
     "tricks": {"ivan": 5, "olga": 3, "Guest Gena": 2}},
    {"contract": "6S", "declarer": "ivan", "whists": {"olga": "pass", "Guest Gena": "pass"}},
    {"contract": "6S", "declarer": "Guest Gena", "whists": {"olga": "pass", "ivan": "pass"}},
)  # fmt: skip

# The Web Share API, written down: window.shared holds what navigator.share was given.
SHARE_STUB = """
window.shared = [];
Navigator.prototype.canShare = function (data) { return !!data && Array.isArray(data.files); };
Navigator.prototype.share = function (data) {
  window.shared.push({title: data.title, text: data.text, url: data.url,
    files: (data.files || []).map(f => ({name: f.name, type: f.type, size: f.size}))});
  return Promise.resolve();
};
"""
NO_SHARE = "delete Navigator.prototype.share; delete Navigator.prototype.canShare;"

WORDS = {
    "en-US": {"settle": "See the settlement", "publish": "Make the result public",
              "share": "Share", "revoke": "Take the link back", "who": "Who pays whom",
              "copy_link": "Copy the link", "copy_text": "Copy the result as text",
              "download": "Download the card", "copied": "The link is copied."},
    "ru-RU": {"settle": "Посмотреть расчёт", "publish": "Открыть результат по ссылке",
              "share": "Поделиться", "revoke": "Отозвать ссылку", "who": "Кто кому платит",
              "copy_link": "Скопировать ссылку", "copy_text": "Скопировать результат текстом",
              "download": "Скачать карточку", "copied": "Ссылка скопирована."},
}  # fmt: skip


def engine_whole() -> dict[str, int]:
    pulka = {"convention": "sochi", "players": list(NAMES), "target": 2, "stake": 0.5,
             "deals": list(DEALS)}  # fmt: skip
    return {n: int(v) for n, v in score_text(json.dumps(pulka))["result_whole"].items()}


def written(value: int) -> str:
    return f"−{-value}" if value < 0 else str(value)


def signed(value: int) -> str:
    """As a result beside a name: +39, −82."""
    return f"+{value}" if value > 0 else written(value)


def _finish_and_publish(page: Any, live_server: Any, pulka: Pulka, words: dict[str, str]) -> str:
    """The last deal recorded, the settlement opened, the result made public: its link."""
    page.goto(f"{live_server.url}/pulkas/{pulka.pk}/")
    fill_deal(page, DEALS[3], NAMES)
    page.locator("#entry-form button[type=submit]").click()
    page.locator("#entry a", has_text=words["settle"]).click()
    page.wait_for_url(f"{live_server.url}/pulkas/{pulka.pk}/settlement/")
    page.locator("#share button", has_text=words["publish"]).click()
    link = page.locator("[data-share-link]")
    expect(link).to_be_visible()
    return link.input_value()


@pytest.mark.parametrize("locale", ["en-US"])  # one walk, one language: CONTRIBUTING.md, "Tests"
def test_finish_share_open_signed_out_revoke_and_the_link_is_gone(
    live_server, new_context, club_world, screenshot_dir, locale
):
    words = WORDS[locale]
    pulka = fixtures_club.club_pulka(club_world.club, NAMES, DEALS[:3], target=2, stake="0.5")
    player = new_context(locale=locale)
    player.add_init_script(SHARE_STUB)
    sign_in(player, live_server.url, club_world.users["ivan"])
    page = player.new_page()
    link = _finish_and_publish(page, live_server, pulka, words)
    assert link.startswith(f"{live_server.url}/results/")
    assert page.evaluate(OVERFLOW_JS)["scrollWidth"] <= 390

    # The system share sheet gets the card as a file, the title, the text and the link.
    expect(page.locator("[data-share-copy='link']")).to_be_hidden()
    page.locator("[data-share-native]", has_text=words["share"]).click()
    page.wait_for_function("window.shared.length === 1")
    (given,) = page.evaluate("window.shared")
    assert given["url"] == link
    assert given["files"][0]["name"] == f"prefscore-{pulka.pk}.png"
    assert given["files"][0]["type"] == "image/png" and given["files"][0]["size"] > 5000
    whole = engine_whole()
    for name, value in whole.items():
        assert f"{name}: {signed(value)}" in given["text"]
    screenshot(page, str(screenshot_dir / f"share-panel-{locale}.png"), full_page=True)

    # A stranger, signed out, opens the link: the result and the card.
    stranger = new_context(locale=locale)
    other = stranger.new_page()
    other.goto(link)
    expect(other.locator("h1")).to_contain_text("olga")
    expect(other.locator("#payments-heading")).to_have_text(words["who"])
    for value in whole.values():
        expect(other.locator("[data-result='whole']", has_text=written(value))).to_have_count(1)
    card = other.locator("img.result-page__card")
    expect(card).to_be_visible()
    other.wait_for_function("document.querySelector('img.result-page__card').naturalWidth === 1200")
    assert other.evaluate(OVERFLOW_JS)["scrollWidth"] <= 390
    image_url = other.locator("meta[property='og:image']").get_attribute("content")
    answer = stranger.request.get(image_url)
    assert answer.status == 200 and answer.headers["content-type"] == "image/png"
    assert Image.open(BytesIO(answer.body())).size == (1200, 630)
    screenshot(other, str(screenshot_dir / f"shared-result-{locale}.png"), full_page=True)

    # Taken back: the page and the card are gone.
    page.locator("#share button", has_text=words["revoke"]).click()
    expect(page.locator("#share button", has_text=words["publish"])).to_be_visible()
    assert other.goto(link).status == 404
    assert stranger.request.get(image_url).status == 404


@pytest.mark.parametrize("locale", ["ru-RU"])  # one walk, one language: CONTRIBUTING.md, "Tests"
def test_without_a_share_sheet_for_files_the_link_and_text_are_copied_and_the_card_downloads(
    live_server, new_context, club_world, tmp_path: Path, locale
):
    words = WORDS[locale]
    pulka = fixtures_club.club_pulka(club_world.club, NAMES, DEALS[:3], target=2, stake="0.5")
    player = new_context(locale=locale, accept_downloads=True)
    player.add_init_script(NO_SHARE)
    player.grant_permissions(["clipboard-read", "clipboard-write"])
    sign_in(player, live_server.url, club_world.users["olga"])
    page = player.new_page()
    link = _finish_and_publish(page, live_server, pulka, words)

    expect(page.locator("[data-share-native]")).to_be_hidden()
    page.locator("[data-share-copy='link']", has_text=words["copy_link"]).click()
    expect(page.locator("[data-share-status]")).to_have_text(words["copied"])
    assert page.evaluate("navigator.clipboard.readText()") == link
    page.locator("[data-share-copy='text']", has_text=words["copy_text"]).click()
    text = page.evaluate("navigator.clipboard.readText()")
    for name, value in engine_whole().items():
        assert f"{name}: {signed(value)}" in text
    assert text.endswith(link)

    with page.expect_download() as download:
        page.locator("[data-share-download]", has_text=words["download"]).click()
    assert download.value.suggested_filename == f"prefscore-{pulka.pk}.png"
    saved = tmp_path / "card.png"
    download.value.save_as(saved)
    assert Image.open(saved).size == (1200, 630)
