"""Who may see or change a pulka, and who is looking: always through the club that owns it.

Every games view looks its pulka up here, so no view can leak another club's data:
unknown id → 404, a pulka of a club the user is not in → 403. Clubs themselves are
looked up by ``prefscore.clubs.permissions`` (``club_for``, ``club_and_role_for``),
named here too for the views that need both. Here too: the viewer's role, asked once
per request; who applies an arbiter's decision (4.2.16) and writes manual entries
(docs/rules.md §3.11.8). The sheet's one query is ``sheet_read``; who sits where,
``seating``; the poll's tickets, ``poll_tickets``; the pencil rule (Кодекс 4.2.8),
``pencil``.
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import PermissionDenied
from django.db.models import OuterRef, Subquery
from django.http import Http404, HttpRequest
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _

from prefscore.clubs.models import Club, Membership, Role
from prefscore.clubs.permissions import club_and_role_for, club_for

from .models import Pulka, PulkaSeat
from .sheet_read import read_sheet


def pulka_for(request: HttpRequest, pk: int, *, change: bool = False) -> Pulka:
    """The pulka if the signed-in user belongs to its club, else 404/403.

    ``change`` asks for the right to record: any member may record in his club's
    pulkas (docs/accounts.md: a member "records and views the club's pulkas").
    """
    rows = Pulka.objects.select_related("club")
    if request.user.is_authenticated:  # the role in the same query
        rows = rows.annotate(viewer_role=viewer_role_of(request.user))
    pulka = get_object_or_404(rows, pk=pk)
    if request.user.is_authenticated:
        remember_role(request, pulka.club, pulka.viewer_role)  # type: ignore[attr-defined]
    return _checked(request, pulka, change)


def pulka_and_seats_for(
    request: HttpRequest, pk: int, *, change: bool = False
) -> tuple[Pulka, tuple[PulkaSeat, ...]]:
    """:func:`pulka_for`'s pulka and checks (``change`` too), with its links and its
    seats: one query for the sheet's every request and for a record, which answers
    with the screen (``read_sheet``)."""
    if not request.user.is_authenticated:
        pulka = pulka_for(request, pk, change=change)
        return pulka, tuple(PulkaSeat.objects.filter(pulka=pulka).select_related("player"))
    found = read_sheet(request.user.pk, pk)
    if found is None:
        raise Http404
    pulka, seats, role = found
    remember_role(request, pulka.club, role)
    return _checked(request, pulka, change), seats


def _checked(request: HttpRequest, pulka: Pulka, change: bool) -> Pulka:
    role = role_in_club(request, pulka.club)  # asked once per request
    if role is None:
        raise PermissionDenied(_("This pulka belongs to a club you are not a member of."))
    if change and pulka.status == Pulka.Status.ARCHIVED:
        raise PermissionDenied(_("This pulka is archived."))
    return pulka


# --- who is looking, asked once per request --------------------------------------
#
# The sheet's screen asks the viewer's role in the pulka's club in several places (the
# access check, the abandon panel, the join panel); each asking was a query. The answer
# is kept on the request, so it is asked once per request and never outlives it: a role
# changed by another request is seen on the next one.

_MEMO = "_prefscore_roles"


def role_in_club(request: HttpRequest, club: Club) -> str | None:
    """The signed-in user's role in ``club`` (``Club.role_of``), one query per request."""
    memo: dict[tuple[Any, Any], str | None] = request.__dict__.setdefault(_MEMO, {})
    key = (club.pk, getattr(request.user, "pk", None))
    if key not in memo:
        memo[key] = club.role_of(request.user)
    return memo[key]


def viewer_role_of(user: Any) -> Subquery:
    """The user's role in the club of the pulka a query reads, as a column of that query
    (``Club.role_of``'s answer, without a query of its own)."""
    roles = Membership.objects.filter(club_id=OuterRef("club_id"), user_id=user.pk)
    return Subquery(roles.order_by("pk").values("role")[:1])


def remember_role(request: HttpRequest, club: Club, role: str | None) -> None:
    """What a query read of the user's role in ``club`` (``viewer_role_of``)."""
    memo: dict[tuple[Any, Any], str | None] = request.__dict__.setdefault(_MEMO, {})
    memo[(club.pk, getattr(request.user, "pk", None))] = role


# --- who applies decisions and writes manual entries -----------------------------


def may_arbitrate(pulka: Pulka, user: Any) -> bool:
    """In tournament pulkas organisers and admins apply arbiters' decisions (4.2.16)."""
    return pulka.tournament_id is not None and pulka.club.role_of(user) in (
        Role.ORGANISER,
        Role.ADMIN,
    )


def may_write_as(pulka: Pulka, role: str | None) -> bool:
    """Whether a member of ``role`` may write manual entries in this pulka (§3.11.8)."""
    if role == Role.ADMIN:
        return True
    return pulka.tournament_id is not None and role == Role.ORGANISER


__all__ = ["Http404", "club_and_role_for", "club_for", "pulka_and_seats_for", "pulka_for"]
