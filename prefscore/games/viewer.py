"""Who is looking, asked once per request (issue 16).

The sheet's screen asks the viewer's role in the pulka's club in several places (the
access check, the abandon panel, the join panel); each asking was a query. The answer
is kept on the request, so it is asked once per request and never outlives it: a role
changed by another request is seen on the next one.
"""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest

from prefscore.clubs.models import Club

_MEMO = "_prefscore_roles"


def role_in_club(request: HttpRequest, club: Club) -> str | None:
    """The signed-in user's role in ``club`` (``Club.role_of``), one query per request."""
    memo: dict[tuple[Any, Any], str | None] = request.__dict__.setdefault(_MEMO, {})
    key = (club.pk, getattr(request.user, "pk", None))
    if key not in memo:
        memo[key] = club.role_of(request.user)
    return memo[key]


def forget_roles(request: HttpRequest) -> None:
    """Drop what was asked: for a view that changes a membership and shows it again."""
    request.__dict__.pop(_MEMO, None)
