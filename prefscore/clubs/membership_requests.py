"""Asking to join a club, and an admin's answer.

Someone who opens a table's join link without being a member of its club may ask for
membership; a club admin approves (he becomes a member, as an invitation makes one) or
declines (docs/design.md, "Joining a table, and watching it"). The requests are the
record of it: never deleted, each with who decided and when.

Asking is idempotent: the database keeps one pending request per user and club (a
second ask returns the first). It is limited so that nobody can flood a club or the
site: ``MEMBERSHIP_REQUESTS_PER_DAY`` (5) new requests per user in 24 hours, a new
request to a club that declined him only after ``MEMBERSHIP_REQUEST_RETRY_HOURS`` (24),
and at most ``MEMBERSHIP_REQUESTS_PENDING_PER_CLUB`` (50) waiting in one club.
"""

from __future__ import annotations

import logging
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from .invitations import AlreadyMember
from .models import Club, Membership, MembershipRequest, Player, Role
from .players import PlayersRefused, ensure_player, link

log = logging.getLogger(__name__)
Status = MembershipRequest.Status


class RequestRefused(Exception):
    """A request that may not be made now; the message says why and what to do."""


class AlreadyDecided(Exception):
    """Another admin answered the request first."""


def _setting(name: str, default: int) -> int:
    return int(getattr(settings, name, default))


def ask(club: Club, user: Any) -> MembershipRequest:
    """The user's pending request to join ``club``: the one he made, or a new one.

    Raises AlreadyMember for a member, RequestRefused past a limit.
    """
    if Membership.objects.filter(club=club, user=user).exists():
        raise AlreadyMember(_("You are already a member of this club."))
    mine = MembershipRequest.objects.filter(club=club, user=user)
    pending = mine.pending().first()
    if pending is not None:
        return pending
    _check_limits(club, user)
    try:
        with transaction.atomic():
            made = MembershipRequest.objects.create(club=club, user=user)
    except IntegrityError:
        # The same person asked twice at the same moment: the first request stands.
        return mine.pending().get()
    log.info("membership request %s: user %s asks to join club %s", made.pk, user.pk, club.pk)
    return made


def _check_limits(club: Club, user: Any) -> None:
    now = timezone.now()
    retry = timedelta(hours=_setting("MEMBERSHIP_REQUEST_RETRY_HOURS", 24))
    declined = MembershipRequest.objects.filter(
        club=club, user=user, status=Status.DECLINED, decided_at__gt=now - retry
    )
    if declined.exists():
        raise RequestRefused(
            _(
                "The club's admin declined your request recently. Ask again tomorrow, "
                "or speak to him at the table."
            )
        )
    per_day = _setting("MEMBERSHIP_REQUESTS_PER_DAY", 5)
    made = MembershipRequest.objects.filter(user=user, created_at__gt=now - timedelta(days=1))
    if made.count() >= per_day:
        raise RequestRefused(_("You have asked to join too many clubs today: try again tomorrow."))
    waiting = _setting("MEMBERSHIP_REQUESTS_PENDING_PER_CLUB", 50)
    if MembershipRequest.objects.filter(club=club).pending().count() >= waiting:
        raise RequestRefused(
            _("Too many requests are waiting for this club's admin: ask him at the table.")
        )


def latest_of(club: Club, user: Any) -> MembershipRequest | None:
    """The user's latest request to ``club``, whatever became of it."""
    if not user.is_authenticated:
        return None
    return MembershipRequest.objects.filter(club=club, user=user).order_by("-pk").first()


def pending_for(club: Club) -> list[MembershipRequest]:
    """The requests waiting for the club's admins, oldest first: one query."""
    return list(club.membership_requests.pending().select_related("user"))


def approve(request: MembershipRequest, admin: Any, guest: int | None = None) -> Membership:
    """Make the requester a member (the way an invitation does); AlreadyDecided if
    another admin answered first. ``guest``: the club's guest (a player's pk) the admin
    says she is: she takes that player, with every seat and result it has
    (``players.link``); PlayersRefused, and nothing done, if it is no longer a guest."""
    with transaction.atomic():
        _decide(request, admin, Status.APPROVED)
        # Membership.objects.create, as invitations.accept makes a member: whatever the
        # club does for a new member (the signals on Membership) happens here too.
        membership, made = Membership.objects.get_or_create(
            club_id=request.club_id, user_id=request.user_id, defaults={"role": Role.MEMBER}
        )
        if guest is not None:
            player = Player.objects.filter(
                pk=guest, club_id=request.club_id, user__isnull=True
            ).first()
            if player is None:
                raise PlayersRefused(_("That guest is no longer free: someone has claimed it."))
            link(player, membership.user, admin)
        # Every member is one of the club's players (prefscore/clubs/players.py).
        ensure_player(membership.club, membership.user, by=admin)
    log.info(
        "membership request %s approved by user %s (new member: %s, guest: %s)",
        request.pk,
        admin.pk,
        made,
        guest,
    )
    return membership


def decline(request: MembershipRequest, admin: Any) -> None:
    with transaction.atomic():
        _decide(request, admin, Status.DECLINED)
    log.info("membership request %s declined by user %s", request.pk, admin.pk)


def _decide(request: MembershipRequest, admin: Any, status: str) -> None:
    """Answer a pending request, once: the row changes only if still pending."""
    now = timezone.now()
    answered = MembershipRequest.objects.filter(pk=request.pk, status=Status.PENDING).update(
        status=status, decided_by=admin, decided_at=now
    )
    if not answered:
        raise AlreadyDecided(_("This request has already been answered."))
    request.status, request.decided_by, request.decided_at = status, admin, now


def set_spectators(club: Club, allowed: bool) -> None:
    """Switch the club's spectator links on or off (each table keeps its own link)."""
    club.allow_spectators = allowed
    club.save(update_fields=["allow_spectators"])
    log.info("club %s: spectator links %s", club.pk, "on" if allowed else "off")
