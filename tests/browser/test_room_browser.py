"""The room in the browser, in Russian and in English (docs/tournaments.md §6):

- the projector at 1920×1080: everything on one screen without scrolling, no text
  under 24 px, no control, and it refreshes by itself (a table that finishes leaves
  the "still playing" list without a reload);
- the dashboard, "my table now" and the printables on a phone (390×844): they fit, can
  be tapped, read in the page's language, and axe-core finds nothing serious;
- the printables under print media: the site's header and links are gone, and as a PDF
  on A4 each table card and each protocol sheet takes a page of its own.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import Page

from prefscore.clubs.models import Player
from prefscore.games.models import Pulka
from prefscore.tournaments.presenters import room
from tests.browser.support import (
    OVERFLOW_JS,
    TAP,
    TAP_TARGETS_JS,
    axe_violations,
    ensure_presets,
    screenshot,
    sign_in,
)
from tests.browser.test_screens_browser import TEXTS_JS, data_strings, other_language
from tests.web.fixtures_access import build_world
from tests.web.fixtures_tournaments import draw, enter, make_tournament, play_round_deals

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LANGUAGES = {"ru": "ru-RU", "en": "en-US"}
PROJECTOR = {"width": 1920, "height": 1080}
PROJECTOR_MIN_FONT = 24  # px: read from the back of a room
PLAYERS = ("Anna", "Boris", "Vera", "Gleb", "Dina", "Egor", "Zoya", "Igor", "Kira", "Lev",
           "Mira", "Nina")  # fmt: skip

# The smallest font of any visible text on the page, and the page's scroll size.
SIZES_JS = """() => {
  const sizes = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  while (walker.nextNode()) {
    const el = walker.currentNode.parentElement;
    if (!walker.currentNode.textContent.trim() || !el || el.closest('.visually-hidden')) continue;
    const box = el.getBoundingClientRect();
    if (box.width < 2 || box.height < 2) continue;
    sizes.push({text: walker.currentNode.textContent.trim().slice(0, 30),
                px: parseFloat(getComputedStyle(el).fontSize)});
  }
  const s = document.scrollingElement;
  return {smallest: sizes.reduce((a, b) => (a && a.px <= b.px) ? a : b, null),
          scrollHeight: s.scrollHeight, innerHeight: window.innerHeight,
          scrollWidth: s.scrollWidth, innerWidth: window.innerWidth,
          controls: document.querySelectorAll('button, input, select, textarea, form').length};
}"""


def build_room_world() -> Any:
    """The access world with a public tournament of 12 at tables of 3, round 1 drawn and
    a deal or two at each table; the member plays as Anna."""
    ensure_presets()
    world = build_world()
    players = [Player.objects.get_or_create(club=world.club, name=n)[0] for n in PLAYERS]
    Player.objects.filter(pk=players[0].pk).update(user=world.users["member"])
    tournament = make_tournament(world.club, "Spring cup", slug="spring", public=True)
    enter(tournament, players)
    assert draw(world, tournament).status_code == 302  # drawn (and published) as organisers do
    play_round_deals(tournament, 1)
    world.tournament = tournament
    world.names = PLAYERS
    return world


def base(world: Any) -> str:
    return f"/tournaments/{world.club.slug}/{world.tournament.slug}"


def problems_of(page: Page, world: Any, language: str, *, phone: bool) -> dict[str, list[str]]:
    """What is wrong with the page on screen: language, fit, tap targets, axe."""
    problems: dict[str, list[str]] = {}
    if page.locator("html").get_attribute("lang") != language:
        problems["language"] = [f"<html lang> is not {language}"]
    data = [*data_strings(world), *world.names, world.tournament.name]
    strays = other_language(page.evaluate(TEXTS_JS), language, data)
    if strays:
        problems["text in the other language"] = strays
    overflow = page.evaluate(OVERFLOW_JS)
    if overflow["scrollWidth"] > overflow["innerWidth"]:
        problems["sideways scrolling"] = overflow["wide"] or [str(overflow)]
    if phone:
        small = page.evaluate(TAP_TARGETS_JS, TAP)
        if small:
            problems["tap targets"] = small
    violations = axe_violations(page)
    if violations:
        problems["axe"] = violations
    return problems


# --- the projector ---


@pytest.mark.parametrize("language", ["en"])  # one walk, one language: CONTRIBUTING.md, "Tests"
def test_the_projector_fills_one_screen_in_large_type_and_refreshes_itself(
    live_server, new_context, screenshot_dir, monkeypatch, language
):
    monkeypatch.setattr(room, "PROJECTOR_POLL_SECONDS", 1)
    world = build_room_world()
    context = new_context(locale=LANGUAGES[language], viewport=PROJECTOR, bypass_csp=True)
    page = context.new_page()
    page.goto(live_server.url + base(world) + "/projector/")

    measured = page.evaluate(SIZES_JS)
    assert measured["scrollHeight"] <= measured["innerHeight"], measured
    assert measured["smallest"]["px"] >= PROJECTOR_MIN_FONT, measured["smallest"]
    assert measured["controls"] == 0
    assert page.locator(".projector__table").count() == 4
    assert page.locator("[data-wall=playing] li").count() == 4
    problems = problems_of(page, world, language, phone=False)
    screenshot(page, screenshot_dir / f"room-projector-{language}.png")
    assert not problems, problems

    first = Pulka.objects.filter(tournament=world.tournament).order_by("pk").first()
    Pulka.objects.filter(pk=first.pk).update(status=Pulka.Status.FINISHED)
    page.wait_for_function(
        "() => document.querySelectorAll('[data-wall=playing] li').length === 3", timeout=8000
    )
    assert page.locator(".projector__table--done").count() == 1


@pytest.mark.parametrize("language", ["ru"])  # one walk, one language: CONTRIBUTING.md, "Tests"
def test_the_projectors_standings_fit_the_screen(
    live_server, new_context, screenshot_dir, language
):
    world = build_room_world()
    context = new_context(locale=LANGUAGES[language], viewport=PROJECTOR, bypass_csp=True)
    page = context.new_page()
    page.goto(live_server.url + base(world) + "/projector/?show=standings")

    measured = page.evaluate(SIZES_JS)
    assert page.locator(".projector__line").count() == len(PLAYERS)
    assert measured["scrollHeight"] <= measured["innerHeight"], measured
    assert measured["smallest"]["px"] >= PROJECTOR_MIN_FONT, measured["smallest"]
    screenshot(page, screenshot_dir / f"room-projector-standings-{language}.png")
    assert not problems_of(page, world, language, phone=False)


# --- on a phone: the dashboard, my table, the printables ---

PHONE_PAGES = {
    "dashboard": ("organiser", "/room/"),
    "my-table": ("member", "/my-table/"),
    "print-seating": ("organiser", "/print/seating/"),
    "print-cards": ("organiser", "/print/cards/"),
    "print-standings": ("organiser", "/print/standings/"),
    "print-protocol": ("organiser", "/print/protocol/"),
}


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_room_pages_fit_a_phone_and_read_in_their_language(
    live_server, new_context, screenshot_dir, language
):
    """Every page of ``PHONE_PAGES`` in turn on one world, each on a new device of its
    viewer; every page's problems reported."""
    world = build_room_world()
    found = {}
    for screen, (role, path) in PHONE_PAGES.items():
        context = new_context(locale=LANGUAGES[language], bypass_csp=True)
        sign_in(context, live_server.url, world.users[role])
        page = context.new_page()
        response = page.goto(live_server.url + base(world) + path)
        assert response is not None and response.status == 200, screen
        problems = problems_of(page, world, language, phone=True)
        screenshot(page, screenshot_dir / f"room-{screen}-{language}-phone.png", full_page=True)
        context.close()
        if problems:
            found[screen] = problems
    assert not found, f"({language}): {found}"


