"""What the printed pages show (docs/tournaments.md §4.12): the seating by table and
alphabetically, a card per table, the standings, and a blank protocol sheet per table
for paper play, with the column for the game and its result (Кодекс 4.2.11).

Each is a plain view model; the templates under ``templates/tournaments/room/`` place
it, and the print stylesheet (the room block of prefscore.css) lays it out on A4.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import gettext as _

from . import room
from .models import Tournament

# Rows of a blank protocol when the regulations set no deal limit: a long evening's.
PROTOCOL_ROWS_WITHOUT_LIMIT = 30
PROTOCOL_MAX_ROWS = 60


@dataclass(frozen=True)
class SeatLine:
    name: str
    table: int
    seat: int


@dataclass(frozen=True)
class Seating:
    current: room.RoomRound
    by_name: tuple[SeatLine, ...]


def seating(tournament: Tournament) -> Seating:
    """The current round's tables, and every seated player by name."""
    current = room.room_round(tournament)
    lines = tuple(SeatLine(*row) for row in room.players_alphabetically(current.tables))
    return Seating(current, lines)


@dataclass(frozen=True)
class ProtocolSheet:
    """One table's blank protocol: the players across, a row per deal."""

    title: str
    table: int | None
    names: tuple[str, ...]
    first_dealer: str
    rows: tuple[int, ...]


@dataclass(frozen=True)
class Protocols:
    sheets: tuple[ProtocolSheet, ...]
    columns_per_player: tuple[str, ...]


def protocols(tournament: Tournament) -> Protocols:
    """A protocol per table of the current round, or one blank sheet when none is drawn.

    Rows: the regulations' deals per round, else a long evening's worth.
    """
    current = room.room_round(tournament)
    limit = tournament.deals_per_round or PROTOCOL_ROWS_WITHOUT_LIMIT
    rows = tuple(range(1, min(limit, PROTOCOL_MAX_ROWS) + 1))
    sheets = tuple(
        ProtocolSheet(current.title, t.number, t.names, t.first_dealer, rows)
        for t in current.tables
    )
    if not sheets:
        blank = ("",) * tournament.table_size
        sheets = (ProtocolSheet("", None, blank, "", rows),)
    return Protocols(sheets, (_("pulya"), _("gora"), _("whists")))
