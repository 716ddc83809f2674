"""Fair schedules shipped for mixed fields (docs/tournaments.md §4.3, "Fair shares").

A mixed field's schedule is fair when no pair meets twice, the seats at the tables of
4 are shared as evenly as any schedule without a repeat allows, and so is the first
dealer's chair at a table of 4 (he sits out the most deals). The round-by-round draw
and annealing miss this (13 players over 4 rounds sat 0 to 3 times at the table of 4);
OR-Tools' CP-SAT finds these schedules or proves that a fairer one does not exist
(:mod:`.seating_solver`). Solving takes from a fraction of a second to minutes, too
long for a request, so the schedules are solved once by bench/tournament_fair.py and
shipped in :mod:`.seating_fair_data`; tests/engine/test_seating_fair.py checks each.

A shipped schedule numbers players 0..N−1, tables of 4 first, each with its first
dealer in the first chair. A tournament gets it with the players in a seeded random
order (:func:`fair_schedule`), which keeps every property.
"""

from __future__ import annotations

import random
import string
from collections.abc import Sequence

from .seating_fair_data import SCHEDULES

Schedule = list[list[tuple[int, ...]]]
_DIGITS = string.digits + string.ascii_lowercase


def encode(rounds: Sequence[Sequence[Sequence[int]]]) -> tuple[str, ...]:
    """One string per round, tables parted by dots, players as base-36 digits."""
    return tuple(
        ".".join("".join(_DIGITS[p] for p in table) for table in tables) for tables in rounds
    )


def decode(code: Sequence[str]) -> Schedule:
    """The schedule :func:`encode` wrote."""
    return [[tuple(_DIGITS.index(c) for c in table) for table in day.split(".")] for day in code]


def shipped(players: int, plan: Sequence[int]) -> Schedule | None:
    """The shipped schedule for this field and its table plan, players 0..N−1, or None."""
    code = SCHEDULES.get(players)
    if code is None:
        return None
    schedule = decode(code)
    if sorted(len(t) for t in schedule[0]) != sorted(plan) or len(set(plan)) < 2:
        return None
    return schedule


def fair_schedule(players: int, plan: Sequence[int], rng: random.Random) -> Schedule | None:
    """The fair schedule for this field with its players in ``rng``'s order, or None.

    docs/tournaments.md §4.3: the even share of the tables of 4 and of the first
    dealer's chair; the same seed gives the same schedule. Each table of 4 keeps its
    first dealer in the first chair; the rounds keep their order, so the shares are
    as even as the solver made them after every round too.
    """
    schedule = shipped(players, plan)
    if schedule is None:
        return None
    order = list(range(players))
    rng.shuffle(order)
    return [[tuple(order[p] for p in table) for table in tables] for tables in schedule]


def with_dealers(players: int, schedule: Sequence[Sequence[Sequence[int]]], kept: int) -> Schedule:
    """The schedule with a first dealer in the first chair of every table of 4 (§4.3).

    The first ``kept`` rounds keep theirs (a shipped schedule's); at each later table of
    4 the player who has been first dealer least often so far takes the first chair.
    """
    counts = [0] * players
    result: Schedule = []
    for number, tables in enumerate(schedule):
        seated = []
        for table in tables:
            members = tuple(table)
            if len(members) == 4:
                if number >= kept:
                    dealer = min(members, key=lambda p: (counts[p], p))
                    members = (dealer, *(p for p in members if p != dealer))
                counts[members[0]] += 1
            seated.append(members)
        result.append(seated)
    return result


def four_counts(players: int, schedule: Sequence[Sequence[Sequence[int]]]) -> list[int]:
    """How many times each player sat at a table of 4 (docs/tournaments.md §4.3)."""
    counts = [0] * players
    for tables in schedule:
        for table in tables:
            if len(table) == 4:
                for p in table:
                    counts[p] += 1
    return counts


def dealer_counts(players: int, schedule: Sequence[Sequence[Sequence[int]]]) -> list[int]:
    """How many times each player was first dealer (first chair) at a table of 4 (§4.3)."""
    counts = [0] * players
    for tables in schedule:
        for table in tables:
            if len(table) == 4:
                counts[table[0]] += 1
    return counts
