"""What games tells the layers above it, without importing them (docs/design.md layers).

``sheet_settled`` is sent, once the transaction commits, whenever a pulka's settled
figures may have changed: it finished, a finished pulka was corrected or changed, it
was reopened by an undo, abandoned or imported. Receivers (the statistics) re-read
the pulka; the signal carries only its id.
"""

from __future__ import annotations

from django.db import transaction
from django.dispatch import Signal

sheet_settled = Signal()
# Sent, once the transaction commits, after any change to a tournament table's sheet
# (a deal recorded, changed or undone): the tournament's clock may close it then
# (docs/tournaments.md §4.9, "after the deal in play").
table_changed = Signal()


def settled(pulka_id: int) -> None:
    """Send ``sheet_settled`` for the pulka after the current transaction commits."""
    transaction.on_commit(lambda: sheet_settled.send(sender=None, pulka_id=pulka_id))


def table_change(pulka_id: int) -> None:
    """Send ``table_changed`` for the tournament table after the current transaction commits."""
    transaction.on_commit(lambda: table_changed.send(sender=None, pulka_id=pulka_id))
