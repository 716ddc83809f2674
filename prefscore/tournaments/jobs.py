"""Large tournament imports, after the request (docs/tournaments.md §6.4).

A file of up to ``INLINE_BYTES`` is read and stored within the request (well under a
second). A larger one (1,000 players over 5 rounds is 4 MB and some seconds to store)
becomes an ``ImportJob``: the request keeps the file and answers at once with the
job's page, and a thread of the same worker, started once the job is committed,
validates and stores it (``imports.read_file``, ``imports.import_tournament``: all or
nothing, as within a request). The page asks for the job's state every second.

A thread is enough here: the work is one transaction that either commits or leaves
nothing, and a job whose worker was stopped before the end stops moving and is then
reported as interrupted (``STALE_SECONDS``) for the organiser to send again.
"""

from __future__ import annotations

import logging
import threading
from datetime import timedelta
from typing import Any

from django.db import close_old_connections, transaction
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from prefscore.clubs.models import Club

from . import imports
from .models import ImportJob

INLINE_BYTES = 256 * 1024
STALE_SECONDS = 300
LARGEST_ID = 2**63 - 1  # a larger id in an address is no job (and no OverflowError)

log = logging.getLogger(__name__)


def needs_job(text: str) -> bool:
    """Whether a file is too large to import within the request."""
    return len(text.encode("utf-8", "surrogatepass")) > INLINE_BYTES


def submit(club: Club, user: Any, text: str, slug: str, already: Any = None) -> ImportJob:
    """Keep the file as a job and start it once the job is committed; or, when the file
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
        transaction.on_commit(lambda: start(job.pk))
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
    transaction.on_commit(lambda: start(job.pk))


def start(job_id: int) -> None:
    """Run the job in a thread of this worker (tests replace this to run it inline)."""
    threading.Thread(target=_in_thread, args=(job_id,), daemon=True).start()


def _in_thread(job_id: int) -> None:
    try:
        run(job_id)
    finally:
        close_old_connections()


def run(job_id: int) -> None:
    """Validate and store the job's file; its state says how it went."""
    job = ImportJob.objects.select_related("club", "created_by").get(pk=job_id)
    with translation.override(job.language or None):
        try:
            _advance(job, ImportJob.Status.CHECKING)
            file = imports.read_file(job.text)
            found = None if job.confirmed else imports.already(job.club, file.fields)
            if found is not None:  # asked first, as a file read within the request is
                job.already, job.status = found, ImportJob.Status.ASKING
                job.save(update_fields=["already", "status", "updated_at"])
                return
            _advance(job, ImportJob.Status.STORING)
            tournament = imports.import_tournament(job.club, file, job.created_by, job.slug)
        except imports.ImportRefused as error:
            _end(job, ImportJob.Status.FAILED, message=str(error))
        except Exception:  # a fault of ours: logged, and the organiser told plainly
            log.exception("tournament import %s failed", job_id)
            _end(job, ImportJob.Status.FAILED, message=_("The import failed; nothing was saved."))
        else:
            _end(job, ImportJob.Status.DONE, tournament=tournament)


def _advance(job: ImportJob, status: str) -> None:
    job.status = status
    job.save(update_fields=["status", "updated_at"])


def _end(job: ImportJob, status: str, **fields: Any) -> None:
    for name, value in fields.items():
        setattr(job, name, value)
    job.status = status
    job.text = ""  # the file is in the tournament now, or refused: not kept twice
    job.save(update_fields=["status", "text", "updated_at", *fields])


def interrupted(job: ImportJob) -> bool:
    """A job still under way that has not moved for ``STALE_SECONDS``: its worker stopped.
    One waiting for the organiser's answer is not under way."""
    waiting = (ImportJob.Status.DONE, ImportJob.Status.FAILED, ImportJob.Status.ASKING)
    under_way = job.status not in waiting
    return under_way and timezone.now() - job.updated_at > timedelta(seconds=STALE_SECONDS)


def finished(job: ImportJob) -> bool:
    """Nothing more will happen by itself: the page stops asking."""
    stopped = (ImportJob.Status.DONE, ImportJob.Status.FAILED, ImportJob.Status.ASKING)
    return job.status in stopped or interrupted(job)
