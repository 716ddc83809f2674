"""Deferred work on the task library (prefscore/deferred, docs/tasks.md): a task queued
is a row of our own database, run later by a worker, never by the request."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.conf import settings
from django.contrib import admin
from django.urls import reverse
from django.utils import timezone
from django_tasks import TaskResultStatus, task
from django_tasks_db.models import DBTaskResult

from prefscore.deferred.models import WorkerBeat
from prefscore.deferred.worker import claim_next, recover_lost, run_due

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


@task()
def fail_twice(key: str) -> str:
    DONE.append(len(DONE))
    if len(DONE) <= 2:
        raise RuntimeError(f"not yet: {key}")
    return key


@task()
def always_fail() -> None:
    raise ValueError("the SMTP server said no")


def _make_due(result_id: str) -> None:
    DBTaskResult.objects.filter(id=result_id).update(run_after=timezone.now())


def test_a_failed_task_runs_again_after_a_doubling_wait(settings):
    settings.TASK_RETRY_SECONDS = 30
    DONE.clear()
    result = fail_twice.enqueue("k")

    assert run_due() == 1
    row = DBTaskResult.objects.get(id=result.id)
    assert row.status == TaskResultStatus.READY  # to run again, not yet
    assert "RuntimeError: not yet: k" in row.traceback
    first_wait = row.run_after - timezone.now()
    assert timedelta(seconds=25) < first_wait <= timedelta(seconds=30)
    assert run_due() == 0  # not due yet

    _make_due(result.id)
    assert run_due() == 1
    row.refresh_from_db()
    assert timedelta(seconds=55) < row.run_after - timezone.now() <= timedelta(seconds=60)

    _make_due(result.id)
    assert run_due() == 1
    row.refresh_from_db()
    assert row.status == TaskResultStatus.SUCCESSFUL
    assert row.return_value == "k" and len(row.worker_ids) == 3


def test_after_its_last_try_a_task_is_failed_with_its_error(settings):
    settings.TASK_ATTEMPTS = 2
    result = always_fail.enqueue()
    run_due()
    _make_due(result.id)
    run_due()

    row = DBTaskResult.objects.get(id=result.id)
    assert row.status == TaskResultStatus.FAILED
    assert row.exception_class_path == "builtins.ValueError"
    assert "the SMTP server said no" in row.traceback


def test_a_task_whose_worker_went_silent_runs_again(settings):
    """A worker killed mid-task leaves its row RUNNING; once its beat is older than the
    lease, the next worker runs the task again (tests/test_deferred_kill.py kills a real
    worker process)."""
    DONE.clear()
    result = double.enqueue(4)
    WorkerBeat.objects.create(
        worker_id="killed-worker", started_at=timezone.now(), beat_at=timezone.now()
    )
    row = claim_next("killed-worker")
    assert row is not None and run_due() == 0  # RUNNING on a live worker: its own
    assert recover_lost() == 0

    WorkerBeat.objects.update(beat_at=timezone.now() - timedelta(seconds=61))
    assert recover_lost() == 1
    _make_due(result.id)
    assert run_due() == 1

    row.refresh_from_db()
    assert row.status == TaskResultStatus.SUCCESSFUL and DONE == [4]
    assert row.worker_ids[0] == "killed-worker" and len(row.worker_ids) == 2


def test_a_task_lost_on_its_last_try_is_failed(settings):
    settings.TASK_ATTEMPTS = 1
    result = double.enqueue(4)
    claim_next("killed-worker")

    assert recover_lost() == 1

    row = DBTaskResult.objects.get(id=result.id)
    assert row.status == TaskResultStatus.FAILED
    assert "the worker killed-worker stopped during try 1" in row.traceback


@pytest.mark.parametrize(
    ("language", "words"),
    [("en", ["Tasks", "Failed", "the SMTP server said no"]), ("ru", ["Задачи", "Не удалась"])],
)
def test_the_owner_sees_failed_tasks_and_their_errors_in_the_admin(
    settings, admin_client, language, words
):
    settings.TASK_ATTEMPTS = 1
    result = always_fail.enqueue()
    run_due()

    listing = admin_client.get(
        reverse("admin:deferred_taskrecord_changelist") + "?state=failed",
        HTTP_ACCEPT_LANGUAGE=language,
    )
    one = admin_client.get(
        reverse("admin:deferred_taskrecord_change", args=[result.id]),
        HTTP_ACCEPT_LANGUAGE=language,
    )

    assert listing.status_code == 200 and one.status_code == 200
    html = listing.content.decode()
    assert all(word in html for word in words), html
    assert "always_fail" in html
    assert "Traceback" in one.content.decode()  # the error in full


def test_nobody_but_staff_sees_the_tasks(client, django_user_model):
    client.force_login(django_user_model.objects.create_user("anna"))
    response = client.get(reverse("admin:deferred_taskrecord_changelist"))
    assert response.status_code == 302  # to the admin's sign-in


@pytest.mark.parametrize(("language", "words"), [("en", "Send a mail"), ("ru", "Отправить письмо")])
def test_a_task_is_named_in_the_admin_in_words(admin_client, language, words):
    from prefscore.clubs.mail_queue import send_queued

    send_queued.enqueue(1)
    listing = admin_client.get(
        reverse("admin:deferred_taskrecord_changelist"), HTTP_ACCEPT_LANGUAGE=language
    )
    assert words in listing.content.decode()


def test_the_owner_tries_a_failed_task_again_with_all_its_tries(settings, admin_client):
    settings.TASK_ATTEMPTS = 1
    result = always_fail.enqueue()
    run_due()

    response = admin_client.post(
        reverse("admin:deferred_taskrecord_changelist"),
        {"action": "try_again", "_selected_action": [str(result.id)]},
        HTTP_ACCEPT_LANGUAGE="ru",
    )

    assert response.status_code == 302
    row = DBTaskResult.objects.get(id=result.id)
    assert row.status == TaskResultStatus.READY and row.worker_ids == []
    assert run_due() == 1  # tried again at once
    row.refresh_from_db()
    assert row.status == TaskResultStatus.FAILED and len(row.worker_ids) == 1


def test_only_the_owner_may_try_tasks_again(django_user_model):
    from django.test import Client

    from prefscore.deferred.admin import TaskRecordAdmin
    from prefscore.deferred.models import TaskRecord

    staff = django_user_model.objects.create_user("clubadmin", is_staff=True)
    client = Client()
    client.force_login(staff)
    request = client.get("/").wsgi_request
    request.user = staff
    assert not TaskRecordAdmin(TaskRecord, admin.site).has_retry_permission(request)
