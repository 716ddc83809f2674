"""A club admin's answers to membership requests, and the club's spectator switch.

The panel (``clubs/_requests_panel.html``) stands on the members page; each change
answers htmx with the panel again and a plain form post with a redirect back to the
members page, its outcome in a message (like ``member_views``).
"""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import get_object_or_404
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from prefscore.web.htmx import HtmxHttpRequest, redirect_to, render_page

from . import membership_requests as requests
from . import players
from .models import Club, MembershipRequest, Player
from .names import display_name, isolate
from .permissions import ADMINS, club_and_role_for

PANEL = "clubs/_requests_panel.html"


def panel_context(club: Club) -> dict[str, object]:
    """What the admins' panel shows: the requests waiting, each with the club's guests
    the newcomer may be (one tap approves her as that guest), and the spectator switch."""
    waiting = requests.pending_for(club)
    guests = list(players.claimable_guests(club)) if waiting else []
    return {
        "club": club,
        "membership_requests": [
            WaitingRequest(asked, tuple(sorted(guests, key=lambda g: _unlike(g.name, asked.user))))
            for asked in waiting
        ],
        "allow_spectators": club.allow_spectators,
    }


@dataclass(frozen=True)
class WaitingRequest:
    asked: MembershipRequest
    guests: tuple[Player, ...]  # the guest named as she calls herself first

    @property
    def pk(self) -> int:
        return self.asked.pk


def _unlike(name: str, user: object) -> tuple[bool, str]:
    return (name.casefold() != display_name(user).casefold(), name.casefold())


def _guest(request: HtmxHttpRequest) -> int | None:
    """The guest the admin says the newcomer is (``guest``), or None."""
    value = request.POST.get("guest", "")
    return int(value) if value.isascii() and value.isdigit() and len(value) < 12 else None


def _after(request: HtmxHttpRequest, club: Club) -> HttpResponse:
    if not request.htmx:
        return redirect_to(request, reverse("members:list", args=[club.slug]) + "#requests")
    return render_page(request, PANEL, {**panel_context(club), "in_place": True})


@login_required
@require_POST
def approve(request: HtmxHttpRequest, slug: str, pk: int) -> HttpResponse:
    club, _role = club_and_role_for(request, slug, roles=ADMINS)
    found = get_object_or_404(club.membership_requests.select_related("user"), pk=pk)
    try:
        requests.approve(found, request.user, _guest(request))
    except (requests.AlreadyDecided, players.PlayersRefused) as error:
        messages.error(request, str(error))
    else:
        messages.success(
            request,
            _("%(user)s is now a member of %(club)s.")
            % {"user": isolate(display_name(found.user)), "club": isolate(club.name)},
        )
    return _after(request, club)


@login_required
@require_POST
def decline(request: HtmxHttpRequest, slug: str, pk: int) -> HttpResponse:
    club, _role = club_and_role_for(request, slug, roles=ADMINS)
    found = get_object_or_404(club.membership_requests.select_related("user"), pk=pk)
    try:
        requests.decline(found, request.user)
    except requests.AlreadyDecided as error:
        messages.error(request, str(error))
    else:
        messages.success(
            request,
            _("The request of %(user)s is declined.") % {"user": isolate(display_name(found.user))},
        )
    return _after(request, club)


@login_required
@require_POST
def spectators(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    """Switch the club's spectator links on (``allow=1``) or off (anything else)."""
    club, _role = club_and_role_for(request, slug, roles=ADMINS)
    allowed = request.POST.get("allow") == "1"
    requests.set_spectators(club, allowed)
    messages.success(
        request,
        _("Spectator links are on: each table may have one.")
        if allowed
        else _("Spectator links are off: no table of the club can be watched from outside."),
    )
    return _after(request, club)
