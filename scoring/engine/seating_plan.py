"""A whole schedule planned ahead (docs/tournaments.md §3, options A, E and D).

Round by round a draw can paint itself into a corner: 12 players in threes drawn one
round at a time often find no fourth round without repeats, though 4 exist. Planned
together, the rounds reach the best schedules known: a design where one exists
(:mod:`.seating_designs`), a fair mixed-field schedule where one is shipped
(:mod:`.seating_fair`, docs/tournaments.md §4.3), else each new round by the exact
search and, when that finds no round without repeats, the rounds after the design
annealed together, and if that leaves more repeats than the counting bound, improved
by tabu search.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Sequence

from . import seating_designs, seating_fair, seating_round, seating_search

PLAN_BUDGET = 20_000
PLAN_STEPS = 100_000
ATTEMPTS = 3
TABU_ITERATIONS = 1_500
# A live draw plans with less: it is redone whenever the server restarts.
LIVE_TABU = 400
LIVE_STEPS = 50_000


def lower_bound(plan: Sequence[int], rounds: int) -> int:
    """Fewest repeats ``rounds`` rounds of this plan can have (docs/tournaments.md §3).

    The largest of three counts: the pigeonhole on each round's previous round
    (:func:`seating_search.forced_by_last_round`), the pairs seated beyond the
    C(N, 2) different ones, and 1 for a fifth round of 12 players in threes.
    """
    players = sum(plan)
    # No nearly Kirkman triple system of order 12 (seating.repeats_forced).
    kirkman = 1 if set(plan) == {3} and players == 12 and rounds >= 5 else 0
    pigeonhole = max(0, rounds - 1) * seating_search.forced_by_last_round(plan, len(plan))
    pairs = rounds * sum(size * (size - 1) // 2 for size in plan)
    return max(pigeonhole, pairs - players * (players - 1) // 2, kirkman)


def _fours(
    players: int, plan: Sequence[int], schedule: Sequence[Sequence[Sequence[int]]]
) -> list[int]:
    counts = [0] * players
    if len(set(plan)) > 1:
        for tables in schedule:
            for table in tables:
                if len(table) == 4:
                    for p in table:
                        counts[p] += 1
    return counts


def plan_schedule(
    players: int,
    plan: tuple[int, ...],
    rounds: int,
    seed: int,
    *,
    stop_at_repeat: bool = False,
    attempts: int = ATTEMPTS,
    steps: int = PLAN_STEPS,
    tabu: int = TABU_ITERATIONS,
) -> list[list[tuple[int, ...]]]:
    """``rounds`` rounds for players 0..N−1 with as few repeats as found (module docstring).

    Up to ``attempts`` schedules are built, each from its own draws, and the best kept:
    fewest repeats, then the most even share of the 4-tables; the search stops at the
    first that meets the counting bound (:func:`lower_bound`) with an even share.
    ``stop_at_repeat``: end the schedule before its first round with a repeat (the
    plan a live draw follows). Deterministic given the seed.
    """
    rng = random.Random(f"{seed}:plan:{players}:{plan}")
    best: list[list[list[int]]] = []
    best_score = (0, 0, 0)
    bound = lower_bound(plan, rounds)
    for attempt in range(attempts):
        schedule = _build(players, plan, rounds, rng, stop_at_repeat, steps, tabu, attempt % 2 == 0)
        repeats = seating_search.total_repeats(players, schedule)
        fours = _fours(players, plan, schedule)
        score = (-len(schedule), repeats, sum(f * f for f in fours))
        if not best or score < best_score:
            best, best_score = schedule, score
        # An even share is worth one more attempt, not more: repeats come first.
        spread = max(fours) - min(fours)
        if len(schedule) == rounds and repeats <= bound and (spread <= 1 or attempt >= 1):
            break
    return [[tuple(table) for table in tables] for tables in best]


def _build(
    players: int,
    plan: tuple[int, ...],
    rounds: int,
    rng: random.Random,
    stop_at_repeat: bool,
    steps: int,
    tabu: int,
    keep_share: bool,
) -> list[list[list[int]]]:
    """One schedule: the design's rounds, then round by round, annealed when stuck."""
    schedule: list[list[list[int]]] = []
    design = seating_designs.design(players, plan[0]) if len(set(plan)) == 1 else None
    if design is not None:
        order = list(range(players))
        rng.shuffle(order)
        rng.shuffle(design)
        schedule = [[[order[p] for p in line] for line in day] for day in design[:rounds]]
    fair = seating_fair.fair_schedule(players, plan, rng)
    if fair is not None:
        schedule = [[list(table) for table in tables] for tables in fair[:rounds]]
    fixed = len(schedule)
    while len(schedule) < rounds:
        field = seating_round.Field(
            players, plan, schedule, _fours(players, plan, schedule), [], None, None
        )
        seated = seating_round.seat_round(field, rng, budget=PLAN_BUDGET, steps=2_000)
        schedule.append([list(table) for table in seated.tables])
        if seated.method == "search":
            continue
        before = [[list(table) for table in tables] for tables in schedule[:-1]]
        target = lower_bound(plan, len(schedule))
        schedule, cost = seating_search.anneal(
            players, schedule, fixed, rng, steps=steps, target=target, keep_share=keep_share
        )
        if cost > target:
            schedule, cost = seating_search.tabu(
                players, schedule, fixed, rng, iterations=tabu, target=target
            )
        if stop_at_repeat and cost:
            return before
    return schedule


