"""The pencil rule (Кодекс 4.2.8): who may still change the last deal, and until when.

Whoever recorded the last deal holds the pencil until the next deal is recorded or the
club's pencil window passes. Until he puts it down the error does not exist yet: he
changes or undoes the deal freely, and nobody corrects it. Every screen and service
that asks about the pencil asks here, so the window is decided in one place.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import Any

from django.utils import timezone

from .models import Deal, Pulka


def pencil_until(pulka: Pulka, deal: Deal) -> datetime:
    """When the pencil window of Кодекс 4.2.8 closes on the last deal."""
    return deal.entered_at + timedelta(minutes=pulka.club.pencil_minutes)


def pencil_holder(pulka: Pulka, deals: Sequence[Deal]) -> Deal | None:
    """The last deal while its recorder still holds the pencil on it, else None.

    ``deals`` are the standing deals in order. An archived pulka has no pencil, nor
    has a deal without a recorder, nor a closed tournament table: its result is locked
    (docs/tournaments.md §4.9), the arbiter's alone.
    """
    if pulka.status == Pulka.Status.ARCHIVED or not deals:
        return None
    if pulka.tournament_id is not None and pulka.is_frozen:
        return None
    last = deals[-1]
    if last.entered_by_id is None or timezone.now() > pencil_until(pulka, last):
        return None
    return last


def pencil_deal(pulka: Pulka, user: Any, deals: Sequence[Deal]) -> Deal | None:
    """The last deal if ``user`` holds its pencil: he may still change or undo it."""
    held = pencil_holder(pulka, deals)
    if held is None or not user.is_authenticated or held.entered_by_id != user.pk:
        return None
    return held
