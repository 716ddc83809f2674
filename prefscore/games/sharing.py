"""A finished pulka's result made public by a link (docs/design.md, "Sharing a result").

The link is the spectator link's kind (``joining``): a random code of 128 bits in the
pulka's :class:`~prefscore.games.models.TableLinks`, signed with the site's secret under a
salt of its own, so that a guessed or altered link costs no query and a spectator
link's token opens no result. It shows the result and its card, nothing else: no
protocol, no account, no other pulka. Sharing again makes a new code (the old link
dies); taking it back clears the code, and the page and the card answer 404 at once.
Who may share: the players seated at the table and the club's admins
(``joining.may_manage_links``); each share and each revocation is a line of the
pulka's audit trail.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils.crypto import constant_time_compare

from . import joining
from .models import AuditEvent, Pulka, TableLinks, _link_code
from .services import audit

RESULT_SALT = "prefscore.result"


class NotFinished(Exception):
    """Only a finished pulka's result is shared: a running one changes still."""


def result_token(links: TableLinks | None) -> str | None:
    """The public link's token, or None while the result is not shared."""
    if links is None or not links.result_code:
        return None
    return joining.sign_code(RESULT_SALT, links.result_code)


def pulka_for_result(token: str) -> Pulka | None:
    """The finished pulka a result link shows, with its club: one query; none at all for
    a link whose signature fails. None for a link unknown, taken back, or of a pulka
    that is no longer finished (a correction reopened it)."""
    code = joining.unsign_code(RESULT_SALT, token)
    if code is None:
        return None
    links = (
        TableLinks.objects.select_related("pulka__club")
        .filter(result_code=code, pulka__status=Pulka.Status.FINISHED)
        .first()
    )
    if links is None or not constant_time_compare(links.result_code or "", code):
        return None
    return links.pulka


def share_result(pulka: Pulka, user: Any) -> TableLinks:
    """A new public link to the result (an earlier one stops working)."""
    if pulka.status != Pulka.Status.FINISHED:
        raise NotFinished
    return _set_code(pulka, user, _link_code(), AuditEvent.Action.SHARED)


def revoke_result(pulka: Pulka, user: Any) -> TableLinks:
    """No public link any more: whoever holds the old one sees "no such page"."""
    return _set_code(pulka, user, None, AuditEvent.Action.UNSHARED)


def _set_code(pulka: Pulka, user: Any, code: str | None, action: str) -> TableLinks:
    with transaction.atomic():
        joining.links_of(pulka)
        links = TableLinks.objects.select_for_update().get(pulka=pulka)
        if code is None and links.result_code is None:
            return links  # nothing shared: nothing to take back, nothing to write
        links.result_code = code
        links.save(update_fields=["result_code"])
        audit(pulka, action, user)
    return links
