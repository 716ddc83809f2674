"""Each table's settled figures, kept as its sheet changes (docs/tournaments.md §4.11).

The standings of a big field cannot fold every table's deals on each read (1,250 tables,
15,000 deals: seconds, and the projector asks every 10 s). So each tournament pulka keeps
one ``TableResult`` row: its whole whists and Кодекс 4.1.3 counts per seat, written by
:func:`refresh` after every change of the sheet (``games.events.sheet_changed``, sent
once the change commits, the way the statistics keep their summaries). The standings
read those rows (:func:`table_results`): a row counted at an older version of its pulka
(a change it missed, or none written yet) is counted again there, in one batch, and
written back. The figures are the engine's fold either way
(``scoring.engine.ranking.table_result``); ``manage.py rebuild_results`` writes them all
again, and ``check_tournament`` compares them with a recount (:func:`differences`).

:func:`counted_tables` is the one place where those rows become what a tournament
counts: each table of a published round once (a table of 4 that played on as three is
one table), with the arbiter's figures and the forfeit's cap applied. The standings rank
it and a season counts it (``seasons.standings``); nothing else turns sheets into results.
"""

from __future__ import annotations

import itertools
import json
import logging
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import astuple, dataclass
from typing import Any

from django.db import DatabaseError, transaction
from django.db.models import Q, TextField
from django.db.models.functions import Cast

from prefscore.games import services
from prefscore.games.models import Correction, Deal, Pulka, PulkaSeat
from scoring.engine import ranking
from scoring.engine.forfeit import forfeited
from scoring.engine.pulka import ScoredPulka

from .models import Round, TableResult, Tournament

log = logging.getLogger(__name__)

ROW_FIELDS = ["tournament", "version", "deals", "whists", "stats"]


def counted(pulka: Pulka, deals: Sequence[Deal], corrections: Sequence[Correction]) -> TableResult:
    """The unsaved row of one table from its standing deals and corrections (the fold)."""
    return from_scored(pulka, services.score(pulka, list(deals), list(corrections)), len(deals))


def from_scored(pulka: Pulka, scored: ScoredPulka, deals: int) -> TableResult:
    """The unsaved row of one table (of a tournament) from the engine's fold of its sheet."""
    assert pulka.tournament_id is not None, "only a tournament's table has a result"
    result = ranking.table_result(scored, pulka.round_number or 0)
    return TableResult(
        pulka=pulka,
        tournament_id=pulka.tournament_id,
        version=pulka.version,
        deals=deals,
        whists=list(result.whists),
        stats=[list(astuple(stats)) for stats in result.stats],
    )


def store(rows: Iterable[TableResult]) -> None:
    """Write rows, replacing each pulka's earlier one (two writers race harmlessly)."""
    TableResult.objects.bulk_create(
        list(rows), update_conflicts=True, unique_fields=["pulka"], update_fields=ROW_FIELDS
    )


def recount(pulkas: Sequence[Pulka]) -> list[TableResult]:
    """Count these tables from their sheets: two queries however many tables."""
    if not pulkas:
        return []
    ids = [pulka.pk for pulka in pulkas]
    deals: dict[int, list[Deal]] = {pk: [] for pk in ids}
    for deal in Deal.objects.current().filter(pulka_id__in=ids).order_by("pulka_id", "number"):
        deals[deal.pulka_id].append(deal)
    corrections: dict[int, list[Correction]] = {pk: [] for pk in ids}
    for correction in Correction.objects.filter(pulka_id__in=ids):
        corrections[correction.pulka_id].append(correction)
    return [counted(pulka, deals[pulka.pk], corrections[pulka.pk]) for pulka in pulkas]


def refresh(pulka_id: int) -> TableResult | None:
    """Count one tournament table again and keep its row (after a change of its sheet)."""
    pulka = Pulka.objects.filter(pk=pulka_id, tournament__isnull=False).first()
    if pulka is None:
        return None
    with transaction.atomic():
        rows = recount([pulka])
        store(rows)
    return rows[0]


