"""Tournament seating: who sits at which table each round (docs/tournaments.md §3, §4.3).

Players are drawn into tables of 3 or 4 so that no pair meets twice when that can be
avoided, and repeats are as few and as evenly spread as possible when it cannot
(docs/tournaments.md §3, the ranked rules of §4.3). The strategies of §3:

- **A, known designs** (:mod:`.seating_designs`) — for 9, 15, 21, 27, 39… players in
  threes and 16, 64 in fours the whole schedule is a resolvable design, every pair
  meeting at most once for as many rounds as the bound ⌊(N−1)/(k−1)⌋ allows. It is
  followed while the past rounds are exactly its first rounds (no drops, late entries,
  Swiss rounds, forbidden pairs).
- **E, exact search for the round** (:mod:`.seating_exact`) — otherwise a depth-first
  search for a round with no repeat, tables of 4 going to whoever had fewest. In a
  Swiss round (``standings`` given) the best-placed free player is seated first, with
  the nearest in the standings (option C). If the search runs through every branch
  without a round, that is the proof that repeats cannot be avoided this round.
- **D, annealing** (:mod:`.seating_search`) — when there is no round without repeats,
  or the search ran out of budget, the round is found by simulated annealing on the
  meetings (a second meeting costs 1, a third 3).

Zero repeats are called impossible only with a proof (§4.4): a counting bound
(:func:`repeats_forced`) or the exhausted search. Seats at a table are drawn by lot
(Кодекс 3.1.1, «тираж»); the first dealer, who sits out every fourth deal at a table
of 4, is whoever has been first dealer least often. Everything is deterministic given
the seed (§4.13: "a fixed seed gives identical output"). Pure Python.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TypeVar

from . import seating_designs, seating_fair, seating_plan, seating_round
from .errors import ScoringError

TABLE_SIZES = (3, 4)

Round = Sequence[Sequence[str]]
T = TypeVar("T", bound=Hashable)
Pair = frozenset[str]

# Branches the exact search may open for one round before it gives up (each is cheap:
# a field of 200 is seated in well under a thousand when a round without repeats exists).
SEARCH_BUDGET = 20_000
# Swaps the annealing may try for one round.
ANNEAL_STEPS = 40_000


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
    repeats is provably impossible this round, given the rounds before it; ``proof``:
    how that is known, ``bound`` (a counting bound, whatever the past rounds) or
    ``search`` (every seating of this round was tried), else ""; ``method``:
    ``design``, ``search`` (a round found with no repeat) or ``anneal``.
    """

    tables: tuple[Table, ...]
    repeats: int
    max_meetings: int
    repeats_forced: bool
    method: str
    proof: str = ""


# --- table plans and bounds -----------------------------------------------------------


