"""The room's screens (docs/tournaments.md §4.11): the organiser's dashboard, the
projector, and "my table now".

The dashboard is the organisers' (and admins'). The projector is anyone's when the
tournament is public (the standings are, so the wall may show them), otherwise the
organisers' own: it is the screen a laptop signed in as the organiser puts on the wall.
"My table now" is for the club's members, who are the players with accounts.

Each page refreshes itself with htmx polling; the poll asks for its region only
(``render_page``'s partial), and the view models are ``presenters/room.py``'s. Under
ASGI a change signal (``views/events.py``) asks the poll at once when a table or the round
moves. The printed pages are the organisers' (``presenters/printables.py``); the
tournament file's export and import are ``views/files.py``.
"""

from __future__ import annotations

from collections.abc import Callable

from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import HttpResponse
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe

from prefscore.clubs.models import Club
from prefscore.clubs.permissions import MEMBERS, ORGANISERS, may
from prefscore.games.access import club_and_role_for
from prefscore.web.htmx import HtmxHttpRequest, render_page
from prefscore.web.integers import request_int

from ..models import Tournament
from ..presenters import printables, room
from .tournament import checkin_qr


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
