"""One round's tables for a field numbered 0..n−1 (docs/tournaments.md §3, §4.3).

The ranked rules of §4.3, in order: forbidden pairs never together (a hard rule); no
avoidable repeat; fewest repeats, spread, when they are forced; an even share of the
4-tables; clubmates apart in round 1 (an option); in a Swiss round, players of
similar standing together. The exact search (:mod:`.seating_exact`) is tried with the
most wishes first and drops them one by one; annealing (:mod:`.seating_search`) seats
the round when no round without repeats exists or none was found.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from . import seating_exact, seating_search
from .seating_exact import Preferences, Shape

Tables = list[tuple[int, ...]]


@dataclass(frozen=True, slots=True)
class Field:
    """What the draw knows of the field, every player by number.

    ``history``: the past rounds (numbers of players still in the field only);
    ``fours``: how many rounds each player sat at a table of 4 in a mixed field;
    ``forbidden``: pairs that must never sit together; ``clubs``: each player's club
    (None: no club), kept apart when ``apart`` is set; ``standings``: the field best
    first for a Swiss round, or None.
    """

    players: int
    plan: tuple[int, ...]
    history: list[list[list[int]]]
    fours: list[int]
    forbidden: list[tuple[int, int]]
    clubs: list[str | None] | None
    standings: list[int] | None


@dataclass(frozen=True, slots=True)
class Seated:
    """The round's tables; ``method``: how found; ``proof``: why repeats are forced."""

    tables: Tables
    method: str
    proof: str


def _masks(field: Field) -> list[int]:
    """Who may sit with whom without a repeat or a forbidden pair (bit masks)."""
    everyone = (1 << field.players) - 1
    allowed = [everyone & ~(1 << p) for p in range(field.players)]
    for tables in field.history:
        for table in tables:
            together = sum(1 << p for p in table)
            for p in table:
                allowed[p] &= ~together
    for p, q in field.forbidden:
        allowed[p] &= ~(1 << q)
        allowed[q] &= ~(1 << p)
    return allowed


def _apart(field: Field, allowed: list[int]) -> list[int]:
    assert field.clubs is not None
    clubs = field.clubs
    return [
        mask
        & ~sum(
            1 << q for q in range(field.players) if clubs[p] is not None and clubs[q] == clubs[p]
        )
        for p, mask in enumerate(allowed)
    ]


def _preference(field: Field, rng: random.Random) -> Preferences:
    """For each player, everyone in the order they should preferably sit with them."""
    if field.standings is not None:
        return _Nearest(field.standings, _positions(field))
    order = list(range(field.players))
    rng.shuffle(order)
    # Partners short of 4-tables first, so a table of 4 goes to them (§4.3).
    order.sort(key=lambda p: field.fours[p])
    return [order] * field.players


class _Nearest:
    """A Swiss round's preferences (:func:`_nearest`), each worked out when the search
    first asks for it: a field of 1,000 seats about 250 players first, and the search
    reads only their lists."""

    def __init__(self, standings: Sequence[int], at: Sequence[int]):
        self._standings = standings
        self._at = at
        self._known: dict[int, list[int]] = {}

    def __getitem__(self, player: int) -> list[int]:
        known = self._known.get(player)
        if known is None:
            known = self._known[player] = _nearest(self._standings, self._at[player])
        return known


def _positions(field: Field) -> list[int]:
    """Each player's place in ``field.standings`` (which lists every player once)."""
    assert field.standings is not None
    at = [-1] * field.players
    for index, player in enumerate(field.standings):
        at[player] = index
    assert -1 not in at, "the standings list every player of the field"
    return at


