"""Poll tickets (docs/design.md, "How a deal flows", step 6).

How a device asks "anything new?" without loading its session. A ticket is signed for
one user and one pulka when the sheet is shown, and lives a playing evening at most.
It is also sealed to the session it was shown in and to the account's password: the
seal is an HMAC of the session key (the device's cookie, never put in the URL) and the
password hash. The poll's one query reads both, so a ticket stops giving answers the
moment its session ends (signing out, expiry) or its password changes, and a copied
ticket is worthless without the session cookie beside it.
"""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import urlencode

from django.core.signing import BadSignature, TimestampSigner
from django.http import HttpRequest
from django.urls import reverse
from django.utils.crypto import constant_time_compare, salted_hmac

from .models import Pulka

POLL_TICKET_SALT = "prefscore.poll"
POLL_TICKET_AGE = 12 * 60 * 60
SEAL_SALT = "prefscore.poll.seal"


@dataclass(frozen=True)
class Claim:
    """What a valid ticket says: whose it is, and the seal of its session and password."""

    user_id: str
    seal: str


def seal(session_key: str, password_hash: str) -> str:
    return salted_hmac(SEAL_SALT, f"{session_key}:{password_hash}").hexdigest()[:24]


def issue(pulka: Pulka, user_id: object, session_key: str, password_hash: str) -> str:
    """A ticket for ``user_id`` on ``pulka``, sealed to this session and password."""
    value = f"{pulka.pk}.{user_id}.{seal(session_key, password_hash)}"
    return TimestampSigner(salt=POLL_TICKET_SALT).sign(value)


def ticket_for(request: HttpRequest, pulka: Pulka) -> str:
    """The ticket of the signed-in user of ``request``, for the sheet being shown."""
    user = request.user
    key = request.session.session_key or ""
    return issue(pulka, user.pk, key, getattr(user, "password", ""))


def poll_url(pulka: Pulka, ticket: str) -> str:
    """The poll address with the version shown and this device's signed ticket."""
    query = urlencode({"v": pulka.version, "t": ticket})
    return f"{reverse('games:poll', args=[pulka.pk])}?{query}"


def claim(ticket: str, pk: int) -> Claim | None:
    """What a valid, unexpired ticket for pulka ``pk`` claims, else None."""
    try:
        value = TimestampSigner(salt=POLL_TICKET_SALT).unsign(ticket, max_age=POLL_TICKET_AGE)
    except BadSignature:
        return None
    pulka_id, user_id, sealed = (value.split(".") + ["", ""])[:3]
    if pulka_id != str(pk) or not user_id.isdigit() or not sealed:
        return None
    return Claim(user_id, sealed)


def holds(claim: Claim, session_key: str, password_hash: str) -> bool:
    """Whether the ticket was sealed to this session and this password."""
    return constant_time_compare(claim.seal, seal(session_key, password_hash))
