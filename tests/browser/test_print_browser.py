"""Printing: the sheet, the protocol and the settlement on A4, without the site's header,
buttons, forms or the language switch (prefscore.css ``@media print``, ``@page``).

Each page is opened on a phone (390×844) in Russian and English, then shown as print
media; a PDF of the sheet checks that Chromium lays it out on A4 paper.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import Page

from tests.browser.support import TWELVE_DEALS, ensure_presets, sign_in
from tests.web.fixtures_access import build_world, make_pulka, record

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LANGUAGES = {"ru": "ru-RU", "en": "en-US"}
A4_POINTS = (595.3, 841.9)
# A4 less the 12 mm margins of @page, in CSS pixels (96 per inch).
A4_PRINT_WIDTH_PX = round((210 - 2 * 12) / 25.4 * 96)

# What must not print, and whether any of it is still laid out in print media.
SHOWN_JS = """selector => Array.from(document.querySelectorAll(selector))
  .filter(el => el.getClientRects().length > 0)
  .map(el => `${el.tagName.toLowerCase()}${el.id ? '#' + el.id : ''}.${el.className}`)"""
NOT_PRINTED = "header.site-header, .language-switch, button, form, .button, .skip-link, .join-panel"


def printed_page(new_context: Any, live_server: Any, language: str, path: str, user: Any) -> Page:
    context = new_context(locale=LANGUAGES[language])
    sign_in(context, live_server.url, user)
    page = context.new_page()
    page.goto(f"{live_server.url}{path}")
    page.emulate_media(media="print")
    return page


def evening(world: Any) -> Any:
    pulka = make_pulka(world.club, ("Anna", "Boris", "Vera"), world.users["member"])
    for facts in TWELVE_DEALS:
        record(pulka, facts, world.users["member"])
    return pulka


@pytest.mark.parametrize("language", ["ru"])  # one walk, one language: CONTRIBUTING.md, "Tests"
def test_the_sheet_and_protocol_print_without_the_controls(live_server, new_context, language):
    ensure_presets()
    world = build_world()
    pulka = evening(world)
    page = printed_page(
        new_context, live_server, language, f"/pulkas/{pulka.pk}/", world.users["member"]
    )

    # On screen the header, the entry form and the buttons are there ...
    page.emulate_media(media="screen")
    assert page.evaluate(SHOWN_JS, NOT_PRINTED)
    # ... and none of them prints.
    page.emulate_media(media="print")
    assert page.evaluate(SHOWN_JS, NOT_PRINTED) == []
    assert page.evaluate(SHOWN_JS, "#entry") == []
    assert page.locator("#sheet svg.sheet").is_visible()
    assert page.locator("#protocol").is_visible()
    assert page.locator("#protocol .protocol__deal").count() == len(TWELVE_DEALS)
    # Each deal's entries print too, not only its line.
    assert page.locator("#protocol .protocol__entries li").first.is_visible()

    # Laid out at the printable width of A4, nothing sticks out of the page.
    page.set_viewport_size({"width": A4_PRINT_WIDTH_PX, "height": 1000})
    assert page.evaluate("document.scrollingElement.scrollWidth") <= A4_PRINT_WIDTH_PX


@pytest.mark.parametrize("language", ["en"])  # one walk, one language: CONTRIBUTING.md, "Tests"
def test_the_settlement_prints_without_the_controls(live_server, new_context, language):
    ensure_presets()
    world = build_world()
    pulka = evening(world)
    page = printed_page(
        new_context, live_server, language, f"/pulkas/{pulka.pk}/settlement/", world.users["member"]
    )

    assert page.evaluate(SHOWN_JS, NOT_PRINTED) == []
    assert page.locator("#settlement").is_visible()
    assert page.locator("[data-result='whole']").first.is_visible()
    assert page.locator("#method2-heading").is_visible()
    page.set_viewport_size({"width": A4_PRINT_WIDTH_PX, "height": 1000})
    assert page.evaluate("document.scrollingElement.scrollWidth") <= A4_PRINT_WIDTH_PX


@pytest.mark.parametrize("language", ["ru"])  # one walk, one language: CONTRIBUTING.md, "Tests"
def test_the_calculators_settlement_prints_without_its_forms(live_server, new_context, language):
    ensure_presets()
    world = build_world()
    query = "convention=sochi&target=10&stake=&name_1=Anna&name_2=Boris&name_3=Vera"
    page = printed_page(
        new_context, live_server, language, f"/calculator/?{query}", world.users["member"]
    )
    page.emulate_media(media="screen")
    page.locator("input[name=gora_0]").fill("12")
    page.locator("input[name=whists_1_0]").fill("30")
    page.locator("#paper-figures button[type=submit]").click()
    page.locator("#settlement").wait_for()

    page.emulate_media(media="print")
    assert page.evaluate(SHOWN_JS, NOT_PRINTED + ", .tabs") == []
    assert page.locator("#settlement").is_visible()


def test_the_sheet_prints_on_a4_paper(live_server, new_context):
    """Chromium's own PDF, sized by the stylesheet's ``@page { size: A4 }``."""
    ensure_presets()
    world = build_world()
    pulka = evening(world)
    page = printed_page(
        new_context, live_server, "ru", f"/pulkas/{pulka.pk}/", world.users["member"]
    )

    pdf = page.pdf(prefer_css_page_size=True, print_background=False)

    boxes = re.findall(rb"/MediaBox \[0 0 ([\d.]+) ([\d.]+)\]", pdf)
    assert boxes, "no page in the PDF"
    for width, height in boxes:
        assert abs(float(width) - A4_POINTS[0]) < 2 and abs(float(height) - A4_POINTS[1]) < 2


@pytest.mark.parametrize("language", ["en"])  # one walk, one language: CONTRIBUTING.md, "Tests"
def test_a_deals_lines_are_never_split_across_pages(live_server, new_context, language):
    """The join and spectator QR panel is not printed, and each deal of the protocol
    (its line and its entries) is kept on one page (``break-inside: avoid``)."""
    ensure_presets()
    world = build_world()
    pulka = evening(world)
    page = printed_page(
        new_context, live_server, language, f"/pulkas/{pulka.pk}/", world.users["member"]
    )
    assert page.evaluate(SHOWN_JS, ".join-panel") == []
    breaks = page.evaluate(
        """() => Array.from(document.querySelectorAll('.protocol__deal, .protocol__event'))
            .map(el => getComputedStyle(el).breakInside)"""
    )
    assert breaks and set(breaks) == {"avoid"}
