"""Backups on a schedule (prefscore/clubs/backups.py): a whole copy a day, the newest kept.

``make run`` calls ``backup_and_prune`` from its thread (prefscore/startup.py), which
prunes by the backup command's own rule (``--keep N``, test_backup.py); restoring one is tests/test_startup.py's and
test_restore.py's.
"""

from __future__ import annotations

import os
import sqlite3
import time
from datetime import timedelta
from io import StringIO
from pathlib import Path

import pytest
from django.db import connection

from prefscore.clubs import backups
from prefscore.startup import BackupSchedule

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


def test_the_schedule_takes_one_when_due_and_stops(folder, settings):
    settings.BACKUP_KEEP = 3
    out = StringIO()
    schedule = BackupSchedule(timedelta(hours=24), out)

    schedule.start()
    deadline = time.monotonic() + 30
    while not backups.scheduled_backups(folder) and time.monotonic() < deadline:
        time.sleep(0.1)
    schedule.stopping.set()
    schedule.join(timeout=10)

    assert len(backups.scheduled_backups(folder)) == 1
    assert "Backup taken" in out.getvalue()
    assert not schedule.is_alive()
