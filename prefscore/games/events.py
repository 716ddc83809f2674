"""What games tells the layers above it, without importing them (docs/design.md layers).

``sheet_settled`` is sent, once the transaction commits, whenever a pulka's settled
figures may have changed: it finished, a finished pulka was corrected or changed, it
was reopened by an undo, abandoned or imported. Receivers (the statistics) re-read
the pulka; the signal carries only its id.

``sheets_settled`` says the same of many pulkas at once (``pulka_ids``): a tournament
import sends it once rather than ``sheet_settled`` per table.

``sheet_changed`` is sent, once the transaction commits, after every change of a
pulka's figures, running or finished: a deal recorded, changed or undone, a correction,
a manual line, an import. It carries the pulka's id and its ``tournament_id`` (None for
a club game), so that a receiver that keeps only tournament tables (the tournament's
stored table results) skips every other pulka without a query.
"""

from __future__ import annotations

from django.db import transaction
from django.dispatch import Signal

sheet_settled = Signal()
sheet_changed = Signal()
# ``sheet_settled`` for many pulkas at once (a tournament import): ``pulka_ids``.
sheets_settled = Signal()
# Sent, once the transaction commits, after any change to a tournament table's sheet
# (a deal recorded, changed or undone): the tournament's clock may close it then
# (docs/tournaments.md §4.9, "after the deal in play").
table_changed = Signal()


def settled(pulka_id: int) -> None:
    """Send ``sheet_settled`` for the pulka after the current transaction commits."""
    transaction.on_commit(lambda: sheet_settled.send(sender=None, pulka_id=pulka_id))


def changed(pulka_id: int, tournament_id: int | None) -> None:
    """Send ``sheet_changed`` for the pulka after the current transaction commits."""
    transaction.on_commit(
        lambda: sheet_changed.send(sender=None, pulka_id=pulka_id, tournament_id=tournament_id)
    )


def settled_many(pulka_ids: list[int]) -> None:
    """Send ``sheets_settled`` for these pulkas after the current transaction commits.

    One signal for a whole import, so that a receiver reads and writes them in bulk.
    """
    ids = list(pulka_ids)
    if ids:
        transaction.on_commit(lambda: sheets_settled.send(sender=None, pulka_ids=ids))


def table_change(pulka_id: int) -> None:
    """Send ``table_changed`` for the tournament table after the current transaction commits."""
    transaction.on_commit(lambda: table_changed.send(sender=None, pulka_id=pulka_id))
