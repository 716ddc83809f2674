"""Who sits at a pulka, and its latest forgotten deal: the facts the table's rules and
screens read (the words are ``presenters/trail.py``'s).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db.models import Prefetch

from . import render_cache
from .models import Consent, ForgottenDeal, Pulka, PulkaSeat

# --- who sits where -------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Seating:
    """The pulka's seats with their players' accounts: one query, read many times."""

    seats: tuple[PulkaSeat, ...]

    @classmethod
    def of(cls, pulka: Pulka) -> Seating:
        return cls(tuple(PulkaSeat.objects.filter(pulka=pulka).select_related("player")))

    def of_user(self, user: Any) -> list[int]:
        """The seats the user's linked players hold (``corrections.seats_of``, no query)."""
        if not getattr(user, "is_authenticated", False):
            return []
        return [row.seat for row in self.seats if row.player.user_id == user.pk]

    def guests(self) -> list[int]:
        """Seats of players without an account: a seated member answers for them."""
        return [row.seat for row in self.seats if row.player.user_id is None]

    def seat_of_player(self, player_id: int) -> int | None:
        for row in self.seats:
            if row.player_id == player_id:
                return row.seat
        return None

    def user_of(self, name: str) -> int | None:
        for row in self.seats:
            if row.player.name == name:
                return row.player.user_id
        return None


def latest_proposal(pulka: Pulka) -> ForgottenDeal | None:
    """The pulka's latest forgotten deal with its answers: two queries at most."""
    answers = Consent.objects.select_related("player")
    return (
        pulka.forgotten_deals.select_related("proposed_by")
        .defer(*(f"proposed_by__{name}" for name in render_cache.PRIVATE_USER_FIELDS))
        .prefetch_related(Prefetch("consents", queryset=answers))
        .order_by("-created_at", "-pk")
        .first()
    )
