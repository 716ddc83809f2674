"""A table's join link and spectator link (docs/design.md, "Joining a table, and watching it").

Each link carries a random code of the pulka's :class:`~prefscore.games.models.TableLinks`,
signed with the site's secret (``django.core.signing``, a salt per kind of link):

- the signature is checked, in constant time, before the database is asked anything, so
  a guessed or altered link costs no query and tells nothing, and codes read from a
  database backup open nothing without the secret key;
- the code is 128 random bits and names nothing: no pulka id, no club, no player;
- changing the code (``rotate_join_code``, ``open_spectator_link``) or clearing it
  (``revoke_spectator_link``) kills every copy of the old link at once.

The join link takes a member of the club to the sheet and offers anyone else the way to
ask for membership (``prefscore.clubs.membership_requests``). The spectator link shows
the sheet read-only, while the club allows spectators (``Club.allow_spectators``).
Who may change the links: the club's admins and the players seated at the table.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import segno
from django.core.signing import BadSignature, Signer
from django.db import connection, transaction
from django.db.models.signals import post_save
from django.utils import timezone
from django.utils.crypto import constant_time_compare
from django.utils.safestring import SafeString, mark_safe

from prefscore.clubs.models import Club, Role

from . import events
from .models import Pulka, TableLinks, _link_code
from .seating import Seating

JOIN_SALT = "prefscore.join"
SPECTATOR_SALT = "prefscore.spectator"


class SpectatorsOff(Exception):
    """The club has switched spectator links off."""


def links_of(pulka: Pulka) -> TableLinks:
    """The pulka's links, made with a fresh join code the first time they are asked for."""
    links, _ = TableLinks.objects.get_or_create(pulka=pulka)
    return links


def sign_code(salt: str, code: str) -> str:
    return Signer(salt=salt).sign(code)


def unsign_code(salt: str, token: str) -> str | None:
    """The code a link carries if its signature holds (checked in constant time)."""
    if not isinstance(token, str) or len(token) > 200:
        return None
    try:
        code = Signer(salt=salt).unsign(token)
    except BadSignature:
        return None
    return code or None


def join_token(links: TableLinks) -> str:
    return sign_code(JOIN_SALT, links.join_code)


def spectator_token(links: TableLinks) -> str | None:
    """The spectator link's token, or None when the table has none."""
    return sign_code(SPECTATOR_SALT, links.spectator_code) if links.spectator_code else None


def pulka_for_join(token: str) -> Pulka | None:
    """The pulka a join link opens, with its club; None for a link that no longer works."""
    code = unsign_code(JOIN_SALT, token)
    if code is None:
        return None
    links = TableLinks.objects.select_related("pulka__club").filter(join_code=code).first()
    if links is None or not constant_time_compare(links.join_code, code):
        return None
    return links.pulka


def pulka_for_spectator(token: str) -> Pulka | None:
    """The pulka a spectator link shows, with its club: one query.

    None for a link unknown or revoked; raises SpectatorsOff when the club has switched
    spectators off (the link itself still holds, and works again if they are switched on).
    """
    code = unsign_code(SPECTATOR_SALT, token)
    if code is None:
        return None
    links = TableLinks.objects.select_related("pulka__club").filter(spectator_code=code).first()
    if links is None or not constant_time_compare(links.spectator_code or "", code):
        return None
    if not links.pulka.club.allow_spectators:
        raise SpectatorsOff
    return links.pulka


def spectator_version(token: str) -> int | None:
    """The version of the pulka a live spectator link shows, else None: the poll's one
    query (no query at all for a link whose signature fails)."""
    found = _spectator_row(token)
    return None if found is None else found[1]


def spectator_table(token: str) -> tuple[int, int] | None:
    """The id and version of the pulka a live spectator link shows, else None (its event
    stream): one query, none for a link whose signature fails."""
    return _spectator_row(token)


def _spectator_row(token: str) -> tuple[int, int] | None:
    code = unsign_code(SPECTATOR_SALT, token)
    if code is None:
        return None
    found = (
        TableLinks.objects.filter(spectator_code=code, pulka__club__allow_spectators=True)
        .values_list("spectator_code", "pulka_id", "pulka__version")
        .first()
    )
    if found is None or not constant_time_compare(found[0] or "", code):
        return None
    return int(found[1]), int(found[2])


