"""Who is looking, asked once per request (issue 16).

The sheet's screen asks the viewer's role in the pulka's club in several places (the
access check, the abandon panel, the join panel); each asking was a query. The answer
is kept on the request, so it is asked once per request and never outlives it: a role
changed by another request is seen on the next one.
"""

from __future__ import annotations

from typing import Any

from django.db.models import OuterRef, Subquery
from django.http import HttpRequest

from prefscore.clubs.models import Club, Membership

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
