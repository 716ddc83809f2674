"""Check-in (docs/tournaments.md §4.2): the organiser's bulk check-in, and a player's own
check-in by the signed link of the tournament's QR code.

Bulk check-in is the organisers' (403 to members); the own check-in is any member's, for
his own entry only, and answers 404 to a link whose signature is not this tournament's.
"""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.urls import reverse
from django.views.decorators.http import require_http_methods, require_POST

from prefscore.clubs.permissions import MEMBERS, ORGANISERS
from prefscore.web.htmx import HtmxHttpRequest, redirect_to, render_page

from .. import checkin
from ..forms.checkin import BulkCheckInForm
from ..models import TournamentEntry
from ..services import TournamentError
from .tournament import _detail, _tournament, reload_at


@require_POST
@login_required
def bulk_check_in(request: HtmxHttpRequest, club: str, slug: str) -> HttpResponse:
    """Check in every ticked player still only registered, in one submit (§4.2)."""
    tournament, role = _tournament(request, club, slug, ORGANISERS)
    form = BulkCheckInForm(request.POST, tournament=tournament)
    if not form.is_valid():
        return _detail(request, tournament, role, "entries", checkin_form=form)
    try:
        checkin.check_in_many(tournament, form.cleaned_data["entries"])
    except TournamentError as error:
        return _detail(request, tournament, role, "entries", entry_error=str(error))
    return reload_at(request, tournament, "entries")


@require_http_methods(["GET", "HEAD", "POST"])
@login_required
def check_in_self(request: HtmxHttpRequest, club: str, slug: str, token: str) -> HttpResponse:
    """The QR code's page: the player confirms, and his own entry is checked in."""
    tournament, _role = _tournament(request, club, slug, MEMBERS)
    if not checkin.token_is_valid(tournament, token):
        raise Http404("not this tournament's check-in link")
    error = ""
    if request.method == "POST":
        try:
            checkin.check_in_self(tournament, request.user)
        except TournamentError as refusal:
            error = str(refusal)
        else:
            here = reverse("tournaments:check_in_self", args=[club, slug, token])
            return redirect_to(request, here)
    entry = checkin.own_entry(tournament, request.user)
    context = {
        "club": tournament.club,
        "tournament": tournament,
        "entry": entry,
        "checked_in": entry is not None and entry.state == TournamentEntry.State.CHECKED_IN,
        "open": checkin.is_open(tournament),
        "error": error,
        "token": token,
    }
    return render_page(request, "tournaments/check_in.html", context, "check_in")
