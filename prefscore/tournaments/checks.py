"""Re-validating a whole tournament (docs/tournaments.md §4.13–4.14, §7.12).

What ``manage.py check_tournament`` runs: every player seated at most once per round
and only if entered, table sizes by the regulations, every drawn table still in its
round, the stages in order, every table's seats and closing well formed, no table
played on after it was closed, every table's result adding up to zero, the standings
equal to a recomputation from the tables alone, and each round's reported repeats equal
to a recount. Each violation is one line of English for the organiser's terminal; an
empty list means the tournament is sound. A malformed table is named, and left out of
the checks that would have to read it: nothing here raises on bad data.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Sequence

from prefscore.games.models import Pulka
from scoring.engine import ranking, seating
from scoring.engine.errors import ScoringError
from scoring.engine.forfeit import forfeited
from scoring.engine.normalise import Score, normalised

from . import results
from .models import Round, Tournament
from .services import _keys, _results, closure_of, history, standings, tournament_pulkas

STAGE_RANK: dict[str, int] = {
    Round.Stage.QUALIFYING: 0,
    Round.Stage.SEMIFINAL: 1,
    Round.Stage.FINAL: 2,
}


def check(tournament: Tournament) -> list[str]:
    """Every violation found in ``tournament``, one line each (empty: sound)."""
    pulkas = tournament_pulkas(tournament)
    rounds = list(tournament.rounds.filter(status=Round.Status.PUBLISHED))
    problems = []
    # Before the standings are read: reading them writes stale rows back.
    problems += _stored_results(tournament)
    problems += _seating(tournament, pulkas, rounds)
    problems += _drawn_tables(tournament, pulkas, rounds)
    problems += _stages(rounds)
    read: dict[int, ranking.TableResult] = {}
    for pulka in pulkas:
        malformed = _malformed(pulka)
        if isinstance(malformed, str):
            problems.append(malformed)
        else:
            read[pulka.pk] = malformed
    problems += _played_on(tournament, pulkas)
    problems += _zero_sums(pulkas, read)
    if len(read) == len(pulkas):  # the standings read every table
        by_table = {p.pk: read[p.pk] for p in pulkas}
        joined = results.join_continued(by_table, results.continued(rounds))
        problems += _standings(tournament, joined, rounds)
    problems += _repeats(pulkas, rounds)
    return problems


def _table(pulka: Pulka) -> str:
    return f"round {pulka.round_number or 0}, table {pulka.pk}"


def _seating(tournament: Tournament, pulkas: Sequence[Pulka], rounds: list[Round]) -> list[str]:
    entered = {str(key) for key in tournament.entries.values_list("player_id", flat=True)}
    published = {r.number for r in rounds}
    sizes = {3} if tournament.table_size == 3 else {3, 4}
    problems = []
    seated: dict[int, Counter[str]] = defaultdict(Counter)
    # A sheet of three that played on after a drop seats its players again (§4.9).
    continued = results.continued(rounds)
    for pulka in pulkas:
        number = pulka.round_number or 0
        keys = _keys(pulka)
        if pulka.pk in continued:
            first = next((p for p in pulkas if p.pk == continued[pulka.pk]), None)
            if first is None or not set(keys) < set(_keys(first)):
                problems.append(f"round {number}, table {pulka.pk}: continues no table of theirs")
            if len(keys) not in sizes:
                problems.append(f"round {number}, table {pulka.pk}: {len(keys)} players")
            continue
        if number not in published:
            problems.append(f"table {pulka.pk} is in round {number}, which is not published")
        if len(keys) not in sizes:
            problems.append(f"round {number}, table {pulka.pk}: {len(keys)} players")
        for key in keys:
            seated[number][key] += 1
            if key not in entered:
                problems.append(f"round {number}: player {key} is seated but not entered")
    for number, counts in sorted(seated.items()):
        for key, times in sorted(counts.items()):
            if times > 1:
                problems.append(f"round {number}: player {key} is seated {times} times")
    return problems


def _stored_results(tournament: Tournament) -> list[str]:
    """Each table's stored result (``results``) against a recount of its sheet."""
    wording = {
        "missing": "no stored result",
        "differs": "stored result differs from the sheet",
    }
    return [
        f"round {pulka.round_number}, table {pulka.pk}: {wording[how]}"
        f" (manage.py rebuild_results {tournament.club.slug}/{tournament.slug})"
        for pulka, how in results.differences(tournament)
    ]


