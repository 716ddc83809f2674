"""Large tournament exports, after the request (docs/tournaments.md §6.4, docs/tasks.md).

A tournament of up to ``INLINE_DEALS`` deals is written within the request: about 0.12 s
at 1,000 deals (docs/benchmarks.md, "Deferred work"), under the 200 ms a request may
take. A larger one (1,000 players over 5 rounds is 15,000 deals, 8 MB and 1.5 s of CPU)
becomes an ``ExportJob``: the request queues the task :func:`build` and answers at once
with the job's page, which counts the tables written every second and then offers the
file.

The task only reads the tournament and writes the job's own row, so running it twice
(a worker killed before it recorded the end, then the task run again) writes the same
file again.
"""

from __future__ import annotations

import logging
import time
from typing import Any

from django.db import transaction
from django.utils import translation
from django.utils.translation import gettext as _
from django_tasks import TaskResultStatus, task
from django_tasks.exceptions import TaskResultDoesNotExist

from prefscore.games.models import Deal

from . import exports
from .models import ExportJob, Tournament

INLINE_DEALS = 1_000
# The job's count is written at most this often (each a small write).
COUNT_SECONDS = 0.25
UNDER_WAY = (ExportJob.Status.QUEUED, ExportJob.Status.READING, ExportJob.Status.WRITING)
LARGEST_ID = 2**63 - 1  # a larger id in an address is no job (and no OverflowError)

log = logging.getLogger(__name__)


def needs_job(tournament: Tournament) -> bool:
    """Whether the tournament is too large to write within the request (one query)."""
    return Deal.objects.filter(pulka__tournament=tournament).count() > INLINE_DEALS


def submit(tournament: Tournament, user: Any) -> ExportJob:
    """The organiser's export of the tournament under way, or a new one queued (its
    task committed with it). His finished exports of it give way to the new one."""
    with transaction.atomic():
        mine = ExportJob.objects.filter(tournament=tournament, created_by=user)
        running = mine.filter(status__in=UNDER_WAY).order_by("-pk").first()
        if running is not None and not interrupted(running):
            return running
        mine.delete()
        job = ExportJob.objects.create(
            tournament=tournament, created_by=user, language=translation.get_language() or ""
        )
        job.task_id = str(build.enqueue(job.pk).id)
        job.save(update_fields=["task_id"])
    return job


@task()
def build(job_id: int) -> str:
    """The worker's task: write the job's file (:func:`run`); its state as it ended."""
    run(job_id)
    return str(ExportJob.objects.filter(pk=job_id).values_list("status", flat=True).first())


def run(job_id: int) -> None:
    """Write the tournament's file into the job; its state says how it went."""
    job = ExportJob.objects.select_related("tournament__club").filter(pk=job_id).first()
    if job is None or job.status in (ExportJob.Status.DONE, ExportJob.Status.FAILED):
        return
    with translation.override(job.language or None):
        try:
            _save(job, status=ExportJob.Status.READING, done=0, total=0)
            counter = _Counter(job)
            text = exports.export_text(job.tournament, progress=counter)
            _save(job, status=ExportJob.Status.DONE, text=text, done=job.total)
        except Exception:  # a fault of ours: logged, and the organiser told plainly
            log.exception("tournament export %s failed", job_id)
            message = _(
                "The file could not be written. Try again; if it fails again, tell the server's owner."
            )
            _save(job, status=ExportJob.Status.FAILED, message=message)


class _Counter:
    """The tables written so far, into the job at most every ``COUNT_SECONDS``."""

    def __init__(self, job: ExportJob) -> None:
        self.job = job
        self.at = 0.0

    def __call__(self, done: int, total: int) -> None:
        now = time.monotonic()
        if now - self.at >= COUNT_SECONDS or done == total:
            self.at = now
            _save(self.job, status=ExportJob.Status.WRITING, done=done, total=total)


def _save(job: ExportJob, **fields: Any) -> None:
    for name, value in fields.items():
        setattr(job, name, value)
    job.save(update_fields=[*fields, "updated_at"])


def filename(job: ExportJob) -> str:
    return f"{job.tournament.slug}.json"


def task_status(task_id: str) -> str | None:
    """The state of a job's task as the queue has it; None when there is none."""
    if not task_id:
        return None
    try:
        return str(build.get_result(task_id).status)
    except TaskResultDoesNotExist:
        return None


def interrupted(job: ExportJob) -> bool:
    """A job still under way whose task failed for good (its worker stopped each time)."""
    return job.status in UNDER_WAY and task_status(job.task_id) == TaskResultStatus.FAILED


def finished(job: ExportJob) -> bool:
    """Nothing more will happen by itself: the page stops asking."""
    return job.status not in UNDER_WAY or interrupted(job)
