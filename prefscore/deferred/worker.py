"""The worker: runs the queued tasks, retries those that fail, recovers those whose
worker died (docs/tasks.md §3).

The library's database worker claims a row (RUNNING, the worker's id appended to
``worker_ids``) and runs it. What it lacks, this module adds over the same rows:

- **Beats.** A running worker writes its beat (:class:`WorkerBeat`) every quarter of
  ``TASK_WORKER_LEASE_SECONDS``. A RUNNING task whose worker has not beaten for that long
  was lost with it (SIGKILL, a machine gone): :func:`recover_lost` makes it READY again,
  and the next worker runs it. So a task may run again after a crash; each task is
  written to be idempotent (docs/tasks.md §4), and none is lost.
- **Retries with backoff.** A task that raises is queued again after
  ``TASK_RETRY_SECONDS``, doubled at each try, its error kept on the row; after
  ``TASK_ATTEMPTS`` tries it is FAILED with its error, which the admin lists.
- **Hooks at start** (:func:`on_start`): a schedule's first task is queued there (the
  daily backup, prefscore/clubs/backups.py), by the apps that own them.

The tests run tasks where a test says so with :func:`run_due`: the same claim, run and
retry, in the test's process; never inside the request that queued them.
"""

from __future__ import annotations

import logging
import os
import socket
import threading
import time
from collections.abc import Callable
from datetime import timedelta
from traceback import format_exception
from typing import Any

from django.conf import settings
from django.core.exceptions import SuspiciousOperation
from django.db import close_old_connections, connection
from django.db.utils import OperationalError
from django.utils import timezone
from django.utils.crypto import get_random_string
from django_tasks import DEFAULT_TASK_BACKEND_ALIAS, TaskContext, TaskResultStatus
from django_tasks.signals import task_finished, task_started
from django_tasks_db.management.commands.db_worker import Worker
from django_tasks_db.models import DBTaskResult
from django_tasks_db.utils import exclusive_transaction, is_locked_database_exception

from .models import WorkerBeat

log = logging.getLogger(__name__)

Row = DBTaskResult[..., Any]

Hook = Callable[[], None]
# Run when a worker starts, registered by the apps that own them (``on_start``): this
# module imports none of them.
ON_START: list[Hook] = []


def on_start(hook: Hook) -> Hook:
    """Registers ``hook`` to run each time a worker starts (before its first task)."""
    ON_START.append(hook)
    return hook


class WorkerLost(Exception):
    """The worker running a task stopped during it (killed, or its machine gone)."""


def new_worker_id() -> str:
    """Unique across the pool: the machine, the process and a random part (64 at most)."""
    return f"{socket.gethostname()[:40]}-{os.getpid()}-{get_random_string(8)}"


def lease() -> timedelta:
    return timedelta(seconds=settings.TASK_WORKER_LEASE_SECONDS)


def retry_delay(tries: int) -> timedelta:
    """How long a task waits after its ``tries``-th failed try: doubled at each."""
    return timedelta(seconds=settings.TASK_RETRY_SECONDS * 2 ** max(tries - 1, 0))


def beat(worker_id: str) -> None:
    """This worker is alive now."""
    now = timezone.now()
    if not WorkerBeat.objects.filter(pk=worker_id).update(beat_at=now):
        WorkerBeat.objects.create(worker_id=worker_id, started_at=now, beat_at=now)


def _requeue(row: Row, error: BaseException, delay: timedelta) -> None:
    """Back to READY, to run again after ``delay``; the error kept for the admin."""
    row.status = TaskResultStatus.READY
    row.run_after = timezone.now() + delay
    row.exception_class_path = f"{type(error).__module__}.{type(error).__qualname__}"
    row.traceback = "".join(format_exception(error))
    row.save(update_fields=["status", "run_after", "exception_class_path", "traceback"])


def recover_lost(backend: str = DEFAULT_TASK_BACKEND_ALIAS) -> int:
    """Tasks RUNNING on a worker not heard of for a lease: READY again (after a backoff),
    or FAILED after their last try. How many were found."""
    now = timezone.now()
    alive = set(
        WorkerBeat.objects.filter(beat_at__gt=now - lease()).values_list("worker_id", flat=True)
    )
    running = DBTaskResult.objects.running().filter(backend_name=backend)
    found = 0
    with exclusive_transaction(running.db):
        for row in running.select_for_update(skip_locked=True):
            worker = row.worker_ids[-1] if row.worker_ids else "?"
            if worker in alive:
                continue
            found += 1
            tries = len(row.worker_ids)
            error = WorkerLost(f"the worker {worker} stopped during try {tries}")
            log.warning("task %s (%s): %s", row.id, row.task_path, error)
            if tries >= settings.TASK_ATTEMPTS:
                row.set_failed(error)
            else:
                _requeue(row, error, retry_delay(tries))
    # A worker gone a day ago is forgotten.
    WorkerBeat.objects.filter(beat_at__lt=now - timedelta(days=1)).delete()
    return found


