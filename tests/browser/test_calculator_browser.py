"""The paper-pulka calculator on a phone (390×844), in Russian and English: a club player
types the paper sheet into the grid and reads the settlement; names never break inside
a word, and the wide tables scroll inside their frame with a visible edge.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from scoring.engine import settlement as engine
from scoring.engine.conventions import preset
from scoring.engine.settlement import Totals
from tests.browser.support import (
    OVERFLOW_JS,
    TAP_TARGETS_JS,
    TWELVE_DEALS,
    axe_violations,
    ensure_presets,
    figure,
    sign_in,
)
from tests.web.fixtures_access import build_world, make_pulka, record

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LANGUAGES = {"ru": "ru-RU", "en": "en-US"}
# The names the issue saw broken on a phone: "Дем о", "Бори с".
NAMES = ("Демо", "Анна", "Борис", "Вера", "Геннадий")
PULYA = (20, 14, 20, 8, 20)
GORA = (12, 30, 4, 48, 2)
WHISTS = {
    (0, 1): 40, (0, 3): 64, (1, 0): 12, (1, 2): 6, (2, 1): 80, (2, 3): 36, (2, 4): 10,
    (3, 0): 8, (4, 1): 22, (4, 3): 50, (3, 4): 4,
}  # fmt: skip

# Every word of the elements' text: a word the line broke inside has two boxes.
BROKEN_WORDS_JS = """selector => {
  const broken = [];
  document.querySelectorAll(selector).forEach(el => {
    const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    while (walker.nextNode()) {
      const node = walker.currentNode;
      for (const match of node.textContent.matchAll(/\\S+/g)) {
        const range = document.createRange();
        range.setStart(node, match.index);
        range.setEnd(node, match.index + match[0].length);
        const tops = new Set(Array.from(range.getClientRects())
          .filter(r => r.width > 0).map(r => Math.round(r.top)));
        if (tops.size > 1) broken.push(`${el.tagName.toLowerCase()} "${match[0]}" on ${tops.size} lines`);
      }
    }
  });
  return broken;
}"""

# Each frame of a table: whether its table is wider, and whether it draws its edge shadows.
SCROLL_FRAMES_JS = """() => Array.from(document.querySelectorAll('#settlement .table-scroll')).map(f => ({
  scrolls: f.scrollWidth > f.clientWidth + 1,
  shadow: getComputedStyle(f).backgroundImage.includes('radial-gradient'),
  heading: f.getAttribute('aria-labelledby'),
}))"""


def open_calculator(new_context: Any, live_server: Any, language: str) -> Page:
    ensure_presets()
    world = build_world()
    context = new_context(locale=LANGUAGES[language], bypass_csp=True)
    sign_in(context, live_server.url, world.users["member"])
    page = context.new_page()
    page.goto(f"{live_server.url}/calculator/")
    return page


def fill_players(page: Page) -> None:
    form = page.locator("#paper-players")
    form.locator("select[name=convention]").select_option("sochi")
    for number, name in enumerate(NAMES, 1):
        form.locator(f"input[name=name_{number}]").fill(name)
    form.locator("input[name=target]").fill("20")
    form.locator("input[name=stake]").fill("0.1")
    form.locator("button[type=submit]").click()
    page.locator("#paper-figures").wait_for()


def fill_figures(page: Page) -> None:
    form = page.locator("#paper-figures")
    for seat in range(len(NAMES)):
        form.locator(f"input[name=pulya_{seat}]").fill(str(PULYA[seat]))
        form.locator(f"input[name=gora_{seat}]").fill(str(GORA[seat]))
    for (seat, on), value in WHISTS.items():
        form.locator(f"input[name=whists_{seat}_{on}]").fill(str(value))


def engine_whole() -> list[int]:
    size = len(NAMES)
    whists = tuple(tuple(WHISTS.get((i, j), 0) for j in range(size)) for i in range(size))
    totals = Totals(NAMES, 20, PULYA, GORA, whists)
    result = engine.whole_result(totals, preset("sochi")).result
    assert sum(result) == 0
    return list(result)


@pytest.mark.parametrize("language", ["en"])  # one walk, one language: CONTRIBUTING.md, "Tests"
def test_a_player_settles_a_paper_sheet_through_the_grid(live_server, new_context, language):
    page = open_calculator(new_context, live_server, language)
    assert axe_violations(page) == []
    fill_players(page)
    fill_figures(page)
    assert page.evaluate(TAP_TARGETS_JS, 44) == []
    assert page.evaluate(OVERFLOW_JS)["scrollWidth"] <= 390

    # A word in Анна's gora: the message stands in Анна's row, beside the boxes.
    page.locator("input[name=gora_1]").fill("тридцать")
    page.locator("#paper-figures button[type=submit]").click()
    anna = page.locator("#paper-figures fieldset.paper__row").nth(1)
    expect(anna.locator("legend")).to_have_text("Анна")
    message = {"ru": "Не целое число (Анна: гора).", "en": "Not a whole number (Анна: gora)."}
    expect(anna.locator(".form__error")).to_have_text(message[language])
    expect(anna.locator("input[name=gora_1]")).to_have_attribute("aria-invalid", "true")
    expect(page.locator("#settlement")).to_have_count(0)
    assert axe_violations(page) == []

    page.locator("input[name=gora_1]").fill(str(GORA[1]))
    page.locator("#paper-figures button[type=submit]").click()
    page.locator("#settlement").wait_for()

    shown = [int(figure(t)) for t in page.locator("[data-result='whole']").all_inner_texts()]
    assert shown == engine_whole()
    payments = page.locator(".payments li").all_inner_texts()
    assert payments and all(" → " in p for p in payments)
    if language == "ru":
        assert not any("платит" in p for p in payments)
    assert page.evaluate(OVERFLOW_JS)["scrollWidth"] <= 390
    assert axe_violations(page) == []


@pytest.mark.parametrize("language", ["ru"])  # one walk, one language: CONTRIBUTING.md, "Tests"
def test_names_never_break_inside_a_word_and_wide_tables_scroll(live_server, new_context, language):
    page = open_calculator(new_context, live_server, language)
    fill_players(page)
    fill_figures(page)
    page.locator("#paper-figures button[type=submit]").click()
    page.locator("#settlement").wait_for()

    selector = "#settlement th, #settlement td, #settlement li, #paper-figures legend"
    assert page.evaluate(BROKEN_WORDS_JS, selector) == []
    frames = page.evaluate(SCROLL_FRAMES_JS)
    # The steps of method 1 have six columns: too wide for 390 px, so they scroll, and
    # every frame draws the shadow that shows there is more to the side.
    assert any(f["scrolls"] and f["heading"] == "method1-heading" for f in frames)
    assert all(f["shadow"] for f in frames)
    assert page.evaluate(OVERFLOW_JS)["scrollWidth"] <= 390


@pytest.mark.parametrize("language", ["en"])  # one walk, one language: CONTRIBUTING.md, "Tests"
def test_names_never_break_on_the_settlement_page(live_server, new_context, language):
    ensure_presets()
    world = build_world()
    renamed = {"Anna": "Демо", "Boris": "Борис", "Vera": "Вероника"}
    pulka = make_pulka(world.club, tuple(renamed.values()), world.users["member"])
    for facts in TWELVE_DEALS:
        text = json.dumps(facts, ensure_ascii=False)
        for old, new in renamed.items():
            text = text.replace(f'"{old}"', f'"{new}"')
        record(pulka, json.loads(text), world.users["member"])
    context = new_context(locale=LANGUAGES[language], bypass_csp=True)
    sign_in(context, live_server.url, world.users["member"])
    page = context.new_page()
    page.goto(f"{live_server.url}/pulkas/{pulka.pk}/settlement/")

    assert page.evaluate(BROKEN_WORDS_JS, "#settlement th, #settlement td, #settlement label") == []
    assert page.evaluate(OVERFLOW_JS)["scrollWidth"] <= 390
    if language == "ru":
        payments = page.locator(".payments li").all_inner_texts()
        assert payments and all(" → " in p and "платит" not in p for p in payments)


@pytest.mark.parametrize("language", ["ru"])  # one walk, one language: CONTRIBUTING.md, "Tests"
def test_the_json_tab_names_a_syntax_error_by_line_and_column(live_server, new_context, language):
    page = open_calculator(new_context, live_server, language)
    page.locator(".tabs__tab").nth(1).click()
    page.locator("textarea[name=text]").fill('{"players": ["A", "B"]\n "target": 10}')
    page.locator("#calculator button[type=submit]").click()

    error = page.locator("#calculator .form__error")
    expect(error).to_contain_text("2")
    text = error.inner_text()
    assert "Expecting" not in text and "delimiter" not in text
    assert ("строке 2" in text) if language == "ru" else ("line 2, column 2" in text)
