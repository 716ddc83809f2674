"""Tournament screens: the club's list, a new tournament, its page, and the standings.

Organisers and admins of the club run a tournament (register players, draw rounds, cut
to the final, publish the standings); members see it; outsiders get 403. The standings
page alone is open to anyone, signed in or not, when the organiser made it public
(issue 7); otherwise it is the members' like the rest.

A successful form redirects (``HX-Redirect`` under htmx); a refused one re-renders its
region with the message next to the field. Nothing is scored here: the sheets are the
engine's, the seating and the ranking too.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.http import HttpResponse
from django.shortcuts import get_object_or_404
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from prefscore.clubs.models import Club
from prefscore.clubs.permissions import MEMBERS, ORGANISERS, may
from prefscore.games.access import club_and_role_for
from prefscore.web import HtmxHttpRequest, redirect_to, render_page

from . import presenters, services
from .forms import CutForm, EntryForm, PublishForm, TournamentForm
from .models import Tournament, TournamentEntry

DETAIL = "tournaments/detail.html"


def _tournament(
    request: HtmxHttpRequest, club: str, slug: str, roles: tuple[str, ...] = MEMBERS
) -> tuple[Tournament, str]:
    """The tournament if the user has one of ``roles`` in its club, else 404/403."""
    club_obj, role = club_and_role_for(request, club, roles=roles)
    tournament = get_object_or_404(Tournament, club=club_obj, slug=slug)
    tournament.club = club_obj
    return tournament, role


def detail_url(tournament: Tournament, anchor: str = "") -> str:
    url = reverse("tournaments:detail", args=[tournament.club.slug, tournament.slug])
    return f"{url}#{anchor}" if anchor else url


# --- the club's tournaments ---------------------------------------------------------------


@require_safe
@login_required
def tournament_list(request: HtmxHttpRequest, club: str) -> HttpResponse:
    club_obj, role = club_and_role_for(request, club, roles=MEMBERS)
    context = {
        "club": club_obj,
        "tournaments": list(club_obj.tournaments.all()),
        "may_run": may(role, ORGANISERS),
    }
    return render_page(request, "tournaments/list.html", context)


@require_http_methods(["GET", "HEAD", "POST"])
@login_required
def create(request: HtmxHttpRequest, club: str) -> HttpResponse:
    """A new tournament: its regulations are fixed here (docs/tournaments.md §4.1)."""
    club_obj, _role = club_and_role_for(request, club, roles=ORGANISERS)
    form = TournamentForm(request.POST if request.method == "POST" else None, club=club_obj)
    if request.method == "POST" and form.is_valid():
        tournament = form.save(request.user)
        return redirect_to(request, detail_url(tournament))
    return render_page(request, "tournaments/new.html", {"club": club_obj, "form": form}, "form")


# --- one tournament -------------------------------------------------------------------------


def _detail_context(tournament: Tournament, role: str, **overrides: Any) -> dict[str, Any]:
    entries = list(tournament.entries.select_related("player"))
    context: dict[str, Any] = {
        "club": tournament.club,
        "tournament": tournament,
        "may_run": may(role, ORGANISERS),
        "entries": entries,
        "active_count": sum(1 for entry in entries if not entry.dropped),
        "rounds": presenters.rounds_view(tournament),
        "settings": presenters.settings_lines(tournament),
        "entry_form": EntryForm(tournament=tournament),
        "cut_form": CutForm(),
        "publish_form": PublishForm(initial={"public": tournament.public}),
        "draw_error": "",
        "open": tournament.status not in (Tournament.Status.FINAL, Tournament.Status.FINISHED),
    }
    context.update(overrides)
    return context


def _detail(
    request: HtmxHttpRequest, tournament: Tournament, role: str, partial: str, **overrides: Any
) -> HttpResponse:
    """The tournament page, or with htmx the ``partial`` region a form changed."""
    return render_page(request, DETAIL, _detail_context(tournament, role, **overrides), partial)


@require_safe
@login_required
def detail(request: HtmxHttpRequest, club: str, slug: str) -> HttpResponse:
    tournament, role = _tournament(request, club, slug)
    return render_page(request, DETAIL, _detail_context(tournament, role))


@require_POST
@login_required
def register(request: HtmxHttpRequest, club: str, slug: str) -> HttpResponse:
    """Register club players; late entries join from the next round drawn (§4.2)."""
    tournament, role = _tournament(request, club, slug, ORGANISERS)
    form = EntryForm(request.POST, tournament=tournament)
    if not form.is_valid():
        return _detail(request, tournament, role, "entries", entry_form=form)
    with transaction.atomic():
        TournamentEntry.objects.bulk_create(
            [
                TournamentEntry(tournament=tournament, player=p)
                for p in form.cleaned_data["players"]
            ],
            ignore_conflicts=True,
        )
    if not request.htmx:
        return redirect_to(request, detail_url(tournament, "entries"))
    return _detail(request, tournament, role, "entries")


@require_POST
@login_required
def drop(request: HtmxHttpRequest, club: str, slug: str, entry: int) -> HttpResponse:
    """Drop a player from the next draws, or take him back (docs/tournaments.md §4.2)."""
    tournament, role = _tournament(request, club, slug, ORGANISERS)
    row = get_object_or_404(TournamentEntry, pk=entry, tournament=tournament)
    row.state = TournamentEntry.State.REGISTERED if row.dropped else TournamentEntry.State.DROPPED
    row.save(update_fields=["state"])
    if not request.htmx:
        return redirect_to(request, detail_url(tournament, "entries"))
    return _detail(request, tournament, role, "entries")


@require_POST
@login_required
def draw(request: HtmxHttpRequest, club: str, slug: str) -> HttpResponse:
    """Draw the next round and start its tables' pulkas (docs/tournaments.md §4.3)."""
    tournament, role = _tournament(request, club, slug, ORGANISERS)
    try:
        round_ = services.draw_next_round(tournament.pk, request.user)
    except services.TournamentError as error:
        return _detail(request, tournament, role, "draw", draw_error=str(error))
    return redirect_to(request, detail_url(tournament, f"round-{round_.number}"))


