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

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Protocol


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


class Preferences(Protocol):
    """Each player's partners, most preferred first: ``preferences[p]`` (a list per
    player, or worked out as the search asks)."""

    def __getitem__(self, player: int, /) -> Iterable[int]: ...


class _Budget(Exception):
    pass


class _Search:
    def __init__(
        self,
        allowed: Sequence[int],
        shape: Shape,
        preference: Preferences,
        leader: Sequence[int] | None,
        budget: int,
    ):
        self.allowed = allowed
        self.shape = shape
        self.preference = preference
        self.leader = leader
        self.nodes = budget
        self.tables: list[tuple[int, ...]] = []
        # The most players any one player may not sit with (himself included): while
        # more players than that are free, everyone still has enough partners.
        everyone = (1 << len(allowed)) - 1
        self.barred = max(((everyone & ~mask).bit_count() for mask in allowed), default=0)

    def run(self, free: int, fours: int, threes: int, start: int = 0) -> bool:
        """Seat the ``free`` players; ``start``: in a Swiss draw, where the leader's
        list has free players left (those before it are seated)."""
        if not free:
            return True
        self.nodes -= 1
        if self.nodes < 0:
            raise _Budget
        if self.leader is not None:
            while not free >> self.leader[start] & 1:
                start += 1
            player = self.leader[start]
        else:
            player = self._fewest(free)
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
                if self.run(seated, left4, left3, start + 1):
                    return True
                self.tables.pop()
        return False

    def _fewest(self, free: int) -> int:
        """The free player with the fewest possible partners left (the first of those)."""
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
        yield from self._extend(_Order(self.preference[player], pool), 0, pool, count, ())

    def _extend(
        self, order: _Order, start: int, pool: int, count: int, chosen: tuple[int, ...]
    ) -> Iterator[tuple[int, ...]]:
        if count == 0:
            yield chosen
            return
        players = order.players
        i = start
        while i < len(players) or order.more():
            candidate = players[i]
            if pool >> candidate & 1:
                yield from self._extend(
                    order, i + 1, pool & self.allowed[candidate], count - 1, (*chosen, candidate)
                )
            i += 1

    def _viable(self, free: int, fours: int, threes: int) -> bool:
        if not free:
            return True
        need = 2 if threes else 3
        if free.bit_count() - self.barred >= need:
            return True
        return all((self.allowed[p] & free).bit_count() >= need for p in _members(free))


class _Order:
    """The players of a pool in order of preference, read from the preference only as
    far as the search asks: in a big field the first few usually make the table."""

    __slots__ = ("_rest", "players")

    def __init__(self, preference: Iterable[int], pool: int):
        self.players: list[int] = []
        self._rest = (p for p in preference if pool >> p & 1)

    def more(self) -> bool:
        """One more player read into ``players``; False when none is left."""
        player = next(self._rest, -1)
        if player < 0:
            return False
        self.players.append(player)
        return True


def _members(mask: int) -> Iterator[int]:
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def find_round(
    allowed: Sequence[int],
    shape: Shape,
    preference: Preferences,
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
