"""Every screen on a phone, in Russian and in English: it fits, it can be tapped, it
reads in the page's language, and axe-core finds nothing serious.

One test per language walks every screen on one world (built once: 2.3 s); each
screen is checked in one visit, on a new device (browser context) of its viewer:

- no sideways scrolling at 390×844 (``scrollWidth <= innerWidth``);
- every tap target at least 44 px in its smaller dimension (the rule is
  ``support.TAP_TARGETS_JS``);
- on the sheet, the drawing at least 320 px wide and none of its text under 10 px;
- ``<html lang>`` is the language asked for, and no text of the page is left in the
  other language (data such as player names aside);
- axe-core: no ``serious`` or ``critical`` violation;

then takes the screenshots, phone and desktop, into ``artifacts/screenshots/``. Every
problem found is listed in the failure message and in
``artifacts/screenshots/report-<screen>-<language>.json``.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

import pytest
from playwright.sync_api import Page

from bench.harness.deals import cycle_deal
from prefscore.games import sharing
from prefscore.games.models import Pulka
from tests.browser.support import (
    DESKTOP,
    NAMES,
    OVERFLOW_JS,
    SHEET_SIZE_JS,
    TAP,
    TAP_TARGETS_JS,
    TWELVE_DEALS,
    axe_violations,
    ensure_presets,
    screenshot,
    sign_in,
)
from tests.web.fixtures_access import build_world, make_pulka, record

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LANGUAGES = {"ru": "ru-RU", "en": "en-US"}
SHEET_MIN_WIDTH = 320
SHEET_MIN_FONT = 10
LONG_EVENING = 48  # deals


@dataclass(frozen=True)
class Screen:
    name: str
    path: Callable[[Any], str]
    user: str | None = "admin"  # who looks at it; None: nobody signed in
    then: Callable[[Page, Any], None] | None = None  # what a player does there first
    status: int = 200  # what the page answers (the error pages: 403, 404)


def paste_a_pulka_file(page: Page, world: Any) -> None:
    """The calculator with a settled file, the way a player uses it."""
    pulka = {"convention": "sochi", "players": list(NAMES), "target": 10, "stake": 0.5,
             "deals": list(TWELVE_DEALS)}  # fmt: skip
    page.locator("textarea[name=text]").fill(json.dumps(pulka, ensure_ascii=False))
    page.locator("main form button[type=submit]").click()
    page.locator("main table").first.wait_for()


def type_a_paper_sheet(page: Page, world: Any) -> None:
    """The calculator's grid filled in and settled, the way a club player uses it."""
    for number, name in enumerate(NAMES, 1):
        page.locator(f"input[name=name_{number}]").fill(name)
    page.locator("input[name=stake]").fill("0.1")
    page.locator("#paper-players button[type=submit]").click()
    for seat, gora in enumerate((12, 4, 30)):
        page.locator(f"input[name=gora_{seat}]").fill(str(gora))
        page.locator(f"input[name=pulya_{seat}]").fill("20")
    page.locator("input[name=whists_1_0]").fill("36")
    page.locator("#paper-figures button[type=submit]").click()
    page.locator("#settlement").wait_for()


SCREENS = (
    Screen("home", lambda w: "/"),
    Screen("sign-in", lambda w: "/accounts/login/", user=None),
    Screen("sign-up", lambda w: "/accounts/signup/", user=None),
    Screen("club", lambda w: f"/clubs/{w.club.slug}/"),
    Screen("new-pulka", lambda w: f"/clubs/{w.club.slug}/pulkas/new/"),
    Screen("sheet", lambda w: f"/pulkas/{w.evening.pk}/"),
    Screen("sheet-long", lambda w: f"/pulkas/{w.long.pk}/"),
    Screen("settlement", lambda w: f"/pulkas/{w.evening.pk}/settlement/"),
    Screen("import", lambda w: f"/clubs/{w.club.slug}/pulkas/import/"),
    Screen("calculator", lambda w: "/calculator/?tab=file", then=paste_a_pulka_file),
    Screen("calculator-sheet", lambda w: "/calculator/", then=type_a_paper_sheet),
    Screen("conventions", lambda w: "/conventions/"),
    Screen("convention", lambda w: "/conventions/sochi/"),
    Screen("compare", lambda w: "/conventions/compare/?a=sochi&b=leningrad"),
    Screen("convention-peer", lambda w: "/conventions/pu-home/"),
    Screen("compare-peers", lambda w: "/conventions/compare/?a=rs-sochi&b=gchet"),
    Screen("members", lambda w: f"/clubs/{w.club.slug}/members/"),
    Screen("invitation", lambda w: f"/invitations/{w.invitation.token}/", user=None),
    # The guests a newcomer may say she is, and the admins' players page.
    Screen("invitation-claim", lambda w: f"/invitations/{w.invitation.token}/", user="outsider"),
    Screen("players", lambda w: f"/clubs/{w.club.slug}/players/"),
    # A finished pulka's result shared (docs/design.md, "Sharing a result"): the share
    # panel, the public page a stranger opens, and the club's public results page.
    Screen("settlement-share", lambda w: f"/pulkas/{w.finished.pk}/settlement/"),
    Screen("shared-result", lambda w: f"/results/{w.result_token}/", user=None),
    Screen("club-results", lambda w: f"/clubs/{w.club.slug}/results/"),
    Screen("not-found", lambda w: "/no/such/page/", status=404),
    Screen("not-allowed", lambda w: f"/clubs/{w.club.slug}/", user="outsider", status=403),
)