# The longest schedules without a repeat known for mixed fields (the figures of
# docs/tournaments.md §3, reached by ``manage.py seat``). A live draw plans exactly this far
# for these fields, so it never spends its budget on a round no schedule is known to reach.
BEST_KNOWN = {
    (12, (3, 3, 3, 3)): 4,
    (13, (4, 3, 3, 3)): 4,
    (15, (4, 4, 4, 3)): 5,
    (21, (4, 4, 4, 3, 3, 3)): 6,
}
# Restarts of the round-by-round search (cheap: no annealing), and how many in a row
# may bring nothing longer before the plan is extended by annealing instead.
RESTARTS = 8
PATIENCE = 2
# The search's node budget per round, less for larger fields, whose nodes cost more:
# 13 players get about 4,600 nodes, 40 get 1,500 (a first draw of 33 took 30 s with 5,000).
PLAN_NODES = 60_000


def _budget(players: int) -> int:
    return max(1_000, PLAN_NODES // players)


# Tries to anneal one more round onto the plan, only where that round is known to
# exist: elsewhere annealing a whole schedule of 24-40 players took 6-30 s at the first
# draw, for a round that may not exist; the restarted search alone is used there.
EXTEND_KNOWN = 3
EXTEND_UNKNOWN = 0


def live_horizon(players: int, plan: tuple[int, ...], horizon: int) -> int:
    """How far a live draw plans: the counting bound, or the best schedule known (§3)."""
    return min(horizon, BEST_KNOWN.get((players, plan), horizon))


def _searched(
    players: int, plan: tuple[int, ...], horizon: int, rng: random.Random
) -> list[list[list[int]]]:
    """Rounds by the exact search alone, up to the first it cannot find."""
    schedule: list[list[list[int]]] = []
    while len(schedule) < horizon:
        field = seating_round.Field(
            players, plan, schedule, _fours(players, plan, schedule), [], None, None
        )
        seated = seating_round.seat_round(field, rng, budget=_budget(players), steps=0)
        if seated.method != "search":
            break
        schedule.append([list(table) for table in seated.tables])
    return schedule


def _extended(
    players: int, plan: tuple[int, ...], schedule: list[list[list[int]]], rng: random.Random
) -> list[list[list[int]]] | None:
    """The schedule and one more round, all annealed together to no repeat, or None."""
    field = seating_round.Field(
        players, plan, schedule, _fours(players, plan, schedule), [], None, None
    )
    seated = seating_round.seat_round(field, rng, budget=_budget(players), steps=0)
    longer = [*schedule, [list(table) for table in seated.tables]]
    if seated.method == "search":
        return longer
    longer, cost = seating_search.anneal(players, longer, 0, rng, steps=LIVE_STEPS, target=0)
    if cost:
        longer, cost = seating_search.tabu(players, longer, 0, rng, iterations=LIVE_TABU, target=0)
    return None if cost else longer


@functools.lru_cache(maxsize=64)
def no_repeat_plan(
    players: int, plan: tuple[int, ...], horizon: int, seed: int
) -> tuple[tuple[tuple[int, ...], ...], ...]:
    """The longest schedule without repeats found, up to ``horizon`` rounds (cached).

    What a live draw follows while the field is unchanged (docs/tournaments.md §3):
    the round-by-round search restarted while it brings longer schedules, then the
    rounds annealed together one more at a time, up to :func:`live_horizon`: so 13
    players in a mixed field reach their 4 rounds for every seed, not 3 for some.
    Deterministic given the seed.
    """
    rng = random.Random(f"{seed}:live:{players}:{plan}")
    goal = live_horizon(players, plan, horizon)
    # A mixed field with a fair schedule shipped follows it: no repeat, and the tables
    # of 4 and the first dealer's chair shared evenly (seating_fair).
    fair = seating_fair.fair_schedule(players, plan, rng)
    if fair is not None:
        return tuple(tuple(tables) for tables in fair[:goal])
    best: list[list[list[int]]] = []
    stale = 0
    for _ in range(RESTARTS):
        schedule = _searched(players, plan, goal, rng)
        best, stale = (schedule, 0) if len(schedule) > len(best) else (best, stale + 1)
        if len(best) >= goal or stale >= PATIENCE:
            break
    tries = EXTEND_KNOWN if (players, plan) in BEST_KNOWN else EXTEND_UNKNOWN
    failed = 0
    while len(best) < goal and failed < tries:
        longer = _extended(players, plan, best, rng)
        best, failed = (longer, 0) if longer is not None else (best, failed + 1)
    return tuple(tuple(tuple(table) for table in tables) for tables in best)