def table_plan(players: int, size: int, *, fours_only: bool = False) -> tuple[int, ...]:
    """Table sizes for a field (docs/tournaments.md §4.2: N = 4a + 3b).

    ``size`` 3: threes only, so the field must be a multiple of 3 (Serbian league, Dama
    Herc). ``size`` 4: as many fours as possible, the rest in threes (13 → 4+3+3+3);
    5 players cannot be seated at all. ``fours_only``: tables of 4 and nothing else.
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
    if fours_only:
        if players % 4:
            raise SeatingError("seating.not_fours", players=players)
        return (4,) * (players // 4)
    for fours in range(players // 4, -1, -1):
        if (players - 4 * fours) % 3 == 0:
            return (4,) * fours + (3,) * ((players - 4 * fours) // 3)
    raise SeatingError("seating.not_threes_fours", players=players)


def no_repeat_bound(players: int, size: int) -> int:
    """Most rounds without any pair meeting twice: ⌊(N−1)/(k−1)⌋ (docs/tournaments.md §3)."""
    return (players - 1) // (size - 1)


def repeats_forced(plan: Sequence[int], round_number: int) -> bool:
    """Whether some pair must meet again by round ``round_number``, whatever was drawn (§3).

    Proofs, each a counting argument:

    - pigeonhole: a second round without repeats needs at least as many tables as the
      largest table has seats (12 or 8 players at 4-tables repeat from round 2);
    - pairs: r rounds seat r·ΣC(t, 2) pairs, at most C(N, 2) of them different;
    - players: a player meets at least (smallest table − 1) new people a round, so
      r·(k−1) ≤ N − 1;
    - 12 players in threes: 5 rounds would be a nearly Kirkman triple system NKTS(12),
      which does not exist (Kotzig & Rosa, "Nearly Kirkman systems", Congr. Numer. 10
      (1974); Colbourn & Dinitz, Handbook, 2nd ed., VI.56 — NKTS(v) exists for
      v ≡ 0 (mod 6) iff v ≥ 18).

    Beyond these a round may still be forced by the particular past rounds; the draw
    then proves it by exhausting the search (:class:`Draw`).
    """
    if round_number <= 1:
        return False
    players = sum(plan)
    if len(plan) < max(plan):
        return True
    pairs = sum(size * (size - 1) // 2 for size in plan)
    if round_number * pairs > players * (players - 1) // 2:
        return True
    if round_number * (min(plan) - 1) > players - 1:
        return True
    return set(plan) == {3} and players == 12 and round_number >= 5


def meetings(history: Iterable[Round]) -> Counter[Pair]:
    """How many times each pair has sat at the same table (the meetings matrix, §4.4)."""
    met: Counter[Pair] = Counter()
    for tables in history:
        for table in tables:
            met.update(frozenset(pair) for pair in itertools.combinations(table, 2))
    return met


def repeats_of(history: Sequence[Sequence[Sequence[T]]], tables: Sequence[Sequence[T]]) -> int:
    """Pairs at ``tables`` who had already sat together in ``history`` (§4.4)."""
    before = {
        frozenset(pair) for past in history for t in past for pair in itertools.combinations(t, 2)
    }
    return sum(
        1
        for table in tables
        for pair in itertools.combinations(table, 2)
        if frozenset(pair) in before
    )


def _repeats_and_most(history: Sequence[Round], tables: Sequence[Sequence[str]]) -> tuple[int, int]:
    """:func:`repeats_of` the round and the most meetings of a pair with it (the
    :func:`meetings` of every round), from one count of the past rounds' pairs (§4.4)."""
    past = meetings(history)
    now = Counter(frozenset(pair) for table in tables for pair in itertools.combinations(table, 2))
    repeats = sum(count for pair, count in now.items() if past[pair])
    most = max((past[pair] + count for pair, count in now.items()), default=0)
    return repeats, max(most, max(past.values(), default=0))


# --- strategy A: known designs --------------------------------------------------------


def design_schedule(players: Sequence[str], size: int, seed: int) -> list[list[tuple[str, ...]]]:
    """The whole no-repeat schedule for this field, or [] when no design is known.

    The design's points are given to the players in a seeded random order and its
    rounds are shuffled too, so two tournaments with different seeds look different
    (docs/tournaments.md §3, option A; "seeded, reproducible seatings").
    """
    ordered = sorted(set(players))
    design = seating_designs.design(len(ordered), size)
    if design is None:
        return []
    rng = random.Random(f"{seed}:design")
    rng.shuffle(ordered)
    rng.shuffle(design)
    return [[tuple(ordered[p] for p in line) for line in day] for day in design]


def _as_sets(tables: Round) -> frozenset[frozenset[str]]:
    return frozenset(frozenset(table) for table in tables)


def _from_design(
    players: Sequence[str],
    history: Sequence[Round],
    size: int,
    seed: int,
    standings: Sequence[str] | None = None,
) -> list[tuple[str, ...]] | None:
    """The design's next round if every past round was one of the design's, else None."""
    return _next_planned(design_schedule(players, size, seed), history, standings)


