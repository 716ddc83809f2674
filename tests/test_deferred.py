"""Deferred work on the task library (prefscore/deferred, docs/tasks.md): a task queued
is a row of our own database, run later by a worker, never by the request."""

from __future__ import annotations

import pytest
from django.conf import settings
from django_tasks import TaskResultStatus, task
from django_tasks_db.models import DBTaskResult

from prefscore.deferred.worker import run_due

pytestmark = pytest.mark.django_db

DONE: list[int] = []


@task()
def double(number: int) -> int:
    DONE.append(number)
    return number * 2


@task()
def double_and_queue(number: int) -> int:
    double.enqueue(number)
    return number * 2


def test_the_tasks_are_queued_in_the_database():
    assert settings.TASKS["default"]["BACKEND"] == "django_tasks_db.DatabaseBackend"
    DONE.clear()

    result = double.enqueue(21)

    assert DONE == []  # queued, not run
    row = DBTaskResult.objects.get(id=result.id)
    assert row.status == TaskResultStatus.READY
    assert row.args_kwargs == {"args": [21], "kwargs": {}}


def test_run_due_runs_what_is_queued_and_what_that_queues():
    DONE.clear()
    first = double_and_queue.enqueue(5)

    assert run_due() == 2

    assert DONE == [5]
    assert DBTaskResult.objects.get(id=first.id).return_value == 10
    assert set(DBTaskResult.objects.values_list("status", flat=True)) == {
        TaskResultStatus.SUCCESSFUL
    }
    assert run_due() == 0
