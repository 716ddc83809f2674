"""A challenged sign-in confirmed by a person, so that nobody needs mail to get in.

When a sign-in limit holds (prefscore/clubs/ratelimit.py), the attempt is answered the
same whatever its password: the device is shown a 6-digit code and waits. Only an
attempt whose password was right can ever be approved (``user`` is set on its row and
only such rows are listed to anyone); one with a wrong password waits until it expires
and looks the same. It is approved by typing the device's code on the page of:

- the account itself, signed in on another device ("Is this you, on a new phone?");
- an admin of a club the account is a member of, who sees the person at the table;
- the server's owner (a superuser), who may approve anyone.

Once approved, the waiting device (which holds the request's secret in its session)
signs in, and its address is trusted for the account from then on. A mailed code, where
the server has mail and the account an email, is a second way in (signin_codes.py).
So the attacker who makes the failures gains nothing: he needs the password and a
person's approval, and a failure tells him no more than before.
"""

from __future__ import annotations

import hashlib
import secrets
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import Q, QuerySet
from django.http import HttpRequest
from django.utils import timezone

from . import ratelimit
from .models import Membership, Role, SignInApproval

SESSION_KEY = "signin_approval"
# Requests one account may have waiting at once; older ones are ended (a person with
# the password asking again and again cannot bury the list).
WAITING_PER_ACCOUNT = 5
# What complete() answers besides a user.
WAITING, ENDED = "waiting", "ended"


def _digest(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


def _free_code() -> str:
    """Six digits not shown by another waiting request (so a typed code names one)."""
    while True:
        code = f"{secrets.randbelow(10**6):06d}"
        if not SignInApproval.objects.waiting().filter(code=code).exists():
            return code


def start(request: HttpRequest, challenge: ratelimit.Challenge, username: str) -> str:
    """Make the waiting request of a challenged attempt; the code its device shows.

    A row is written whatever the password, so that the answer and its work are the
    same; only a right password gives the row its account.
    """
    secret = secrets.token_urlsafe(32)
    now = timezone.now()
    user = challenge.user
    with transaction.atomic():
        SignInApproval.objects.filter(expires_at__lt=now - timedelta(days=1)).delete()
        if user is not None:
            older = SignInApproval.objects.waiting().filter(user=user).order_by("-created_at")
            stale = [row.pk for row in older[WAITING_PER_ACCOUNT - 1 :]]
            SignInApproval.objects.filter(pk__in=stale).update(status=SignInApproval.Status.REFUSED)
        row = SignInApproval.objects.create(
            user=user,
            username=username[:150],
            address=ratelimit.client_address(request),
            code=_free_code(),
            secret_digest=_digest(secret),
            expires_at=now + timedelta(minutes=settings.SIGNIN_APPROVAL_MINUTES),
        )
    request.session[SESSION_KEY] = {"pk": row.pk, "secret": secret}
    return row.code


def pending_code(request: HttpRequest) -> str | None:
    """The code this device shows while its request waits, or None."""
    row = _own_row(request)
    return row.code if row is not None and row.status == SignInApproval.Status.WAITING else None


def _own_row(request: HttpRequest) -> SignInApproval | None:
    kept = request.session.get(SESSION_KEY)
    if not kept:
        return None
    row = SignInApproval.objects.filter(pk=kept["pk"]).first()
    if row is None or not secrets.compare_digest(row.secret_digest, _digest(kept["secret"])):
        return None
    return row


def complete(request: HttpRequest) -> Any:
    """The account this device may now sign in as (its address then trusted), else
    WAITING (not decided yet, or a wrong password) or ENDED (refused, expired, none)."""
    row = _own_row(request)
    if row is None or row.expires_at <= timezone.now():
        request.session.pop(SESSION_KEY, None)
        return ENDED
    if row.status == SignInApproval.Status.WAITING:
        return WAITING
    with transaction.atomic():
        used = SignInApproval.objects.filter(
            pk=row.pk, status=SignInApproval.Status.APPROVED
        ).update(status=SignInApproval.Status.USED)
    request.session.pop(SESSION_KEY, None)
    if not used or row.user_id is None:
        return ENDED
    user = get_user_model().objects.filter(pk=row.user_id, is_active=True).first()
    if user is None:
        return ENDED
    ratelimit.trust(row.username, ratelimit.client_address(request))
    return user


def approvable_by(approver: Any) -> QuerySet[SignInApproval]:
    """The waiting requests this person may decide: his own account's, his club
    members' where he is an admin, everyone's for a superuser."""
    waiting = SignInApproval.objects.waiting()
    if approver.is_superuser:
        return waiting
    admin_of = Membership.objects.filter(user=approver, role=Role.ADMIN).values("club")
    members = Membership.objects.filter(club__in=admin_of).values("user")
    return waiting.filter(Q(user=approver) | Q(user__in=members))


def approve(approver: Any, code: str) -> SignInApproval | None:
    """Approve the waiting request that shows this code, if this person may; else None."""
    code = "".join(code.split())
    with transaction.atomic():
        row = approvable_by(approver).select_for_update().filter(code=code).first()
        if row is None:
            return None
        row.status = SignInApproval.Status.APPROVED
        row.decided_by, row.decided_at = approver, timezone.now()
        row.save(update_fields=["status", "decided_by", "decided_at"])
    return row


def refuse(approver: Any, pk: int) -> bool:
    """Refuse one waiting request this person may decide (say, "this is not me")."""
    return bool(
        approvable_by(approver)
        .filter(pk=pk)
        .update(
            status=SignInApproval.Status.REFUSED, decided_by=approver, decided_at=timezone.now()
        )
    )
