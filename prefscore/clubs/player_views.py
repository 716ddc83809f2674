"""A club's players page, for its admins: link, unlink and merge players; their history.

Each change is a service of ``prefscore.clubs.players`` (which records it); these views
only check the admin's role, read the form and say what happened. With htmx a change
answers with the page's ``players`` region; a plain form post redirects back to the
page (POST/redirect/GET), its outcome in a message.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db.models import Count
from django.http import HttpResponse
from django.shortcuts import get_object_or_404
from django.urls import reverse
from django.utils.formats import date_format
from django.utils.timezone import localtime
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST, require_safe

from prefscore.web.htmx import HtmxHttpRequest, redirect_to, render_page
from prefscore.web.integers import request_int

from . import players
from .models import Club, Player, PlayerEvent
from .names import display_name, isolate
from .permissions import ADMINS, club_and_role_for

# The history shows the latest changes; it only grows.
EVENTS_SHOWN = 50

_SENTENCES: dict[str, Any] = {
    PlayerEvent.Action.JOINED: gettext_lazy(
        "%(account)s joined the club as the player %(player)s."
    ),
    PlayerEvent.Action.CLAIMED: gettext_lazy(
        "%(account)s joined the club as the guest %(player)s: the guest's pulkas are hers now."
    ),
    PlayerEvent.Action.LINKED: gettext_lazy(
        "The guest %(player)s is linked to the account %(account)s."
    ),
    PlayerEvent.Action.UNLINKED: gettext_lazy(
        "%(player)s is no longer linked to the account %(account)s: a guest again."
    ),
    PlayerEvent.Action.MERGED: gettext_lazy(
        "%(dropped)s is merged into %(kept)s: every seat and entry is %(kept)s's now."
    ),
}
_EMPTY_REMOVED = gettext_lazy(
    "The empty player %(dropped)s of the account %(account)s gave way to a linked guest."
)


@dataclass(frozen=True)
class EventLine:
    """One change to the players, in words, with who and when."""

    at: str
    by: str
    text: str


@dataclass(frozen=True)
class PlayerRow:
    player: Player
    account: str
    pulkas: int


def event_lines(events: list[PlayerEvent]) -> list[EventLine]:
    """The history in the page's language: the names as they were at the time."""
    lines = []
    for event in events:
        details: dict[str, Any] = {
            key: "" for key in ("player", "account", "by", "kept", "dropped")
        } | (event.details or {})
        template = _EMPTY_REMOVED if details.get("empty") else _SENTENCES.get(event.action)
        text = str(template) % details if template else event.action
        lines.append(
            EventLine(
                at=date_format(localtime(event.at), "SHORT_DATETIME_FORMAT"),
                by=details["by"] or "—",
                text=text,
            )
        )
    return lines


def _context(club: Club, role: str) -> dict[str, object]:
    rows = [
        PlayerRow(player, player.user.get_username() if player.user else "", player.pulkas)
        for player in club.players.select_related("user").annotate(
            pulkas=Count("seats", distinct=True)
        )
    ]
    members = sorted(
        (m.user for m in club.memberships.select_related("user")),
        key=lambda user: user.get_username().lower(),
    )
    events = list(club.player_events.order_by("-at", "-pk")[:EVENTS_SHOWN])
    return {
        "club": club,
        "role": role,
        "rows": rows,
        "guests": [row.player for row in rows if row.player.user_id is None],
        "members": members,
        "events": event_lines(events),
    }


def _after_change(request: HtmxHttpRequest, club: Club, role: str) -> HttpResponse:
    if not request.htmx:
        return redirect_to(request, reverse("members:players", args=[club.slug]))
    return render_page(request, "clubs/players.html", _context(club, role), "players")


def _apply(request: HtmxHttpRequest, change: Any, done: str) -> None:
    """Run one change; its outcome, or the rules' refusal, as a message."""
    try:
        change()
    except players.PlayersRefused as error:
        messages.error(request, str(error))
    else:
        messages.success(request, done)


@login_required
@require_safe
def player_list(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    """The club's players, whose accounts they are, the tools and the history."""
    club, role = club_and_role_for(request, slug, roles=ADMINS)
    return render_page(request, "clubs/players.html", _context(club, role))


@login_required
@require_POST
def link(request: HtmxHttpRequest, slug: str, pk: int) -> HttpResponse:
    club, role = club_and_role_for(request, slug, roles=ADMINS)
    player = get_object_or_404(club.players, pk=pk)
    account_pk = request_int(request.POST.get("account"))
    membership = club.memberships.select_related("user").filter(user=account_pk).first()
    if membership is None:
        messages.error(request, _("Choose a member of the club to link to."))
        return _after_change(request, club, role)
    account = membership.user
    done = _("%(player)s is now the player of %(account)s.") % {
        "player": isolate(player.name),
        "account": isolate(display_name(account)),
    }
    _apply(request, lambda: players.link(player, account, request.user), done)
    return _after_change(request, club, role)


@login_required
@require_POST
def unlink(request: HtmxHttpRequest, slug: str, pk: int) -> HttpResponse:
    club, role = club_and_role_for(request, slug, roles=ADMINS)
    player = get_object_or_404(club.players, pk=pk)
    done = _("%(player)s is a guest again.") % {"player": isolate(player.name)}
    _apply(request, lambda: players.unlink(player, request.user), done)
    return _after_change(request, club, role)


@login_required
@require_POST
def merge(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    club, role = club_and_role_for(request, slug, roles=ADMINS)
    keep_pk, drop_pk = request_int(request.POST.get("keep")), request_int(request.POST.get("drop"))
    found = {p.pk: p for p in club.players.filter(pk__in=[keep_pk, drop_pk])}
    keep, drop = found.get(keep_pk or 0), found.get(drop_pk or 0)
    if keep is None or drop is None:
        messages.error(request, _("Choose the player to keep and the player to merge into it."))
        return _after_change(request, club, role)
    done = _("%(drop)s is merged into %(keep)s.") % {"drop": drop.name, "keep": keep.name}
    _apply(request, lambda: players.merge(keep, drop, request.user), done)
    return _after_change(request, club, role)
