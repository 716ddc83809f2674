"""Corrections at the table in a real browser (Кодекс 4.2.7–4.2.10, 4.2.16): a correction
tapped on one phone strikes the old figure on the other, a forgotten deal's banner
reaches every phone and is answered there, and the audit trail; at 390 px and on a
desktop, with screenshots."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Page, expect

from prefscore.games.models import Pulka
from tests.browser.conftest import PHONE
from tests.browser.support import DESKTOP, axe_violations, fill_deal, screenshot, sign_in
from tests.web import fixtures_corrections
from tests.web.fixtures_corrections import (
    ALLPASS,
    RIGHT,
    WRONG,
    put_pencil_down,
    seated_record,
)
from tests.web.fixtures_tournaments import make_tournament

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# The web tests' fixture of a table whose players have accounts, for this module.
seated_world = fixtures_corrections.seated_world

VERA_WRONG = {"contract": "6S", "declarer": "Vera", "whists": {"Anna": "pass", "Boris": "whist"},
              "tricks": {"Vera": 6, "Boris": 4, "Anna": 0}}  # fmt: skip
VERA_RIGHT = {**VERA_WRONG, "tricks": {"Vera": 7, "Boris": 3, "Anna": 0}}


def open_table(new_context, base_url: str, user: Any, pulka: Pulka, **options: Any) -> Page:
    context = new_context(locale="en-US", **options)
    sign_in(context, base_url, user)
    page = context.new_page()
    page.goto(f"{base_url}/pulkas/{pulka.pk}/")
    return page


def fits(page: Page) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    viewport = page.viewport_size
    assert viewport is not None and width <= viewport["width"], f"{width} px wide"


def correct_on_screen(page: Page, number: int, facts: dict[str, Any]) -> None:
    """Tap "Correct" on a deal line, put the right facts in, and send them."""
    page.locator(f"#protocol li[value='{number}'] a", has_text="Correct").click()
    expect(page.locator("#entry-heading")).to_have_text(f"Correct deal {number}")
    fill_deal(page, facts)
    page.locator("#entry-form button[type=submit]").click()
    expect(page.locator("#entry-heading")).not_to_contain_text("Correct deal")


def test_a_correction_on_one_phone_strikes_the_old_figure_on_the_other(
    live_server, new_context, seated_world, screenshot_dir
):
    world = seated_world
    pulka = world.pulka
    seated_record(pulka, WRONG, world.users["anna"])
    put_pencil_down(pulka)
    vera = open_table(new_context, live_server.url, world.users["vera"], pulka)
    # axe runs in Anna's page: its script needs the policy bypassed (support.axe_violations).
    anna = open_table(new_context, live_server.url, world.users["anna"], pulka, bypass_csp=True)

    vera.locator("#protocol li[value='1'] a", has_text="Correct").click()
    expect(vera.locator("#entry-heading")).to_have_text("Correct deal 1")
    screenshot(vera, str(screenshot_dir / "correction-form-390.png"), full_page=True)
    fits(vera)
    fill_deal(vera, RIGHT)
    vera.locator("#entry-form button[type=submit]").click()

    struck = anna.locator("#sheet .sheet__struck")
    expect(struck).to_have_text("8", timeout=3000)
    expect(anna.locator("#protocol .protocol__event--warning")).to_contain_text(
        "Warning, Кодекс 4.2.7: Boris (first correction)"
    )
    seated_record(pulka, VERA_WRONG, world.users["vera"])
    put_pencil_down(pulka)
    anna.reload()
    correct_on_screen(anna, 2, VERA_RIGHT)
    expect(anna.locator("#protocol .protocol__event--penalty").first).to_contain_text("Penalty")
    anna.locator("#protocol li[value='2'] summary").click()
    screenshot(anna, str(screenshot_dir / "sheet-with-corrections-390.png"), full_page=True)
    fits(anna)
    assert axe_violations(anna) == []
    desktop = open_table(
        new_context, live_server.url, world.users["boris"], pulka, viewport=DESKTOP
    )
    screenshot(desktop, str(screenshot_dir / "sheet-with-corrections-desktop.png"), full_page=True)
    # The struck figure is drawn crossed out: wider than it is tall would be a plain "8".
    decoration = desktop.locator("#sheet .sheet__struck").first.evaluate(
        "el => getComputedStyle(el).textDecorationLine"
    )
    assert decoration == "line-through"


def test_a_forgotten_deal_reaches_every_phone_and_one_refusal_drops_it(
    live_server, new_context, seated_world, screenshot_dir
):
    world = seated_world
    pulka = world.pulka
    boris = open_table(new_context, live_server.url, world.users["boris"], pulka)
    anna = open_table(new_context, live_server.url, world.users["anna"], pulka, bypass_csp=True)
    vera = open_table(new_context, live_server.url, world.users["vera"], pulka, viewport=DESKTOP)

    boris.locator("#entry a", has_text="Add a forgotten deal").click()
    expect(boris.locator("#entry-heading")).to_have_text("Forgotten deal, to be deal 1")
    fill_deal(boris, ALLPASS)
    boris.locator("#entry-form button[type=submit]").click()

    banner = anna.locator("#forgotten .forgotten")
    expect(banner).to_contain_text("boris proposes a forgotten deal", timeout=3000)
    expect(banner.locator("button", has_text="Agree")).to_be_visible()
    screenshot(anna, str(screenshot_dir / "forgotten-banner-390.png"), full_page=True)
    fits(anna)
    assert axe_violations(anna) == []
    anna.locator("#forgotten button", has_text="Agree").click()
    expect(vera.locator("#forgotten")).to_contain_text("Anna: agreed", timeout=3000)
    screenshot(vera, str(screenshot_dir / "forgotten-banner-desktop.png"), full_page=True)
    vera.locator("#forgotten button", has_text="Refuse").click()

    expect(boris.locator("#forgotten")).to_contain_text("Vera refused", timeout=3000)
    expect(boris.locator("#forgotten button")).to_have_count(0)
    assert not pulka.deals.exists()


def test_the_audit_trail_and_the_arbiters_form_read_well_on_a_phone_and_a_desktop(
    live_server, new_context, seated_world, screenshot_dir
):
    world = seated_world
    pulka = world.pulka
    seated_record(pulka, WRONG, world.users["anna"])
    put_pencil_down(pulka)
    seated_record(pulka, ALLPASS, world.users["boris"])
    Pulka.objects.filter(pk=pulka.pk).update(tournament=make_tournament(world.club), round_number=1)
    organiser = open_table(
        new_context, live_server.url, world.users["oksana"], pulka, bypass_csp=True
    )

    organiser.locator("#protocol li[value='1'] a", has_text="Arbiter").click()
    expect(organiser.locator("#entry-heading")).to_have_text("Arbiter's decision on deal 1")
    fill_deal(organiser, RIGHT)
    organiser.locator("#arbiter-reason").fill("Judges' panel: the defence took three tricks")
    organiser.locator("label[for='arbiter-penalty']").click()
    screenshot(organiser, str(screenshot_dir / "arbiter-form-390.png"), full_page=True)
    fits(organiser)
    assert axe_violations(organiser) == []
    organiser.locator("#entry-form button[type=submit]").click()
    # The reason is typed text, isolated from the sentence around it (docs/design.md).
    expect(organiser.locator("#protocol")).to_contain_text("Reason: \u2068Judges' panel")

    for name, viewport in (("390", PHONE), ("desktop", DESKTOP)):
        page = open_table(
            new_context,
            live_server.url,
            world.users["anna"],
            pulka,
            viewport=viewport,
            bypass_csp=True,
        )
        page.locator("#status a", has_text="Audit trail").click()
        expect(page.locator("h1")).to_contain_text("Audit trail")
        expect(page.locator(".audit__events")).to_contain_text("Arbiter's decision on deal 1")
        screenshot(page, str(screenshot_dir / f"audit-{name}.png"), full_page=True)
        fits(page)
        assert axe_violations(page) == []
