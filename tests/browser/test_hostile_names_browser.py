"""Names in every script and of every length, at 390×844 in Russian and in English.

A club whose five players are named in Arabic and Hebrew (right to left), with a
60-character unbroken name, an emoji name and a plain one, plays a 5-player pulka; its
admin's account and its club carry long names too. Every screen a club player opens
must:

- not scroll sideways (``document.scrollWidth <= 390``): long names wrap or are
  shortened (the whole name in the tooltip);
- isolate each name (``<bdi>``/``dir="auto"``, or the isolate marks inside sentences),
  so that a right-to-left name does not carry the figures beside it to its side;
- on the sheet, draw the five names inside the drawing without one overlapping another.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest

from prefscore.clubs.models import Club, Membership, Player, Role
from prefscore.games.models import PulkaSeat
from prefscore.tournaments import rounds
from scoring.engine.seats import seating
from tests.browser.support import OVERFLOW_JS, ensure_presets, sign_in
from tests.web.fixtures_access import build_world, make_pulka, record
from tests.web.fixtures_tournaments import enter, make_tournament, play_round_deals

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LANGUAGES = {"ru": "ru-RU", "en": "en-US"}
ARABIC = "أحمد"
HEBREW = "שׂרה"
LONG = "Wolfeschlegelsteinhausenbergerdorffwelchevoralternwarengewiss"[:60]
EMOJI = "🂡Zoë😀🃏"
PLAIN = "Вера"
NAMES = (ARABIC, LONG, HEBREW, EMOJI, PLAIN)
assert len(LONG) == 60


def five_player_deals() -> list[dict[str, Any]]:
    """A made 7♠ with one whister, an all-pass, a failed 6: each among the seats dealt in."""
    deals = []
    for number in range(3):
        active = [NAMES[s] for s in seating(len(NAMES), number % len(NAMES)).active]
        x, y, z = active
        deals.append(
            [
                {"contract": "7S", "declarer": x, "whists": {y: "whist", z: "pass"},
                 "tricks": {x: 7, y: 2, z: 1}},
                {"contract": "allpass", "tricks": {x: 3, y: 3, z: 4}},
                {"contract": "6H", "declarer": z, "whists": {x: "whist", y: "whist"},
                 "tricks": {z: 5, x: 3, y: 2}},
            ][number]
        )  # fmt: skip
    return deals


def hostile_world() -> Any:
    ensure_presets()
    world = build_world()
    world.club.name = "Клуб " + LONG
    world.club.save(update_fields=["name"])
    admin = world.users["admin"]
    admin.username = "x" + LONG[:40]
    admin.save(update_fields=["username"])
    pulka = make_pulka(world.club, NAMES, world.users["member"])
    pulka.stake = Decimal("0.5")
    pulka.save(update_fields=["stake"])
    for facts in five_player_deals():
        record(pulka, facts, world.users["member"])
    world.five = pulka
    world.player = Player.objects.get(club=world.club, name=ARABIC)
    Club.objects.create(name=HEBREW + " " + LONG, slug="rtl")
    Membership.objects.create(club=Club.objects.get(slug="rtl"), user=admin, role=Role.ADMIN)
    assert PulkaSeat.objects.filter(pulka=pulka).count() == 5
    return world


def hostile_tournament(world: Any) -> str:
    """A tournament of the hostile players, round 1 drawn, published and played."""
    tournament = make_tournament(world.club, "Кубок " + LONG, slug="cup", public=True)
    enter(tournament, [Player.objects.get(club=world.club, name=n) for n in NAMES[:3]])
    rounds.draw_next_round(tournament.pk)
    rounds.publish_round(tournament.pk, 1)
    play_round_deals(tournament, 1, world.users["admin"])
    return f"/tournaments/{world.club.slug}/cup"


def screens(world: Any) -> list[str]:
    club = world.club.slug
    cup = hostile_tournament(world)
    return [
        f"{cup}/",
        f"{cup}/standings/",
        f"{cup}/room/",
        f"/tournaments/{club}/",
        "/",
        f"/clubs/{club}/",
        f"/clubs/{club}/members/",
        f"/clubs/{club}/players/",
        f"/clubs/{club}/pulkas/new/",
        f"/pulkas/{world.five.pk}/",
        f"/pulkas/{world.five.pk}/settlement/",
        f"/pulkas/{world.five.pk}/audit/",
        f"/clubs/{club}/rating/",
        f"/clubs/{club}/stats/players/{world.player.pk}/",
        "/clubs/rtl/",
    ]


# The drawn names' boxes on screen: inside the drawing, and none over another.
NAME_BOXES_JS = """() => {
  const svg = document.querySelector('#sheet svg');
  const frame = svg.getBoundingClientRect();
  const boxes = Array.from(svg.querySelectorAll('.sheet__name')).map(t => {
    const b = t.getBoundingClientRect();
    return {text: t.textContent, left: b.left, right: b.right, top: b.top, bottom: b.bottom};
  });
  return {frame: {left: frame.left, right: frame.right, top: frame.top, bottom: frame.bottom},
          boxes: boxes};
}"""


# What sticks out on the right, anywhere in the body: the outermost such elements.
WIDE_JS = """() => {
  const width = window.innerWidth, found = [];
  document.querySelectorAll('body *').forEach(el => {
    const box = el.getBoundingClientRect();
    if (box.right > width + 0.5 && !(el.parentElement && el.parentElement.getBoundingClientRect().right > width + 0.5))
      found.push(`${el.tagName.toLowerCase()}.${String(el.className)} right=${Math.round(box.right)} "${(el.textContent || '').trim().slice(0, 30)}"`);
  });
  return {scrollWidth: document.scrollingElement.scrollWidth, wide: found.slice(0, 8)};
}"""


def overlaps(a: dict[str, float], b: dict[str, float]) -> bool:
    return not (
        a["right"] <= b["left"] + 0.5
        or b["right"] <= a["left"] + 0.5
        or a["bottom"] <= b["top"] + 0.5
        or b["bottom"] <= a["top"] + 0.5
    )


@pytest.mark.parametrize("language", LANGUAGES)
def test_hostile_names_fit_every_screen_at_390(live_server, new_context, language):
    world = hostile_world()
    context = new_context(locale=LANGUAGES[language])
    sign_in(context, live_server.url, world.users["admin"])
    page = context.new_page()
    problems: dict[str, Any] = {}
    for path in screens(world):
        response = page.goto(live_server.url + path)
        assert response is not None and response.status == 200, path
        if page.evaluate(OVERFLOW_JS)["scrollWidth"] > 390:
            problems[path] = page.evaluate(WIDE_JS)
    assert not problems, problems


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_five_player_sheet_draws_every_name_apart(live_server, new_context, language):
    world = hostile_world()
    context = new_context(locale=LANGUAGES[language])
    sign_in(context, live_server.url, world.users["member"])
    page = context.new_page()
    page.goto(f"{live_server.url}/pulkas/{world.five.pk}/")
    drawn = page.evaluate(NAME_BOXES_JS)
    frame, boxes = drawn["frame"], drawn["boxes"]
    assert len(boxes) == 5
    # A text's box is its font's whole line (ascent and descent), which for an emoji
    # face reaches a little above the glyph itself: 2 px of it may pass the edge.
    for box in boxes:
        assert frame["left"] - 0.5 <= box["left"] and box["right"] <= frame["right"] + 0.5, box
        assert frame["top"] - 2 <= box["top"] and box["bottom"] <= frame["bottom"] + 2, box
    for i, a in enumerate(boxes):
        for b in boxes[i + 1 :]:
            assert not overlaps(a, b), (a, b)
    # The whole name is one tap away: the tooltip of a shortened one, and the table.
    long_title = page.locator("#sheet .sheet__name title").all_text_contents()
    assert any(LONG in title for title in long_title)


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_name_is_isolated_from_the_figures_beside_it(live_server, new_context, language):
    """Each player's name on the table screen is isolated: a ``<bdi>`` or an element
    with ``dir="auto"`` around it, or the isolate marks (U+2068…U+2069) in a sentence."""
    world = hostile_world()
    context = new_context(locale=LANGUAGES[language])
    sign_in(context, live_server.url, world.users["member"])
    page = context.new_page()
    page.goto(f"{live_server.url}/pulkas/{world.five.pk}/")
    bare = page.evaluate(
        """names => {
          const found = [];
          const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
          while (walker.nextNode()) {
            const node = walker.currentNode, parent = node.parentElement;
            if (!parent || parent.closest('script, style, title, option')) continue;
            for (const name of names) {
              let at = node.textContent.indexOf(name);
              while (at >= 0) {
                const marked = node.textContent[at - 1] === '\\u2068';
                const isolated = parent.closest('bdi, [dir=auto], svg');
                if (!marked && !isolated) found.push(`${parent.tagName}: ${node.textContent.trim().slice(0, 60)}`);
                at = node.textContent.indexOf(name, at + 1);
              }
            }
          }
          return found;
        }""",
        [ARABIC, HEBREW],
    )
    assert not bare, "\n".join(bare)