def on_sheet_changed(
    sender: Any, pulka_id: int, tournament_id: int | None = None, **kwargs: Any
) -> None:
    """``games.events.sheet_changed``: a tournament table's sheet changed; club games pass.

    The deal is committed by now: a failure here must not turn the players' answer into
    an error. The row is then behind its pulka's version, and the next read of the
    standings counts it again (``table_results``).
    """
    if tournament_id is None:
        return
    try:
        refresh(pulka_id)
    except DatabaseError:
        log.exception("table result of pulka %s not written; the standings will count it", pulka_id)


@dataclass(frozen=True, slots=True)
class Table:
    """What the standings need of a table, read without its deals or its model."""

    pk: int
    round_number: int
    status: str
    version: int
    keys: tuple[str, ...]
    # The arbiter's final sheet (Кодекс 4.2.16), which replaces the sheet's whists.
    arbiter_whists: tuple[int, ...] | None


def standing_tables(tournament: Tournament) -> list[Table]:
    """The tables that count (not archived), in round and creation order: two queries."""
    rows = list(
        tournament.pulkas.exclude(status=Pulka.Status.ARCHIVED)
        .order_by("round_number", "pk")
        .values_list("pk", "round_number", "status", "version", "closure__whists")
    )
    seats: dict[int, list[str]] = defaultdict(list)
    seated = PulkaSeat.objects.filter(pulka__tournament=tournament).order_by("pulka_id", "seat")
    for pulka_id, player_id in seated.values_list("pulka_id", "player_id"):
        seats[pulka_id].append(str(player_id))
    return [
        Table(pk, number or 0, status, version, tuple(seats[pk]), _whists(arbiter))
        for pk, number, status, version, arbiter in rows
    ]


def _whists(value: Any) -> tuple[int, ...] | None:
    return None if value is None else tuple(value)


@dataclass(frozen=True, slots=True)
class Stored:
    """A table's stored figures as read: per seat whole whists and 4.1.3 counts."""

    version: int
    whists: list[int]
    stats: list[list[int]]


def table_results(tournament: Tournament, tables: Sequence[Table]) -> dict[int, Stored]:
    """Each table's stored figures by pulka id, stale ones counted again and written back.

    One query for the rows; when some are stale (counted at another version of the
    pulka, or never), three more (their pulkas, deals and corrections) and one write,
    however many they are.
    """
    rows = TableResult.objects.filter(tournament=tournament).values_list(
        "pulka_id", "version", Cast("whists", TextField()), Cast("stats", TextField())
    )
    # Read as text and decoded here: the JSON field's own decoding of each value cost a
    # standings of 1,000 players more than the query (docs/benchmarks.md, "Large exports
    # and imports"). A value that is no JSON stays text, as the field leaves it.
    stored = {
        pk: Stored(version, _json(whists), _json(stats)) for pk, version, whists, stats in rows
    }
    stale = [t.pk for t in tables if t.pk not in stored or stored[t.pk].version != t.version]
    if stale:
        fresh = recount(list(Pulka.objects.filter(pk__in=stale)))
        store(fresh)
        stored.update({r.pulka_id: Stored(r.version, r.whists, r.stats) for r in fresh})
    return stored


def _json(text: str) -> Any:
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        return text


def ranked(row: Stored, table: Table) -> ranking.TableResult:
    """The engine's table result from stored figures; the arbiter's whists where he gave them."""
    whists = table.arbiter_whists if table.arbiter_whists is not None else tuple(row.whists)
    stats = tuple([ranking.PlayerStats(*counts) for counts in row.stats])
    return ranking.TableResult(table.round_number, table.keys, whists, stats)


def rebuild(tournament: Tournament) -> int:
    """Count every table of the tournament again from its sheet; how many rows were written."""
    pulkas = list(tournament.pulkas.all())
    with transaction.atomic():
        rows = recount(pulkas)
        store(rows)
    return len(rows)


