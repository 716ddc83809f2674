"""Local search for a whole schedule (docs/tournaments.md §3, option D).

The schedule's rounds after the fixed ones (the past) are improved together by
swapping two players of the same round between tables, with simulated annealing: a
worse swap is taken with probability e^(−Δ/T) while T cools, so the search leaves
local minima. Its cost, lowest first:

- every pair's meetings m cost C(m, 2) each (2 meetings cost 1, 3 cost 3): fewer
  repeats, and no third meeting while a second one can be spread (§4.3: "minimise max
  meetings");
- then the share of the tables of 4 in a mixed field: each player's count f of
  4-table rounds costs f², least when the counts differ by at most one (§4.3).

Everything is drawn from the ``random.Random`` given, and the budget counts swaps, not
seconds, so the same seed gives the same schedule on any machine (§4.13).
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass, field

Schedule = list[list[list[int]]]

# A forbidden pair counts as this many meetings: sitting together costs more than any
# number of repeats among the others.
FORBIDDEN = 1000


@dataclass(slots=True)
class _State:
    players: int
    rounds: Schedule
    keep_share: bool = True
    met: list[list[int]] = field(default_factory=list)
    fours: list[int] = field(default_factory=list)
    where: list[list[int]] = field(default_factory=list)

    def __post_init__(self) -> None:
        n = self.players
        self.met = [[0] * n for _ in range(n)]
        self.fours = [0] * n
        self.where = []
        for tables in self.rounds:
            place = [0] * n
            for index, table in enumerate(tables):
                for p in table:
                    place[p] = index
                    if len(table) == 4:
                        self.fours[p] += 1
                    for q in table:
                        if q != p:
                            self.met[p][q] += 1
            self.where.append(place)

    def pair_cost(self) -> int:
        n = self.players
        return sum(
            self.met[p][q] * (self.met[p][q] - 1) // 2 for p in range(n) for q in range(p + 1, n)
        )

    def delta(self, r: int, a: int, b: int) -> int | None:
        """The change of the pairs' cost if a and b swapped seats; None if not allowed.

        Between a table of 4 and one of 3 only two players whose 4-table counts differ
        by one may swap: they exchange counts, so the share stays as even as it was.
        """
        tables = self.rounds[r]
        first, second = tables[self.where[r][a]], tables[self.where[r][b]]
        if self.keep_share and len(first) != len(second):
            step = 1 if len(second) == 4 else -1
            if self.fours[a] + step != self.fours[b]:
                return None
        met_a, met_b = self.met[a], self.met[b]
        change = 0
        for x in first:
            if x != a:
                # a leaves x (its meeting count m → m−1 costs −(m−1)); b joins x.
                change += met_b[x] - (met_a[x] - 1)
        for y in second:
            if y != b:
                change += met_a[y] - (met_b[y] - 1)
        return change

    def swap(self, r: int, a: int, b: int) -> None:
        tables, place = self.rounds[r], self.where[r]
        i, j = place[a], place[b]
        first, second = tables[i], tables[j]
        for x in first:
            if x != a:
                self.met[a][x] -= 1
                self.met[x][a] -= 1
                self.met[b][x] += 1
                self.met[x][b] += 1
        for y in second:
            if y != b:
                self.met[b][y] -= 1
                self.met[y][b] -= 1
                self.met[a][y] += 1
                self.met[y][a] += 1
        if len(first) != len(second):
            step = 1 if len(second) == 4 else -1
            self.fours[a] += step
            self.fours[b] -= step
        first[first.index(a)] = b
        second[second.index(b)] = a
        place[a], place[b] = j, i

    def clashing(self, r: int, a: int) -> bool:
        table = self.rounds[r][self.where[r][a]]
        met_a = self.met[a]
        return any(met_a[x] > 1 for x in table if x != a)


def anneal(
    players: int,
    rounds: Schedule,
    fixed: int,
    rng: random.Random,
    *,
    steps: int,
    target: int = 0,
    penalty: Sequence[tuple[int, int]] = (),
    keep_share: bool = True,
) -> tuple[Schedule, int]:
    """The rounds after the first ``fixed`` improved; the best schedule and its pair cost.

    ``rounds``: a complete schedule, every player once per round (the tables' sizes are
    kept, and so is each player's count of 4-tables); ``steps``: the budget of tried
    swaps; the search stops early once the free rounds add no more than ``target`` to
    the pairs' cost. ``penalty``: pairs that must not meet (forbidden), counted as met
    many times. ``keep_share``: keep each player's count of 4-tables (else repeats
    come first and the share may change).
    """
    state = _State(players, [[list(t) for t in tables] for tables in rounds], keep_share)
    base = _State(players, [list(tables) for tables in rounds[:fixed]])
    for p, q in penalty:
        for counts in (state, base):
            counts.met[p][q] += FORBIDDEN
            counts.met[q][p] += FORBIDDEN
    free = list(range(fixed, len(rounds)))
    target += base.pair_cost()
    pairs = state.pair_cost()
    best_pairs, best = pairs, [[list(t) for t in tables] for tables in state.rounds]
    if not free or len(rounds[0]) < 2:
        return best, best_pairs
    temperature = 1.0
    cooling = math.exp(math.log(0.05) / max(1, steps))
    for _ in range(steps):
        if pairs <= target:
            break
        temperature *= cooling
        r = free[rng.randrange(len(free))]
        a = rng.randrange(players)
        if not state.clashing(r, a):
            continue
        b = rng.randrange(players)
        if state.where[r][a] == state.where[r][b]:
            continue
        change = state.delta(r, a, b)
        if change is None:
            continue
        if change <= 0 or rng.random() < math.exp(-change / temperature):
            state.swap(r, a, b)
            pairs += change
            if pairs < best_pairs:
                best_pairs, best = pairs, [[list(t) for t in tables] for tables in state.rounds]
    return best, best_pairs


def random_round(players: int, plan: Sequence[int], rng: random.Random) -> list[list[int]]:
    """The field shuffled and cut into tables of the plan's sizes."""
    order = list(range(players))
    rng.shuffle(order)
    tables, start = [], 0
    for seats in plan:
        tables.append(order[start : start + seats])
        start += seats
    return tables