def _next_planned(
    schedule: Sequence[Sequence[tuple[str, ...]]],
    history: Sequence[Round],
    standings: Sequence[str] | None,
) -> list[tuple[str, ...]] | None:
    """A round of ``schedule`` not played yet, if every past round is one of its rounds.

    The planned rounds are interchangeable (none repeats a pair of another), so the
    order may follow the standings: in a Swiss round (§3, option C) the planned round
    whose tables hold the closest standings is taken, ties in plan order; otherwise the
    first not played.
    """
    planned = [_as_sets(tables) for tables in schedule]
    played = [_as_sets(past) for past in history]
    if len(set(played)) != len(played) or any(past not in planned for past in played):
        return None
    left = [i for i, tables in enumerate(planned) if tables not in played]
    if not left:
        return None
    if standings is None:
        return list(schedule[left[0]])
    rank = {player: i for i, player in enumerate(standings)}
    last = len(rank)

    def spread(index: int) -> int:
        tables = schedule[index]
        return sum(
            max(rank.get(p, last) for p in table) - min(rank.get(p, last) for p in table)
            for table in tables
        )

    return list(schedule[min(left, key=spread)])


# --- the draw --------------------------------------------------------------------------


def draw_round(
    players: Sequence[str],
    history: Sequence[Round],
    size: int,
    seed: int,
    tries: int = 40,
    *,
    fours_only: bool = False,
    standings: Sequence[str] | None = None,
    forbidden: Iterable[tuple[str, str]] = (),
    clubs: Mapping[str, str] | None = None,
    dealt_first: Mapping[str, int] | None = None,
) -> Draw:
    """The next round's tables (docs/tournaments.md §3, §4.3; Кодекс 3.1.1).

    ``players``: the active field (order does not matter); ``history``: the past
    rounds' tables, oldest first; ``size``: 3 or 4 (:func:`table_plan`, with
    ``fours_only``); ``seed``: the tournament's seed, which with the round number fixes
    every choice. Options (§4.3): ``standings``, the field best first, for a Swiss round
    (similar standing together); ``forbidden``, pairs that must never sit together;
    ``clubs``, each player's club, kept apart in round 1 when possible;
    ``dealt_first``, how often each player was first dealer at a table of 4 (the
    first dealer sits out the most deals), spread evenly. ``tries`` is kept for old
    callers; the search stops by its own budgets.
    """
    del tries
    field = sorted(set(players))
    if len(field) != len(players):
        raise SeatingError("seating.entered_twice")
    plan = table_plan(len(field), size, fours_only=fours_only)
    number = {player: i for i, player in enumerate(field)}
    banned = sorted(
        {
            (min(number[a], number[b]), max(number[a], number[b]))
            for a, b in forbidden
            if a in number and b in number and a != b
        }
    )
    round_number = len(history) + 1
    rng = random.Random(f"{seed}:round:{round_number}")
    # A schedule planned ahead is followed while the field is unchanged, also in a
    # Swiss round (its rounds in the order of the standings): no avoidable repeat
    # ranks above similar standing together (§4.3). Forbidden pairs and clubs apart
    # are wishes the plan does not know of.
    plain = not banned and not clubs
    tables = (
        _from_design(field, history, size, seed, standings) if plain and not fours_only else None
    )
    method, proof = "design", ""
    if tables is None and plain:
        tables, method = _from_plan(field, history, plan, seed, standings), "plan"
    if tables is None:
        seated = seating_round.seat_round(
            _field(field, number, plan, history, banned, clubs, standings),
            rng,
            budget=SEARCH_BUDGET,
            steps=ANNEAL_STEPS,
        )
        tables = [tuple(field[p] for p in table) for table in seated.tables]
        method, proof = seated.method, seated.proof
    if any(
        frozenset(pair) in _pairs(banned, field)
        for t in tables
        for pair in itertools.combinations(t, 2)
    ):
        raise SeatingError("seating.forbidden")
    tables = _ordered(tables, standings)
    repeats, most = _repeats_and_most(history, tables)
    # A fair schedule's table of 4 names its first dealer first (seating_fair, §4.3).
    fair = method == "plan" and seating_fair.shipped(len(field), plan) is not None
    return Draw(
        tables=tuple(
            _by_lot(table, rng, dealt_first, table[0] if fair and len(table) == 4 else None)
            for table in tables
        ),
        repeats=repeats,
        max_meetings=most,
        repeats_forced=bool(proof),
        method=method,
        proof=proof,
    )


