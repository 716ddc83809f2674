"""The standings page's rows, cell by cell (docs/tournaments.md §4.8, §4.10).

The page writes each row from the presenter's cells in one pass, its plain figures
joined (docs/benchmarks.md, "Large exports and imports"): these read the rendered table
back and hold it to the engine's lines, so that a cell lost, doubled, moved, left
unescaped or given the wrong class fails here.
"""

from __future__ import annotations

from html.parser import HTMLParser
from typing import Any

import pytest
from django.utils import translation

from prefscore.games.presenters import format_result
from prefscore.tournaments import services
from prefscore.tournaments.models import Tournament, TournamentEntry
from tests.web.fixtures_tournaments import (
    client_as,
    close_round,
    draw,
    enter,
    make_tournament,
    play_round_deals,
    url,
)

pytestmark = pytest.mark.django_db


class _Table(HTMLParser):
    """The standings table's header cells, and each body row's cells: text and class."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.header: list[str] = []
        self.rows: list[list[tuple[str, str]]] = []
        self.row_classes: list[str] = []
        self._part = ""
        self._cell: list[str] | None = None
        self._class = ""
        self._in_table = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        if tag == "table" and "standings-table" in (values.get("class") or ""):
            self._in_table = True
        if not self._in_table:
            return
        if tag in ("thead", "tbody"):
            self._part = tag
        elif tag == "tr" and self._part == "tbody":
            self.rows.append([])
            self.row_classes.append(values.get("class") or "")
        elif tag in ("td", "th"):
            self._cell = []
            self._class = values.get("class") or ""

    def handle_endtag(self, tag: str) -> None:
        if not self._in_table:
            return
        if tag == "table":
            self._in_table = False
        elif tag in ("td", "th") and self._cell is not None:
            text = " ".join("".join(self._cell).split())
            if self._part == "thead":
                self.header.append(text)
            else:
                self.rows[-1].append((text, self._class))
            self._cell = None

    def handle_data(self, data: str) -> None:
        if self._cell is not None:
            self._cell.append(data)


def rendered(world: Any, tournament: Tournament) -> _Table:
    response = client_as(world, "member").get(url("standings", tournament))
    assert response.status_code == 200
    table = _Table()
    table.feed(response.content.decode())
    return table


def figure(value: Any) -> str:
    return "" if value is None else format_result(value)


def expected_rows(tournament: Tournament, points: bool) -> list[list[str]]:
    """Each line of the engine's standings as the page must write it: place, name,
    after a cut the qualifying, carried and stage points, the points when the page has
    a points column, the whists, each tie-break, each round."""
    standings = services.standings(tournament)
    breaks = [name for name in tournament.tie_breaks if name != "whists"]
    numbers = [r.number for r in standings.rounds]
    rows = []
    with translation.override("en"):
        for line in standings.lines:
            cut = (line.qualifying, line.carried, line.stage_points) if standings.cut else ()
            rows.append(
                [
                    str(line.place),
                    standings.players[line.player].name,
                    *(figure(value) for value in cut),
                    *([figure(line.points)] if points else []),
                    figure(line.whists),
                    *(figure(getattr(line, name)) for name in breaks),
                    *(figure(line.by_round.get(n)) for n in numbers),
                ]
            )
    return rows


def play(world: Any, tournament: Tournament, rounds: int) -> None:
    for number in range(1, rounds + 1):
        draw(world, tournament)
        play_round_deals(tournament, number)
        close_round(tournament, number)


def strong_cells(table: _Table) -> list[tuple[int, str]]:
    """Each row's cells with a class: where they stand and the class."""
    return [
        next((index, cls) for index, (_text, cls) in enumerate(row) if cls) for row in table.rows
    ]


def test_raw_whists_rows_hold_every_figure_in_its_column(tournament_world, cup):
    play(tournament_world, cup, 2)

    table = rendered(tournament_world, cup)

    expected = expected_rows(cup, points=False)
    assert len(table.rows) == 9
    assert [[text for text, _cls in row] for row in table.rows] == expected
    assert all(len(row) == len(table.header) for row in table.rows)
    assert table.header[-2:] == ["R1", "R2"]
    # The whists, the third cell, is the strong one, red below zero.
    lines = services.standings(cup).lines
    assert strong_cells(table) == [
        (2, "num--minus num--strong" if line.points < 0 else "num--strong") for line in lines
    ]
    assert any(line.points < 0 for line in lines)


def test_place_points_rows_put_the_points_first_and_strong(tournament_world):
    cup = make_tournament(tournament_world.club, normalisation=Tournament.Normalisation.PLACES)
    enter(cup, tournament_world.players)
    play(tournament_world, cup, 1)

    table = rendered(tournament_world, cup)

    assert [[text for text, _cls in row] for row in table.rows] == expected_rows(cup, True)
    assert table.header[2:4] == ["Points", "Whists"]
    assert all(index == 2 for index, _cls in strong_cells(table))
    assert all(len(row) == len(table.header) for row in table.rows)


def test_after_a_cut_the_qualifying_figures_come_before_the_points(tournament_world, cup):
    play(tournament_world, cup, 1)
    client = client_as(tournament_world, "organiser")
    client.post(url("cut", cup), {"size": "3"})
    client.post(url("publish_round", cup, number=2))
    play_round_deals(cup, 2)
    close_round(cup, 2)

    table = rendered(tournament_world, cup)

    assert services.standings(cup).cut
    assert table.header[2:6] == ["Qualifying", "Carried", "Final stage", "Points"]
    assert [[text for text, _cls in row] for row in table.rows] == expected_rows(cup, True)
    assert all(index == 5 for index, _cls in strong_cells(table))
    assert table.row_classes[:3] == ["standings-table__finalist"] * 3
    assert table.row_classes[3:] == [""] * 6


def test_a_dropped_player_is_tagged_and_a_name_stays_text(tournament_world, cup):
    play(tournament_world, cup, 1)
    hostile = tournament_world.players[0]
    hostile.name = "<b>Ann</b> & co"
    hostile.save()
    TournamentEntry.objects.filter(tournament=cup, player=hostile).update(
        state=TournamentEntry.State.DROPPED
    )

    response = client_as(tournament_world, "member").get(url("standings", cup))
    table = _Table()
    table.feed(response.content.decode())

    html = response.content.decode()
    assert "&lt;b&gt;Ann&lt;/b&gt; &amp; co" in html
    assert "<b>Ann</b>" not in html
    names = [row[1][0] for row in table.rows]
    assert "<b>Ann</b> & co dropped" in names
    assert all(len(row) == len(table.header) for row in table.rows)
