"""A round's whists normalised before they are summed (docs/tournaments.md §4.7).

So that one huge pulka cannot decide the event, organisers may count place points
within the table (split, or the Serbian league's rule) or compress large positive
results piecewise (the Gambler and Elephant online events). Raw whists are the
default, and stay a column and a tie-break whatever the normalisation.

Raw whists stay ``int`` (the standings of a big field sum them fast); the other
normalisations give exact :class:`~fractions.Fraction` values.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from .errors import ScoringError

NORMALISATIONS = ("raw", "places", "serbian", "gambler", "elephant")
# Place points run from PLACE_TOP for the best player at the table down to 0 for the
# last, whatever the table's size: 3/2/1/0 at a 4-table, 3/1½/0 at a 3-table, so that
# both sizes give the same points on average (docs/tournaments.md §4.7).
PLACE_TOP = 3

Score = Fraction | int

# Piecewise compression of a positive round result: (up to, weight) segments.
# Gambler: «200 = 1, > 200 = 10:1, от 650 = 0»; Elephant: 51–100 ×0.5, above 100 ×0.1.
_SEGMENTS: dict[str, tuple[tuple[int | None, Fraction], ...]] = {
    "gambler": ((200, Fraction(1)), (650, Fraction(1, 10)), (None, Fraction(0))),
    "elephant": ((50, Fraction(1)), (100, Fraction(1, 2)), (None, Fraction(1, 10))),
}


class RankingError(ScoringError):
    """Standings that cannot be computed as asked; the message names the setting."""


def normalised(whists: Sequence[int], normalisation: str = "raw") -> tuple[Score, ...]:
    """A table's points per player after normalisation (docs/tournaments.md §4.7).

    ``raw``: whists. ``places``: place points within the table, from 3 for the best
    down to 0 for the last at any table size (3/2/1/0 at 4, 3/1½/0 at 3), shared places
    split. ``serbian``: 1st 3 (4 if the only positive score), 2nd 2 if positive else 1,
    the rest 0; players tied for a place get that place's points, but a table where
    nobody is ahead (no deals, or all level) splits the table's points evenly.
    ``gambler``/``elephant``: positive whists compressed piecewise; losses count in
    full (our reading of the sources, docs/tournaments.md §1).
    """
    if normalisation == "raw":
        return tuple(whists)
    if normalisation in _SEGMENTS:
        return tuple(compress(w, normalisation) for w in whists)
    if normalisation == "places":
        return place_points(whists)
    if normalisation == "serbian":
        return serbian_points(whists)
    raise RankingError("ranking.unknown_normalisation", value=normalisation)


def compress(whists: int, preset: str) -> Fraction:
    """Piecewise compression of a positive result (docs/tournaments.md §1, Gambler/Elephant)."""
    if whists <= 0:
        return Fraction(whists)
    total, low = Fraction(0), 0
    for high, weight in _SEGMENTS[preset]:
        top = whists if high is None else min(whists, high)
        if top > low:
            total += weight * (top - low)
        if high is None or whists <= high:
            break
        low = high
    return total


def place_points(whists: Sequence[int]) -> tuple[Fraction, ...]:
    """Place points scaled to 3..0 at any table size, shared places split (§4.7)."""
    size = len(whists)
    ranked = sorted(whists, reverse=True)
    step = Fraction(PLACE_TOP, max(size - 1, 1))
    points = []
    for w in whists:
        first = ranked.index(w)
        shared = ranked.count(w)
        places = range(first, first + shared)
        points.append(step * sum(size - 1 - p for p in places) / shared)
    return tuple(points)


def serbian_points(whists: Sequence[int]) -> tuple[Fraction, ...]:
    """The Serbian league's place points (docs/tournaments.md §1, §4.7)."""
    ranked = sorted(whists, reverse=True)
    positive = sum(1 for w in whists if w > 0)

    def place_value(place: int, score: int) -> int:
        if place == 0:
            return 4 if positive == 1 and score > 0 else 3
        if place == 1:
            return 2 if score > 0 else 1
        return 0

    if len(set(whists)) <= 1:
        # Nobody is ahead: a shared first place for all would give everyone 3.
        table = sum(place_value(place, 0) for place in range(len(whists)))
        return tuple(Fraction(table, len(whists)) for _ in whists)
    return tuple(Fraction(place_value(ranked.index(w), w)) for w in whists)
