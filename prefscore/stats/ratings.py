"""The club rating as stored: recomputed from the club's summary rows (docs/rating.md).

Only finished club pulkas count (docs/rating.md §5): tournament tables are ranked by
their tournament's standings.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from fractions import Fraction

from django.db import transaction

from scoring.engine.rating import FinishedPulka, Rating, rated

from .models import PlayerRating, PulkaSummary

# One pulka as the rating pass gives it: the pulka, its players' ratings before and after.
RatedPulka = tuple[FinishedPulka, dict[str, Rating], dict[str, Rating]]

# The last rating pass in this worker and the very pulkas it rated. A settled sheet asks
# for the same pass twice, the statistics' recompute and then a season measured by the
# rating change (docs/seasons.md §2); the pass is a pure function of its pulkas (docs/
# rating.md §4), so giving it again for pulkas equal to those is giving what a fresh pass
# would: there is nothing to forget or to keep in step by hand.
_last_pass: tuple[tuple[FinishedPulka, ...], tuple[RatedPulka, ...]] | None = None


def club_pulkas(club_id: int) -> list[FinishedPulka]:
    """The club's finished club pulkas as the engine's rating reads them, in the order of
    their ids (so two readings of the same rows are equal): one query."""
    rows = PulkaSummary.objects.filter(club_id=club_id, pulka__tournament__isnull=True)
    by_pulka: dict[int, dict[str, Fraction]] = defaultdict(dict)
    moments: dict[int, int] = {}
    for pulka_id, player_id, result, finished in rows.values_list(
        "pulka_id", "player_id", "result", "finished_at"
    ):
        by_pulka[pulka_id][str(player_id)] = Fraction(result)
        moments[pulka_id] = int(finished.timestamp() * 1_000_000)
    return [FinishedPulka(moments[pk], by_pulka[pk], pk) for pk in sorted(by_pulka)]


def rating_pass(pulkas: Sequence[FinishedPulka]) -> tuple[RatedPulka, ...]:
    """``scoring.engine.rating.rated`` over the pulkas, run once for equal pulkas in a row.

    What it gives is shared: read it, never change it.
    """
    global _last_pass
    key = tuple(pulkas)
    last = _last_pass
    if last is not None and last[0] == key:
        return last[1]
    passed = tuple(rated(key))
    _last_pass = (key, passed)
    return passed


def club_rating_pass(club_id: int) -> tuple[RatedPulka, ...]:
    """Each of the club's pulkas in the order rated, with the ratings before and after it."""
    return rating_pass(club_pulkas(club_id))


def computed(club_id: int) -> dict[int, Rating]:
    """The ratings from scratch, by player id: each player's after his last pulka."""
    ratings: dict[int, Rating] = {}
    for _pulka, _before, after in club_rating_pass(club_id):
        ratings.update((int(player), rating) for player, rating in after.items())
    return ratings


def recompute_club(club_id: int) -> None:
    """Store the club's ratings as computed from scratch now."""
    ratings = computed(club_id)
    with transaction.atomic():
        PlayerRating.objects.filter(club_id=club_id).delete()
        PlayerRating.objects.bulk_create(
            PlayerRating(player_id=pk, club_id=club_id, mu=r.mu, sigma=r.sigma, pulkas=r.pulkas)
            for pk, r in ratings.items()
        )


def stored(club_id: int) -> dict[int, Rating]:
    return {
        row.player_id: Rating(row.mu, row.sigma, row.pulkas)
        for row in PlayerRating.objects.filter(club_id=club_id)
    }