@require_POST
@login_required
def cut(request: HtmxHttpRequest, club: str, slug: str) -> HttpResponse:
    """Cut the field to the top N and draw the final tables (docs/tournaments.md §4.10)."""
    tournament, role = _tournament(request, club, slug, ORGANISERS)
    form = CutForm(request.POST)
    if form.is_valid():
        try:
            round_ = services.draw_final(tournament.pk, request.user, form.cleaned_data["size"])
        except services.TournamentError as error:
            form.add_error("size", str(error))
        else:
            return redirect_to(request, detail_url(tournament, f"round-{round_.number}"))
    return _detail(request, tournament, role, "cut", cut_form=form)


@require_POST
@login_required
def publish(request: HtmxHttpRequest, club: str, slug: str) -> HttpResponse:
    """Make the standings public (anyone with the link), or members' only again."""
    tournament, role = _tournament(request, club, slug, ORGANISERS)
    form = PublishForm(request.POST)
    form.is_valid()  # a checkbox: absent means off, nothing can be wrong
    tournament.public = bool(form.cleaned_data.get("public"))
    tournament.save(update_fields=["public"])
    if not request.htmx:
        return redirect_to(request, detail_url(tournament, "publish"))
    return _detail(request, tournament, role, "publish")


# --- standings ----------------------------------------------------------------------------


@require_safe
def standings(request: HtmxHttpRequest, club: str, slug: str) -> HttpResponse:
    """Live standings; anyone may read them when public (issue 7), else members only."""
    club_obj = get_object_or_404(Club, slug=club)
    tournament = get_object_or_404(Tournament, club=club_obj, slug=slug)
    tournament.club = club_obj
    if not tournament.public and not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    role = club_obj.role_of(request.user)
    if not tournament.public and role is None:
        raise PermissionDenied(_("You may not do this in this club."))
    context = {
        "club": club_obj,
        "tournament": tournament,
        "table": presenters.standings_table(tournament, services.standings(tournament)),
        "member": role is not None,
    }
    return render_page(request, "tournaments/standings.html", context, "standings")
