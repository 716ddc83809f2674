"""Joining a club by invitation, and an admin's changes to its members.

An invitation is a random token in a link, valid for ``INVITATION_DAYS`` (7) and for
one use; it carries the role its user will get. Accepting it is one conditional
UPDATE, so two people opening the same link at once can't both join with it.

A club always keeps at least one admin: the last one can be neither demoted nor
removed (the rows are locked while counting, so two admins demoting each other at the
same moment can't both succeed).
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db import IntegrityError, transaction
from django.http import Http404
from django.utils import timezone
from django.utils.translation import gettext as _

from . import players
from .models import Club, Invitation, Membership, Player, Role


class InvitationGone(Exception):
    """The link was used or has expired; the message says which."""


class AlreadyMember(Exception):
    """The user accepting an invitation already belongs to the club."""


class LastAdmin(Exception):
    """The change would leave the club without an admin."""


def create_invitation(
    club: Club, created_by: Any, role: str, days: int | None = None, guest: Player | None = None
) -> Invitation:
    """A fresh single-use link into ``club`` granting ``role``; ``guest``: the club's
    guest it is for, whom only its invitee may claim."""
    days = settings.INVITATION_DAYS if days is None else days
    return Invitation.objects.create(
        club=club,
        role=Role(role),
        created_by=created_by,
        expires_at=timezone.now() + timedelta(days=days),
        guest=guest,
    )


def invitation_for(token: str) -> Invitation:
    """The invitation with this token, still usable; Http404 or InvitationGone if not."""
    invitation = Invitation.objects.select_related("club").filter(token=token).first()
    if invitation is None:
        raise Http404(_("This invitation link is not known."))
    check_usable(invitation)
    return invitation


def check_usable(invitation: Invitation) -> None:
    if invitation.is_used:
        raise InvitationGone(_("This invitation has already been used."))
    if invitation.is_expired:
        raise InvitationGone(_("This invitation has expired."))


def accept(invitation: Invitation, user: Any, claim: int | None = None) -> Membership:
    """Make ``user`` a member with the invitation's role, using the invitation up.

    She becomes one of the club's players too: the guest ``claim`` (a player's pk) when
    she says she is that guest, with every seat and result it has; else her own player
    (``players.ensure_player``). Raises ``players.PlayersRefused`` if the guest is taken.
    """
    already = AlreadyMember(_("You are already a member of this club."))
    if claim is not None and claim != invitation.guest_id:
        # A guest is claimed only through a link made for that guest (or linked by an
        # admin): anyone else's link would let any newcomer take anyone's results.
        raise players.PlayersRefused(_("This invitation is not for that guest."))
    try:
        with transaction.atomic():
            if Membership.objects.filter(club=invitation.club_id, user=user).exists():
                raise already
            now = timezone.now()
            claimed = Invitation.objects.filter(
                pk=invitation.pk, used_at__isnull=True, expires_at__gt=now
            ).update(used_by=user, used_at=now)
            if not claimed:
                # Someone else used it (or it expired) since the page was shown.
                invitation.refresh_from_db()
                check_usable(invitation)
                raise InvitationGone(_("This invitation has already been used."))
            membership = Membership.objects.create(
                club_id=invitation.club_id, user=user, role=invitation.role
            )
            if claim is not None:
                players.claim(invitation.club, claim, user)
            else:
                players.ensure_player(invitation.club, user)
            return membership
    except IntegrityError:
        # He joined by another link at the same moment; this one stays unused.
        raise already from None


def seat_choices(invitation: Invitation, user: Any) -> tuple[Player | None, list[Player]]:
    """What joining offers: the player she already has here (she left and comes back),
    or the guest the invitation is for, while it is still a guest."""
    own = players.player_of(invitation.club, user)
    if own is not None or invitation.guest_id is None:
        return own, []
    return None, list(players.claimable_guests(invitation.club).filter(pk=invitation.guest_id))


def revoke(invitation: Invitation) -> None:
    """Withdraw a link nobody has used yet (a used one is the record of who joined)."""
    if invitation.is_used:
        raise InvitationGone(_("This invitation has already been used."))
    invitation.delete()


def _would_lose_last_admin(membership: Membership) -> bool:
    """Whether ``membership`` is the club's only admin, as the database has it now.

    Locks the club's admin rows until the transaction ends.
    """
    admins = list(
        Membership.objects.select_for_update()
        .filter(club=membership.club_id, role=Role.ADMIN)
        .values_list("pk", flat=True)
    )
    return admins == [membership.pk]


def change_role(membership: Membership, role: str) -> Membership:
    """Give a member another role; refuses to demote the last admin."""
    role = Role(role)
    with transaction.atomic():
        if role != Role.ADMIN and _would_lose_last_admin(membership):
            raise LastAdmin(_("A club needs at least one admin: make someone else admin first."))
        membership.role = role
        membership.save(update_fields=["role"])
    return membership


def remove_member(membership: Membership) -> None:
    """Take someone out of the club (his past pulkas and deals stay); never the last admin."""
    with transaction.atomic():
        if _would_lose_last_admin(membership):
            raise LastAdmin(_("A club needs at least one admin: make someone else admin first."))
        membership.delete()