def differences(tournament: Tournament) -> list[tuple[Pulka, str]]:
    """Tables whose stored row is missing or differs from a recount of the sheet, and how.

    ``missing``: no row for a table with deals; ``differs``: the row's figures are not the sheet's. A row
    merely counted at an older version is not a difference when its figures still hold.
    """
    pulkas = list(
        tournament.pulkas.exclude(status=Pulka.Status.ARCHIVED).order_by("round_number", "pk")
    )
    by_id = {pulka.pk: pulka for pulka in pulkas}
    stored = {row.pulka_id: row for row in TableResult.objects.filter(pulka__in=pulkas)}
    found = []
    for fresh in recount(pulkas):
        row = stored.get(fresh.pulka_id)
        if row is None and fresh.deals:
            found.append((by_id[fresh.pulka_id], "missing"))
        elif row is not None and (row.whists, row.stats, row.deals) != (
            fresh.whists,
            fresh.stats,
            fresh.deals,
        ):
            found.append((by_id[fresh.pulka_id], "differs"))
    return found


def continued(rounds: Iterable[Any]) -> dict[int, int]:
    """Each sheet of three that played on after a drop, by pulka id: the pulka of the
    table of 4 it continues (``Round.tables``' ``continues``, docs/tournaments.md §4.9)."""
    return {
        table["pulka"]: table["continues"]
        for round_ in rounds
        for table in round_.tables or ()
        if isinstance(table, dict)
        and isinstance(table.get("pulka"), int)
        and isinstance(table.get("continues"), int)
    }


def join_continued(
    by_table: dict[int, ranking.TableResult], continued: dict[int, int]
) -> list[ranking.TableResult]:
    """The tables' results with each sheet played on short added to the table it
    continues (§4.9): one result per table and round, so a round counts once for its
    players and place points rank the table as a whole. Order kept."""
    joined = dict(by_table)
    for later, first in continued.items():
        if later in joined and first in joined:
            joined[first] = join(joined[first], joined.pop(later))
    return list(joined.values())


def join(first: ranking.TableResult, then: ranking.TableResult) -> ranking.TableResult:
    """A table's first sheet and the sheet its players went on with: each seat's whists
    and Кодекс 4.1.3 counts added (a player of the first only keeps his)."""
    at = {player: index for index, player in enumerate(then.players)}
    whists = tuple(
        whist + (then.whists[at[player]] if player in at else 0)
        for player, whist in zip(first.players, first.whists, strict=True)
    )
    stats = first.stats
    if first.stats and then.stats:
        stats = tuple(
            ranking.PlayerStats(
                *(
                    a + b
                    for a, b in zip(astuple(mine), astuple(then.stats[at[player]]), strict=True)
                )
            )
            if player in at
            else mine
            for player, mine in zip(first.players, first.stats, strict=True)
        )
    return ranking.TableResult(first.round_number, first.players, whists, stats)


# A table's deals as the room counts them: standing, and not a manual line (a fine, an
# arbiter's line: docs/rules.md §3.11), which nobody deals and no deal limit counts.
PLAYED_DEALS = Q(deals__withdrawn_at__isnull=True) & ~Q(deals__facts__has_key="manual")


def table_numbers(round_: Round | None, pulkas: Sequence[Any]) -> dict[int, int]:
    """Each live table's number in its round, by pulka id (docs/tournaments.md §4.11).

    A table keeps the number of the draw's table it was started for (``Round.tables``
    names its pulka, and a re-seat after a drop names the new one), on every screen,
    sheet title and export alike. Tables the draw does not name (an imported round)
    take the free numbers in the order they were started. ``pulkas``: anything with a
    ``pk`` (pulkas, or the :class:`Table` rows the standings read).
    """
    drawn: dict[int, int] = {}
    for number, table in enumerate(round_.tables if round_ is not None else [], start=1):
        if isinstance(table, dict) and isinstance(table.get("pulka"), int):
            drawn[table["pulka"]] = number
            # A table played on short after a drop: its first sheet keeps the number too.
            if isinstance(table.get("continues"), int):
                drawn[table["continues"]] = number
    numbers = {p.pk: drawn[p.pk] for p in pulkas if p.pk in drawn}
    used = set(numbers.values())
    free = (n for n in itertools.count(1) if n not in used)
    for pulka in sorted(pulkas, key=lambda p: p.pk):
        if pulka.pk not in numbers:
            numbers[pulka.pk] = next(free)
    return numbers


