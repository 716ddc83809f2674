"""Re-validating a whole tournament (docs/tournaments.md §4.13–4.14; issue 14, "Checks").

What ``manage.py check_tournament`` runs: every player seated at most once per round
and only if entered, table sizes by the regulations, every table's result adding up to
zero, the standings equal to a recomputation from the tables alone, and each round's
reported repeats equal to a recount. Each violation is one line of English for the
organiser's terminal; an empty list means the tournament is sound.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Sequence

from prefscore.games.models import Pulka
from scoring.engine import ranking, seating
from scoring.engine.normalise import Score, normalised

from . import results
from .models import Round, Tournament
from .services import _keys, _results, history, standings, tournament_pulkas


def check(tournament: Tournament) -> list[str]:
    """Every violation found in ``tournament``, one line each (empty: sound)."""
    pulkas = tournament_pulkas(tournament)
    rounds = list(tournament.rounds.filter(status=Round.Status.PUBLISHED))
    problems = []
    # Before the standings are read: reading them writes stale rows back.
    problems += _stored_results(tournament)
    problems += _seating(tournament, pulkas, rounds)
    problems += _zero_sums(pulkas)
    problems += _standings(tournament, pulkas, rounds)
    problems += _repeats(pulkas, rounds)
    return problems


def _seating(tournament: Tournament, pulkas: Sequence[Pulka], rounds: list[Round]) -> list[str]:
    entered = {str(key) for key in tournament.entries.values_list("player_id", flat=True)}
    published = {r.number for r in rounds}
    sizes = {3} if tournament.table_size == 3 else {3, 4}
    problems = []
    seated: dict[int, Counter[str]] = defaultdict(Counter)
    for pulka in pulkas:
        number = pulka.round_number or 0
        keys = _keys(pulka)
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


def _zero_sums(pulkas: Sequence[Pulka]) -> list[str]:
    return [
        f"round {result.round_number}, table {pulka.pk}: whists add up to {sum(result.whists)}"
        for pulka, result in zip(pulkas, _results(pulkas), strict=True)
        if sum(result.whists) != 0
    ]


def _standings(tournament: Tournament, pulkas: Sequence[Pulka], rounds: list[Round]) -> list[str]:
    """The standings against a plain recount of each player's points, and their order."""
    stage_of = {r.number: r.stage for r in rounds}
    results = _results(pulkas)
    by_stage: dict[str, dict[str, Score]] = defaultdict(lambda: defaultdict(int))
    for result in results:
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
