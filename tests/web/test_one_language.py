"""One language per page: every screen of a seeded club, pulka, tournament and its
statistics, read as text, carries no Russian on an English page and no English
left over from the templates on a Russian page (docs/design.md, "Names, languages and taps").

The page's text is what a reader sees or hears: each element's own text, the title,
and the ``aria-label``, ``placeholder`` and ``title`` attributes; scripts, styles,
form values and elements marked with another ``lang`` (the language switch) are left
out, and so is what people typed (names of players, clubs and accounts). The contract
notation is included: on an English page ``7NT`` and ``7♠/pass``, never ``БК`` or
``пас`` (presenters/numbers.py).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from html.parser import HTMLParser
from typing import Any

import pytest
from django.core.cache import cache
from django.test import Client

from prefscore.games.models import Pulka
from prefscore.tournaments import rounds
from tests.browser.support import NAMES, TWELVE_DEALS
from tests.web.fixtures_access import build_world, make_pulka, record
from tests.web.fixtures_tournaments import enter, make_tournament, play_round_deals

pytestmark = pytest.mark.django_db

CYRILLIC = re.compile(r"[А-Яа-яЁё]")
LATIN_WORD = re.compile(r"[A-Za-z]{3,}")
# Russian that English pages keep on purpose: the rule book's title and the names the
# conventions and their federation go by (proper names, glossed in English beside them).
RUSSIAN_NAMES = re.compile(
    r"Кодекс\w*|преферанс\w*|сочинк\w*|ленинградк\w*|питерк\w*|ростовк\w*|«?Ленинградская»?"
    r"|ФСПР|Русский"
)
GLOSS = re.compile(r"\([^()]*\)")  # "greedy (жлобский)": a Russian term glossed
SKIPPED = {"script", "style", "textarea", "option"}


class _Texts(HTMLParser):
    """The texts of a page a reader sees or hears (see the module's docstring)."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.texts: list[str] = []
        self.page_lang = ""
        self._stack: list[tuple[str, bool]] = []  # tag, and whether its text is skipped

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        if tag == "html":
            self.page_lang = values.get("lang") or ""
        skipped = bool(self._stack and self._stack[-1][1]) or tag in SKIPPED
        lang = values.get("lang")
        if lang and self.page_lang and lang != self.page_lang:
            skipped = True
        if not skipped:
            for name in ("aria-label", "placeholder", "title"):
                if values.get(name):
                    self.texts.append(values[name] or "")
        if tag not in {"br", "img", "input", "meta", "link", "hr", "source", "wbr"}:
            self._stack.append((tag, skipped))

    def handle_endtag(self, tag: str) -> None:
        while self._stack:
            if self._stack.pop()[0] == tag:
                break

    def handle_data(self, data: str) -> None:
        if self._stack and self._stack[-1][1]:
            return
        if data.strip():
            self.texts.append(data)


def page_texts(html: str) -> tuple[str, list[str]]:
    parser = _Texts()
    parser.feed(html)
    return parser.page_lang, [" ".join(t.split()) for t in parser.texts]


def strays(texts: list[str], language: str, data: list[str]) -> list[str]:
    """The texts in the other language: English on a Russian page, Russian on an English one."""
    found = []
    for text in texts:
        if text.startswith(("{", "[")):
            continue  # a pulka file shown as an example: code, the same in every language
        bare = text
        for value in data:
            bare = bare.replace(value, " ")
        if language == "ru" and LATIN_WORD.search(bare) and not CYRILLIC.search(bare):
            found.append(text)
        if language == "en" and CYRILLIC.search(RUSSIAN_NAMES.sub(" ", GLOSS.sub(" ", bare))):
            found.append(text)
    return sorted(set(found))


@dataclass
class Seeded:
    world: Any
    evening: Pulka
    cup: Any
    table: Pulka


def seed() -> Seeded:
    """The access world, an evening of twelve deals (an unplayed 6NT among them), and a
    tournament whose first round is played."""
    cache.clear()  # an earlier test's rendering of the same primary keys
    world = build_world()
    evening = make_pulka(world.club, NAMES, world.users["member"])
    for facts in TWELVE_DEALS:
        record(evening, facts, world.users["member"])
    cup = make_tournament(world.club, "Spring cup", public=True)
    enter(cup, list(world.club.players.order_by("name")[:3]))
    rounds.draw_next_round(cup.pk)
    rounds.publish_round(cup.pk, 1)
    play_round_deals(cup, 1, world.users["organiser"])
    table = Pulka.objects.get(tournament=cup)
    return Seeded(world, evening, cup, table)


def screens(s: Seeded) -> list[str]:
    club, cup, player = s.world.club.slug, s.cup.slug, s.world.club.players.first().pk
    t = f"/tournaments/{club}/{cup}"
    return [
        "/",
        f"/clubs/{club}/",
        f"/clubs/{club}/members/",
        f"/clubs/{club}/players/",
        f"/clubs/{club}/pulkas/new/",
        f"/clubs/{club}/pulkas/import/",
        f"/pulkas/{s.evening.pk}/",
        f"/pulkas/{s.evening.pk}/?protocol=all",
        f"/pulkas/{s.evening.pk}/settlement/",
        f"/pulkas/{s.evening.pk}/audit/",
        f"/pulkas/{s.evening.pk}/manual/",
        f"/pulkas/{s.table.pk}/",
        f"/clubs/{club}/rating/",
        f"/clubs/{club}/stats/players/{player}/",
        f"/tournaments/{club}/",
        f"/tournaments/{club}/new/",
        f"{t}/",
        f"{t}/standings/",
        f"{t}/bracket/",
        f"{t}/room/",
        "/calculator/",
        "/conventions/",
        "/conventions/sochi/",
    ]


def data_strings(s: Seeded) -> list[str]:
    users = s.world.users.values()
    strings = [*NAMES, s.world.club.name, s.world.other_club.name, s.cup.name, "prefscore"]
    strings += [p.name for p in s.world.club.players.all()]
    # A tournament table's title is stored once, in the language of whoever published
    # the round (tournaments/rounds.py start_table): a known gap, left as data here.
    strings += [str(p) for p in Pulka.objects.filter(tournament=s.cup)]
    strings += [u.get_username() for u in users] + [u.email for u in users]
    return sorted(strings, key=len, reverse=True)


@pytest.mark.parametrize("language", ["en", "ru"])
def test_every_screen_reads_in_one_language(language: str) -> None:
    s = seed()
    client = Client(headers={"accept-language": language})
    client.force_login(s.world.users["admin"])
    data = data_strings(s)
    problems = {}
    for path in screens(s):
        response = client.get(path)
        assert response.status_code == 200, path
        lang, texts = page_texts(response.content.decode())
        assert lang == language, path
        found = strays(texts, language, data)
        if found:
            problems[path] = found
    assert not problems, "\n".join(f"{path}: {found}" for path, found in problems.items())


def test_the_english_sheet_writes_the_notation_in_english() -> None:
    """The unplayed 6NT of deal 7 (nobody whisted) reads 6NT/pass in English and
    6БК/пас in Russian: the engine's notation is the same, the page translates it."""
    s = seed()
    pages = {}
    for language in ("en", "ru"):
        client = Client(headers={"accept-language": language})
        client.force_login(s.world.users["admin"])
        pages[language] = client.get(f"/pulkas/{s.evening.pk}/?protocol=all").content.decode()
    assert ">6NT/pass<" in pages["en"] and "БК" not in pages["en"]
    assert ">6БК/пас<" in pages["ru"]


def test_the_stray_finder_finds_strays() -> None:
    """The checker itself: it flags a Russian word on an English page and an English
    one on a Russian page, and lets people's names through."""
    assert strays(["Deal 7: 6БК/пас"], "en", []) == ["Deal 7: 6БК/пас"]
    assert strays(["Сдача 7", "Record deal"], "ru", []) == ["Record deal"]
    assert strays(["Вера deals"], "en", ["Вера"]) == []
