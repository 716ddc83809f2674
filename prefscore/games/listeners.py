"""Who holds an event stream, and when he no longer does (docs/push.md).

A stream opened by a signed-in page belongs to the session that opened it, not only to
its account: signing out (that session ends), a changed password (the account's every
other session ends with it), a deactivated account and a lost membership end the stream.
Each is checked at every change the stream hears (``streams.held``), and each is itself a
change the stream hears, so that it ends at once:

- on PostgreSQL, ``"account:<id>"`` is announced (``NOTIFY``) when the account is saved
  (a password, ``is_active``), when one of its memberships is saved or deleted, and when
  one of its sessions is deleted (signing out, a password changed here: Django deletes
  the session row, and the row names its account);
- on SQLite, the watcher reads each listening account's password, state and memberships,
  and whether each listening session still lives (the readers below).

A stream opened without a session (a spectator link, a public projector) has no account
to lose; its screen's own check is all there is.
"""

from __future__ import annotations

import ipaddress
import logging
from dataclasses import dataclass
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.sessions.models import Session
from django.db.models import Exists
from django.db.models.signals import post_delete, post_save
from django.http import HttpRequest
from django.utils import timezone

from prefscore.clubs.models import Membership
from prefscore.clubs.ratelimit import client_address

from . import events

logger = logging.getLogger(__name__)

ACCOUNT, SESSION = "account", "session"
# How often the SQLite watcher reads the listeners' accounts and sessions: a second is
# "at once" for a sign-out, and costs a fifth of reading them with the versions.
READ_SECONDS = 1.0


@dataclass(frozen=True)
class Listener:
    """Who opened a stream: his account, the session he opened it with and the account's
    password hash then (all empty when nobody was signed in), and where from."""

    user_id: int | None
    session_key: str
    password: str
    address: str | None

    @property
    def signed_in(self) -> bool:
        return self.user_id is not None


def listener_of(request: HttpRequest) -> Listener:
    """Who asks: ``request.user`` as the session says now (read here, in a check thread).
    The address is the client's (``TRUSTED_PROXY_COUNT``), an IPv6 one cut to its /64:
    one household or phone has a whole /64."""
    user: Any = request.user
    address = network_of(client_address(request))
    if not user.is_authenticated or not request.session.session_key:
        return Listener(None, "", "", address)
    return Listener(int(user.pk), request.session.session_key, str(user.password), address)


def anyone(request: HttpRequest) -> Listener:
    """A listener whose account does not matter (a spectator link): his address only."""
    return Listener(None, "", "", network_of(client_address(request)))


def network_of(address: str | None) -> str | None:
    if address is None:
        return None
    found = ipaddress.ip_address(address)
    if isinstance(found, ipaddress.IPv4Address):
        return str(found)
    if found.ipv4_mapped is not None:
        return str(found.ipv4_mapped)
    return str(ipaddress.ip_network(f"{found}/64", strict=False))


def holds(listener: Listener) -> bool:
    """The listener's session still lives, and his account is active with the password it
    had when the stream opened (one query; none for a listener not signed in)."""
    if listener.user_id is None:
        return True
    session = Session.objects.filter(
        session_key=listener.session_key, expire_date__gt=timezone.now()
    )
    account = get_user_model().objects.filter(
        pk=listener.user_id, is_active=True, password=listener.password
    )
    return account.filter(Exists(session)).exists()


def keys(listener: Listener) -> frozenset[events.Key]:
    """What a listener's stream watches besides its screen: his account and his session."""
    if not listener.signed_in:
        return frozenset()
    return frozenset({f"{ACCOUNT}:{listener.user_id}", f"{SESSION}:{listener.session_key}"})


# --- SQLite: the watcher reads them -----------------------------------------------------


def read_accounts(ids: list[str]) -> dict[str, object]:
    """Per account: its password, whether it is active, its clubs and roles (two queries)."""
    numbers = [int(name) for name in ids if name.isdigit()]
    rows = (
        get_user_model().objects.filter(pk__in=numbers).values_list("pk", "password", "is_active")
    )
    found: dict[str, list[Any]] = {str(pk): [password, active, []] for pk, password, active in rows}
    memberships = Membership.objects.filter(user_id__in=numbers).order_by("club_id", "pk")
    for user_id, club_id, role in memberships.values_list("user_id", "club_id", "role"):
        found[str(user_id)][2].append((club_id, role))
    return {name: repr(value) for name, value in found.items()}


def read_sessions(keys: list[str]) -> dict[str, object]:
    """The sessions that still live, each with its expiry (one query)."""
    live = Session.objects.filter(session_key__in=keys, expire_date__gt=timezone.now())
    return {key: expiry for key, expiry in live.values_list("session_key", "expire_date")}


# --- PostgreSQL: announced where they change ----------------------------------------------


def _account_saved(sender: type, instance: Any, **kwargs: Any) -> None:
    events.announce(f"{ACCOUNT}:{int(instance.pk)}")


def _membership_changed(sender: type, instance: Membership, **kwargs: Any) -> None:
    events.announce(f"{ACCOUNT}:{int(instance.user_id)}")


def _session_deleted(sender: type, instance: Session, **kwargs: Any) -> None:
    try:
        user_id = instance.get_decoded().get("_auth_user_id")
    except Exception:  # a session Django cannot read belongs to nobody
        logger.debug("an unreadable session was deleted", exc_info=True)
        return
    if user_id is not None and str(user_id).isdigit():
        events.announce(f"{ACCOUNT}:{int(user_id)}")


def connect() -> None:
    """The readers for the watcher, and the announcements for PostgreSQL's listeners."""
    events.register(ACCOUNT, read_accounts, seconds=READ_SECONDS)
    events.register(SESSION, read_sessions, seconds=READ_SECONDS)
    uid = "games.listeners"
    post_save.connect(_account_saved, sender=get_user_model(), dispatch_uid=f"{uid}.account")
    post_save.connect(_membership_changed, sender=Membership, dispatch_uid=f"{uid}.joined")
    post_delete.connect(_membership_changed, sender=Membership, dispatch_uid=f"{uid}.left")
    post_delete.connect(_session_deleted, sender=Session, dispatch_uid=f"{uid}.signed_out")
