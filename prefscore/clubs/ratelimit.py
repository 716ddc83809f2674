"""Sign-in attempts limited so that a guesser is stopped and nobody is locked out.

Failures are counted under three keys (:class:`~prefscore.clubs.models.SignInCounter`):

- a username from one address: ``SIGNIN_FAILURES_PER_USERNAME`` (5);
- a username from every address it has never signed in from:
  ``SIGNIN_FAILURES_PER_USERNAME_ANYWHERE`` (50), against guessing from many addresses;
- an address, on usernames that have never signed in from it:
  ``SIGNIN_FAILURES_PER_ADDRESS`` (20), against one address trying many accounts.

A key that reaches its limit within ``SIGNIN_FAILURE_WINDOW_MINUTES`` (15) is
*challenged* for that long, each further time twice as long, up to
``SIGNIN_LOCK_MAX_HOURS`` (24). A challenged attempt is never refused outright and never
told whether its password was right: every one gets the same answer (HTTP 429, "we have
mailed a code if the password was right"), and only a right password mails a one-time
code to the account (prefscore/clubs/signin_codes.py). So a guesser learns nothing more,
whatever he tries, while the owner signs in with the code, from any address. An address
the account has signed in from is *trusted* for that account: only its own pair counter
can challenge it.

Counting is atomic. Each attempt first reserves its place on every counter under a row
lock, and only then is the password checked; a success gives the reservation back. So
thirty concurrent wrong passwords check exactly as many passwords as the limit allows.
django-axes checks the lock before the password and counts after it, so concurrent
attempts overshoot its limit, and its answer to a limit is a lock, which a stranger can
turn against the owner; that is why this is our own code (docs/accounts.md).

The limit is enforced by :class:`RateLimitedModelBackend`, so it guards every way in
(our sign-in page, the Django admin's, which is ours too, any ``authenticate()``).
"""

from __future__ import annotations

import ipaddress
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.http import HttpRequest
from django.utils import timezone

from prefscore.web.auth import PlainUserRead

from .models import SignInCounter

Scope = SignInCounter.Scope
# Strikes are forgotten once a key has gone this long without a failure.
STRIKES_KEPT = timedelta(days=1)


def _window() -> timedelta:
    return timedelta(minutes=settings.SIGNIN_FAILURE_WINDOW_MINUTES)


def normalise(username: str | None) -> str:
    """The key failures are counted under: case and spaces don't dodge the limit."""
    return (username or "").strip().lower()[:150]


def client_address(request: HttpRequest | None) -> str | None:
    """The address the request came from.

    REMOTE_ADDR, unless ``TRUSTED_PROXY_COUNT`` proxies stand in front of the app: then
    the address the outermost trusted proxy saw, read from the right of
    X-Forwarded-For (entries further left are whatever the client chose to send).
    """
    if request is None:
        return None
    address = request.META.get("REMOTE_ADDR", "")
    proxies = settings.TRUSTED_PROXY_COUNT
    if proxies > 0:
        forwarded = [a.strip() for a in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",")]
        forwarded = [a for a in forwarded if a]
        if len(forwarded) >= proxies:
            address = forwarded[-proxies]
    try:
        return str(ipaddress.ip_address(address))
    except ValueError:
        return None


@dataclass(frozen=True)
class Key:
    """One counter's identity and its limit."""

    scope: str
    key: str

    @property
    def limit(self) -> int:
        return {
            Scope.PAIR: settings.SIGNIN_FAILURES_PER_USERNAME,
            Scope.USERNAME: settings.SIGNIN_FAILURES_PER_USERNAME_ANYWHERE,
            Scope.ADDRESS: settings.SIGNIN_FAILURES_PER_ADDRESS,
        }[Scope(self.scope)]


def pair_key(username: str | None, address: str | None) -> Key:
    return Key(Scope.PAIR, f"{normalise(username)}|{address or '-'}")


def keys_for(username: str | None, address: str | None) -> list[Key]:
    """The counters an attempt is charged to: the pair's alone once the pair is trusted."""
    pair = pair_key(username, address)
    if SignInCounter.objects.filter(scope=pair.scope, key=pair.key, trusted=True).exists():
        return [pair]
    keys = [pair, Key(Scope.USERNAME, normalise(username))]
    if address:
        keys.append(Key(Scope.ADDRESS, address))
    return keys


def lock_length(strikes: int) -> timedelta:
    """How long a key stays challenged its ``strikes``-th time: the window, doubling, capped."""
    cap = timedelta(hours=settings.SIGNIN_LOCK_MAX_HOURS)
    wait: timedelta = _window() * 2 ** min(strikes - 1, 32)
    return min(cap, wait)


def _locked_rows(keys: list[Key]) -> list[SignInCounter]:
    """The counters of ``keys``, created if missing, locked for this transaction."""
    SignInCounter.objects.bulk_create(
        [SignInCounter(scope=k.scope, key=k.key) for k in keys], ignore_conflicts=True
    )
    rows = []
    for k in keys:  # one at a time and in a fixed order, so two attempts never deadlock
        rows.append(SignInCounter.objects.select_for_update().get(scope=k.scope, key=k.key))
    return rows


