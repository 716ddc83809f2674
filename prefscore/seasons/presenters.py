"""What the season pages show, from the stored lines (docs/seasons.md §7)."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING

from django.utils.formats import number_format

from prefscore.tournaments.presenters.control import discipline_line

from .models import SeasonLine

if TYPE_CHECKING:
    from .divisions import Preview


def shown(value: str) -> str:
    """An exact total as people read it: whole, or to two decimals in the page's language."""
    exact = Fraction(value)
    if exact.denominator == 1:
        return str(exact.numerator)
    return number_format(round(float(exact), 2), decimal_pos=2)


@dataclass(frozen=True)
class EventPoints:
    key: str
    points: str
    counts: bool
    # The cards he got at this event, in words ("1 yellow card"), or blank (§13).
    cards: str = ""


@dataclass(frozen=True)
class LineRow:
    player_id: int
    name: str
    rank: int | None
    total: str
    attended: int
    counted: int
    needed: int
    events: tuple[EventPoints, ...]
    division: str
    # His cards across the season in words, and whether they took him out (§13).
    cards: str = ""
    yellow: int = 0
    red: int = 0
    excluded: bool = False


def line_row(line: SeasonLine) -> LineRow:
    cards = {key: (yellow, red) for key, yellow, red in line.cards}
    events = tuple(
        EventPoints(key, shown(value), bool(counts), discipline_line(*cards.get(key, (0, 0)), 0))
        for key, value, counts in line.points
    )
    yellow = sum(yellow for yellow, _red in cards.values())
    red = sum(red for _yellow, red in cards.values())
    return LineRow(
        player_id=line.player_id,
        name=line.player.name,
        rank=line.rank,
        total=shown(line.total),
        attended=len(events),
        counted=sum(1 for event in events if event.counts),
        needed=line.needed,
        events=events,
        division=line.division.name if line.division_id and line.division else "",
        cards=discipline_line(yellow, red, 0),
        yellow=yellow,
        red=red,
        excluded=line.excluded,
    )


@dataclass(frozen=True)
class MoveRow:
    player: str
    from_division: str
    to_division: str
    up: bool


def moves(preview: Preview) -> list[MoveRow]:
    """The previewed moves as the page lists them (docs/seasons.md §10)."""
    return [
        MoveRow(
            preview.players.get(move.player, "?"),
            preview.names[move.from_],
            preview.names[move.to],
            move.to < move.from_,
        )
        for move in preview.moves
    ]
