"""Local search for a whole schedule (docs/tournaments.md §3, option D).

The schedule's rounds after the fixed ones (the past) are improved together by
swapping two players of the same round between tables, with simulated annealing: a
worse swap is taken with probability e^(−Δ/T) while T cools, so the search leaves
local minima. Its cost, lowest first:

- every repeat (a pair at a table who had met before, §4.4) costs ``REPEAT``, and a
  pair's m meetings cost C(m, 2) more: fewer repeats first, then no third meeting
  where a second one can be spread (§4.3: "minimise max meetings");
- then the share of the tables of 4 in a mixed field: each player's count f of
  4-table rounds costs f², least when the counts differ by at most one (§4.3).

:func:`tabu` searches the same moves by tabu search, for when annealing is stuck.
Everything is drawn from the ``random.Random`` given, and the budgets count swaps, not
seconds, so the same seed gives the same schedule on any machine (§4.13).
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass, field

Schedule = list[list[list[int]]]

# A repeat costs this much more than one step of spread (C(m, 2): a pair's m-th
# meeting costs m − 1): fewer repeats first, as §4.4 counts them, then no pair
# meeting a third time where two could meet a second.
REPEAT = 16
# One step of an uneven share of the 4-tables (Σ f² over the players' counts f).
SHARE = 2
# A forbidden pair counts as this many meetings: sitting together costs more than any
# number of repeats among the others.
FORBIDDEN = 1000


@dataclass(slots=True)
class _State:
    players: int
    rounds: Schedule
    keep_share: bool = False
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

    def repeats(self) -> int:
        """Σ (m − 1) over the pairs who met: the repeats of docs/tournaments.md §4.4."""
        n = self.players
        return sum(max(0, self.met[p][q] - 1) for p in range(n) for q in range(p + 1, n))

    def delta(self, r: int, a: int, b: int) -> tuple[int, int] | None:
        """The change of the repeats and of the cost if a and b swapped seats.

        None if the swap is not allowed:
        between a table of 4 and one of 3 only two players whose 4-table counts differ
        by one may swap: they exchange counts, so the share stays as even as it was.
        """
        tables = self.rounds[r]
        first, second = tables[self.where[r][a]], tables[self.where[r][b]]
        share = 0
        if len(first) != len(second):
            # a takes second's size, b first's: each player's 4-table count f costs f².
            step = 1 if len(second) == 4 else -1
            fa, fb = self.fours[a], self.fours[b]
            share = (fa + step) ** 2 - fa * fa + (fb - step) ** 2 - fb * fb
            if self.keep_share and share > 0:
                return None
        met_a, met_b = self.met[a], self.met[b]
        repeats = spread = 0
        for leaving, joining, table, mover in ((met_a, met_b, first, a), (met_b, met_a, second, b)):
            for x in table:
                if x != mover:
                    # The pair (mover, x) goes from m to m − 1 meetings, (other, x) up one.
                    repeats += (joining[x] >= 1) - (leaving[x] >= 2)
                    spread += joining[x] - (leaving[x] - 1)
        return repeats, REPEAT * repeats + spread + SHARE * share

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

    def share_even(self) -> bool:
        """Whether the 4-tables are shared as evenly as they can be (counts differ ≤ 1)."""
        return max(self.fours) - min(self.fours) <= 1 or len(set(map(len, self.rounds[-1]))) == 1

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
    keep_share: bool = False,
) -> tuple[Schedule, int]:
    """The rounds after the first ``fixed`` improved by annealing (module docstring).

    ``rounds``: a complete schedule, every player once per round (the tables' sizes are
    kept, and so is each player's count of 4-tables); ``steps``: the budget of tried
    swaps; the search stops early once the free rounds add no more than ``target``
    repeats. Returns the best schedule and the repeats its free rounds add. ``penalty``: pairs that must not meet (forbidden), counted as met
    many times. ``keep_share``: never make the share of the 4-tables less even.
    """
    state = _State(players, [[list(t) for t in tables] for tables in rounds], keep_share)
    base = _State(players, [list(tables) for tables in rounds[:fixed]])
    for p, q in penalty:
        for counts in (state, base):
            counts.met[p][q] += FORBIDDEN
            counts.met[q][p] += FORBIDDEN
    free = list(range(fixed, len(rounds)))
    target += base.repeats()
    pairs = state.repeats()
    cost = best_cost = 0
    best_pairs, best = pairs, [[list(t) for t in tables] for tables in state.rounds]
    if not free or len(rounds[0]) < 2:
        return best, best_pairs - base.repeats()
    temperature = float(REPEAT)
    cooling = math.exp(math.log(0.02) / max(1, steps))
    for _ in range(steps):
        if pairs <= target and state.share_even():
            break
        temperature *= cooling
        r = free[rng.randrange(len(free))]
        a = rng.randrange(players)
        if not state.clashing(r, a) and rng.random() < 0.9:
            continue
        b = rng.randrange(players)
        if state.where[r][a] == state.where[r][b]:
            continue
        changes = state.delta(r, a, b)
        if changes is None:
            continue
        repeats, change = changes
        if change <= 0 or rng.random() < math.exp(-change / temperature):
            state.swap(r, a, b)
            pairs += repeats
            cost += change
            if cost < best_cost:
                best_cost, best_pairs = cost, pairs
                best = [[list(t) for t in tables] for tables in state.rounds]
    return best, best_pairs - base.repeats()


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


def total_repeats(players: int, schedule: Schedule) -> int:
    """Σ over rounds of the pairs at its tables who had met before (§4.4)."""
    return _State(players, [[list(t) for t in tables] for tables in schedule]).repeats()


def tabu(
    players: int,
    rounds: Schedule,
    fixed: int,
    rng: random.Random,
    *,
    iterations: int,
    target: int = 0,
) -> tuple[Schedule, int]:
    """The free rounds improved by tabu search (Dotú & Van Hentenryck, "Scheduling social
    golfers locally", CPAIOR 2005): each step takes the best swap of a player in conflict
    with anyone at another table of that round, not undoing a recent swap, even if worse;
    returns the best schedule seen and the repeats its free rounds add."""
    state = _State(players, [[list(t) for t in tables] for tables in rounds])
    base = _State(players, [list(tables) for tables in rounds[:fixed]]).repeats()
    free = range(fixed, len(rounds))
    pairs = state.repeats()
    cost = best_cost = 0
    best_pairs, best = pairs, [[list(t) for t in tables] for tables in state.rounds]
    banned: dict[tuple[int, int, int], int] = {}
    for step in range(iterations):
        if pairs - base <= target and state.share_even():
            break
        choice: tuple[int, int, int, int, int] | None = None
        ties = 0
        for r in free:
            for a in range(players):
                if not state.clashing(r, a) and (pairs - base > target or rng.random() < 0.9):
                    continue
                for b in range(players):
                    if state.where[r][a] == state.where[r][b]:
                        continue
                    changes = state.delta(r, a, b)
                    if changes is None:
                        continue
                    repeats, change = changes
                    tabu_now = banned.get((r, a, b), -1) >= step
                    if tabu_now and cost + change >= best_cost:
                        continue
                    if choice is None or change < choice[0]:
                        choice, ties = (change, repeats, r, a, b), 1
                    elif change == choice[0]:
                        ties += 1
                        if rng.randrange(ties) == 0:
                            choice = (change, repeats, r, a, b)
        if choice is None:
            break
        change, repeats, r, a, b = choice
        state.swap(r, a, b)
        tenure = 4 + rng.randrange(8)
        banned[(r, a, b)] = banned[(r, b, a)] = step + tenure
        pairs += repeats
        cost += change
        if cost < best_cost:
            best_cost, best_pairs = cost, pairs
            best = [[list(t) for t in tables] for tables in state.rounds]
    return best, best_pairs - base
