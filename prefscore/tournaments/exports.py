"""A tournament out of the database and back: standings as CSV, the whole as JSON.

docs/tournaments.md §4.12 and §6 (the file format, version 1). The JSON file holds the
regulations, the players, the rounds and each table's pulka file (docs/protocol.md,
as ``games:export`` writes it), so that every result can be recomputed from the deals;
the ``standings`` it carries are output, ignored on import.

Each model is written by one function here (``tournament_json``, ``entry_json``,
``round_json``, ``table_json``) and read by its pair in ``imports`` (``_read_tournament``…),
so a new field is added in one place each way.
"""

from __future__ import annotations

import csv
import io as text_io
import json
from collections.abc import Callable, Mapping, Sequence
from fractions import Fraction
from typing import Any

from django.utils import timezone

from prefscore.clubs.models import Player
from prefscore.games import io
from prefscore.games.models import Correction, Deal, Pulka
from prefscore.games.services import score
from prefscore.spreadsheet import figure_cell, text_cell
from scoring.engine import protocol, ranking
from scoring.engine.conventions import Convention

from . import file_extras, results, services, titles
from .models import Round, TableClosure, Tournament, TournamentEntry

FORMAT = "prefscore-tournament"
VERSION = 1

# --- the CSV of the standings ----------------------------------------------------------

CSV_FIXED = ("place", "player", "points", "whists", "rounds")
CSV_CUT = ("qualifying", "carried", "stage_points")
CSV_TAIL = ("finalist", "dropped")
# Written first: a spreadsheet then reads the file as UTF-8, not in the locale's code page.
BOM = "\ufeff"


def _plain(value: Fraction | int | None, decimal: str = ".") -> str:
    """A figure as a spreadsheet reads it (``spreadsheet.figure_cell``)."""
    return figure_cell(value, decimal)


def csv_columns(
    tournament: Tournament, round_numbers: Sequence[int], cut: bool = False
) -> list[str]:
    """The header: fixed columns, the tie-breaks in order, a column per round, and after
    a cut the qualifying, carried and stage points (docs/tournaments.md §6.3)."""
    tie_breaks = [name for name in tournament.tie_breaks if name != "whists"]
    rounds = [f"round_{n}" for n in round_numbers]
    return [*CSV_FIXED, *tie_breaks, *rounds, *(CSV_CUT if cut else ()), *CSV_TAIL]


def standings_csv(tournament: Tournament, semicolon: bool = False) -> str:
    """The standings as CSV (docs/tournaments.md §6.3): the page's figures, unformatted.

    UTF-8 with a byte order mark, comma-separated; ``semicolon``: separated by ``;``
    with a decimal comma, as a spreadsheet set to Russian reads it. Names go through
    ``text_cell``: a name a spreadsheet would take for a formula stays text.
    """
    table = services.standings(tournament)
    numbers = [r.number for r in table.rounds]
    tie_breaks = [name for name in tournament.tie_breaks if name != "whists"]
    decimal = "," if semicolon else "."
    out = text_io.StringIO()
    out.write(BOM)
    writer = csv.writer(out, delimiter=";" if semicolon else ",", lineterminator="\r\n")
    writer.writerow(csv_columns(tournament, numbers, table.cut))
    for line in table.lines:
        player = table.players.get(line.player)
        cut = (line.qualifying, line.carried, line.stage_points) if table.cut else ()
        writer.writerow(
            [
                line.place,
                text_cell(player.name if player else line.player),
                _plain(line.points, decimal),
                line.whists,
                line.rounds,
                *(_plain(getattr(line, name), decimal) for name in tie_breaks),
                *(_plain(line.by_round.get(n), decimal) for n in numbers),
                *(_plain(value, decimal) for value in cut),
                int(line.finalist),
                int(line.player in table.dropped),
            ]
        )
    return out.getvalue()


# --- the JSON file: one function per model ---------------------------------------------


def tournament_json(tournament: Tournament) -> dict[str, Any]:
    return {
        "name": tournament.name,
        "slug": tournament.slug,
        "public": tournament.public,
        "table_size": tournament.table_size,
        "target": tournament.target,
        "deals_per_round": tournament.deals_per_round,
        "round_minutes": tournament.round_minutes,
        "stage_rounds": tournament.stage_rounds,
        "normalisation": tournament.normalisation,
        "tie_breaks": list(tournament.tie_breaks),
        "carry": tournament.carry,
        "seed": tournament.seed,
        "status": tournament.status,
        "convention_name": tournament.convention_name,
        "convention": tournament.convention.to_options(),
        **file_extras.regulations_json(tournament),
    }


