"""Backups on a schedule: take one with the ``backup`` command, keep the newest few.

:func:`backup_and_prune` is the one unit of work. The task worker runs it every
``BACKUP_EVERY_HOURS`` (``make run``'s worker, docs/tasks.md §4): :func:`scheduled_backup`
is a task that queues the next one when it runs, so the schedule is a chain of tasks in
the database, with no clock of its own to keep; each worker that starts queues the first
if none is queued (:func:`schedule`). It is idempotent by time: a backup is taken only
when the newest scheduled one is ``BACKUP_EVERY_HOURS`` old, so a task run twice (its
worker killed) or two chains take one backup. ``manage.py backup --keep N`` from a timer
(deploy/'s) is the same unit of work. Each backup is a whole, consistent copy (SQLite's
online backup, ``pg_dump``); only the scheduled ones, named ``prefscore-<date>-<time>``,
are rotated: a backup taken before an upgrade (``prefscore-before-upgrade-…``) or written
elsewhere is kept.
"""

from __future__ import annotations

import io
import logging
import time
from datetime import timedelta
from pathlib import Path

from django.conf import settings
from django.core.management import call_command
from django.db import connection
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django_tasks import TaskContext, TaskResultStatus, task
from django_tasks_db.models import DBTaskResult
from django_tasks_db.utils import exclusive_transaction

from prefscore.deferred.titles import titled
from prefscore.deferred.worker import on_start

# The backup command's own rule for its dated names and which of them go (--keep).
from .management.commands.backup import DATED, older_than_newest

log = logging.getLogger(__name__)


def scheduled_backups(directory: Path) -> list[Path]:
    """The rotated backups in ``directory``, oldest first (their names sort by time)."""
    if not directory.is_dir():
        return []
    return sorted(p for p in directory.iterdir() if DATED.fullmatch(p.name) and p.is_file())


def prune(directory: Path, keep: int) -> list[Path]:
    """Remove all but the newest ``keep`` dated backups (at least one); the removed."""
    removed = older_than_newest(directory, max(keep, 1))
    for path in removed:
        path.unlink(missing_ok=True)
    return removed


def backup_and_prune(keep: int | None = None) -> tuple[Path, list[Path]]:
    """Take a backup into BACKUP_DIR and keep the newest ``keep`` (BACKUP_KEEP).

    Returns the new backup's path and the ones removed. The backup command's errors
    (a full disk, pg_dump missing) are raised as its ``CommandError``.
    """
    out = io.StringIO()
    call_command("backup", stdout=out)
    made = Path(out.getvalue().strip())
    return made, prune(made.parent, settings.BACKUP_KEEP if keep is None else keep)


def seconds_until_due(directory: Path, every: timedelta) -> float:
    """How long until the next scheduled backup: ``every`` after the newest, or now."""
    found = scheduled_backups(directory)
    if not found:
        return 0.0
    age = time.time() - found[-1].stat().st_mtime
    return max(0.0, every.total_seconds() - age)


def every() -> timedelta:
    return timedelta(hours=settings.BACKUP_EVERY_HOURS)


@task(takes_context=True)
def scheduled_backup(context: TaskContext) -> str:
    """The scheduled backup if it is due, the next one queued first (so that a backup
    that fails, after its retries, does not end the schedule); the backup's path."""
    current = str(context.task_result.id)
    wait = seconds_until_due(Path(settings.BACKUP_DIR), every())
    if wait > 0:  # taken already (this task run again after its worker died, say)
        schedule(after=wait, current=current)
        return ""
    schedule(after=every().total_seconds(), current=current)
    made, removed = backup_and_prune()
    log.info("Backup taken: %s (%s older removed)", made, len(removed))
    return str(made)


def schedule(after: float | None = None, current: str = "") -> bool:
    """Queue the next scheduled backup ``after`` seconds from now (by default when it is
    due), unless one is queued or running already (``current``, the task asking, aside);
    whether one was queued. Nothing with ``BACKUP_EVERY_HOURS`` 0."""
    if settings.BACKUP_EVERY_HOURS <= 0:
        return False
    if after is None:
        after = seconds_until_due(Path(settings.BACKUP_DIR), every())
    pending = DBTaskResult.objects.filter(
        task_path=scheduled_backup.module_path,
        status__in=[TaskResultStatus.READY, TaskResultStatus.RUNNING],
    )
    if current:
        pending = pending.exclude(id=current)
    # One at a time: SQLite's exclusive transaction, PostgreSQL's lock for this purpose.
    with exclusive_transaction(pending.db):
        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute("SELECT pg_advisory_xact_lock(hashtext('prefscore.backups'))")
        if pending.exists():
            return False
        run_after = timezone.now() + timedelta(seconds=after)
        scheduled_backup.using(run_after=run_after).enqueue()
    return True


titled(scheduled_backup, _("Scheduled backup"))


@on_start
def schedule_when_a_worker_starts() -> None:
    schedule()