def build_screens_world() -> Any:
    """The access world (a club with every role, an invitation) and an evening's pulka."""
    ensure_presets()
    world = build_world()
    evening = make_pulka(world.club, NAMES, world.users["member"])
    evening.stake = Decimal("0.5")
    evening.save(update_fields=["stake"])
    for facts in TWELVE_DEALS:
        record(evening, facts, world.users["member"])
    world.evening = evening
    # A long evening: the sheet's series grow long and its figures must still be read.
    world.long = make_pulka(world.club, NAMES, world.users["member"])
    world.long.target = 1000
    world.long.save(update_fields=["target"])
    for number in range(1, LONG_EVENING + 1):
        record(world.long, cycle_deal(number), world.users["member"])
    # The same evening, over, and its result shared by the admin.
    world.finished = make_pulka(world.club, NAMES, world.users["member"])
    world.finished.stake = Decimal("0.5")
    world.finished.save(update_fields=["stake"])
    for facts in TWELVE_DEALS:
        record(world.finished, facts, world.users["member"])
    Pulka.objects.filter(pk=world.finished.pk).update(status=Pulka.Status.FINISHED)
    world.finished.refresh_from_db()
    links = sharing.share_result(world.finished, world.users["admin"])
    world.result_token = sharing.result_token(links)
    return world


# --- the language of the page ----------------------------------------------------------

# Every piece of text the page shows or reads out: each element's own text, the
# document's title, and the labels in attributes. Elements marked with another
# language (the language buttons) are left out, as are the values of form fields.
TEXTS_JS = """() => {
  const page = document.documentElement.lang;
  const texts = [document.title];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  const own = new Map();
  while (walker.nextNode()) {
    const node = walker.currentNode;
    const parent = node.parentElement;
    if (!parent || parent.closest('script, style, textarea')) continue;
    const marked = parent.closest('[lang]');
    if (marked && marked.lang && marked.lang !== page) continue;
    own.set(parent, (own.get(parent) || '') + ' ' + node.textContent);
  }
  own.forEach(text => texts.push(text));
  document.querySelectorAll('[aria-label], [placeholder], [title]').forEach(el => {
    ['aria-label', 'placeholder', 'title'].forEach(a => el.getAttribute(a) && texts.push(el.getAttribute(a)));
  });
  return texts.map(t => t.replace(/\\s+/g, ' ').trim()).filter(t => /\\p{L}/u.test(t));
}"""

CYRILLIC = re.compile(r"[А-Яа-яЁё]")
LATIN_WORD = re.compile(r"[A-Za-z]{3,}")
# Russian words that English pages keep on purpose: the rule book's title and the names
# conventions go by. The contract notation is not among them: an English page writes
# 7NT and 7♠/pass (games/presenters/numbers.py).
RUSSIAN_IN_ENGLISH = re.compile(
    r"Кодекс\w*|преферанс\w*|сочинк\w*|ленинградк\w*|питерк\w*|ростовк\w*|«?Ленинградская»?"
    r"|ФСПР|пуля|гора|висты|Русский"
)


def data_strings(world: Any) -> list[str]:
    """What the people put in (names, clubs, accounts): the same in every language."""
    users = world.users.values()
    strings = [*NAMES, world.club.name, world.other_club.name, "prefscore"]
    strings += [u.get_username() for u in users] + [u.email for u in users]
    return sorted(strings, key=len, reverse=True)


# A Russian term in brackets after its English name, "greedy (жлобский)": a gloss.
GLOSS = re.compile(r"\([^()]*\)")


