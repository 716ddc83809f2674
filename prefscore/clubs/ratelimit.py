"""Sign-in attempts limited per account and per address.

After ``SIGNIN_FAILURES_PER_USERNAME`` failed sign-ins for one username (5), or
``SIGNIN_FAILURES_PER_ADDRESS`` from one address (20), within
``SIGNIN_FAILURE_WINDOW_MINUTES`` (15), further attempts are refused without even
checking the password until the window has moved on. Failures live in the database
(:class:`~prefscore.clubs.models.SignInAttempt`) so that every app server counts the
same ones.

The limit is enforced by :class:`RateLimitedModelBackend`, so it guards every way in
(our sign-in page, the Django admin's, any ``authenticate()``); the sign-in form asks
:func:`wait_minutes` first to tell the person how long to wait.
"""

from __future__ import annotations

import ipaddress
import math
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.backends import ModelBackend
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest
from django.utils import timezone

from .models import SignInAttempt


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


def _lifted_at(times: list[datetime], limit: int) -> datetime | None:
    """When the oldest failure that keeps the count at the limit leaves the window."""
    if len(times) < limit:
        return None
    return sorted(times)[len(times) - limit] + _window()


def wait_minutes(username: str | None, address: str | None) -> int:
    """Whole minutes until this username and address may try again; 0 when they may now."""
    now = timezone.now()
    recent = SignInAttempt.objects.filter(attempted_at__gt=now - _window())
    lifts = [
        _lifted_at(
            list(
                recent.filter(username=normalise(username)).values_list("attempted_at", flat=True)
            ),
            settings.SIGNIN_FAILURES_PER_USERNAME,
        )
    ]
    if address:
        lifts.append(
            _lifted_at(
                list(recent.filter(address=address).values_list("attempted_at", flat=True)),
                settings.SIGNIN_FAILURES_PER_ADDRESS,
            )
        )
    latest = max((lift for lift in lifts if lift is not None), default=None)
    if latest is None or latest <= now:
        return 0
    return max(1, math.ceil((latest - now).total_seconds() / 60))


def record_failure(username: str | None, address: str | None) -> None:
    """Count one failed sign-in, and forget failures older than the window."""
    now = timezone.now()
    SignInAttempt.objects.filter(attempted_at__lte=now - _window()).delete()
    SignInAttempt.objects.create(username=normalise(username), address=address)


def forget_failures(username: str | None) -> None:
    """A successful sign-in clears the account's failures (not the address's: a guesser
    must not reset his count by signing in to an account of his own)."""
    SignInAttempt.objects.filter(username=normalise(username)).delete()


class RateLimitedModelBackend(ModelBackend):
    """Django's username and password check, refused while the limit holds."""

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
        if wait_minutes(username, address):
            # PermissionDenied stops authenticate() from trying any other backend.
            raise PermissionDenied
        user = super().authenticate(request, username=username, password=password, **kwargs)
        if user is None:
            record_failure(username, address)
        else:
            forget_failures(username)
        return user