# --- what a tournament counts -----------------------------------------------------------


@dataclass(frozen=True, slots=True)
class CountedTable:
    """One table of a published round as the tournament counts it (§4.9–§4.11).

    ``sheets``: its pulka, then the sheet of three its players went on with after a drop,
    if they did; ``result``: each player's whole whists and Кодекс 4.1.3 counts at the
    table, the arbiter's figures where he closed a sheet, both sheets added, and a
    forfeiting player's whists capped by the regulations.
    """

    round_number: int
    stage: str
    number: int
    sheets: tuple[int, ...]
    result: ranking.TableResult
    running: bool


@dataclass(frozen=True)
class Counted:
    """What the tournament counts: its published rounds, their tables, and every live
    sheet (a running one makes the standings provisional)."""

    rounds: tuple[Round, ...]
    tables: tuple[CountedTable, ...]
    sheets: tuple[Table, ...]

    @property
    def seated(self) -> frozenset[str]:
        """The players who sat at a counted table: only they are ranked (§4.2)."""
        return frozenset(key for table in self.tables for key in table.result.players)


def counted_tables(tournament: Tournament, before_round: int | None = None) -> Counted:
    """The tables of the tournament and each player's result on them (§4.9–§4.11).

    The one source of a tournament's results: ``services.standings`` ranks these and a
    season counts them (docs/seasons.md §1). Each table of a published round counts
    once, in round and start order: a sheet of three that played on after a drop is
    added to the table of 4 it continues (:func:`join`), the arbiter's final sheet
    replaces a sheet's whists, and a player who left a table after its first deal
    counts at most the regulations' ``forfeit_whists`` there
    (``scoring.engine.forfeit``). Five queries whatever the size (rounds, tables, seats,
    forfeits, stored results), three more for stale results. ``before_round``: only the
    rounds before it (the standings a cut was made on, ``recut.py``).
    """
    published = tournament.rounds.filter(status=Round.Status.PUBLISHED)
    if before_round is not None:
        published = published.filter(number__lt=before_round)
    rounds = tuple(published)
    of_round = {r.number: r for r in rounds}
    sheets = standing_tables(tournament)
    played = [t for t in sheets if t.round_number in of_round]
    stored = table_results(tournament, played)
    left = tournament.entries.filter(forfeited_round__isnull=False)
    forfeits = {
        (str(key), int(number))
        for key, number in left.values_list("player_id", "forfeited_round")
        if number is not None
    }
    by_round: dict[int, list[Table]] = defaultdict(list)
    for table in played:
        by_round[table.round_number].append(table)
    numbers: dict[int, int] = {}
    for number, round_tables in by_round.items():
        numbers.update(table_numbers(of_round[number], round_tables))
    by_pk = {table.pk: table for table in played}
    # The sheet of three each table of 4 went on with after a drop, by its pulka (§4.9).
    then = {
        first: by_pk[later]
        for later, first in continued(rounds).items()
        if later in by_pk and first in by_pk
    }
    joined = {later.pk for later in then.values()}
    counted = []
    for table in played:
        if table.pk in joined:
            continue  # counted with the table of 4 it continues
        result = ranked(stored[table.pk], table)
        pulkas = [table]
        if table.pk in then:
            later = then[table.pk]
            result = join(result, ranked(stored[later.pk], later))
            pulkas.append(later)
        counted.append(
            CountedTable(
                round_number=table.round_number,
                stage=of_round[table.round_number].stage,
                number=numbers[table.pk],
                sheets=tuple(p.pk for p in pulkas),
                result=forfeited(result, forfeits, tournament.forfeit_whists),
                running=any(p.status == Pulka.Status.RUNNING for p in pulkas),
            )
        )
    return Counted(rounds, tuple(counted), tuple(sheets))
