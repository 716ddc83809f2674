"""A tournament counted again from its sheets, by code of its own (docs/tournaments.md §7.12).

What ``check_tournament`` holds the stored results and the standings against. It is
written apart from what it checks (``results.py``: the stored rows and
``counted_tables``; ``services.standings``) and kept plain, so that a fault there shows
as a difference instead of being repeated here: each sheet is folded through the engine
from its deals and corrections and settled in whole whists (Кодекс 4.2.12); the
arbiter's figures stand where he closed a table; a sheet of three that played on after a
drop adds to the table it continues; a forfeit is capped; each table is normalised by the
regulations and the stages are carried (§4.7, §4.9, §4.10).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import astuple, dataclass

from prefscore.games import services as games
from prefscore.games.models import Pulka
from scoring.engine import ranking, settlement, sheet
from scoring.engine.errors import ScoringError
from scoring.engine.normalise import Score, normalised

from .exports import Conventions
from .models import Round, TableClosure, Tournament

STAGES = (Round.Stage.QUALIFYING, Round.Stage.SEMIFINAL, Round.Stage.FINAL)


@dataclass(frozen=True)
class Sheet:
    """One sheet as its deals give it: the players (club player ids, seat order), whole
    whists and Кодекс 4.1.3 counts per seat, how many deals stand, whether it is over;
    ``error`` says why it could not be folded (then the figures are empty)."""

    pulka: Pulka
    players: tuple[str, ...]
    whists: tuple[int, ...] = ()
    stats: tuple[tuple[int, ...], ...] = ()
    deals: int = 0
    over: bool = False
    error: str = ""


def fold(pulka: Pulka, conventions: Conventions | None = None) -> Sheet:
    """The sheet of one pulka whose ``standing_deals`` and ``all_corrections`` are read
    (``services.tournament_pulkas``); never raises on bad data. ``conventions``: the
    snapshots already read, when many tables are folded (docs/benchmarks.md, "A big
    field's results")."""
    players = tuple(str(seat.player_id) for seat in pulka.seats.all())
    deals = list(pulka.standing_deals)  # type: ignore[attr-defined]
    try:
        convention = conventions.of(pulka)[0] if conventions is not None else None
        corrections = pulka.all_corrections  # type: ignore[attr-defined]
        scored = games.score(pulka, deals, corrections, convention)
        whole = settlement.whole_result(scored.totals, scored.pulka.convention).result
        stats = tuple(astuple(seat) for seat in ranking.deal_stats(scored))
        over = sheet.is_over(scored.state)
    except (ScoringError, ValueError, TypeError, KeyError, AttributeError) as error:
        return Sheet(pulka, players, deals=len(deals), error=repr(error))
    return Sheet(pulka, players, tuple(whole), stats, len(deals), over)


def arbiter_whists(pulka: Pulka) -> list[int] | None:
    """The arbiter's final sheet of a closed table, if he entered one."""
    try:
        closure = pulka.closure
    except TableClosure.DoesNotExist:
        return None
    return None if closure.whists is None else list(closure.whists)


def continues(rounds: Iterable[Round]) -> dict[int, int]:
    """The pulka each sheet of three played on after a drop continues, by its pulka."""
    found = {}
    for round_ in rounds:
        for table in round_.tables or ():
            if isinstance(table, dict):
                later, first = table.get("pulka"), table.get("continues")
                if isinstance(later, int) and isinstance(first, int):
                    found[later] = first
    return found


def table_whists(sheets: Mapping[int, Sheet], rounds: Sequence[Round]) -> dict[int, dict[str, int]]:
    """Each table's whists by player, by the pulka it began at: the arbiter's figures
    or the sheet's, a sheet of three added to the table it continues."""
    published = {r.number for r in rounds if r.status == Round.Status.PUBLISHED}
    first_of = continues(rounds)
    tables: dict[int, dict[str, int]] = {}
    for pk, one in sheets.items():
        if one.pulka.round_number not in published or one.pulka.status == Pulka.Status.ARCHIVED:
            continue
        figures = arbiter_whists(one.pulka)
        if figures is None:
            figures = list(one.whists)
        at = first_of.get(pk, pk)
        if at not in sheets:
            at = pk
        table = tables.setdefault(at, {})
        for player, whists in zip(one.players, figures, strict=False):
            table[player] = table.get(player, 0) + whists
    return tables


def points(
    tournament: Tournament,
    sheets: Mapping[int, Sheet],
    rounds: Sequence[Round],
    forfeits: Iterable[tuple[str, int]],
) -> dict[str, Score]:
    """Each player's points in the standings: his tables' normalised whists, a forfeited
    round capped, summed by stage and carried into the next (§4.7, §4.9, §4.10)."""
    stage_of = {r.number: r.stage for r in rounds}
    capped = set(forfeits)
    cap = tournament.forfeit_whists
    by_stage: dict[str, dict[str, Score]] = defaultdict(dict)
    for at, table in table_whists(sheets, rounds).items():
        number = sheets[at].pulka.round_number or 0
        players = list(table)
        whists = [
            min(table[p], cap) if cap is not None and (p, number) in capped else table[p]
            for p in players
        ]
        sums = by_stage[stage_of.get(number, Round.Stage.QUALIFYING)]
        normal = normalised(whists, tournament.normalisation)
        for player, point in zip(players, normal, strict=True):
            sums[player] = sums.get(player, 0) + point
    factor = ranking.CARRY.get(tournament.carry, 1)
    total: dict[str, Score] = dict(by_stage[Round.Stage.QUALIFYING])
    for stage in STAGES[1:]:
        for player, point in by_stage.get(stage, {}).items():
            total[player] = total.get(player, 0) * factor + point
    return total
