"""Known resolvable designs: whole no-repeat schedules (docs/tournaments.md §3, option A).

A resolvable design splits every pair of N players into rounds ("parallel classes") so
that each pair meets exactly once: the no-repeat bound ⌊(N−1)/(k−1)⌋ is met. Those we
build, each checked by tests/engine/test_seating.py (and the Kirkman systems by
tests/engine/test_seating_schedules.py):

- 9 and 27 players in threes, 16 and 64 in fours: the lines of the affine geometry
  AG(n, q), q = 3 or 4, one round per direction (the classical construction; Colbourn &
  Dinitz, *Handbook of Combinatorial Designs*, 2nd ed., VII.2).
- 15 players in threes: a Kirkman triple system KTS(15) (Kirkman's schoolgirls, 1850),
  found as a packing of the lines of PG(3, 2) into spreads.
- 3q players in threes for a prime q ≡ 1 (mod 6) — 21, 39, 57, 93: the KTS(3q) of
  Ray-Chaudhuri & Wilson, "Solution of Kirkman's schoolgirl problem", Proc. Symp. Pure
  Math. 19 (1971), Theorem 5; as Construction 1.2 in D. R. Stinson, "A survey of
  Kirkman triple systems and related designs", Discrete Math. 92 (1991) 371–393.
  21 players get their 10 rounds from it.
"""

from __future__ import annotations

import itertools

Classes = list[list[tuple[int, ...]]]

# A Kirkman triple system of order 15: 7 rounds, every pair exactly once.
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


def affine_classes(q: int, dim: int) -> Classes:
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


def _primitive_root(q: int) -> int:
    """The least generator of the multiplicative group of Z_q (q prime)."""
    for a in range(2, q):
        if len({pow(a, e, q) for e in range(q - 1)}) == q - 1:
            return a
    return 1  # q = 2


def _is_prime(q: int) -> bool:
    return q > 1 and all(q % d for d in range(2, int(q**0.5) + 1))


def kirkman_3q(q: int) -> Classes:
    """KTS(3q) for a prime q ≡ 1 (mod 6): Ray-Chaudhuri & Wilson (1971), Theorem 5.

    Points are (x, j), x in Z_q, j in {0, 1, 2}, numbered x + j·q; a is a primitive root
    and t = (q − 1)/6. The base class holds the triple {(0, j)}, the triples
    {(a^i, j), (a^(i+2t), j), (a^(i+4t), j)} for i < t, and the cross triples
    A_i = {(a^i, 0), (a^(i+2t), 1), (a^(i+4t), 2)} for i in [t, 2t) ∪ [3t, 4t) ∪ [5t, 6t);
    its q translates by x are q rounds. Each remaining A_i (i in [0, t) ∪ [2t, 3t) ∪
    [4t, 5t)) gives one more round: its q translates. q + 3t = (3q − 1)/2 rounds.
    """
    a, t = _primitive_root(q), (q - 1) // 6

    def power(e: int) -> int:
        return pow(a, e, q)

    def cross(i: int) -> list[tuple[int, int]]:
        return [(power(i), 0), (power(i + 2 * t), 1), (power(i + 4 * t), 2)]

    def shifted(triple: list[tuple[int, int]], by: int) -> tuple[int, ...]:
        return tuple(sorted((x + by) % q + j * q for x, j in triple))

    base = [[(0, 0), (0, 1), (0, 2)]]
    base += [
        [(power(i), j), (power(i + 2 * t), j), (power(i + 4 * t), j)]
        for j in range(3)
        for i in range(t)
    ]
    kept = [*range(t, 2 * t), *range(3 * t, 4 * t), *range(5 * t, 6 * t)]
    base += [cross(i) for i in kept]
    classes = [sorted(shifted(triple, x) for triple in base) for x in range(q)]
    rest = [*range(t), *range(2 * t, 3 * t), *range(4 * t, 5 * t)]
    classes += [sorted(shifted(cross(i), x) for x in range(q)) for i in rest]
    return classes


def design(players: int, size: int) -> Classes | None:
    """A resolvable design with every pair meeting exactly once, or None (§3, option A)."""
    if size == 3 and players == 15:
        return [list(day) for day in _KTS15]
    affine = {(9, 3): (3, 2), (27, 3): (3, 3), (16, 4): (4, 2), (64, 4): (4, 3)}
    if (players, size) in affine:
        return affine_classes(*affine[(players, size)])
    q = players // 3
    if size == 3 and players % 3 == 0 and q % 6 == 1 and _is_prime(q):
        return kirkman_3q(q)
    return None
