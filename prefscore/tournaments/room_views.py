"""The room's screens (docs/tournaments.md §4.11): the organiser's dashboard, the
projector, and "my table now".

The dashboard is the organisers' (and admins'). The projector is anyone's when the
tournament is public (the standings are, so the wall may show them), otherwise the
organisers' own: it is the screen a laptop signed in as the organiser puts on the wall.
"My table now" is for the club's members, who are the players with accounts.

Each page refreshes itself with htmx polling; the poll asks for its region only
(``render_page``'s partial), and the view models are ``room``'s. Under ASGI a change
signal (``room_events``) asks the poll at once when a table or the round moves.
"""

from __future__ import annotations

from collections.abc import Callable

from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from prefscore.clubs.models import Club
from prefscore.clubs.permissions import MEMBERS, ORGANISERS, may
from prefscore.games.access import club_and_role_for
from prefscore.web.htmx import HtmxHttpRequest, invalid_status, redirect_to, render_page
from prefscore.web.integers import request_int

from . import export_jobs, exports, jobs, printables, room
from .models import ExportJob, ImportJob, Tournament
from .room_forms import TournamentFileForm
from .views import checkin_qr


def tournament_for(
    request: HtmxHttpRequest, club: str, slug: str, roles: tuple[str, ...]
) -> Tournament:
    """The tournament if the user has one of ``roles`` in its club, else 404/403."""
    club_obj, _role = club_and_role_for(request, club, roles=roles)
    tournament = get_object_or_404(Tournament, club=club_obj, slug=slug)
    tournament.club = club_obj
    return tournament


@require_safe
@login_required
def dashboard(request: HtmxHttpRequest, club: str, slug: str) -> HttpResponse:
    """Tables playing, deals per table and the clock of the round, for the organiser."""
    tournament = tournament_for(request, club, slug, ORGANISERS)
    context = {
        "club": tournament.club,
        "tournament": tournament,
        "board": room.dashboard(tournament),
        "poll_seconds": room.DASHBOARD_POLL_SECONDS,
    }
    return render_page(request, "tournaments/room/dashboard.html", context, "board")


def _projector_tournament(request: HtmxHttpRequest, club: str, slug: str) -> Tournament:
    """A public tournament for anyone; a private one for its organisers only."""
    club_obj = get_object_or_404(Club, slug=club)
    tournament = get_object_or_404(Tournament, club=club_obj, slug=slug)
    tournament.club = club_obj
    if tournament.public:
        return tournament
    if not request.user.is_authenticated:
        raise _SignIn
    if not may(club_obj.role_of(request.user), ORGANISERS):
        raise PermissionDenied(_("You may not do this in this club."))
    return tournament


class _SignIn(Exception):
    """Not signed in, on a screen that needs it."""


@require_safe
def projector(request: HtmxHttpRequest, club: str, slug: str) -> HttpResponse:
    """Large type for the wall: seating or standings, the clock, the tables playing."""
    try:
        tournament = _projector_tournament(request, club, slug)
    except _SignIn:
        return redirect_to_login(request.get_full_path())
    show = request.GET.get("show")
    page = request_int(request.GET.get("page"), max_digits=4) or 0
    view = room.projector(tournament, show if show in room.SHOWS else None, page)
    context = {
        "club": tournament.club,
        "tournament": tournament,
        "view": view,
        "fixed_show": show if show in room.SHOWS else "",
        "poll_seconds": room.PROJECTOR_POLL_SECONDS,
        # Until round 1 is published the wall shows the check-in code (§4.2).
        "checkin_qr": checkin_qr(request, tournament),
    }
    return render_page(request, "tournaments/room/projector.html", context, "wall")


@require_safe
@login_required
def my_table(request: HtmxHttpRequest, club: str, slug: str) -> HttpResponse:
    """Which table and seat the signed-in player has in the current round."""
    tournament = tournament_for(request, club, slug, MEMBERS)
    context = {
        "club": tournament.club,
        "tournament": tournament,
        "mine": room.my_table(tournament, request.user),
        "poll_seconds": room.MY_TABLE_POLL_SECONDS,
    }
    return render_page(request, "tournaments/room/my_table.html", context, "mine")


# --- printables (organisers) ------------------------------------------------------------


def _printable(
    request: HtmxHttpRequest,
    club: str,
    slug: str,
    template: str,
    **builders: Callable[[Tournament], object],
) -> HttpResponse:
    """A printed page: each context value is built from the tournament by its builder."""
    tournament = tournament_for(request, club, slug, ORGANISERS)
    values: dict[str, object] = {"club": tournament.club, "tournament": tournament}
    values.update({key: build(tournament) for key, build in builders.items()})
    return render_page(request, f"tournaments/room/{template}", values)


@require_safe
@login_required
def print_seating(request: HtmxHttpRequest, club: str, slug: str) -> HttpResponse:
    """The current round's seating, by table and alphabetically, for the wall."""
    return _printable(request, club, slug, "print_seating.html", seating=printables.seating)


@require_safe
@login_required
def print_cards(request: HtmxHttpRequest, club: str, slug: str) -> HttpResponse:
    """A card per table of the current round: one A4 page each. Before round 1, while
    check-in is open, a card per table with its QR code (§4.2)."""
    tournament = tournament_for(request, club, slug, ORGANISERS)
    qr = checkin_qr(request, tournament)
    values = {
        "club": tournament.club,
        "tournament": tournament,
        "cards": printables.cards(tournament, qr is not None),
        "checkin_qr": qr,
    }
    return render_page(request, "tournaments/room/print_cards.html", values)


@require_safe
@login_required
def print_standings(request: HtmxHttpRequest, club: str, slug: str) -> HttpResponse:
    """The standings with the date, the regulations and the arbiter's signature line."""
    return _printable(
        request, club, slug, "print_standings.html", printed=printables.standings_print
    )


@require_safe
@login_required
def print_protocol(request: HtmxHttpRequest, club: str, slug: str) -> HttpResponse:
    """Blank protocol sheets for paper play, with the Кодекс 4.2.11 column."""
    return _printable(request, club, slug, "print_protocol.html", protocols=printables.protocols)


# --- export and import (organisers) -----------------------------------------------------


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
