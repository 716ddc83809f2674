"""The pencil rule (Кодекс 4.2.8).

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
from django.utils.translation import gettext as _

from .models import Deal, Pulka


def result_locked(pulka: Pulka) -> bool:
    """A tournament table's result is locked once the table is over (docs/tournaments.md
    §4.9): its players no longer correct or undo, only the arbiter changes it (4.2.16)."""
    return pulka.tournament_id is not None and pulka.is_frozen


def locked_message() -> str:
    return _("This tournament table is closed: its result is locked, only an arbiter changes it.")


def pencil_until(pulka: Pulka, deal: Deal) -> datetime:
    """When the pencil window of Кодекс 4.2.8 closes on the last deal."""
    return deal.entered_at + timedelta(minutes=pulka.club.pencil_minutes)


def pencil_holder(pulka: Pulka, deals: Sequence[Deal]) -> Deal | None:
    """The last deal while its recorder still holds the pencil on it, else None.

    ``deals`` are the standing deals in order. An archived pulka has no pencil, nor
    has a deal without a recorder, nor a closed tournament table: its result is locked
    (docs/tournaments.md §4.9), the arbiter's alone.
    """
    if pulka.status == Pulka.Status.ARCHIVED or not deals or result_locked(pulka):
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


def undone_facts(pulka: Pulka, user: Any, number: int | None, standing: int) -> dict[str, Any]:
    """The facts of deal ``number`` if ``user`` himself undid it under the pencil and it
    is still the next deal to record (``standing`` deals stand), else nothing.

    Without JavaScript the undo redirects to the sheet with ``?undone=N`` (the page has
    no other way to carry the form): the sheet reads the withdrawn row back, for its own
    undoer only, so the number in a shared or replayed link shows nobody else's deal.
    """
    if number is None or number != standing + 1 or not user.is_authenticated:
        return {}
    # The latest withdrawal of that number, and it must be his: a later undo by another
    # recorder of the same number shows nothing of the first.
    row = (
        pulka.deals.filter(number=number, withdrawn_at__isnull=False)
        .order_by("-withdrawn_at")
        .values_list("facts", "withdrawn_by")
        .first()
    )
    if row is None or row[1] != user.pk:
        return {}
    return dict(row[0])
