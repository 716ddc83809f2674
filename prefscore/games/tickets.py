"""Poll tickets: how a device asks "anything new?" without loading its session.

A ticket is signed for one user and one pulka when the sheet is shown, and lives a
playing evening (design.md, "How a deal flows", step 6).
"""

from __future__ import annotations

from urllib.parse import urlencode

from django.core.signing import BadSignature, TimestampSigner
from django.urls import reverse

from .models import Pulka

POLL_TICKET_SALT = "prefscore.poll"
POLL_TICKET_AGE = 12 * 60 * 60


def poll_url(pulka: Pulka, user_id: object) -> str:
    """The poll address with the version shown and this device's signed ticket."""
    ticket = TimestampSigner(salt=POLL_TICKET_SALT).sign(f"{pulka.pk}.{user_id}")
    query = urlencode({"v": pulka.version, "t": ticket})
    return f"{reverse('games:poll', args=[pulka.pk])}?{query}"


def ticket_user(ticket: str, pk: int) -> str | None:
    """The user id a valid ticket for pulka ``pk`` was issued to, else None."""
    try:
        value = TimestampSigner(salt=POLL_TICKET_SALT).unsign(ticket, max_age=POLL_TICKET_AGE)
    except BadSignature:
        return None
    pulka_id, _dot, user_id = value.partition(".")
    return user_id if pulka_id == str(pk) and user_id.isdigit() else None
