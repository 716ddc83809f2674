"""An exact search for a round with no repeated meeting (docs/tournaments.md §3, option E).

Players are numbers 0..n−1 and ``allowed[p]`` is a bit mask of the players p may sit
with (not met before, not a forbidden pair). The search splits the field into cliques
of the allowed graph, a given number of tables of 4 and of 3, by depth-first search
with backtracking: the player with the fewest possible partners first (or, in a Swiss
draw, the best-placed free player), partners in order of preference, and a branch is
cut as soon as some free player has too few possible partners left.

Either it finds a round, or it runs through every branch — then the search itself is
the proof that no round without a repeat exists ("exhausted": an organiser may be told
repeats cannot be avoided, §4.4) — or it stops at its node budget, proving nothing.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Shape:
    """How many tables of 4 and of 3 a round has, and who may sit at which size.

    ``can4``/``can3``: bit masks of the players allowed at a table of 4 / of 3 (an even
    share of the 4-tables, docs/tournaments.md §4.3); ``prefer4``: those who try a
    table of 4 first (the others try a table of 3 first).
    """

    fours: int
    threes: int
    can4: int
    can3: int
    prefer4: int = -1


@dataclass(frozen=True, slots=True)
class Found:
    """A round's tables (player numbers), or None; ``exhausted``: every branch was tried."""

    tables: list[tuple[int, ...]] | None
    exhausted: bool


class _Budget(Exception):
    pass


class _Search:
    def __init__(
        self,
        allowed: Sequence[int],
        shape: Shape,
        preference: Sequence[Sequence[int]],
        leader: Sequence[int] | None,
        budget: int,
    ):
        self.allowed = allowed
        self.shape = shape
        self.preference = preference
        self.leader = leader
        self.nodes = budget
        self.tables: list[tuple[int, ...]] = []

    def run(self, free: int, fours: int, threes: int) -> bool:
        if not free:
            return True
        self.nodes -= 1
        if self.nodes < 0:
            raise _Budget
        player = self._next(free)
        rest = free & ~(1 << player)
        for size in self._sizes(player, fours, threes):
            mask = self.shape.can4 if size == 4 else self.shape.can3
            for mates in self._cliques(player, rest & self.allowed[player] & mask, size - 1):
                seated = rest
                for mate in mates:
                    seated &= ~(1 << mate)
                left4, left3 = (fours - 1, threes) if size == 4 else (fours, threes - 1)
                if not self._viable(seated, left4, left3):
                    continue
                self.tables.append((player, *mates))
                if self.run(seated, left4, left3):
                    return True
                self.tables.pop()
        return False

    def _next(self, free: int) -> int:
        if self.leader is not None:
            return next(p for p in self.leader if free >> p & 1)
        best, fewest = -1, 1 << 30
        for p in _members(free):
            options = (self.allowed[p] & free).bit_count()
            if options < fewest:
                best, fewest = p, options
        return best

    def _sizes(self, player: int, fours: int, threes: int) -> list[int]:
        bit = 1 << player
        sizes = []
        if fours and self.shape.can4 & bit:
            sizes.append(4)
        if threes and self.shape.can3 & bit:
            sizes.append(3)
        return sizes if self.shape.prefer4 & bit else sizes[::-1]

    def _cliques(self, player: int, pool: int, count: int) -> Iterator[tuple[int, ...]]:
        """Sets of ``count`` mutual partners from ``pool``, most preferred first."""
        order = [p for p in self.preference[player] if pool >> p & 1]
        yield from self._extend(order, 0, pool, count, ())

    def _extend(
        self, order: list[int], start: int, pool: int, count: int, chosen: tuple[int, ...]
    ) -> Iterator[tuple[int, ...]]:
        if count == 0:
            yield chosen
            return
        for i in range(start, len(order)):
            candidate = order[i]
            if pool >> candidate & 1:
                yield from self._extend(
                    order, i + 1, pool & self.allowed[candidate], count - 1, (*chosen, candidate)
                )

    def _viable(self, free: int, fours: int, threes: int) -> bool:
        if not free:
            return True
        need = 2 if threes else 3
        return all((self.allowed[p] & free).bit_count() >= need for p in _members(free))


def _members(mask: int) -> Iterator[int]:
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def find_round(
    allowed: Sequence[int],
    shape: Shape,
    preference: Sequence[Sequence[int]],
    *,
    leader: Sequence[int] | None = None,
    budget: int = 20_000,
) -> Found:
    """A round without a repeat, or the proof that none exists (module docstring).

    ``preference[p]``: every player in the order p would rather sit with them;
    ``leader``: in a Swiss draw, the field by standing (the best free player is seated
    first); ``budget``: how many branches to open before giving up.
    """
    search = _Search(allowed, shape, preference, leader, budget)
    free = (1 << len(allowed)) - 1
    try:
        found = search.run(free, shape.fours, shape.threes)
    except _Budget:
        return Found(None, exhausted=False)
    return Found(search.tables if found else None, exhausted=not found)
