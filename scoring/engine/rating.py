"""The club rating: Weng–Lin Bayesian ratings over the finished pulkas (docs/rating.md).

A pure function of the ordered pulkas: the same pulkas always give the same ratings,
so what is stored can be recomputed and compared. The rating model is ``openskill``'s
Plackett–Luce, each pulka a free-for-all ranking of its table by settled result.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from itertools import groupby

from openskill.models import PlackettLuce

from .numbers import Points

# The model's defaults (docs/rating.md §1): every player starts at μ 25, σ 25/3.
START_MU = 25.0
START_SIGMA = 25.0 / 3.0
# The leaderboard's "provisional" mark below this many pulkas (docs/rating.md §2).
PROVISIONAL_BELOW = 10


@dataclass(frozen=True, slots=True)
class FinishedPulka:
    """One finished pulka: when it finished and each player's result.

    ``finished`` is the moment as a number that grows with time (the web side gives
    microseconds since the epoch); ``results`` maps a player's key to his settled
    result in whists (docs/rules.md §3.7).
    """

    finished: int
    results: Mapping[str, Points]
    # The caller's own name for the pulka, carried through untouched (a season's table
    # finds each pulka's rating change by it, docs/seasons.md §2).
    pulka: int = 0


@dataclass(frozen=True, slots=True)
class Rating:
    """A player's rating: the estimate μ, its uncertainty σ, and the pulkas behind it."""

    mu: float
    sigma: float
    pulkas: int

    @property
    def conservative(self) -> float:
        """μ − 3σ: what the leaderboard orders by (docs/rating.md §1)."""
        return self.mu - 3.0 * self.sigma

    @property
    def provisional(self) -> bool:
        return self.pulkas < PROVISIONAL_BELOW


UNRATED = Rating(START_MU, START_SIGMA, 0)


def ranks_of(results: Mapping[str, Points]) -> dict[str, int]:
    """Places at the table by settled result, best first; equal results share a place.

    docs/rating.md §1: only the order counts, never the size of the win.
    """
    ordered = sorted({Fraction(value) for value in results.values()}, reverse=True)
    place = {value: index + 1 for index, value in enumerate(ordered)}
    return {player: place[Fraction(value)] for player, value in results.items()}


def rate(pulkas: Iterable[FinishedPulka]) -> dict[str, Rating]:
    """Every player's rating after the pulkas, rated in the order they finished.

    Pulkas that finished at the same moment are rated in an order of their own (by
    players and results), so listing them in another order changes nothing
    (docs/rating.md §4). A pulka of fewer than two players is skipped.
    """
    ratings: dict[str, Rating] = {}
    for _pulka, _before, after in rated(pulkas):
        ratings.update(after)
    return ratings


def rated(
    pulkas: Iterable[FinishedPulka],
) -> Iterator[tuple[FinishedPulka, dict[str, Rating], dict[str, Rating]]]:
    """Each pulka in the order ``rate`` rates it, with its players' ratings before and
    after it: what that pulka alone changed (docs/rating.md §4; docs/seasons.md §2)."""
    model = PlackettLuce(mu=START_MU, sigma=START_SIGMA)
    ratings: dict[str, Rating] = {}
    ordered = sorted(pulkas, key=lambda pulka: pulka.finished)
    for _moment, together in groupby(ordered, key=lambda pulka: pulka.finished):
        for pulka in sorted(together, key=_canonical):
            if len(pulka.results) >= 2:
                before = {player: ratings.get(player, UNRATED) for player in pulka.results}
                after = _rate_table(model, ratings, pulka.results)
                ratings.update(after)
                yield pulka, before, after


def _rate_table(
    model: PlackettLuce, ratings: Mapping[str, Rating], results: Mapping[str, Points]
) -> dict[str, Rating]:
    players = sorted(results)
    ranks = ranks_of(results)
    before = [ratings.get(player, UNRATED) for player in players]
    teams = [[model.rating(mu=r.mu, sigma=r.sigma)] for r in before]
    after = model.rate(teams, ranks=[float(ranks[player]) for player in players])
    return {
        player: Rating(float(team[0].mu), float(team[0].sigma), old.pulkas + 1)
        for player, team, old in zip(players, after, before, strict=True)
    }


def _canonical(pulka: FinishedPulka) -> tuple[tuple[str, Fraction], ...]:
    return tuple(sorted((player, Fraction(value)) for player, value in pulka.results.items()))


def leaderboard(ratings: Mapping[str, Rating]) -> Sequence[tuple[str, Rating]]:
    """Players by conservative rating, best first; ties by name (docs/rating.md §1)."""
    return sorted(ratings.items(), key=lambda item: (-item[1].conservative, item[0]))
