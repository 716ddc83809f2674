"""Who may see or change a pulka: always through the club that owns it.

Every games view looks its pulka up here, so no view can leak another club's data:
unknown id → 404, a pulka of a club the user is not in → 403. Clubs themselves are
looked up by ``prefscore.clubs.permissions`` (``club_for``, ``club_and_role_for``),
named here too for the views that need both.
"""

from __future__ import annotations

from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _

from prefscore.clubs.permissions import club_and_role_for, club_for

from .models import Pulka, PulkaSeat
from .viewer import read_sheet, remember_role, role_in_club, viewer_role_of


def pulka_for(request: HttpRequest, pk: int, *, change: bool = False) -> Pulka:
    """The pulka if the signed-in user belongs to its club, else 404/403.

    ``change`` asks for the right to record: any member may record in his club's
    pulkas (issue 7: member "records and views the club's pulkas").
    """
    rows = Pulka.objects.select_related("club")
    if request.user.is_authenticated:  # the role in the same query (issue 16)
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
    with the screen (``viewer.read_sheet``)."""
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


__all__ = ["Http404", "club_and_role_for", "club_for", "pulka_and_seats_for", "pulka_for"]