# --- the spectator's stream hears a link revoked at once (games/streams.py) ------------

LINKS = "links"


def links_key(pulka_id: int) -> str:
    """The key a spectator's stream watches beside the pulka's: its link and the club's
    switch."""
    return f"{LINKS}:{int(pulka_id)}"


def read_links(ids: list[str]) -> dict[str, object]:
    """Per pulka: its spectator code and whether its club allows spectators (the SQLite
    watcher's reader; one query)."""
    numbers = [int(name) for name in ids if name.isdigit()]
    rows = TableLinks.objects.filter(pulka_id__in=numbers).values_list(
        "pulka_id", "spectator_code", "pulka__club__allow_spectators"
    )
    return {str(pk): (code, allowed) for pk, code, allowed in rows}


def _links_saved(sender: type, instance: TableLinks, **kwargs: Any) -> None:
    events.announce(links_key(instance.pulka_id))


def _club_saved(sender: type, instance: Club, **kwargs: Any) -> None:
    """Spectators switched off: every open spectator stream of the club hears it."""
    if instance.allow_spectators or connection.vendor != "postgresql":
        return  # the SQLite watcher reads the switch (read_links)
    shown = TableLinks.objects.filter(pulka__club=instance, spectator_code__isnull=False)
    for pulka_id in shown.values_list("pulka_id", flat=True):
        events.announce(links_key(pulka_id))


def connect() -> None:
    """The reader for the watcher (SQLite) and the announcements (PostgreSQL)."""
    events.register(LINKS, read_links, seconds=1.0)  # a revoked link: within a second
    post_save.connect(_links_saved, sender=TableLinks, dispatch_uid="games.joining.links")
    post_save.connect(_club_saved, sender=Club, dispatch_uid="games.joining.club")


def may_manage_links(pulka: Pulka, user: Any, role: str | None, seating: Seating) -> bool:
    """Club admins and the players seated at the table may change the table's links."""
    return role == Role.ADMIN or bool(seating.of_user(user))


def rotate_join_code(pulka: Pulka, user: Any) -> TableLinks:
    """A new join code: the old link and its QR code stop working."""
    with transaction.atomic():
        links = _locked(pulka)
        links.join_code = _link_code()
        links.join_changed_at = timezone.now()
        links.join_changed_by = user
        links.save(update_fields=["join_code", "join_changed_at", "join_changed_by"])
    return links


def open_spectator_link(pulka: Pulka, user: Any) -> TableLinks:
    """A new spectator link (any earlier one stops working); SpectatorsOff if the club
    does not allow them."""
    if not pulka.club.allow_spectators:
        raise SpectatorsOff
    return _set_spectator_code(pulka, user, _link_code())


def revoke_spectator_link(pulka: Pulka, user: Any) -> TableLinks:
    """No spectator link any more: whoever holds the old one sees "no such page"."""
    return _set_spectator_code(pulka, user, None)


def _set_spectator_code(pulka: Pulka, user: Any, code: str | None) -> TableLinks:
    with transaction.atomic():
        links = _locked(pulka)
        links.spectator_code = code
        links.spectator_changed_at = timezone.now()
        links.spectator_changed_by = user
        links.save(update_fields=["spectator_code", "spectator_changed_at", "spectator_changed_by"])
    return links


def _locked(pulka: Pulka) -> TableLinks:
    links_of(pulka)
    return TableLinks.objects.select_for_update().get(pulka=pulka)


@dataclass(frozen=True)
class QrCode:
    """A link and its QR code as inline SVG, for the sheet's panel."""

    url: str
    svg: SafeString


def qr_svg(url: str, label: str) -> SafeString:
    """The QR code of ``url`` as inline SVG, drawn on the server (segno): no script, no
    style attribute (the CSP allows neither), named for screen readers by ``label``."""
    code = segno.make(url, error="m")
    svg = code.svg_inline(
        scale=1,
        border=4,
        dark="#000",
        light="#fff",
        omitsize=True,
        svgclass="qr__code",
        lineclass=None,
        title=label,
    )
    # The <title> names the image; role="img" makes readers announce it as one.
    return mark_safe(svg.replace("<svg ", '<svg role="img" ', 1))  # segno escapes the title


def qr_code(url: str, label: str) -> QrCode:
    return QrCode(url, qr_svg(url, label))