def balanced_sizes(
    players: int, plan: Sequence[int], fours: Sequence[int], rng: random.Random
) -> tuple[int, int]:
    """Bit masks of who may sit at a 4-table and at a 3-table this round (§4.3).

    The 4-seats go to the players who had the fewest so far, ties by lot: those below
    the cut-off must sit at a 4-table, those above it at a 3-table, those at it either.
    """
    seats = sum(1 for size in plan for _ in range(size) if size == 4)
    everyone = (1 << players) - 1
    if seats in (0, players):
        return everyone, everyone
    order = sorted(range(players), key=lambda p: (fours[p], rng.random()))
    cut = fours[order[seats - 1]]
    can4 = sum(1 << p for p in range(players) if fours[p] <= cut)
    can3 = sum(1 << p for p in range(players) if fours[p] >= cut)
    if fours[order[seats]] != cut:
        # The cut falls between two counts: nobody at it may sit at a 3-table.
        can3 = sum(1 << p for p in range(players) if fours[p] > cut)
    return can4, can3


def forced_by_last_round(plan: Sequence[int], tables: int) -> int:
    """Repeats a round must have against the round before it (docs/tournaments.md §3).

    A table of k players drawn from the last round's T tables holds, by pigeonhole, at
    least Σ C(g, 2) pairs who sat together then, the g as even as possible.
    """
    forced = 0
    for size in plan:
        low, extra = divmod(size, tables)
        forced += extra * (low + 1) * low // 2 + (tables - extra) * low * (low - 1) // 2
    return forced
