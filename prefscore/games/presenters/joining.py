"""The sheet's "join this table" panel: the join link, the spectator link, their QR codes.

Built for ``games/_join.html`` (through ``{% join_panel %}``, so that the sheet page needs
one include line): three queries, whatever the deals. The links are absolute, as a phone
that scans the code needs them.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from urllib.parse import urljoin

from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest
from django.urls import reverse
from django.utils.translation import gettext as _

from .. import joining, render_cache
from ..access import role_in_club
from ..models import Pulka, TableLinks
from ..seating import Seating


@dataclass(frozen=True)
class JoinPanel:
    pulka_id: int
    join: joining.QrCode
    spectator: joining.QrCode | None  # None: the table has no spectator link
    spectators_allowed: bool  # the club's switch (Club.allow_spectators)
    may_manage: bool  # a club admin or a player at this table
    open: bool  # shown unfolded: just after a change of the links (``?links=open``)


def absolute(request: HttpRequest, path: str) -> str:
    """The address a phone scanning the code opens: under ``PUBLIC_URL`` when it is set
    (``make run``: the machine's LAN address, even on a page opened at 127.0.0.1), else
    where this page was asked."""
    if settings.PUBLIC_URL:
        return urljoin(settings.PUBLIC_URL, path)
    return request.build_absolute_uri(path)


def join_url(request: HttpRequest, token: str) -> str:
    return absolute(request, reverse("games:join", args=[token]))


def watch_url(request: HttpRequest, token: str) -> str:
    return absolute(request, reverse("games:watch", args=[token]))


def qr_code(url: str, label: str) -> joining.QrCode:
    """The link's QR code, drawn once and kept in the cache: drawing one costs a sheet
    page several milliseconds (segno's masks), and it depends on nothing but the link
    and its label, so every device and version shares it. Under DEBUG, drawn each time
    (docs/design.md, "How the table screen is cached")."""
    if settings.DEBUG:
        return joining.qr_code(url, label)
    digest = hashlib.blake2b(f"{url}\n{label}".encode(), digest_size=12).hexdigest()
    name = f"prefscore.{render_cache.release()}.qr.{digest}"
    found = cache.get(name)
    if not isinstance(found, joining.QrCode) or found.url != url:
        found = joining.qr_code(url, label)
        cache.set(name, found)
    return found


def read_with_pulka(pulka: Pulka) -> TableLinks:
    """The links a query read with the pulka just now (``access.pulka_and_seats_for``); made
    if the table has none yet. Only right after that query: a change of the links made
    since (``joining.rotate_join_code``…) is not in the pulka's copy."""
    try:
        return pulka.links
    except TableLinks.DoesNotExist:
        return joining.links_of(pulka)


def join_panel(
    request: HttpRequest,
    pulka: Pulka,
    seating: Seating | None = None,
    links: TableLinks | None = None,
) -> JoinPanel:
    """The panel for a member looking at the sheet of ``pulka``; ``seating`` and
    ``links`` spare their queries when the sheet's view has them already."""
    links = links if links is not None else joining.links_of(pulka)
    role = role_in_club(request, pulka.club)
    allowed = pulka.club.allow_spectators
    token = joining.spectator_token(links) if allowed else None
    spectator = None
    if token is not None:
        spectator = qr_code(
            watch_url(request, token), _("QR code of the spectator link of this table")
        )
    seating = seating if seating is not None else Seating.of(pulka)
    return JoinPanel(
        pulka_id=pulka.pk,
        join=qr_code(
            join_url(request, joining.join_token(links)), _("QR code of the link to this table")
        ),
        spectator=spectator,
        spectators_allowed=allowed,
        may_manage=joining.may_manage_links(pulka, request.user, role, seating),
        open=request.method == "POST" or request.GET.get("links") == "open",
    )