@pytest.mark.parametrize("language", ["en"])  # one walk, one language: CONTRIBUTING.md, "Tests"
def test_my_table_names_the_table_and_seat_and_opens_the_sheet(live_server, new_context, language):
    world = build_room_world()
    anna = Pulka.objects.get(tournament=world.tournament, seats__player__name="Anna")
    number = list(Pulka.objects.filter(tournament=world.tournament).order_by("pk")).index(anna)
    context = new_context(locale=LANGUAGES[language])
    sign_in(context, live_server.url, world.users["member"])
    page = context.new_page()
    page.goto(live_server.url + base(world) + "/my-table/")

    assert re.search(rf"\b{number + 1}\b", page.locator("[data-my=table]").inner_text())
    page.locator("#mine a.button").click()
    page.wait_for_url(f"**/pulkas/{anna.pk}/")


# --- printed ---

PRINTED_PAGES = {"print-cards": "/print/cards/", "print-protocol": "/print/protocol/",
                 "print-seating": "/print/seating/", "print-standings": "/print/standings/"}  # fmt: skip


# An A4 sheet's printable width (210 mm less the stylesheet's 12 mm margins) in CSS px.
A4_CONTENT = {"width": round((210 - 2 * 12) / 25.4 * 96), "height": 1000}


def pdf_pages(pdf: bytes) -> int:
    return len(re.findall(rb"/Type\s*/Page\b", pdf))


