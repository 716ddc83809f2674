"""The recount after a settled sheet, out of the request that settled it (docs/tasks.md).

Finishing a pulka used to recount, inside the finishing request, its summary rows, the
club rating from all the club's rows and the seasons whose period holds it: half a
second for a club of 2,000 pulkas (docs/benchmarks.md, "The settle, deferred"). Now:

- the settle (``games.events.sheet_settling``, inside its transaction) writes a
  ``PendingRecount`` row and queues the club's recount task, both committed or rolled
  back with the sheet;
- the task (:func:`recount_club`) recounts from the sheets: each waiting pulka's summary
  rows again from its deals (``summaries.summarise``), the club rating from all the
  club's rows (``ratings.recompute_club``), then tells the layers above which pulkas
  changed (``club_recounted``: the seasons count their tables again), and last deletes
  the rows it handled. Running it twice, or after another run handled its rows, counts
  the same figures again: it is idempotent, so a task retried after its worker died
  does no harm;
- while a club has rows waiting, its pages that show those figures say "updating…"
  (:func:`updating`) and ask again until the recount lands.

On PostgreSQL, with several workers, the recounts of one club run one after the other
(the club's row is locked for the length of one): two would otherwise interleave and the
older could write its rating last. On SQLite the server runs one worker, and a long
transaction would hold the database's one writer's lock from the players' deals.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from django.db import connection, transaction
from django.dispatch import Signal
from django_tasks import TaskResultStatus, task
from django_tasks_db.models import DBTaskResult

from prefscore.clubs.models import Club
from prefscore.games.models import Pulka

from .models import PendingRecount
from .ratings import recompute_club
from .summaries import summarise

log = logging.getLogger(__name__)

# Sent by the recount task once the club's summary rows and rating are counted again,
# before its waiting rows are deleted: ``club_id`` and the ``pulka_ids`` recounted (a
# None among them: the whole club, a player merged into another).
club_recounted = Signal()


def on_sheet_settling(sender: Any, pulka_id: int, **kwargs: Any) -> None:
    """A sheet settles: its recount waits in the same transaction (one query each)."""
    club_id = Pulka.objects.filter(pk=pulka_id).values_list("club_id", flat=True).first()
    if club_id is not None:
        ask(club_id, pulka_id)


def on_player_deleted(sender: Any, instance: Any, **kwargs: Any) -> None:
    """Merging two players deletes one: his pulkas are the kept one's, so rate again.
    Asked once it commits, and only if the club is still there (a club deleted takes
    its players with it)."""
    club_id = instance.club_id

    def again() -> None:
        if Club.objects.filter(pk=club_id).exists():
            ask(club_id)

    transaction.on_commit(again)


def ask(club_id: int, pulka_id: int | None = None) -> None:
    """Record the recount and queue the club's task, both in the current transaction
    (the queue is a table of our database, docs/tasks.md): committed with the settle,
    or neither."""
    PendingRecount.objects.create(club_id=club_id, pulka_id=pulka_id)
    recount_club.enqueue(club_id)


def updating(club_id: int) -> bool:
    """Whether a recount of the club's figures is still to land (one query)."""
    return PendingRecount.objects.filter(club_id=club_id).exists()


UPDATING = "updating"
FAILED = "failed"


def state(club_id: int) -> str:
    """ "" when the club's figures are counted; UPDATING while a recount is to land;
    FAILED when rows wait and no task of the club's is left to run (its last try
    failed, or the owner deleted it): the pages say so instead of "updating…" for
    ever, until a later settle queues the recount again. One query, two while rows wait.
    """
    if not updating(club_id):
        return ""
    return UPDATING if live(recount_club, club_id) else FAILED


def words(state: str) -> dict[str, bool]:
    """A page's flags for ``_updating.html``: "updating…" (and ask again), or failed."""
    return {"updating": state == UPDATING, "count_failed": state == FAILED}


def live(queued: Any, key: int) -> bool:
    """Whether a task of ``queued`` for ``key`` (its first argument) is waiting, waiting
    for another try, or running (docs/tasks.md §3): one query on the task rows."""
    return (
        DBTaskResult.objects.filter(task_path=queued.module_path, args_kwargs__args__0=key)
        .filter(status__in=[TaskResultStatus.READY, TaskResultStatus.RUNNING])
        .exists()
    )


@task()
def recount_club(club_id: int) -> int:
    """Recount the club's waiting pulkas, its rating and its seasons; the rows handled."""
    with one_at_a_time(club_id):
        waiting = list(PendingRecount.objects.filter(club_id=club_id).order_by("pk"))
        if not waiting:
            return 0
        first: dict[int | None, PendingRecount] = {}
        for row in waiting:
            first.setdefault(row.pulka_id, row)
        for pulka_id, row in first.items():
            if pulka_id is not None:
                summarise(pulka_id, at=row.settled_at)
        recompute_club(club_id)
        club_recounted.send(sender=None, club_id=club_id, pulka_ids=list(first))
        PendingRecount.objects.filter(pk__in=[row.pk for row in waiting]).delete()
    log.info("club %s recounted: %s settled sheets", club_id, len(waiting))
    return len(waiting)


@contextmanager
def one_at_a_time(club_id: int) -> Iterator[None]:
    """PostgreSQL: hold the club's row for the recount (the seasons' counts hold it
    too, ``seasons.counts``). Elsewhere: nothing (one worker)."""
    if connection.vendor != "postgresql":
        yield
        return
    with transaction.atomic():
        list(Club.objects.select_for_update().filter(pk=club_id).values_list("pk", flat=True))
        yield
