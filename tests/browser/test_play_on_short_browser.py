"""A player leaves a table of 4 in play, and the other three play on (docs/tournaments.md
§4.9, §7 item 4).

In Russian on a phone (390×844) and in English on a laptop (1280×800): each language and
each size walked once (the walk is the same in all four pairs, 40 s each): the organiser
sets "the other three play on" and a forfeit cap of 0 on the regulations form, publishes
round 1 (a table of 4 and two of 3), deals are recorded at the table of 4, and he drops
one of its players. Then, as the room sees it: the table keeps its number and shows a
sheet of three with the three who stay, the old sheet is closed ("a player dropped"),
a player's "my table now" leads to the new sheet (he records its deals there), and the
standings count the table once, the leaver's figure capped by his forfeit. The expected
figures are the engine's count of the two sheets (``results.recount``), never typed in.
Every page fits the width, with no serious axe violation.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model

from prefscore.clubs.models import Club, Membership, Player, Role
from prefscore.games.models import Pulka
from prefscore.tournaments import entries, results
from prefscore.tournaments.checks import check
from prefscore.tournaments.models import TableClosure, Tournament
from tests.browser.support import axe_violations, figure, record_deal, screenshot, sign_in
from tests.web.fixtures_tournaments import enter, make_tournament, play_round_deals, table_deals

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NAMES = ("Anna", "Boris", "Vera", "Gleb", "Dina", "Egor", "Zoya", "Igor", "Kira", "Lev")
LANGUAGES = {"ru": "ru-RU", "en": "en-US"}
SIZES = {"phone": {"width": 390, "height": 844}, "laptop": {"width": 1280, "height": 800}}
FORFEIT_CAP = 0  # "0 records no gain" (the regulations form's help)

WORDS = {
    "ru": {
        "after_drop": "Когда игрок покидает стол на четверых во время игры",
        "play_on": "остальные трое играют дальше на новой пульке втроём; считаются обе пульки",
        "forfeit": "Неустойка: не более, в вистах",
        "save": "Сохранить регламент",
        "draw": "Провести жеребьёвку следующего тура",
        "draft": "Тур {n}: черновик",
        "publish": "Опубликовать и начать столы",
        "drop": "Снять: {name}",
        "table": "Стол {n}",
        "running": "идёт",
        "closed": "закрыт, выбытие: {name} — штраф по §4.9",
        "continued": "Ten · тур 1 · стол {n}, продолжение",
        "on_three": "Продолжение стола {n} после выбытия игрока; первый лист — лист на четверых.",
        "on_four": "Трое доигрывают на новом листе — лист на троих.",
        "both": "Оба листа идут в зачёт тура.",
        "first_sheet": "лист на четверых",
        "sheet_of_three": "лист на троих",
        "long_label": "дисквалификации",
        "plays_on": "трое играют дальше после выбытия игрока",
        "my_table": "Мой стол сейчас",
        "open_sheet": "Открыть лист",
        "whists": "Висты",
    },
    "en": {
        "after_drop": "When a player leaves a table of 4 in play",
        "play_on": "the other three play on at a sheet of three; both sheets count",
        "forfeit": "A forfeit counts at most, in whists",
        "save": "Save the regulations",
        "draw": "Draw the next round",
        "draft": "Round {n}: draft",
        "publish": "Publish and start the tables",
        "drop": "Drop: {name}",
        "table": "Table {n}",
        "running": "running",
        "closed": "closed: {name} left, a forfeit (§4.9)",
        "continued": "Ten · round 1 · table {n}, continued",
        "on_three": "Table {n} continued after a player left; the first sheet: the sheet of four.",
        "on_four": "The three play on at a new sheet: the sheet of three.",
        "both": "Both sheets count for the round.",
        "first_sheet": "the sheet of four",
        "sheet_of_three": "the sheet of three",
        "long_label": "disqualify",
        "plays_on": "the three play on after a drop",
        "my_table": "My table now",
        "open_sheet": "Open the sheet",
        "whists": "Whists",
    },
}

# The standings as the page shows them: the header's labels, and each row's cells by name.
STANDINGS_JS = """() => {
  const table = document.querySelector('.standings-table');
  const heads = Array.from(table.querySelectorAll('thead th')).map(th => th.textContent.trim());
  const rows = Array.from(table.querySelectorAll('tbody tr')).map(tr =>
    Array.from(tr.children).map(cell => cell.firstChild ? cell.firstChild.textContent.trim() : ''));
  return {heads, rows};
}"""


# How many lines a word of the regulations' labels is drawn on: 1 unless split mid-word.
WORD_LINES_JS = """(word) => {
  const dt = Array.from(document.querySelectorAll('.tournament-settings dt'))
    .find(el => el.textContent.includes(word));
  const text = dt.firstChild, start = text.textContent.indexOf(word);
  const range = document.createRange();
  range.setStart(text, start);
  range.setEnd(text, start + word.length);
  return new Set(Array.from(range.getClientRects()).map(rect => Math.round(rect.top))).size;
}"""


def fits(page: Any) -> bool:
    return bool(page.evaluate("document.scrollingElement.scrollWidth <= window.innerWidth"))


def looks_right(page: Any, shot: Any) -> None:
    """No sideways scroll, nothing serious for axe; the screen kept for a person to see."""
    assert fits(page), page.url
    assert axe_violations(page) == [], page.url
    screenshot(page, shot, full_page=True)


def cards_of_table(page: Any, words: dict[str, str], number: int) -> list[str]:
    """The round's cards titled "Table n", each card's whole text."""
    cards = page.locator("#round-1 .pulka-card")
    title = words["table"].format(n=number)
    return [text for text in cards.all_inner_texts() if text.splitlines()[0].strip() == title]


def whists_of(tables: list[Pulka]) -> dict[str, int]:
    """The engine's whists per player (by player id) over these sheets, summed."""
    total: dict[str, int] = {}
    for table, row in zip(tables, results.recount(tables), strict=True):
        seats = [str(seat.player_id) for seat in table.seats.order_by("seat")]
        for player, whists in zip(seats, row.whists, strict=True):
            total[player] = total.get(player, 0) + whists
    return total