# How many A4 pages each printable takes: a page per table (four tables of three), the
# seating by table and then alphabetically, the standings on one.
PRINTED_PAGE_COUNTS = {"print-cards": 4, "print-protocol": 4, "print-seating": 2,
                       "print-standings": 1}  # fmt: skip


@pytest.mark.parametrize("language", ["ru"])  # one walk, one language: CONTRIBUTING.md, "Tests"
def test_the_printables_print_on_a4_without_the_sites_chrome(
    live_server, new_context, screenshot_dir, language
):
    """Every printable in turn on one world, in one organiser's browser."""
    world = build_room_world()
    context = new_context(locale=LANGUAGES[language], viewport=A4_CONTENT)
    sign_in(context, live_server.url, world.users["organiser"])
    page = context.new_page()
    for screen, path in PRINTED_PAGES.items():
        page.goto(live_server.url + base(world) + path)
        page.emulate_media(media="print")

        assert not page.locator(".site-header").is_visible(), screen
        assert not page.locator(".breadcrumb").first.is_visible(), screen
        assert page.locator("main button, main form").count() == 0, screen
        pdf = page.pdf(format="A4", print_background=True, prefer_css_page_size=True)
        (screenshot_dir / f"room-{screen}-{language}.pdf").write_bytes(pdf)
        assert pdf_pages(pdf) == PRINTED_PAGE_COUNTS[screen], screen
        # Nothing wider than the sheet: no column is cut off on paper.
        width = page.evaluate("document.scrollingElement.scrollWidth")
        assert width <= A4_CONTENT["width"], screen
        page.emulate_media(media="screen")


# Long names that used to be cut with an ellipsis (docs/benchmarks.md, "Tournaments at scale").
LONG_NAMES = tuple(
    f"{first} {last}"
    for first, last in zip(
        ("Константин", "Александра", "Maximilian", "Евдокия", "Bartholomew") * 9,
        ("Константинопольский", "Рождественская-Оболенская", "Schwarzenberger-Habsburg",
         "Преображенская", "Featherstonehaugh-Cholmondeley") * 9,
        strict=True,
    )
)  # fmt: skip


@pytest.mark.parametrize("language", ["en"])  # one walk, one language: CONTRIBUTING.md, "Tests"
def test_a_full_page_of_long_names_fits_the_wall_uncut(
    live_server, new_context, screenshot_dir, language
):
    ensure_presets()
    world = build_world()
    players = [
        Player.objects.create(club=world.club, name=f"{name} {n:02d}")
        for n, name in enumerate(LONG_NAMES)
    ]
    tournament = make_tournament(world.club, "Long cup", slug="long", public=True)
    enter(tournament, players)
    assert draw(world, tournament).status_code == 302
    play_round_deals(tournament, 1)
    context = new_context(locale=LANGUAGES[language], viewport=PROJECTOR, bypass_csp=True)
    page = context.new_page()
    page.goto(live_server.url + f"/tournaments/{world.club.slug}/long/projector/?show=standings")

    measured = page.evaluate(SIZES_JS)
    cut = page.evaluate(
        "() => [...document.querySelectorAll('.projector__name')]"
        ".filter(el => el.scrollWidth > el.clientWidth + 1).map(el => el.textContent)"
    )
    below = page.evaluate(
        "() => [...document.querySelectorAll('.projector__line')]"
        ".filter(el => el.getBoundingClientRect().bottom > window.innerHeight).length"
    )
    shown = page.locator(".projector__line").count()
    assert shown == room.PROJECTOR_STANDINGS_PER_PAGE // 2  # every name is a long one
    assert page.locator(".projector__line--provisional").count() == shown
    assert not cut and not below
    assert measured["scrollHeight"] <= measured["innerHeight"], measured
    assert measured["smallest"]["px"] >= PROJECTOR_MIN_FONT, measured["smallest"]
    # The standings take the whole width: no side column beside them.
    assert page.locator(".projector__side").count() == 0
    screenshot(page, screenshot_dir / f"room-projector-long-names-{language}.png")