# Entry states and round states (docs/tournaments.md §4.2, §4.5), for models that have
# them; a model without them stores ``dropped`` and publishes every round it draws.
ENTRY_STATES = ("registered", "checked_in", "playing", "dropped", "disqualified", "absent")
OUT_STATES = ("dropped", "disqualified", "absent")
ROUND_STATUSES = ("draft", "published")
STAGES = ("qualifying", "semifinal", "final")


def entry_json(entry: TournamentEntry) -> dict[str, Any]:
    state = getattr(entry, "state", "dropped" if entry.dropped else "registered")
    return {
        "name": entry.player.name,
        "dropped": entry.dropped,
        "state": state,
        # A late entry's first round and the rounds played before a drop (§4.2).
        "joined_round": entry.joined_round,
        "left_after_round": entry.left_after_round,
        "home_club": entry.home_club,
        # The round whose table he left after its first deal, a forfeit (§4.9), or null.
        "forfeited_round": entry.forfeited_round,
    }


def round_json(
    round_: Round,
    tables: Sequence[Pulka],
    names: Mapping[str, str] | None = None,
    title: str = "",
    conventions: Conventions | None = None,
    tick: Callable[[], None] | None = None,
) -> dict[str, Any]:
    """A round; a draft has no pulkas yet, so its ``draw`` (the tables by player name,
    with the first dealer's seat) is what the file keeps of it (§4.5). ``title``: as
    the pages show it (titles.py), information only: the import does not read it. A
    sheet of three played on after a drop follows the table it continues (§4.9).
    ``tick()`` after each table written (an export job's count)."""
    continued = results.continued([round_])
    written = []
    for number, pulka in services.numbered(round_, tables):
        written.append(table_json(number, pulka, conventions, continues=pulka.pk in continued))
        if tick is not None:
            tick()
    return {
        "number": round_.number,
        "title": title,
        "status": getattr(round_, "status", "published"),
        "stage": getattr(round_, "stage", "final" if round_.is_final else "qualifying"),
        "seed": round_.seed,
        "is_final": round_.is_final,
        "method": round_.method,
        "repeats": round_.repeats,
        "repeats_forced": round_.repeats_forced,
        "drawn_at": round_.created_at.isoformat(),
        "starts_at": round_.starts_at.isoformat() if round_.starts_at else None,
        "tables": written,
        "draw": draw_json(round_, names or {}),
    }


def draw_json(round_: Round, names: Mapping[str, str]) -> list[dict[str, Any]]:
    """A draft's tables by player name (a published round's are its pulkas)."""
    if getattr(round_, "status", "published") != "draft":
        return []
    return [
        {
            "players": [names.get(str(key), str(key)) for key in table["players"]],
            "first_dealer": table["first_dealer"],
        }
        for table in round_.tables
    ]


class Conventions:
    """Each distinct convention snapshot of one export, read once (docs/benchmarks.md,
    "Tournaments at scale"): the 1,250 tables of a tournament share one, and reading a
    snapshot into the engine's convention and back to its options is most of a small
    table's export."""

    def __init__(self) -> None:
        self._read: list[tuple[Any, Convention, dict[str, Any]]] = []

    def of(self, pulka: Pulka) -> tuple[Convention, dict[str, Any]]:
        """The pulka's convention and its options as the file writes them."""
        snapshot = pulka.convention_options
        for seen, convention, options in self._read:
            if seen == snapshot:
                return convention, options
        convention = pulka.convention
        self._read.append((snapshot, convention, convention.to_options()))
        return convention, self._read[-1][2]


