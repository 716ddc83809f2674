"""The sheet's "join this table" panel: the join link, the spectator link, their QR codes.

Built for ``games/_join.html`` (through ``{% join_panel %}``, so that the sheet page needs
one include line): three queries, whatever the deals. The links are absolute, as a phone
that scans the code needs them.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.http import HttpRequest
from django.urls import reverse
from django.utils.translation import gettext as _

from .. import joining
from ..models import Pulka
from ..trail import Seating


@dataclass(frozen=True)
class JoinPanel:
    pulka_id: int
    join: joining.QrCode
    spectator: joining.QrCode | None  # None: the table has no spectator link
    spectators_allowed: bool  # the club's switch (Club.allow_spectators)
    may_manage: bool  # a club admin or a player at this table
    open: bool  # shown unfolded: just after a change of the links (``?links=open``)


def join_url(request: HttpRequest, token: str) -> str:
    return request.build_absolute_uri(reverse("games:join", args=[token]))


def watch_url(request: HttpRequest, token: str) -> str:
    return request.build_absolute_uri(reverse("games:watch", args=[token]))


def join_panel(request: HttpRequest, pulka: Pulka) -> JoinPanel:
    """The panel for a member looking at the sheet of ``pulka``."""
    links = joining.links_of(pulka)
    role = pulka.club.role_of(request.user)
    allowed = pulka.club.allow_spectators
    token = joining.spectator_token(links) if allowed else None
    spectator = None
    if token is not None:
        spectator = joining.qr_code(
            watch_url(request, token), _("QR code of the spectator link of this table")
        )
    return JoinPanel(
        pulka_id=pulka.pk,
        join=joining.qr_code(
            join_url(request, joining.join_token(links)), _("QR code of the link to this table")
        ),
        spectator=spectator,
        spectators_allowed=allowed,
        may_manage=joining.may_manage_links(pulka, request.user, role, Seating.of(pulka)),
        open=request.method == "POST" or request.GET.get("links") == "open",
    )
