"""Tournament seating: who sits at which table each round (docs/tournaments.md §3, §4.3).

Players are drawn into tables of 3 or 4 so that no pair meets twice when that can be
avoided, and repeats are spread evenly when it cannot (docs/tournaments.md §3, ranked rules
of §4.3). Two strategies of §3, tried in this order:

- **A, lookup of known designs** — when the field is a size for which a resolvable
  design exists (9, 27 players in threes: affine geometry over GF(3); 15 in threes:
  a Kirkman triple system; 16, 64 in fours: affine geometry over GF(4)), the whole
  schedule is fixed from the tournament's seed and every pair meets at most once for
  as many rounds as the design has (the bound ⌊(N−1)/(k−1)⌋). It is followed only
  while the past rounds are exactly its first rounds (no drops, no late entries).
- **B + D, random restarts with local search** — otherwise: many seeded random
  seatings, each improved by swapping two players between tables, scored by a
  lexicographic cost: meetings raised to a power (a third meeting costs more than any
  number of second ones, so the maximum is minimised first), then pairs who met in the
  previous round (Pantheon's "+10 if consecutive"), then an even share of the
  4-tables of a mixed plan (the dealer sits out there; KRCG's "fifth seat").

Seats at a table and the first dealer are drawn by lot (Кодекс 3.1.1, «тираж»).
Everything is deterministic given the seed (docs/tournaments.md §4.13: "a fixed seed gives
identical output"). Pure Python: the web stores the seed and the tables.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from .errors import ScoringError

TABLE_SIZES = (3, 4)

Round = Sequence[Sequence[str]]
Pair = frozenset[str]


class SeatingError(ScoringError):
    """A draw that cannot be made; the message says what to change."""


@dataclass(frozen=True, slots=True)
class Table:
    """One table of a round: players clockwise from the first seat, the first dealer."""

    players: tuple[str, ...]
    first_dealer: int


@dataclass(frozen=True, slots=True)
class Draw:
    """A round's tables and how the draw meets the no-repeat rule (docs/tournaments.md §4.4).

    ``repeats``: pairs at this round's tables who had met before; ``max_meetings``:
    the most times any pair has met, this round included; ``repeats_forced``: zero
    repeats is provably impossible this round; ``method``: ``design`` or ``search``.
    """

    tables: tuple[Table, ...]
    repeats: int
    max_meetings: int
    repeats_forced: bool
    method: str


# --- table plans and bounds -----------------------------------------------------------


def table_plan(players: int, size: int) -> tuple[int, ...]:
    """Table sizes for a field (docs/tournaments.md §4.2: N = 4a + 3b).

    ``size`` 3: threes only, so the field must be a multiple of 3 (Serbian league, Dama
    Herc). ``size`` 4: as many fours as possible, the rest in threes (13 → 4+3+3+3);
    5 players cannot be seated at all.
    """
    if size not in TABLE_SIZES:
        raise SeatingError("seating.table_size", size=size)
    if players < 3:
        raise SeatingError("seating.too_few")
    if size == 3:
        if players % 3:
            add, remove = (2, 1) if players % 3 == 1 else (1, 2)
            raise SeatingError("seating.not_threes", players=players, add=add, remove=remove)
        return (3,) * (players // 3)
    for fours in range(players // 4, -1, -1):
        if (players - 4 * fours) % 3 == 0:
            return (4,) * fours + (3,) * ((players - 4 * fours) // 3)
    raise SeatingError("seating.not_threes_fours", players=players)


def no_repeat_bound(players: int, size: int) -> int:
    """Most rounds without any pair meeting twice: ⌊(N−1)/(k−1)⌋ (docs/tournaments.md §3)."""
    return (players - 1) // (size - 1)


def repeats_forced(plan: Sequence[int], round_number: int) -> bool:
    """Whether some pair must meet again in round ``round_number`` (docs/tournaments.md §3).

    Each round a player meets k−1 new people (the bound), and a second round without
    repeats needs at least as many tables as the largest table has seats (pigeonhole:
    12 or 8 players at 4-tables repeat from round 2). Otherwise repeats may still be
    forced by the particular history; this answers only what is provable in general.
    """
    if round_number <= 1:
        return False
    players = sum(plan)
    largest = max(plan)
    if len(plan) < largest:
        return True
    return round_number > no_repeat_bound(players, largest)


def meetings(history: Iterable[Round]) -> Counter[Pair]:
    """How many times each pair has sat at the same table (the meetings matrix, §4.4)."""
    met: Counter[Pair] = Counter()
    for tables in history:
        for table in tables:
            met.update(frozenset(pair) for pair in itertools.combinations(table, 2))
    return met


# --- strategy A: known designs --------------------------------------------------------

# A Kirkman triple system of order 15: 7 rounds, every pair exactly once. Found as a
# packing of the lines of PG(3, 2) into spreads; tests re-check it.
_KTS15: tuple[tuple[tuple[int, int, int], ...], ...] = (
    ((0, 1, 2), (3, 7, 11), (4, 9, 14), (5, 10, 12), (6, 8, 13)),
    ((0, 3, 4), (1, 7, 9), (2, 12, 13), (5, 8, 14), (6, 10, 11)),
    ((0, 5, 6), (1, 8, 10), (2, 11, 14), (3, 9, 13), (4, 7, 12)),
    ((0, 7, 8), (1, 11, 13), (2, 4, 5), (3, 10, 14), (6, 9, 12)),
    ((0, 9, 10), (1, 12, 14), (2, 3, 6), (4, 8, 11), (5, 7, 13)),
    ((0, 11, 12), (1, 3, 5), (2, 8, 9), (4, 10, 13), (6, 7, 14)),
    ((0, 13, 14), (1, 4, 6), (2, 7, 10), (3, 8, 12), (5, 9, 11)),
)

# GF(4) = {0, 1, a, a+1} as 0..3: addition is XOR, multiplication by table.
_GF4_MUL = ((0, 0, 0, 0), (0, 1, 2, 3), (0, 2, 3, 1), (0, 3, 1, 2))


def _mul(q: int, x: int, y: int) -> int:
    return (x * y) % 3 if q == 3 else _GF4_MUL[x][y]


def _add(q: int, x: int, y: int) -> int:
    return (x + y) % 3 if q == 3 else x ^ y


def _affine_classes(q: int, dim: int) -> list[list[tuple[int, ...]]]:
    """Parallel classes of the lines of AG(dim, q): one class per direction.

    Points are numbered by their coordinates in base q; a direction is a nonzero vector
    whose first nonzero coordinate is 1, and its class is the q^(dim−1) lines p + t·v.
    """
    points = list(itertools.product(range(q), repeat=dim))
    index = {point: i for i, point in enumerate(points)}
    directions = [v for v in points if any(v) and v[next(i for i, c in enumerate(v) if c)] == 1]
    classes = []
    for v in directions:
        lines: set[tuple[int, ...]] = set()
        for p in points:
            line = (
                index[tuple(_add(q, p[i], _mul(q, t, v[i])) for i in range(dim))] for t in range(q)
            )
            lines.add(tuple(sorted(line)))
        classes.append(sorted(lines))
    return classes


def _design(players: int, size: int) -> list[list[tuple[int, ...]]] | None:
    """A resolvable design with every pair meeting exactly once, or None (§3, option A)."""
    if size == 3 and players == 15:
        return [list(day) for day in _KTS15]
    known = {(9, 3): (3, 2), (27, 3): (3, 3), (16, 4): (4, 2), (64, 4): (4, 3)}
    if (players, size) in known:
        return _affine_classes(*known[(players, size)])
    return None


def design_schedule(players: Sequence[str], size: int, seed: int) -> list[list[tuple[str, ...]]]:
    """The whole no-repeat schedule for this field, or [] when no design is known.

    The design's points are given to the players in a seeded random order and its
    rounds are shuffled too, so two tournaments with different seeds look different
    (docs/tournaments.md §3, option A; "seeded, reproducible seatings").
    """
    ordered = sorted(set(players))
    design = _design(len(ordered), size)
    if design is None:
        return []
    rng = random.Random(f"{seed}:design")
    rng.shuffle(ordered)
    rng.shuffle(design)
    return [[tuple(ordered[p] for p in line) for line in day] for day in design]


def _as_sets(tables: Round) -> frozenset[frozenset[str]]:
    return frozenset(frozenset(table) for table in tables)


def _from_design(
    players: Sequence[str], history: Sequence[Round], size: int, seed: int
) -> list[tuple[str, ...]] | None:
    """The design's next round if every past round was the design's, else None."""
    schedule = design_schedule(players, size, seed)
    done = len(history)
    if done >= len(schedule):
        return None
    if any(
        _as_sets(past) != _as_sets(planned)
        for past, planned in zip(history, schedule, strict=False)
    ):
        return None
    return list(schedule[done])


# --- strategies B + D: random restarts and local search -------------------------------


class _Cost:
    """The lexicographic cost of a table, as one integer (module docstring)."""

    def __init__(self, players: Sequence[str], history: Sequence[Round], plan: Sequence[int]):
        self.met = meetings(history)
        self.last = meetings(history[-1:]) if history else Counter()
        mixed = len(set(plan)) > 1
        self.fours = Counter(
            player
            for tables in history
            for table in tables
            if mixed and len(table) == 4
            for player in table
        )
        rounds = len(history) + 1
        self.unit_consecutive = 4 * rounds * len(players) + 1
        self.unit_meeting = self.unit_consecutive * (len(players) ** 2 + 1)
        self.base = len(players) ** 2 + 1
        self.mixed = mixed

    def pair(self, a: str, b: str) -> int:
        pair = frozenset((a, b))
        times = self.met[pair]
        if not times:
            return 0
        consecutive = self.unit_consecutive if self.last[pair] else 0
        return int(self.unit_meeting * self.base ** (times - 1)) + consecutive

    def table(self, table: Sequence[str]) -> int:
        cost = sum(self.pair(a, b) for a, b in itertools.combinations(table, 2))
        if self.mixed and len(table) == 4:
            cost += sum(self.fours[player] for player in table)
        return cost


def _improve(tables: list[list[str]], cost: _Cost) -> int:
    """Swap players between tables while a swap lowers the cost; the final cost."""
    costs = [cost.table(table) for table in tables]
    improved = True
    while improved:
        improved = False
        for i, j in itertools.combinations(range(len(tables)), 2):
            for a, b in itertools.product(range(len(tables[i])), range(len(tables[j]))):
                first, second = list(tables[i]), list(tables[j])
                first[a], second[b] = second[b], first[a]
                new_first, new_second = cost.table(first), cost.table(second)
                if new_first + new_second < costs[i] + costs[j]:
                    tables[i], tables[j] = first, second
                    costs[i], costs[j] = new_first, new_second
                    improved = True
    return sum(costs)


def _search(
    players: Sequence[str],
    history: Sequence[Round],
    plan: Sequence[int],
    rng: random.Random,
    tries: int,
) -> list[tuple[str, ...]]:
    cost = _Cost(players, history, plan)
    best: list[list[str]] = []
    best_cost = -1
    for _ in range(tries):
        order = list(players)
        rng.shuffle(order)
        tables, start = [], 0
        for seats in plan:
            tables.append(order[start : start + seats])
            start += seats
        total = _improve(tables, cost)
        if best_cost < 0 or total < best_cost:
            best, best_cost = tables, total
        if best_cost == 0:
            break
    return [tuple(table) for table in best]


# --- the draw --------------------------------------------------------------------------


def draw_round(
    players: Sequence[str],
    history: Sequence[Round],
    size: int,
    seed: int,
    tries: int = 40,
) -> Draw:
    """The next round's tables (docs/tournaments.md §3, §4.3; Кодекс 3.1.1).

    ``players``: the active field (order does not matter); ``history``: the past
    rounds' tables, oldest first; ``size``: 3 or 4 (:func:`table_plan`); ``seed``: the
    tournament's seed, which with the round number fixes every choice. Seats within a
    table and the first dealer are drawn by lot.
    """
    field = sorted(set(players))
    if len(field) != len(players):
        raise SeatingError("seating.entered_twice")
    plan = table_plan(len(field), size)
    round_number = len(history) + 1
    rng = random.Random(f"{seed}:round:{round_number}")
    tables = _from_design(field, history, size, seed)
    method = "design"
    if tables is None:
        tables = _search(field, history, plan, rng, tries)
        method = "search"
    # Largest tables first, then by name: a stable numbering of the tables.
    tables.sort(key=lambda table: (-len(table), sorted(table)))
    met = meetings([*history, tables])
    before = meetings(history)
    repeats = sum(
        1
        for table in tables
        for pair in itertools.combinations(table, 2)
        if before[frozenset(pair)]
    )
    return Draw(
        tables=tuple(_by_lot(table, rng) for table in tables),
        repeats=repeats,
        max_meetings=max(met.values(), default=0),
        repeats_forced=repeats_forced(plan, round_number),
        method=method,
    )


def _by_lot(players: Sequence[str], rng: random.Random) -> Table:
    """Seats and the first dealer by lot (Кодекс 3.1.1: the «тираж» decides)."""
    seated = list(players)
    rng.shuffle(seated)
    return Table(tuple(seated), rng.randrange(len(seated)))


def tables_by_standing(ranked: Sequence[str], size: int, seed: int) -> tuple[Table, ...]:
    """Tables filled in order of standing: the best players together (§3 option C/F).

    For a final or a playoff round (docs/tournaments.md §4.10: "final table(s), seeded by
    standing"); seats and the first dealer still by lot (Кодекс 3.1.1).
    """
    if len(set(ranked)) != len(ranked):
        raise SeatingError("seating.entered_twice")
    plan = table_plan(len(ranked), size)
    rng = random.Random(f"{seed}:standing")
    tables, start = [], 0
    for seats in plan:
        tables.append(_by_lot(ranked[start : start + seats], rng))
        start += seats
    return tuple(tables)
