"""The workers alive: each running worker writes its beat here every few seconds.

A task claimed by a worker that has not beaten for ``TASK_WORKER_LEASE_SECONDS`` was lost
with its worker (killed, its machine gone): another worker runs it again
(prefscore/deferred/worker.py, docs/tasks.md §3).
"""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _
from django_tasks_db.models import DBTaskResult


class WorkerBeat(models.Model):
    worker_id = models.CharField(_("worker"), max_length=64, primary_key=True)
    started_at = models.DateTimeField(_("started at"))
    beat_at = models.DateTimeField(_("last heard at"), db_index=True)

    class Meta:
        verbose_name = _("worker")
        verbose_name_plural = _("workers")

    def __str__(self) -> str:
        return self.worker_id


class TaskRecord(DBTaskResult):  # type: ignore[type-arg]
    """The library's task rows, as the admin lists them (prefscore/deferred/admin.py):
    named in both languages, where the library names them in English only."""

    class Meta:
        proxy = True
        verbose_name = _("task")
        verbose_name_plural = _("tasks")