def claim_next(worker_id: str, backend: str = DEFAULT_TASK_BACKEND_ALIAS) -> Row | None:
    """The next task due, claimed for ``worker_id`` (RUNNING) so that no other worker
    takes it; None when nothing is due. The library's worker claims the same way."""
    ready = DBTaskResult.objects.ready().filter(backend_name=backend)
    with exclusive_transaction(ready.db):
        row = ready.get_locked()
        if row is not None:
            row.claim(worker_id)
    return row


def prune_results() -> int:
    """Successful tasks are kept ``TASK_RESULTS_KEPT_DAYS``; failed ones until deleted."""
    kept = timezone.now() - timedelta(days=settings.TASK_RESULTS_KEPT_DAYS)
    deleted, _ = DBTaskResult.objects.successful().filter(finished_at__lt=kept).delete()
    return deleted


class TaskWorker(Worker):
    """The library's database worker, with beats, recovery and retries (module doc)."""

    def __init__(
        self,
        *,
        interval: float = 1.0,
        worker_id: str | None = None,
        backend_name: str = DEFAULT_TASK_BACKEND_ALIAS,
    ) -> None:
        super().__init__(
            queue_names=["*"],
            interval=interval,
            batch=False,
            backend_name=backend_name,
            startup_delay=False,
            max_tasks=None,
            worker_id=worker_id or new_worker_id(),
            excluded_queue_names=[],
        )
        self.stopped = threading.Event()

    def run(self) -> None:
        log.info("worker %s started", self.worker_id)
        beat(self.worker_id)
        beating = threading.Thread(target=self._beat, name="prefscore-worker-beat", daemon=True)
        beating.start()
        for hook in ON_START:
            try:
                hook()
            except Exception:
                log.exception("a worker's start hook failed")
        checked = 0.0
        try:
            while self.running:
                close_old_connections()
                row = None
                try:
                    if time.monotonic() - checked > lease().total_seconds() / 4:
                        recover_lost(self.backend_name)
                        prune_results()
                        checked = time.monotonic()
                    row = claim_next(self.worker_id, self.backend_name)
                except OperationalError as error:  # SQLite busy: try again soon
                    if not is_locked_database_exception(error):
                        raise
                if row is not None:
                    self.run_task(row)
                    continue
                close_old_connections()
                if self.running:
                    time.sleep(self.interval)
        finally:
            self.stopped.set()
            # A beat under way when it stops would write the row again after the delete.
            beating.join(timeout=lease().total_seconds())
            WorkerBeat.objects.filter(pk=self.worker_id).delete()
            log.info("worker %s stopped", self.worker_id)

    def _beat(self) -> None:
        try:
            while not self.stopped.wait(lease().total_seconds() / 4):
                try:
                    beat(self.worker_id)
                except Exception:  # the database away a moment: the next beat
                    log.exception("worker %s could not beat", self.worker_id)
        finally:
            connection.close()

    def run_task(self, db_task_result: Row) -> None:
        """Run the claimed task: SUCCESSFUL, queued again after a failure, or FAILED
        after its last try. A worker stopped during it queues it again at once."""
        row = db_task_result
        self.running_task = True
        try:
            try:
                task = row.task
                result = row.task_result
            except (ImportError, SuspiciousOperation) as error:  # no such task: no retry
                log.error("task %s: %s", row.id, error)
                row.set_failed(error)
                return
            sender = type(task.get_backend())
            task_started.send(sender=sender, task_result=result)
            try:
                if task.takes_context:
                    context = TaskContext(task_result=result)  # type: ignore[arg-type]
                    value = task.call(context, *result.args, **result.kwargs)
                else:
                    value = task.call(*result.args, **result.kwargs)
                row.set_successful(value)
            except (KeyboardInterrupt, SystemExit) as stopped:
                _requeue(row, stopped, timedelta(0))
                raise
            except Exception as error:
                tries = len(row.worker_ids)
                if tries < settings.TASK_ATTEMPTS:
                    delay = retry_delay(tries)
                    log.warning(
                        "task %s failed (try %s), again in %s: %s", row.id, tries, delay, error
                    )
                    _requeue(row, error, delay)
                    return
                log.error("task %s failed its last try (%s): %s", row.id, tries, error)
                row.set_failed(error)
                # Inside the handler: the library's log of a failed task prints its error.
                task_finished.send(sender=sender, task_result=row.task_result)
                return
            task_finished.send(sender=sender, task_result=row.task_result)
        finally:
            self.running_task = False
            self._run_tasks += 1


def run_due(limit: int | None = None) -> int:
    """Run the tasks due now in this process, those they queue included, until none is
    left (or ``limit`` have run); how many ran. Lost tasks are recovered first."""
    worker = TaskWorker(worker_id=f"in-process-{get_random_string(12)}")
    beat(worker.worker_id)
    try:
        recover_lost()
        while limit is None or worker._run_tasks < limit:
            row = claim_next(worker.worker_id)
            if row is None:
                break
            worker.run_task(row)
    finally:
        WorkerBeat.objects.filter(pk=worker.worker_id).delete()
    return worker._run_tasks
