"""The tournament file (docs/tournaments.md §6): the standings as CSV and the whole
tournament as JSON out, and a file in as a new tournament of the club, the organisers'.

A small file is imported at once; a large one is a job (``jobs``) whose page asks how it
goes every second until it is over (docs/tournaments.md §6.4). A large tournament's JSON
is written by a job too (``export_jobs``), whose page then offers the file.
"""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from prefscore.clubs.permissions import ORGANISERS
from prefscore.games.access import club_and_role_for
from prefscore.web.htmx import HtmxHttpRequest, invalid_status, redirect_to, render_page

from .. import export_jobs, exports, jobs
from ..forms.files import TournamentFileForm
from ..models import ExportJob, ImportJob
from .room import tournament_for


def _download(body: str, content_type: str, filename: str) -> HttpResponse:
    response = HttpResponse(body, content_type=content_type)
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


@require_safe
@login_required
def export_csv(request: HtmxHttpRequest, club: str, slug: str) -> HttpResponse:
    """The standings as CSV (columns: docs/tournaments.md §6.3); ``?sep=semicolon`` for a
    spreadsheet set to Russian (``;`` and a decimal comma)."""
    tournament = tournament_for(request, club, slug, ORGANISERS)
    body = exports.standings_csv(tournament, semicolon=request.GET.get("sep") == "semicolon")
    return _download(body, "text/csv; charset=utf-8", f"{tournament.slug}-standings.csv")


@require_safe
@login_required
def export_json(request: HtmxHttpRequest, club: str, slug: str) -> HttpResponse:
    """The whole tournament as JSON (format version 1, docs/tournaments.md §6).

    A large tournament's file is written by the worker (``export_jobs``): this answers
    at once with the job's page (the organiser's export under way, or a new one)."""
    tournament = tournament_for(request, club, slug, ORGANISERS)
    if export_jobs.needs_job(tournament):
        job = export_jobs.submit(tournament, request.user)
        url = reverse(
            "tournaments:export_job", args=[tournament.club.slug, tournament.slug, job.pk]
        )
        return redirect_to(request, url)
    body = exports.export_text(tournament)
    return _download(body, "application/json; charset=utf-8", f"{tournament.slug}.json")


def _export_job(request: HtmxHttpRequest, club: str, slug: str, job: int) -> ExportJob:
    """The organiser's own export job of the tournament, else 404 (403 for a non-organiser)."""
    tournament = tournament_for(request, club, slug, ORGANISERS)
    if job > export_jobs.LARGEST_ID:
        raise Http404
    found = get_object_or_404(ExportJob, pk=job, tournament=tournament, created_by=request.user)
    found.tournament = tournament
    return found


@require_safe
@login_required
def export_job(request: HtmxHttpRequest, club: str, slug: str, job: int) -> HttpResponse:
    """How a large export goes (``export_jobs``): the tables written, asked again every
    second, then the file; only the organiser who asked for it sees it."""
    found = _export_job(request, club, slug, job)
    context = {
        "club": found.tournament.club,
        "tournament": found.tournament,
        "job": found,
        "interrupted": export_jobs.interrupted(found),
        "finished": export_jobs.finished(found),
        "seconds": int((timezone.now() - found.created_at).total_seconds()),
        "size_kb": (len(found.text.encode()) + 1023) // 1024 if found.text else 0,
    }
    return render_page(request, "tournaments/room/export_job.html", context, "progress")


@require_safe
@login_required
def export_file(request: HtmxHttpRequest, club: str, slug: str, job: int) -> HttpResponse:
    """The file a finished export job wrote."""
    found = _export_job(request, club, slug, job)
    if found.status != ExportJob.Status.DONE:
        raise Http404
    body = found.text
    return _download(body, "application/json; charset=utf-8", export_jobs.filename(found))


@require_http_methods(["GET", "HEAD", "POST"])
@login_required
def import_json(request: HtmxHttpRequest, club: str) -> HttpResponse:
    """A tournament file becomes a new tournament of this club, or is refused whole."""
    club_obj, _role = club_and_role_for(request, club, roles=ORGANISERS)
    form = TournamentFileForm(request.POST or None, request.FILES or None, club=club_obj)
    if request.method == "POST" and form.is_valid():
        made = form.save(request.user)
        if isinstance(made, ImportJob):
            return redirect_to(
                request, reverse("tournaments:import_job", args=[club_obj.slug, made.pk])
            )
        if made is not None:
            url = reverse("tournaments:detail", args=[club_obj.slug, made.slug])
            return redirect_to(request, url)
    status = invalid_status(request) if request.method == "POST" else 200
    context = {"club": club_obj, "form": form}
    return render_page(request, "tournaments/room/import.html", context, "form", status=status)


@require_POST
@login_required
def import_answer(request: HtmxHttpRequest, club: str, job: int) -> HttpResponse:
    """The organiser's answer when the file is already a tournament of the club: import
    it as another tournament (``go_on``), or not (docs/tournaments.md §6.4)."""
    club_obj, _role = club_and_role_for(request, club, roles=ORGANISERS)
    if job > jobs.LARGEST_ID:
        raise Http404
    found = get_object_or_404(ImportJob, pk=job, club=club_obj, created_by=request.user)
    jobs.answer(found, request.POST.get("answer") == "import")
    return redirect_to(request, reverse("tournaments:import_job", args=[club_obj.slug, found.pk]))


@require_safe
@login_required
def import_job(request: HtmxHttpRequest, club: str, job: int) -> HttpResponse:
    """How a large import goes (``jobs``, run by the worker): asked again every second
    until it is over.

    Only the organiser who sent the file sees it; once it is imported, the page leads to
    the tournament (htmx goes there by itself).
    """
    club_obj, _role = club_and_role_for(request, club, roles=ORGANISERS)
    if job > jobs.LARGEST_ID:  # beyond the database's integers: no such job
        raise Http404
    found = get_object_or_404(ImportJob, pk=job, club=club_obj, created_by=request.user)
    made = found.tournament if found.status == ImportJob.Status.DONE else None
    if made is not None and request.htmx:
        return redirect_to(request, reverse("tournaments:detail", args=[club_obj.slug, made.slug]))
    context = {
        "club": club_obj,
        "job": found,
        "interrupted": jobs.interrupted(found),
        "finished": jobs.finished(found),
        "seconds": int((timezone.now() - found.created_at).total_seconds()),
        "checking": found.status == ImportJob.Status.CHECKING and found.total > 0,
    }
    return render_page(request, "tournaments/room/import_job.html", context, "progress")
