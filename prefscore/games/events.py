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


def settled(pulka_id: int) -> None:
    """Send ``sheet_settled`` for the pulka after the current transaction commits."""
    transaction.on_commit(lambda: sheet_settled.send(sender=None, pulka_id=pulka_id))
