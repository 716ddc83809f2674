"""Running the queued tasks: in this process (:func:`run_due`), or as the worker.

The tests run tasks where a test says so with :func:`run_due`, the way the worker runs
them (a row claimed in a transaction of its own, then run, its result recorded), never
inside the request that queued them.
"""

from __future__ import annotations

from typing import Any

from django.utils.crypto import get_random_string
from django_tasks import DEFAULT_TASK_BACKEND_ALIAS
from django_tasks_db.management.commands.db_worker import Worker
from django_tasks_db.models import DBTaskResult
from django_tasks_db.utils import exclusive_transaction


def claim_next(
    worker_id: str, backend: str = DEFAULT_TASK_BACKEND_ALIAS
) -> DBTaskResult[..., Any] | None:
    """The next task due, claimed for ``worker_id`` (RUNNING) so that no other worker
    takes it; None when nothing is due. The library's worker claims the same way."""
    ready = DBTaskResult.objects.ready().filter(backend_name=backend)
    with exclusive_transaction(ready.db):
        row = ready.get_locked()
        if row is not None:
            row.claim(worker_id)
    return row


def run_due(limit: int | None = None) -> int:
    """Run the tasks that are due now, those they queue included, until none is left
    (or ``limit`` have run); how many ran."""
    worker = Worker(
        queue_names=["*"],
        interval=0,
        batch=True,
        backend_name=DEFAULT_TASK_BACKEND_ALIAS,
        startup_delay=False,
        max_tasks=limit,
        worker_id=f"in-process-{get_random_string(12)}",
        excluded_queue_names=[],
    )
    ran = 0
    while limit is None or ran < limit:
        row = claim_next(worker.worker_id)
        if row is None:
            break
        worker.run_task(row)
        ran += 1
    return ran
