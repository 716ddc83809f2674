"""Who may do what in a club: the one place where roles are compared.

Roles rise member < organiser < admin, and each includes the rights below it:

- member: records and views the club's pulkas;
- organiser: also runs the club's tournaments;
- admin: also manages members and invitations, conventions and the club's settings.

The site's Django superuser runs the Django admin; in a club's own pages he is an
outsider unless he is also a member (clubs see only their own data).

Views look clubs up here (``club_for``, ``club_and_role_for``) and pulkas through
``prefscore.games.access`` (``pulka_for``): 404 for an unknown object, 403 for a role
too low; pass one of the tuples below, e.g. ``club_for(request, slug, roles=ADMINS)``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.core.exceptions import PermissionDenied
from django.http import HttpRequest
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _

from .models import Club, Role

if TYPE_CHECKING:
    from django.contrib.auth.models import AbstractBaseUser, AnonymousUser

RANK = {Role.MEMBER: 1, Role.ORGANISER: 2, Role.ADMIN: 3}


def at_least(role: str) -> tuple[str, ...]:
    """The roles that include ``role``'s rights, lowest first."""
    return tuple(r.value for r in Role if RANK[r] >= RANK[Role(role)])


MEMBERS = at_least(Role.MEMBER)
ORGANISERS = at_least(Role.ORGANISER)
ADMINS = at_least(Role.ADMIN)


def require_role(club: Club, user: AbstractBaseUser | AnonymousUser, *roles: str) -> str:
    """The user's role in the club if it is one of ``roles`` (any role when none given).

    Raises PermissionDenied (403) for an outsider or a role too low.
    """
    role = club.role_of(user)
    if role is None or (roles and role not in roles):
        raise PermissionDenied(_("You may not do this in this club."))
    return role


def may(role: str | None, roles: tuple[str, ...]) -> bool:
    """Whether someone with ``role`` (None: outsider) has one of ``roles``: for templates."""
    return role is not None and role in roles


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

    ``roles``: one of the tuples above (MEMBERS, ORGANISERS, ADMINS), which hold the
    rules of who may do what.
    """
    club = get_object_or_404(Club, slug=slug)
    return club, require_role(club, request.user, *roles)
