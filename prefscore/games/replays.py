"""An action the table's outbox sends is carried out once, however often it is sent
(docs/design.md, "Never lose a deal").

Each entry of the outbox carries a client id (``static/js/outbox.js``). A deal keeps it
on its row (``Deal.client_id``); every other action of the table (an undo or a change
under the pencil, a correction, a forgotten deal proposed or answered, abandoning and
its answers, a manual entry) is remembered by a :class:`~prefscore.games.models.SentEntry`
of the pulka, the account that sent it and its id. ``views/sheet.py``'s
``once_per_entry`` runs each such view through :func:`claim` and :func:`settle`:

- **A claim first.** The entry's row is written before the action runs, unique per
  (pulka, account, id): of several copies sent at once, one runs the action and the
  others wait for its outcome (a phone that sent the entry again while the first answer
  was on its way). Another account's id is no claim of this one's.
- **Kept only if carried out.** An action is carried out when it writes its audit line
  (``services.audit``): that marks the row, in the action's own transaction, so the mark
  and the action are both written or neither is. A form refused or shown again with its
  mistakes writes no audit line, and its claim is deleted: nothing is kept of it.
- **A replay** of an entry carried out is answered as its success, never judged again.
- **Bounded.** A row older than a day is forgotten (the outbox tries every 30 s at most:
  an entry still unsent after a day is judged again, and a deal, which its own row
  remembers, is never recorded twice), and an account keeps its newest
  ``KEPT_PER_ACCOUNT`` rows: each new claim prunes its account's.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from datetime import timedelta
from typing import Literal
from uuid import UUID

from django.db import IntegrityError, transaction
from django.utils import timezone

from . import services
from .models import SentEntry

KEPT_FOR = timedelta(days=1)
KEPT_PER_ACCOUNT = 500
# A claim this old was left by a process that stopped mid-action: it is taken over.
STALE = timedelta(minutes=1)
# How long a copy waits for the copy that runs the action, and how often it looks.
WAIT_SECONDS = 10.0
LOOK_SECONDS = 0.05
# Then the copy is told to come back (503): by then the other copy has long finished.
RETRY_AFTER_SECONDS = 5

REPLAY: Literal["replay"] = "replay"
BUSY: Literal["busy"] = "busy"


@dataclass(frozen=True)
class Claim:
    """The right to carry out one entry: its row, and the pulka it is of."""

    pk: int
    pulka_id: int


def claim(pulka_id: int, user_id: int, client_id: UUID) -> Claim | Literal["replay", "busy"]:
    """The claim to carry out this entry; ``REPLAY`` if it was carried out before; ``BUSY``
    if another copy is still running it after ``WAIT_SECONDS``."""
    deadline = time.monotonic() + WAIT_SECONDS
    entry = SentEntry.objects.filter(pulka_id=pulka_id, user_id=user_id, client_id=client_id)
    while True:
        try:
            with transaction.atomic():
                row = SentEntry.objects.create(
                    pulka_id=pulka_id, user_id=user_id, client_id=client_id, carried_out=False
                )
        except IntegrityError:
            found = entry.values_list("pk", "carried_out", "at").first()
            if found is None:
                continue  # the other copy was not carried out, and let go: claim again
            pk, carried_out, at = found
            if carried_out:
                return REPLAY
            if at < timezone.now() - STALE:
                SentEntry.objects.filter(pk=pk, carried_out=False).delete()
                continue
            if time.monotonic() > deadline:
                return BUSY
            time.sleep(LOOK_SECONDS)
            continue
        prune(user_id)
        return Claim(row.pk, pulka_id)


def prune(user_id: int) -> None:
    """Forget the account's rows older than ``KEPT_FOR`` and beyond its newest
    ``KEPT_PER_ACCOUNT`` (and anyone's older than ``KEPT_FOR``, from before rows named
    their account)."""
    old = timezone.now() - KEPT_FOR
    SentEntry.objects.filter(at__lt=old, user_id=user_id).delete()
    SentEntry.objects.filter(at__lt=old, user__isnull=True).delete()
    newest = SentEntry.objects.filter(user_id=user_id).order_by("-at", "-pk")
    beyond = list(newest.values_list("pk", flat=True)[KEPT_PER_ACCOUNT : KEPT_PER_ACCOUNT + 100])
    if beyond:
        SentEntry.objects.filter(pk__in=beyond, carried_out=True).delete()


class carrying:
    """While the claimed action runs: its audit line marks the claim
    (``services.entry_carried_out``)."""

    def __init__(self, held: Claim) -> None:
        self.held = held

    def __enter__(self) -> Claim:
        self.token = services.carrying.set((self.held.pk, self.held.pulka_id))
        return self.held

    def __exit__(self, *exc: object) -> None:
        services.carrying.reset(self.token)


def settle(held: Claim) -> bool:
    """After the action: whether it was carried out (its claim is kept); if not, the
    claim is let go, and nothing of the entry is kept."""
    if SentEntry.objects.filter(pk=held.pk, carried_out=True).exists():
        return True
    SentEntry.objects.filter(pk=held.pk, carried_out=False).delete()
    return False
