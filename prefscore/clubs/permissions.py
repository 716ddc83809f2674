"""Who may do what in a club: the one place where roles are compared.

Roles rise member < organiser < admin, and each includes the rights below it:

- member: records and views the club's pulkas;
- organiser: also runs the club's tournaments;
- admin: also manages members and invitations, conventions and the club's settings.

The site's Django superuser runs the Django admin; in a club's own pages he is an
outsider unless he is also a member (clubs see only their own data).

Views look clubs and pulkas up through ``prefscore.games.access`` (``club_for``,
``pulka_for``), which raises 404 for an unknown object and 403 for a role too low;
pass it one of the tuples below, e.g. ``club_for(request, slug, roles=ADMINS)``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.core.exceptions import PermissionDenied
from django.utils.translation import gettext as _

from .models import Role

if TYPE_CHECKING:
    from django.contrib.auth.models import AbstractBaseUser, AnonymousUser

    from .models import Club

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