# Fields up to this size follow a schedule planned ahead while the past matches it.
PLAN_LIMIT = 40


def _from_plan(
    field: Sequence[str],
    history: Sequence[Round],
    plan: tuple[int, ...],
    seed: int,
    standings: Sequence[str] | None = None,
) -> list[tuple[str, ...]] | None:
    """A planned round (:mod:`.seating_plan`) if every past round was a planned one."""
    if len(field) > PLAN_LIMIT:
        return None
    horizon = max(r for r in range(1, len(field)) if not repeats_forced(plan, r))
    if len(history) >= horizon:
        return None
    schedule = seating_plan.no_repeat_plan(len(field), plan, horizon, seed)
    named = [[tuple(field[p] for p in table) for table in tables] for tables in schedule]
    return _next_planned(named, history, standings)


def _pairs(banned: Sequence[tuple[int, int]], field: Sequence[str]) -> set[Pair]:
    return {frozenset((field[p], field[q])) for p, q in banned}


def _field(
    field: Sequence[str],
    number: Mapping[str, int],
    plan: tuple[int, ...],
    history: Sequence[Round],
    banned: list[tuple[int, int]],
    clubs: Mapping[str, str] | None,
    standings: Sequence[str] | None,
) -> seating_round.Field:
    """The draw's view of the field by player numbers (players who left are dropped)."""
    past = [[[number[p] for p in table if p in number] for table in tables] for tables in history]
    mixed = len(set(plan)) > 1
    fours = [0] * len(field)
    for tables in past:
        for table in tables:
            if mixed and len(table) == 4:
                for p in table:
                    fours[p] += 1
    ranked = None
    if standings is not None:
        listed = [number[p] for p in dict.fromkeys(standings) if p in number]
        # Players missing from the standings (late entries) come last, by name.
        known = set(listed)
        ranked = listed + [p for p in range(len(field)) if p not in known]
    return seating_round.Field(
        players=len(field),
        plan=plan,
        history=[[t for t in tables if t] for tables in past],
        fours=fours,
        forbidden=banned,
        clubs=[clubs.get(p) for p in field] if clubs else None,
        standings=ranked,
    )


def _ordered(
    tables: list[tuple[str, ...]], standings: Sequence[str] | None
) -> list[tuple[str, ...]]:
    """Largest tables first, then by name; in a Swiss round, the top table first."""
    if standings is None:
        return sorted(tables, key=lambda table: (-len(table), sorted(table)))
    rank = {player: i for i, player in enumerate(standings)}
    last = len(rank)
    return sorted(tables, key=lambda table: min(rank.get(p, last) for p in table))


def _by_lot(
    players: Sequence[str],
    rng: random.Random,
    dealt_first: Mapping[str, int] | None = None,
    dealer: str | None = None,
) -> Table:
    """Seats by lot (Кодекс 3.1.1: the «тираж» decides); the first dealer too, among
    those who have been first dealer least often (docs/tournaments.md §3: rotate the
    first dealer; at a table of 4 the dealer sits out), unless a fair schedule names
    him (``dealer``: its shares hold over the whole schedule, §4.3)."""
    seated = list(players)
    rng.shuffle(seated)
    if dealer is not None:
        return Table(tuple(seated), seated.index(dealer))
    counts = dealt_first or {}
    fewest = min(counts.get(p, 0) for p in seated)
    candidates = [i for i, p in enumerate(seated) if counts.get(p, 0) == fewest]
    return Table(tuple(seated), candidates[rng.randrange(len(candidates))])


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