def other_language(texts: list[str], language: str, data: list[str]) -> list[str]:
    """The texts that are not in ``language``: English on a Russian page, and so on.

    Data the people typed is the same in both languages, and so is code: a pulka
    file shown as an example (it starts with a brace).
    """
    found = []
    for text in texts:
        if text.startswith(("{", "[")):
            continue
        bare = text
        for value in data:
            bare = bare.replace(value, " ")
        if language == "ru" and LATIN_WORD.search(bare) and not CYRILLIC.search(bare):
            found.append(text)
        if language == "en" and CYRILLIC.search(RUSSIAN_IN_ENGLISH.sub(" ", GLOSS.sub(" ", bare))):
            found.append(text)
    return sorted(set(found))


# --- the test --------------------------------------------------------------------------


def check_sheet(page: Page, measured: dict[str, Any]) -> list[str]:
    drawn = page.evaluate(SHEET_SIZE_JS)
    if drawn is None:
        return ["no drawn sheet (#sheet svg)"]
    measured["sheet width px"] = round(drawn["width"], 1)
    measured["smallest sheet text px"] = round(min(t["px"] for t in drawn["sizes"]), 2)
    problems = []
    if drawn["width"] < SHEET_MIN_WIDTH:
        problems.append(f"the sheet is {drawn['width']:.0f} px wide, under {SHEET_MIN_WIDTH}")
    for text in drawn["sizes"]:
        if text["px"] < SHEET_MIN_FONT - 0.05:
            problems.append(
                f"sheet text {text['text']!r} ({text['cls']}) is {text['px']:.1f} px, "
                f"under {SHEET_MIN_FONT}"
            )
    return problems


def screen_problems(
    page: Page, base: str, world: Any, screen: Screen, language: str, screenshot_dir: Any
) -> dict[str, list[str]]:
    """What is wrong with ``screen`` as ``page`` shows it; its screenshots and report."""
    response = page.goto(base + screen.path(world))
    if response is None or response.status != screen.status:
        return {"status": [f"{screen.path(world)} answered {response and response.status}"]}
    if screen.then:
        screen.then(page, world)

    problems: dict[str, list[str]] = {}
    lang = page.locator("html").get_attribute("lang")
    if lang != language:
        problems["language"] = [f'<html lang="{lang}">, not "{language}"']
    strays = other_language(page.evaluate(TEXTS_JS), language, data_strings(world))
    if strays:
        problems["text in the other language"] = strays
    overflow = page.evaluate(OVERFLOW_JS)
    if overflow["scrollWidth"] > overflow["innerWidth"]:
        problems["sideways scrolling"] = [
            f"scrollWidth {overflow['scrollWidth']} > innerWidth {overflow['innerWidth']}",
            *overflow["wide"],
        ]
    small = page.evaluate(TAP_TARGETS_JS, TAP)
    if small:
        problems[f"tap targets under {TAP} px"] = small
    measured: dict[str, Any] = {}
    if screen.name.startswith("sheet"):
        sheet = check_sheet(page, measured)
        if sheet:
            problems["sheet"] = sheet

    violations = axe_violations(page)
    if violations:
        problems["axe (serious, critical)"] = violations

    shot = screenshot_dir / f"{screen.name}-{language}"
    screenshot(page, f"{shot}-phone.png", full_page=True)
    if screen.name == "sheet":  # what a player sees on opening it, for the README
        screenshot(page, f"{shot}-phone-first-screen.png")
    screenshot(page, f"{shot}-desktop.png", viewport=DESKTOP, full_page=True, scale="css")
    report = screenshot_dir / f"report-{screen.name}-{language}.json"
    report.write_text(
        json.dumps({"problems": problems, "measured": measured}, ensure_ascii=False, indent=1)
    )
    return problems


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_screen_fits_a_phone_reads_in_its_language_and_passes_axe(
    live_server, new_context, screenshot_dir, language
):
    """Every screen of ``SCREENS`` in turn, on one world built once (a test of its own
    per screen built it 22 times a language, 2.3 s each): each screen in a new context
    (a device of its own, its viewer signed in), every screen's problems reported."""
    world = build_screens_world()
    failures = []
    for screen in SCREENS:
        context = new_context(locale=LANGUAGES[language], bypass_csp=True, base_url=live_server.url)
        if screen.user:
            sign_in(context, live_server.url, world.users[screen.user])
        page = context.new_page()
        problems = screen_problems(page, live_server.url, world, screen, language, screenshot_dir)
        context.close()
        failures += [
            f"{screen.name} ({language}), {kind}:\n" + "\n".join(f"    {item}" for item in items)
            for kind, items in problems.items()
        ]
    assert not failures, "\n".join(failures)
