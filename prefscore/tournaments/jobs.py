"""Large tournament imports, after the request (docs/tournaments.md §6.4, docs/tasks.md).

A file of up to ``INLINE_BYTES`` is read and stored within the request (well under a
second). A larger one (1,000 players over 5 rounds is 4 MB and some seconds to store)
becomes an ``ImportJob``: the request keeps the file, queues the task
:func:`import_file` in the same transaction, and answers at once with the job's page.
The worker validates and stores it (``imports.read_file``, ``imports.import_tournament``:
all or nothing, as within a request). The page asks for the job's state every second:
the rounds checked of all of them, then the storing.

The task is idempotent. The tournament and the job's "done" are committed together, so
a task run again after its worker died (or twice) finds the job over and does nothing;
one that died before that commit left nothing, and checks and stores the file anew.
"""

from __future__ import annotations

import logging
from typing import Any

from django.db import transaction
from django.utils import translation
from django.utils.translation import gettext as _
from django_tasks import TaskResultStatus, task
from django_tasks.exceptions import TaskResultDoesNotExist

from prefscore.clubs.models import Club

from . import imports
from .models import ImportJob

INLINE_BYTES = 256 * 1024
LARGEST_ID = 2**63 - 1  # a larger id in an address is no job (and no OverflowError)
OVER = (ImportJob.Status.DONE, ImportJob.Status.FAILED)

log = logging.getLogger(__name__)


def needs_job(text: str) -> bool:
    """Whether a file is too large to import within the request."""
    return len(text.encode("utf-8", "surrogatepass")) > INLINE_BYTES


def submit(club: Club, user: Any, text: str, slug: str, already: Any = None) -> ImportJob:
    """Keep the file as a job and queue its task (committed together); or, when the file
    is ``already`` a tournament of the club, keep it and ask the organiser first."""
    job = ImportJob.objects.create(
        club=club,
        created_by=user,
        text=text,
        slug=slug,
        language=translation.get_language() or "",
        already=already,
        status=ImportJob.Status.ASKING if already is not None else ImportJob.Status.QUEUED,
    )
    if already is None:
        _queue(job)
    return job


def answer(job: ImportJob, go_on: bool) -> None:
    """The organiser's answer to "the club has this tournament already": import it as
    another tournament, or keep the club's as it is (nothing saved)."""
    if job.status != ImportJob.Status.ASKING:
        return
    if not go_on:
        _end(
            job,
            ImportJob.Status.FAILED,
            message=_("Not imported: the club's tournament stays as it is."),
        )
        return
    job.confirmed = True
    job.status = ImportJob.Status.QUEUED
    job.save(update_fields=["confirmed", "status", "updated_at"])
    _queue(job)


def _queue(job: ImportJob) -> None:
    with transaction.atomic():
        job.task_id = str(import_file.enqueue(job.pk).id)
        job.save(update_fields=["task_id", "updated_at"])


@task()
def import_file(job_id: int) -> str:
    """The worker's task: run the job (:func:`run`); its state as it ended."""
    run(job_id)
    return str(ImportJob.objects.filter(pk=job_id).values_list("status", flat=True).first())


def run(job_id: int) -> None:
    """Validate and store the job's file; its state says how it went. A job already over
    is left as it is (the task ran before)."""
    job = ImportJob.objects.select_related("club", "created_by").filter(pk=job_id).first()
    if job is None or job.status in OVER or job.status == ImportJob.Status.ASKING:
        return
    with translation.override(job.language or None):
        try:
            _advance(job, ImportJob.Status.CHECKING)
            file = imports.read_file(
                job.text, progress=lambda done, total: _count(job, done, total)
            )
            found = None if job.confirmed else imports.already(job.club, file.fields)
            if found is not None:  # asked first, as a file read within the request is
                job.already, job.status = found, ImportJob.Status.ASKING
                job.save(update_fields=["already", "status", "updated_at"])
                return
            _advance(job, ImportJob.Status.STORING)
            with transaction.atomic():  # the tournament and the job's end, or neither
                tournament = imports.import_tournament(job.club, file, job.created_by, job.slug)
                _end(job, ImportJob.Status.DONE, tournament=tournament)
        except imports.ImportRefused as error:
            _end(job, ImportJob.Status.FAILED, message=str(error))
        except Exception:  # a fault of ours: logged, and the organiser told plainly
            log.exception("tournament import %s failed", job_id)
            _end(job, ImportJob.Status.FAILED, message=_("The import failed; nothing was saved."))


def _advance(job: ImportJob, status: str) -> None:
    job.status = status
    job.save(update_fields=["status", "updated_at"])


def _count(job: ImportJob, done: int, total: int) -> None:
    """The rounds checked so far, for the page's bar (a write per round)."""
    job.done, job.total = done, total
    job.save(update_fields=["done", "total", "updated_at"])


def _end(job: ImportJob, status: str, **fields: Any) -> None:
    for name, value in fields.items():
        setattr(job, name, value)
    job.status = status
    job.text = ""  # the file is in the tournament now, or refused: not kept twice
    job.save(update_fields=["status", "text", "updated_at", *fields])


def task_failed(task_id: str) -> bool:
    """The job's task failed past its tries (a fault the job could not catch: its worker
    killed each time); the page then says that nothing was saved."""
    return task_status(task_id) == TaskResultStatus.FAILED


def task_status(task_id: str) -> str | None:
    """The state of a job's task as the queue has it; None when there is none."""
    if not task_id:
        return None
    try:
        return str(import_file.get_result(task_id).status)
    except TaskResultDoesNotExist:
        return None


def interrupted(job: ImportJob) -> bool:
    """A job still under way whose task failed for good: its worker stopped each time."""
    return job.status not in (*OVER, ImportJob.Status.ASKING) and task_failed(job.task_id)


def finished(job: ImportJob) -> bool:
    """Nothing more will happen by itself: the page stops asking."""
    stopped = (*OVER, ImportJob.Status.ASKING)
    return job.status in stopped or interrupted(job)
