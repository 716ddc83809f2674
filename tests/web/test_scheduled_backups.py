"""Backups on a schedule (prefscore/clubs/backups.py): a whole copy a day, the newest kept.

The task worker runs ``backup_and_prune`` from a chain of tasks (``scheduled_backup``
queues the next), which prunes by the backup command's own rule (``--keep N``, test_backup.py); restoring one is tests/test_startup.py's and
test_restore.py's.
"""

from __future__ import annotations

import os
import sqlite3
import time
from datetime import timedelta
from pathlib import Path

import pytest
from django.db import connection
from django.utils import timezone
from django_tasks import TaskResultStatus
from django_tasks_db.models import DBTaskResult

from prefscore.clubs import backups
from prefscore.deferred.worker import run_due

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(connection.vendor != "sqlite", reason="pg_dump is test_backup.py's"),
]


@pytest.fixture
def folder(settings, tmp_path) -> Path:
    settings.BACKUP_DIR = tmp_path / "backups"
    settings.BACKUP_DIR.mkdir()
    return settings.BACKUP_DIR


def older(folder: Path, *stamps: str) -> list[Path]:
    made = []
    for stamp in stamps:
        path = folder / f"prefscore-{stamp}.sqlite3"
        path.write_bytes(b"an older backup")
        made.append(path)
    return made


def test_a_backup_is_taken_and_only_the_newest_are_kept(folder, django_user_model):
    django_user_model.objects.create_user("vera")
    old = older(folder, "20261201-030000", "20261202-030000", "20261203-030000")
    before_upgrade = folder / "prefscore-before-upgrade-20261130-120000.sqlite3"
    before_upgrade.write_bytes(b"kept whatever the rotation")

    made, removed = backups.backup_and_prune(keep=2)

    assert removed == old[:2]
    assert sorted(folder.iterdir()) == sorted([before_upgrade, old[2], made])
    with sqlite3.connect(made) as copy:  # a whole database, with what was written
        assert copy.execute("SELECT username FROM auth_user").fetchall() == [("vera",)]
    copy.close()


def test_the_next_backup_is_due_a_day_after_the_newest(folder):
    every = timedelta(hours=24)
    assert backups.seconds_until_due(folder, every) == 0  # none yet: at once

    (fresh,) = older(folder, "20261207-030000")
    assert backups.seconds_until_due(folder, every) == pytest.approx(86400, abs=5)

    hours_ago = time.time() - 25 * 3600
    os.utime(fresh, (hours_ago, hours_ago))
    assert backups.seconds_until_due(folder, every) == 0


def chain() -> list[DBTaskResult]:
    return list(
        DBTaskResult.objects.filter(task_path=backups.scheduled_backup.module_path).order_by(
            "enqueued_at"
        )
    )


def test_the_worker_takes_the_backup_when_due_and_queues_the_next(folder, settings):
    settings.BACKUP_EVERY_HOURS, settings.BACKUP_KEEP = 24, 3
    backups.schedule()

    run_due()

    (made,) = backups.scheduled_backups(folder)
    first, following = chain()
    assert first.status == TaskResultStatus.SUCCESSFUL and first.return_value == str(made)
    assert following.status == TaskResultStatus.READY
    wait = following.run_after - timezone.now()
    assert timedelta(hours=23, minutes=59) < wait <= timedelta(hours=24)
    assert run_due() == 0  # not due for a day


def test_a_backup_task_run_twice_takes_one_backup(folder, settings):
    """Its worker killed after the backup, before the task was marked done: run again,
    it finds the backup taken, and the next one queued already."""
    settings.BACKUP_EVERY_HOURS = 24
    backups.schedule()
    run_due()
    first, following = chain()
    DBTaskResult.objects.filter(id=first.id).update(status=TaskResultStatus.READY)

    assert run_due() == 1

    assert len(backups.scheduled_backups(folder)) == 1
    assert [t.id for t in chain() if t.status == TaskResultStatus.READY] == [following.id]


def test_a_due_task_after_a_backup_taken_otherwise_only_queues_the_next(folder, settings):
    settings.BACKUP_EVERY_HOURS = 24
    (fresh,) = older(folder, "20261207-030000")  # taken an hour ago, by the timer say
    hour_ago = time.time() - 3600
    os.utime(fresh, (hour_ago, hour_ago))
    backups.scheduled_backup.enqueue()

    run_due()

    assert backups.scheduled_backups(folder) == [fresh]
    following = chain()[-1]
    assert (
        timedelta(hours=22, minutes=59)
        < following.run_after - timezone.now()
        <= timedelta(hours=23)
    )
