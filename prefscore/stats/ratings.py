"""The club rating as stored: recomputed from the club's summary rows (docs/rating.md).

Only finished club pulkas count (docs/rating.md §5): tournament tables are ranked by
their tournament's standings.
"""

from __future__ import annotations

from collections import defaultdict
from fractions import Fraction

from django.db import transaction

from scoring.engine.rating import FinishedPulka, Rating, rate

from .models import PlayerRating, PulkaSummary


def club_pulkas(club_id: int) -> list[FinishedPulka]:
    """The club's finished club pulkas as the engine's rating reads them: one query."""
    rows = PulkaSummary.objects.filter(club_id=club_id, pulka__tournament__isnull=True)
    by_pulka: dict[int, dict[str, Fraction]] = defaultdict(dict)
    moments: dict[int, int] = {}
    for pulka_id, player_id, result, finished in rows.values_list(
        "pulka_id", "player_id", "result", "finished_at"
    ):
        by_pulka[pulka_id][str(player_id)] = Fraction(result)
        moments[pulka_id] = int(finished.timestamp() * 1_000_000)
    return [FinishedPulka(moments[pk], results, pk) for pk, results in by_pulka.items()]


def computed(club_id: int) -> dict[int, Rating]:
    """The ratings from scratch, by player id."""
    return {int(player): r for player, r in rate(club_pulkas(club_id)).items()}


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