@pytest.mark.parametrize(("language", "size"), [("ru", "phone"), ("en", "laptop")])
def test_the_other_three_play_on_at_the_same_table(
    live_server, new_context, presets, screenshot_dir, language, size
):
    words = WORDS[language]
    viewport = SIZES[size]
    users = get_user_model().objects
    organiser = users.create_user("director", password="pw-director-1234")
    member = users.create_user("player", password="pw-player-12345678")
    club = Club.objects.create(name="Cup club", slug="cup")
    Membership.objects.create(club=club, user=organiser, role=Role.ORGANISER)
    Membership.objects.create(club=club, user=member, role=Role.MEMBER)
    players = [Player.objects.create(club=club, name=name) for name in NAMES]
    cup = make_tournament(club, "Ten", slug="ten", table_size=4)
    enter(cup, players)
    for entry in cup.entries.all():
        entries.move(cup, entry.pk, "check_in", organiser)
    detail = f"{live_server.url}/tournaments/cup/ten/"
    shot = f"play-on-short-{size}-{language}"

    director = new_context(locale=LANGUAGES[language], viewport=viewport, bypass_csp=True)
    sign_in(director, live_server.url, organiser)
    page = director.new_page()

    # The regulations: the other three play on; a forfeit records no gain.
    page.goto(f"{detail}regulations/")
    choice = page.get_by_role("group", name=words["after_drop"]).get_by_label(words["play_on"])
    choice.check()
    page.get_by_label(words["forfeit"]).fill(str(FORFEIT_CAP))
    looks_right(page, screenshot_dir / f"{shot}-regulations.png")
    page.get_by_role("button", name=words["save"]).click()
    page.wait_for_url(lambda address: "/regulations/" not in address)
    cup.refresh_from_db()
    assert cup.after_drop == Tournament.AfterDrop.PLAY_ON
    assert cup.forfeit_whists == FORFEIT_CAP
    assert words["play_on"] in page.locator("main").inner_text()

    # Round 1 drawn and published: a table of 4 and two of 3.
    page.get_by_role("button", name=words["draw"]).click()
    page.get_by_role("heading", name=words["draft"].format(n=1)).wait_for()
    page.get_by_role("button", name=words["publish"]).click()
    page.locator("#round-1").wait_for()
    tables = list(Pulka.objects.filter(tournament=cup, round_number=1).order_by("pk"))
    assert sorted(len(t.player_names) for t in tables) == [3, 3, 4]
    four = next(t for t in tables if len(t.player_names) == 4)
    number = int(four.title.rsplit(" ", 1)[1])

    # Its deals recorded, as the players' devices would; the one ahead on the sheet leaves,
    # so that the forfeit (no gain) shows.
    play_round_deals(cup, 1)
    first = whists_of([four])
    names = {str(seat.player_id): seat.player.name for seat in four.seats.all()}
    leaver = max(first, key=lambda key: first[key])
    assert first[leaver] > FORFEIT_CAP
    stay = [name for key, name in names.items() if key != leaver]
    page.goto(detail)
    page.get_by_role("button", name=words["drop"].format(name=names[leaver])).click()
    # Asked first: the page says what the drop does at the table, and takes the reason.
    page.locator("#leave-form").wait_for()
    page.fill("#id_reason", "went home")
    page.locator("#leave-form button[type=submit]").click()
    page.locator("#entries").wait_for()

    # The table keeps its number: a sheet of three of the three who stay, running, and
    # the old sheet of four, closed as it stood.
    page.goto(f"{detail}#round-1")
    both = [card.replace("\xa0", " ") for card in cards_of_table(page, words, number)]
    assert len(both) == 2, both
    playing = [card for card in both if words["running"] in card]
    closed = [card for card in both if words["closed"].format(name=names[leaver]) in card]
    assert len(playing) == 1 and len(closed) == 1, both
    assert sorted(playing[0].splitlines()[1].split(", ")) == sorted(stay)
    assert names[leaver] in closed[0]
    assert words["plays_on"] in playing[0] and words["plays_on"] not in closed[0]
    assert TableClosure.objects.get(pulka=four).reason == TableClosure.Reason.DROP
    # The regulations in short: no label split mid-word ("дисквалификаци|и" at 390 px).
    assert page.evaluate(WORD_LINES_JS, words["long_label"]) == 1
    looks_right(page, screenshot_dir / f"{shot}-detail.png")
    short = Pulka.objects.get(tournament=cup, title_parts__continues=four.pk)
    assert sorted(short.player_names) == sorted(stay)

    # One of the three, on his own device: "my table now" leads to the new sheet, where
    # he records its deals.
    Player.objects.filter(club=club, name=stay[0]).update(user=member)
    own = new_context(locale=LANGUAGES[language], viewport=viewport, bypass_csp=True)
    sign_in(own, live_server.url, member)
    phone = own.new_page()
    phone.goto(detail)
    phone.get_by_role("link", name=words["my_table"]).click()
    mine = phone.locator("#mine")
    mine.wait_for()
    assert mine.locator("[data-my=table]").inner_text().strip() == words["table"].format(n=number)
    others = mine.locator(".entry-list__item").all_inner_texts()
    assert sorted(others) == sorted(stay[1:])
    looks_right(phone, screenshot_dir / f"{shot}-my-table.png")
    phone.get_by_role("link", name=words["open_sheet"]).click()
    phone.wait_for_url(f"**/{short.pk}/**")
    for deal_number, facts in enumerate(table_deals(short), start=1):
        record_deal(phone, facts, deal_number, names=tuple(short.player_names))
    looks_right(phone, screenshot_dir / f"{shot}-sheet.png")

    # The sheet of three says it continues the table, and links to the first sheet,
    # which links back: both count for the round.
    title = phone.locator(".table-page__title").inner_text().strip()
    assert title == words["continued"].format(n=number)
    status = " ".join(phone.locator("#status").inner_text().split())
    assert words["on_three"].format(n=number) in status and words["both"] in status
    phone.locator("#status").get_by_role("link", name=words["first_sheet"]).click()
    phone.wait_for_url(f"**/{four.pk}/**")
    status = " ".join(phone.locator("#status").inner_text().split())
    assert words["on_four"] in status and words["both"] in status
    looks_right(phone, screenshot_dir / f"{shot}-first-sheet.png")
    phone.locator("#status").get_by_role("link", name=words["sheet_of_three"]).click()
    phone.wait_for_url(f"**/{short.pk}/**")

    # The standings count the table once: each player one line, the three's whists the
    # two sheets' sum, the leaver's his sheet's capped by the forfeit.
    then = whists_of([short])
    expected = {names[key]: first[key] + then[key] for key in then}
    expected[names[leaver]] = min(first[leaver], FORFEIT_CAP)
    page.goto(f"{detail}standings/")
    shown = page.evaluate(STANDINGS_JS)
    column = shown["heads"].index(words["whists"])
    by_name = {row[1]: row for row in shown["rows"]}
    assert len(shown["rows"]) == len(NAMES) and set(by_name) == set(NAMES)
    for name, whists in expected.items():
        assert figure(by_name[name][column]) == whists, (name, by_name[name])
    looks_right(page, screenshot_dir / f"{shot}-standings.png")
    assert check(cup) == []