def _drawn_tables(
    tournament: Tournament, pulkas: Sequence[Pulka], rounds: list[Round]
) -> list[str]:
    """Each published round has a table in play for each table its draw made: a table
    re-seated after a drop is replaced, never lost (docs/tournaments.md §4.9)."""
    live: dict[int, set[int]] = defaultdict(set)
    for pulka in pulkas:
        live[pulka.round_number or 0].add(pulka.pk)
    problems = []
    for round_ in rounds:
        drawn = [t for t in round_.tables if isinstance(t, dict)]
        if not drawn:  # an imported round keeps no draw
            continue
        named = [t["pulka"] for t in drawn if isinstance(t.get("pulka"), int)]
        for number, table in enumerate(drawn, start=1):
            key = table.get("pulka")
            if isinstance(key, int) and key not in live[round_.number]:
                problems.append(
                    f"round {round_.number}: table {number} of the draw (pulka {key}) "
                    "is not in play"
                )
        count = len(live[round_.number])
        if not named and count != len(drawn):
            problems.append(f"round {round_.number}: {len(drawn)} tables drawn, {count} in play")
    return problems


def _stages(rounds: list[Round]) -> list[str]:
    """Qualifying, then the stages after a cut, in order; each stage after a cut is
    seated by standing from the players of the stage before (§4.10)."""
    problems = []
    field: set[str] | None = None
    previous: str = Round.Stage.QUALIFYING
    for round_ in sorted(rounds, key=lambda r: r.number):
        stage: str = round_.stage
        players = {k for t in round_.tables if isinstance(t, dict) for k in t.get("players", [])}
        if stage not in STAGE_RANK:
            problems.append(f"round {round_.number}: unknown stage {stage!r}")
            continue
        if STAGE_RANK[stage] < STAGE_RANK[previous]:
            problems.append(f"round {round_.number}: a {stage} round after the {previous}")
        if round_.is_final != (stage != Round.Stage.QUALIFYING):
            problems.append(
                f"round {round_.number}: stage {stage} but is_final is {round_.is_final}"
            )
        if stage != Round.Stage.QUALIFYING and round_.method not in (
            "standing",
            "swapped",
            "moved",
        ):
            problems.append(
                f"round {round_.number}: a {stage} round seated by {round_.method or 'nothing'}"
                ", not by standing after a cut"
            )
        if stage != previous and stage != Round.Stage.QUALIFYING:
            if field is not None and players and not players < field:
                problems.append(
                    f"round {round_.number}: the {stage} does not seat a cut of the field before"
                )
            field = players or field
        elif stage == Round.Stage.QUALIFYING:
            field = (field or set()) | players
        previous = stage
    return problems


def _malformed(pulka: Pulka) -> str | ranking.TableResult:
    """The table's result, or why its seats, closing or sheet cannot be read: named,
    never raised."""
    names = list(pulka.player_names) if isinstance(pulka.player_names, list) else []
    seats = [seat.seat for seat in pulka.seats.all()]
    if seats != list(range(len(names))):
        return f"{_table(pulka)}: seats {seats} do not match the {len(names)} players of its sheet"
    closure = closure_of(pulka)
    whists = closure.whists if closure is not None else None
    if whists is not None:
        whole = isinstance(whists, list) and all(
            isinstance(w, int) and not isinstance(w, bool) for w in whists
        )
        if not whole:
            return f"{_table(pulka)}: the closing's whists {whists!r} are not whole numbers"
        if len(whists) != len(names):
            return f"{_table(pulka)}: the closing has {len(whists)} whists for {len(names)} players"
    try:
        return _results([pulka])[0]
    except (ScoringError, ValueError, TypeError, KeyError) as error:
        return f"{_table(pulka)}: its sheet cannot be scored ({error!r})"


