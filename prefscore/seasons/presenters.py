"""What the season pages show, from the stored lines (docs/seasons.md §7)."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from django.utils.formats import number_format

from .models import SeasonLine


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
    )
