"""The backups' schedule as tasks (prefscore/clubs/backups.py), on either database: one
chain of tasks, however many workers start (on PostgreSQL under an advisory lock).
Taking the backups themselves is test_scheduled_backups.py's."""

from __future__ import annotations

import pytest
from django.utils import timezone
from django_tasks_db.models import DBTaskResult

from prefscore.clubs import backups
from prefscore.deferred.worker import ON_START

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def folder(settings, tmp_path):
    settings.BACKUP_DIR = tmp_path / "backups"
    return settings.BACKUP_DIR


def chain() -> list[DBTaskResult]:
    return list(DBTaskResult.objects.filter(task_path=backups.scheduled_backup.module_path))


def test_a_worker_starting_queues_the_schedule_once(folder, settings):
    settings.BACKUP_EVERY_HOURS = 24
    assert backups.schedule_when_a_worker_starts in ON_START

    assert backups.schedule() is True  # none yet: one, due now
    assert backups.schedule() is False  # another worker starting: still one
    (first,) = chain()
    assert first.run_after <= timezone.now()


def test_no_schedule_when_backups_are_off(folder, settings):
    settings.BACKUP_EVERY_HOURS = 0
    assert backups.schedule() is False
    assert chain() == []
