"""Who sits where: a pulka's seats with their players' accounts, read once."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .models import Pulka, PulkaSeat


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
