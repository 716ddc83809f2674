"""What the season pages show, from the stored lines (docs/seasons.md §7)."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING

from django.utils.formats import number_format

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


def line_row(line: SeasonLine) -> LineRow:
    events = tuple(
        EventPoints(key, shown(value), bool(counts)) for key, value, counts in line.points
    )
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