def _nearest(standings: Sequence[int], at: int) -> list[int]:
    """Everyone by distance in the standings from the player placed ``at`` (Swiss:
    similar together), the better placed first at equal distance: at, at−1, at+1, at−2…

    Interleaved by slices rather than sorted by key: a field of 1,000 asks this for each
    player (a million keys per draw; bench/tournament_results.py times it).
    """
    above = list(standings[at - 1 :: -1]) if at else []
    below = list(standings[at + 1 :])
    both = min(len(above), len(below))
    near: list[int] = [0] * (2 * both)
    near[0::2] = above[:both]
    near[1::2] = below[:both]
    return [standings[at], *near, *above[both:], *below[both:]]


def seat_round(field: Field, rng: random.Random, *, budget: int, steps: int) -> Seated:
    """The round's tables (module docstring); deterministic given ``rng``'s state."""
    allowed = _masks(field)
    preference = _preference(field, rng)
    fours = seating_search.balanced_sizes(field.players, field.plan, field.fours, rng)
    everyone = (1 << field.players) - 1
    shape = Shape(
        fours=field.plan.count(4), threes=field.plan.count(3), can4=fours[0], can3=fours[1]
    )
    # Unbalanced only if need be: those short of 4-tables still try one first.
    free_shape = Shape(shape.fours, shape.threes, everyone, everyone, prefer4=fours[0])
    attempts: list[tuple[list[int], Shape, Sequence[int] | None]] = []
    first_round = not field.history
    if first_round and field.clubs is not None:
        attempts.append((_apart(field, allowed), shape, field.standings))
    attempts += [(allowed, shape, field.standings), (allowed, free_shape, field.standings)]
    if field.standings is not None:
        attempts.append((allowed, free_shape, None))
    proof = _counting_proof(field, allowed)
    if proof:
        attempts = []
    for masks, attempt_shape, leader in attempts:
        found = seating_exact.find_round(
            masks, attempt_shape, preference, leader=leader, budget=budget
        )
        if found.tables is not None:
            return Seated(found.tables, "search", "")
        # Only the search with no wish but the hard rules proves anything.
        if found.exhausted and masks is allowed and attempt_shape is free_shape:
            proof = "search"
            break
    return Seated(_annealed(field, rng, steps), "anneal", proof)


def _counting_proof(field: Field, allowed: Sequence[int]) -> str:
    """``bound`` when counting alone shows this round must repeat, else "" (§3).

    Either some player has fewer possible partners left than the smallest table needs,
    or (pigeonhole) the field is exactly last round's and a table has more seats than
    last round had tables.
    """
    need = min(field.plan) - 1
    if any(mask.bit_count() < need for mask in allowed):
        return "bound"
    if field.history:
        last = field.history[-1]
        seated = sorted(p for table in last for p in table)
        if seated == list(range(field.players)):
            if seating_search.forced_by_last_round(field.plan, len(last)):
                return "bound"
    return ""


def _annealed(field: Field, rng: random.Random, steps: int) -> Tables:
    """The round by annealing after the past rounds, with an even share of the 4-tables."""
    can4, can3 = seating_search.balanced_sizes(field.players, field.plan, field.fours, rng)
    order = list(range(field.players))
    rng.shuffle(order)
    must4 = [p for p in order if can4 >> p & 1 and not can3 >> p & 1]
    must3 = [p for p in order if can3 >> p & 1 and not can4 >> p & 1]
    either = [p for p in order if can3 >> p & 1 and can4 >> p & 1]
    seats4 = field.plan.count(4) * 4
    at4 = (must4 + either)[:seats4]
    at3 = must3 + (must4 + either)[seats4:]
    tables, start4, start3 = [], 0, 0
    for size in field.plan:
        if size == 4:
            tables.append(at4[start4 : start4 + 4])
            start4 += 4
        else:
            tables.append(at3[start3 : start3 + 3])
            start3 += 3
    rounds = [*field.history, tables]
    best, _ = seating_search.anneal(
        field.players,
        rounds,
        len(field.history),
        rng,
        steps=steps,
        target=(
            seating_search.forced_by_last_round(field.plan, len(field.history[-1]))
            if field.history
            else 0
        ),
        penalty=field.forbidden,
    )
    return [tuple(table) for table in best[-1]]
