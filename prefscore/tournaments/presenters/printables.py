"""What the printed pages show (docs/tournaments.md §4.12): the seating by table and
alphabetically, a card per table, the standings, and a blank protocol sheet per table
for paper play, with the column for the game and its result (Кодекс 4.2.11).

Each is a plain view model; the templates under ``templates/tournaments/room/`` place
it, and the print stylesheet (the room block of prefscore.css) lays it out on A4.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from django.utils import timezone
from django.utils.translation import gettext as _

from scoring.engine import seating as seating_engine

from .. import services
from ..models import Tournament, TournamentEntry
from . import room
from .tournament import StandingsTable, settings_lines, standings_table

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
class PlayerColumns:
    """A player's columns on the protocol: pulya, gora, and his whists on each opponent
    (the sheet's whists are written against each other player, docs/rules.md §1)."""

    name: str
    columns: tuple[str, ...]


@dataclass(frozen=True)
class ProtocolSheet:
    """One table's blank protocol: the players across, a row per deal."""

    title: str
    table: int | None
    names: tuple[str, ...]
    first_dealer: str
    rows: tuple[int, ...]
    players: tuple[PlayerColumns, ...] = ()

    @property
    def cells_per_row(self) -> tuple[int, ...]:
        """One item per blank cell of a deal's row, across all players."""
        return tuple(range(sum(len(p.columns) for p in self.players)))


@dataclass(frozen=True)
class Protocols:
    sheets: tuple[ProtocolSheet, ...]
    columns_per_player: tuple[str, ...]


@dataclass(frozen=True)
class Cards:
    """The table cards (§6.2): a card per table of the current round. While check-in is
    open and no round is out yet (§4.2), a card per table the field will fill instead,
    each carrying the check-in QR code for the players who sit down at it."""

    current: room.RoomRound
    checkin_tables: tuple[int, ...] = ()


def cards(tournament: Tournament, checkin_open: bool) -> Cards:
    current = room.room_round(tournament)
    if not checkin_open or current.tables:
        return Cards(current)
    field = tournament.entries.exclude(state__in=TournamentEntry.OUT).count()
    return Cards(current, tuple(range(1, _tables_for(field, tournament.table_size) + 1)))


def _tables_for(players: int, size: int) -> int:
    """How many tables the field fills (the seating's plan, §4.2); a field the plan cannot
    seat yet (players still arriving) gets a card per started table of ``size``."""
    try:
        return len(seating_engine.table_plan(players, size))
    except seating_engine.SeatingError:
        return -(-players // size)


def player_columns(names: tuple[str, ...]) -> tuple[PlayerColumns, ...]:
    """Pulya, gora and the whists on each opponent, named (or by seat on a blank sheet)."""
    players = []
    for seat, name in enumerate(names):
        whists = tuple(
            _("whists on %(name)s") % {"name": other or _("seat %(seat)s") % {"seat": n + 1}}
            for n, other in enumerate(names)
            if n != seat
        )
        players.append(PlayerColumns(name, (_("pulya"), _("gora"), *whists)))
    return tuple(players)


def protocols(tournament: Tournament) -> Protocols:
    """A protocol per table of the current round, or one blank sheet when none is drawn.

    Rows: the regulations' deals per round, else a long evening's worth.
    """
    current = room.room_round(tournament)
    limit = tournament.deals_per_round or PROTOCOL_ROWS_WITHOUT_LIMIT
    rows = tuple(range(1, min(limit, PROTOCOL_MAX_ROWS) + 1))
    sheets = tuple(
        ProtocolSheet(
            current.title, t.number, t.names, t.first_dealer, rows, player_columns(t.names)
        )
        for t in current.tables
    )
    if not sheets:
        blank = ("",) * tournament.table_size
        sheets = (ProtocolSheet("", None, blank, "", rows, player_columns(blank)),)
    return Protocols(sheets, (_("pulya"), _("gora"), _("whists")))


@dataclass(frozen=True)
class StandingsPrint:
    """The standings to print: the table, the date, the regulations in short, and the
    chief arbiter's signature line at the foot (docs/tournaments.md §6.2)."""

    table: StandingsTable
    date: date
    regulations: tuple[tuple[str, str], ...]
    final: bool


def standings_print(tournament: Tournament) -> StandingsPrint:
    """The standings as printed: dated by the finish, or today while the tournament runs."""
    table = standings_table(tournament, services.standings(tournament))
    moment = tournament.finished_at or timezone.now()
    return StandingsPrint(
        table,
        timezone.localtime(moment).date(),
        tuple(settings_lines(tournament)),
        tournament.finished,
    )
