"""The tournament file (docs/tournaments.md §6): the standings as CSV and the whole
tournament as JSON out, and a file in as a new tournament of the club, the organisers'.

A small file is imported at once; a large one is a job (``jobs``) whose page asks how it
goes every second until it is over (docs/tournaments.md §6.4).
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

from .. import exports, jobs
from ..forms.files import TournamentFileForm
from ..models import ImportJob
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
    """The whole tournament as JSON (format version 1, docs/tournaments.md §6)."""
    tournament = tournament_for(request, club, slug, ORGANISERS)
    body = exports.export_text(tournament)
    return _download(body, "application/json; charset=utf-8", f"{tournament.slug}.json")


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
    """How a large import goes (``jobs``): asked again every second until it is over.

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
    }
    return render_page(request, "tournaments/room/import_job.html", context, "progress")