def table_json(
    number: int, pulka: Pulka, conventions: Conventions | None = None, continues: bool = False
) -> dict[str, Any]:
    """A table: its number, its status, and its pulka file with the engine's output."""
    deals: list[Deal] = pulka.standing_deals  # type: ignore[attr-defined]
    corrections: list[Correction] = pulka.all_corrections  # type: ignore[attr-defined]
    names = list(pulka.player_names)
    convention, options = (conventions or Conventions()).of(pulka)
    file: dict[str, Any] = {
        "convention": options,
        "players": names,
        "target": pulka.target,
        "first_dealer": names[pulka.first_dealer],
    }
    output = protocol.scored_json(score(pulka, deals, corrections, convention))
    output.pop("players")
    file["deals"] = io.with_output(io.log_items(deals, corrections), output.pop("deals"))
    file.update(output)
    table: dict[str, Any] = {"number": number, "status": pulka.status, "pulka": file}
    if continues:
        table["continues"] = True
    closure = services.closure_of(pulka)
    if closure is not None:
        table["closure"] = closure_json(closure)
    return table


def closure_json(closure: TableClosure) -> dict[str, Any]:
    """How the organiser closed the table (docs/tournaments.md §4.9), read by imports."""
    return {
        "reason": closure.reason,
        "whists": None if closure.whists is None else list(closure.whists),
        "note": closure.note,
        "closed_at": closure.closed_at.isoformat(),
        # Who closed it, by account name: an import on another site finds him by that name.
        "closed_by": closure.closed_by.get_username() if closure.closed_by else None,
    }


def standing_json(line: ranking.Line, names: Mapping[str, Player]) -> dict[str, Any]:
    player = names.get(line.player)
    return {
        "place": line.place,
        "name": player.name if player else line.player,
        "points": _plain(line.points),
        "whists": line.whists,
        "finalist": line.finalist,
    }


def export_data(
    tournament: Tournament, progress: Callable[[int, int], None] | None = None
) -> dict[str, Any]:
    """The whole tournament (format version 1): a constant number of queries.

    ``progress(done, total)``: the tables written so far of all of them, told after
    each (an export job's page, ``export_jobs``)."""
    entries = list(tournament.entries.select_related("player").order_by("player__name"))
    pulkas = services.tournament_pulkas(tournament)
    written = [0]

    def tick() -> None:
        written[0] += 1
        if progress is not None:
            progress(written[0], len(pulkas))

    if progress is not None:
        progress(0, len(pulkas))

    by_round: dict[int, list[Pulka]] = {}
    for pulka in pulkas:
        by_round.setdefault(pulka.round_number or 0, []).append(pulka)
    table = services.standings(tournament)
    names = {str(entry.player_id): entry.player.name for entry in entries}
    rounds = list(tournament.rounds.all())
    named = titles.titles_of(((r.number, r.stage) for r in rounds), tournament.stage_rounds)
    ids = {entry.player_id: entry.player.name for entry in entries}
    conventions = Conventions()
    places = _table_places(rounds, by_round)
    return {
        "format": FORMAT,
        "version": VERSION,
        "exported_at": timezone.now().isoformat(),
        "tournament": {
            **tournament_json(tournament),
            "forbidden_pairs": file_extras.pairs_json(tournament, ids),
        },
        "players": [entry_json(entry) for entry in entries],
        "rounds": [
            round_json(
                r, by_round.get(r.number, []), names, named.get(r.number, ""), conventions, tick
            )
            for r in rounds
        ],
        "discipline": file_extras.discipline_json(tournament, places),
        "decisions": file_extras.decisions_json(tournament, places, ids),
        # Players who tie on every criterion share a place: listed by name within it, so
        # an imported copy (whose players have other ids) exports the same list.
        "standings": sorted(
            (standing_json(line, table.players) for line in table.lines),
            key=lambda row: (row["place"], row["name"]),
        ),
    }


def _table_places(
    rounds: Sequence[Round], by_round: Mapping[int, Sequence[Pulka]]
) -> dict[int, tuple[int, int, int]]:
    """Each exported table's round, number and sheet by its pulka id (§4.11): sheet 2 is
    the sheet of three a table of 4 played on with after a drop, under the same number."""
    short = results.continued(rounds)
    return {
        pulka.pk: (round_.number, number, 2 if pulka.pk in short else 1)
        for round_ in rounds
        for number, pulka in services.numbered(round_, by_round.get(round_.number, []))
    }


def export_text(tournament: Tournament, progress: Callable[[int, int], None] | None = None) -> str:
    """The tournament file's text, compact: indented, a tournament of 1,000 players over
    5 rounds wrote 20 MB, more than an import takes (16 MB); compact, 8 MB."""
    data = export_data(tournament, progress)
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"))