def _age(row: SignInCounter, now: datetime) -> None:
    """Start a new window once the old one is over; forget strikes after a quiet day."""
    if row.window_started_at <= now - _window():
        if row.window_started_at <= now - STRIKES_KEPT:
            row.strikes = 0
        row.failures = 0
        row.window_started_at = now


@dataclass
class Reservation:
    """An attempt's place on its counters, given back if the password was right."""

    keys: list[Key]
    locked_by_it: list[Key]


def reserve(username: str | None, address: str | None) -> Reservation | None:
    """Count this attempt on every counter, before its password is checked.

    None when a counter is challenged: the attempt is counted nowhere (its answer tells
    nothing, so it needs no limit), and a challenge does not extend itself.
    """
    now = timezone.now()
    keys = keys_for(username, address)
    with transaction.atomic():
        rows = _locked_rows(keys)
        if any(row.locked_until and row.locked_until > now for row in rows):
            return None
        locked_by_it = []
        for key, row in zip(keys, rows, strict=True):
            _age(row, now)
            row.failures += 1
            if row.failures >= key.limit:
                # Challenged; afterwards, a fresh window of ``limit`` tries begins.
                row.strikes += 1
                row.locked_until = now + lock_length(row.strikes)
                row.failures, row.window_started_at = 0, row.locked_until
                locked_by_it.append(key)
            row.save()
    return Reservation(keys, locked_by_it)


def give_back(reservation: Reservation, username: str | None, address: str | None) -> None:
    """A right password: clear the pair, trust it, and undo the attempt elsewhere."""
    pair = pair_key(username, address)
    with transaction.atomic():
        for key, row in zip(reservation.keys, _locked_rows(reservation.keys), strict=True):
            if key == pair:
                row.failures, row.strikes, row.locked_until = 0, 0, None
                row.trusted = address is not None
            elif key in reservation.locked_by_it:  # this very attempt locked it: undo
                row.strikes, row.locked_until = max(0, row.strikes - 1), None
                row.failures, row.window_started_at = key.limit - 1, timezone.now()
            else:
                row.failures = max(0, row.failures - 1)
            row.save()


@dataclass(frozen=True)
class Challenge:
    """A challenged attempt: the account its password opened, or None if it opened none."""

    user: Any


def trust(username: str | None, address: str | None) -> None:
    """The owner proved himself from this address (a mailed code): trust the pair."""
    pair = pair_key(username, address)
    with transaction.atomic():
        (row,) = _locked_rows([pair])
        row.failures, row.strikes, row.locked_until = 0, 0, None
        row.trusted = address is not None
        row.save()


class RateLimitedModelBackend(PlainUserRead):
    """Django's username and password check; while a limit holds, a challenge.

    A challenged attempt's password is still checked, for the code to go to the right
    owner only; the user (or None) is left on the request as ``signin_challenge`` for
    the sign-in form, and authenticate() answers None, whichever it was. The signed-in
    user of every request is read in one plain statement (``web.auth.PlainUserRead``).
    """

    def authenticate(
        self,
        request: HttpRequest | None,
        username: str | None = None,
        password: str | None = None,
        **kwargs: Any,
    ) -> Any:
        if username is None:
            username = kwargs.get(get_user_model().USERNAME_FIELD, "")
        address = client_address(request)
        reservation = reserve(username, address)
        if reservation is None:
            user = super().authenticate(request, username=username, password=password, **kwargs)
            if request is not None:
                request.signin_challenge = Challenge(user)  # type: ignore[attr-defined]
            # PermissionDenied stops authenticate() from trying any other backend.
            raise PermissionDenied
        user = super().authenticate(request, username=username, password=password, **kwargs)
        if user is not None:
            give_back(reservation, username, address)
        return user


HOURLY_LIMITS = {
    Scope.SIGNUP: "SIGNUPS_PER_ADDRESS_PER_HOUR",
    Scope.RESET: "RESETS_PER_ADDRESS_PER_HOUR",
    Scope.INVITE: "INVITATIONS_PER_ADDRESS_PER_HOUR",
}


def allow_hourly(scope: str, request: HttpRequest) -> bool:
    """Count one request that mails or invites from this address; False past its limit.

    A fixed hour's window per address (``HOURLY_LIMITS``): generous enough for a club
    evening signing up behind one Wi-Fi address, far below a flood. Requests without
    a usable address share one key.
    """
    limit = getattr(settings, HOURLY_LIMITS[Scope(scope)])
    now = timezone.now()
    with transaction.atomic():
        (row,) = _locked_rows([Key(scope, client_address(request) or "-")])
        if row.window_started_at <= now - timedelta(hours=1):
            row.failures, row.window_started_at = 0, now
        if row.failures >= limit:
            return False
        row.failures += 1
        row.save(update_fields=["failures", "window_started_at"])
    return True
