"""A whole schedule planned ahead (docs/tournaments.md §3, options A, E and D).

Round by round a draw can paint itself into a corner: 12 players in threes drawn one
round at a time often find no fourth round without repeats, though 4 exist. Planned
together, the rounds reach the best schedules known: a design where one exists
(:mod:`.seating_designs`), else each new round by the exact search and, when that finds
no round without repeats, the rounds after the design annealed together, and if
that leaves more repeats than the counting bound, improved by tabu search.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Sequence

from . import seating_designs, seating_round, seating_search

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


@functools.lru_cache(maxsize=64)
def no_repeat_plan(
    players: int, plan: tuple[int, ...], horizon: int, seed: int
) -> tuple[tuple[tuple[int, ...], ...], ...]:
    """The longest schedule without repeats found, up to ``horizon`` rounds (cached)."""
    schedule = plan_schedule(
        players,
        plan,
        horizon,
        seed,
        stop_at_repeat=True,
        attempts=1,
        steps=LIVE_STEPS,
        tabu=LIVE_TABU,
    )
    return tuple(tuple(tables) for tables in schedule)
