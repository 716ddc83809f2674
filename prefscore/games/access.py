"""Who may see or change a pulka: always through the club that owns it.

Every games view looks its pulka up here, so no view can leak another club's data:
unknown id → 404, a pulka of a club the user is not in → 403.
"""

from __future__ import annotations

from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _

from prefscore.clubs.models import Club
from prefscore.clubs.permissions import require_role

from .models import Pulka


def pulka_for(request: HttpRequest, pk: int, *, change: bool = False) -> Pulka:
    """The pulka if the signed-in user belongs to its club, else 404/403.

    ``change`` asks for the right to record: any member may record in his club's
    pulkas (issue 7: member "records and views the club's pulkas").
    """
    pulka = get_object_or_404(Pulka.objects.select_related("club"), pk=pk)
    role = pulka.club.role_of(request.user)
    if role is None:
        raise PermissionDenied(_("This pulka belongs to a club you are not a member of."))
    if change and pulka.status == Pulka.Status.ARCHIVED:
        raise PermissionDenied(_("This pulka is archived."))
    return pulka


def club_for(request: HttpRequest, slug: str, *, roles: tuple[str, ...] = ()) -> Club:
    """The club if the user is a member (with one of ``roles`` when given), else 404/403."""
    club = get_object_or_404(Club, slug=slug)
    role = club.role_of(request.user)
    if role is None or (roles and role not in roles):
        raise PermissionDenied(_("You may not do this in this club."))
    return club


def club_and_role_for(
    request: HttpRequest, slug: str, *, roles: tuple[str, ...] = ()
) -> tuple[Club, str]:
    """Like :func:`club_for`, and the user's role too (for pages that show more to admins).

    ``roles``: one of the tuples of ``prefscore.clubs.permissions`` (MEMBERS, ORGANISERS,
    ADMINS), which holds the rules of who may do what.
    """
    club = get_object_or_404(Club, slug=slug)
    return club, require_role(club, request.user, *roles)


__all__ = ["Http404", "club_and_role_for", "club_for", "pulka_for"]