def _played_on(tournament: Tournament, pulkas: Sequence[Pulka]) -> list[str]:
    """A closed table records no deal after its closing, and plays no more (§4.9)."""
    problems = []
    for pulka in pulkas:
        closure = closure_of(pulka)
        if closure is not None:
            if pulka.status == Pulka.Status.RUNNING:
                problems.append(f"{_table(pulka)}: closed, yet it played on (running)")
            later = [
                deal.number
                for deal in pulka.standing_deals  # type: ignore[attr-defined]
                if deal.entered_at > closure.closed_at
            ]
            if later:
                problems.append(f"{_table(pulka)}: closed, yet it played on (deals {later})")
        if tournament.finished and pulka.status == Pulka.Status.RUNNING:
            problems.append(f"{_table(pulka)}: still running in a finished tournament")
    return problems


def _zero_sums(pulkas: Sequence[Pulka], results: dict[int, ranking.TableResult]) -> list[str]:
    return [
        f"{_table(pulka)}: whists add up to {sum(results[pulka.pk].whists)}"
        for pulka in pulkas
        if pulka.pk in results and sum(results[pulka.pk].whists) != 0
    ]


def _standings(
    tournament: Tournament, results: Sequence[ranking.TableResult], rounds: list[Round]
) -> list[str]:
    """The standings against a plain recount of each player's points, and their order
    (a forfeited round counted as the regulations say, §4.9)."""
    stage_of = {r.number: r.stage for r in rounds}
    by_stage: dict[str, dict[str, Score]] = defaultdict(lambda: defaultdict(int))
    left = tournament.entries.filter(forfeited_round__isnull=False)
    forfeits = {(str(k), int(n)) for k, n in left.values_list("player_id", "forfeited_round") if n}
    for table in results:
        result = forfeited(table, forfeits, tournament.forfeit_whists)
        stage = stage_of.get(result.round_number, Round.Stage.QUALIFYING)
        points = normalised(result.whists, tournament.normalisation)
        for key, point in zip(result.players, points, strict=True):
            by_stage[stage][key] += point
    factor = ranking.CARRY[tournament.carry]
    lines = standings(tournament).lines
    problems = []
    stages = [s for s in (Round.Stage.SEMIFINAL, Round.Stage.FINAL) if s in by_stage]
    for line in lines:
        expected: Score = by_stage[Round.Stage.QUALIFYING].get(line.player, 0)
        for stage in stages:
            if line.player in by_stage[stage]:
                expected = expected * factor + by_stage[stage][line.player]
        if line.points != expected:
            problems.append(
                f"standings: player {line.player} has {line.points} points, recount {expected}"
            )
    for before, after in zip(lines, lines[1:], strict=False):
        same_group = (before.out, before.finalist) == (after.out, after.finalist)
        if same_group and after.points > before.points:
            problems.append(f"standings: {after.player} is placed below {before.player}")
        if after.place < before.place:
            problems.append(f"standings: place {after.place} follows place {before.place}")
    return problems


def _repeats(pulkas: Sequence[Pulka], rounds: list[Round]) -> list[str]:
    """Each qualifying round's reported repeats against a recount over the rounds before."""
    problems = []
    for round_ in rounds:
        if round_.stage != Round.Stage.QUALIFYING:
            continue
        before = [p for p in pulkas if (p.round_number or 0) < round_.number]
        tables = [tuple(t["players"]) for t in round_.tables] or [
            _keys(p) for p in pulkas if p.round_number == round_.number
        ]
        met = seating.meetings(history(before))
        counted = sum(
            1
            for table in tables
            for i, a in enumerate(table)
            for b in table[i + 1 :]
            if met[frozenset((a, b))]
        )
        if counted != round_.repeats:
            problems.append(
                f"round {round_.number}: {round_.repeats} repeats reported, {counted} counted"
            )
    return problems
