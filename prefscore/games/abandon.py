"""Abandoning a pulka started by mistake: archived, frozen and listed apart.

A club admin abandons a pulka at once, with a reason. The players at the table may
abandon it together: one proposes it, and every seat agrees on its own sign-in, as for
a forgotten deal (Кодекс 4.2.10); a seated member answers for a guest without an
account, and the audit trail says who answered for whom. One refusal keeps the pulka,
and so does recording the next deal: the table has played on
(``services.record_deal``).

A tournament table is not abandoned here: its organiser closes it with the round.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.db import transaction
from django.db.models import Prefetch
from django.utils import timezone
from django.utils.translation import gettext as _

from prefscore.clubs.models import Role
from prefscore.clubs.names import normalise_text

from . import events, render_cache
from .corrections import Refusal, answerable_seat, seats_of
from .models import AbandonConsent, Abandonment, AuditEvent, ForgottenDeal, Pulka, PulkaSeat
from .services import NotAllowed, audit

MAX_REASON = 200


def abandon_refusal(pulka: Pulka, user: Any) -> Refusal | None:
    """Why ``user`` may neither abandon this pulka nor propose it now, or None."""
    if pulka.tournament_id is not None:
        return Refusal(_("A tournament table is closed by the tournament's organiser."), True)
    if not (is_club_admin(pulka, user) or seats_of(pulka, user)):
        return Refusal(
            _("Only the players at this table or a club admin may abandon the pulka."), True
        )
    if pulka.status == Pulka.Status.ARCHIVED:
        return Refusal(_("This pulka is already abandoned."), False)
    return None


def is_club_admin(pulka: Pulka, user: Any) -> bool:
    return pulka.club.role_of(user) == Role.ADMIN


def pending_abandonment(pulka: Pulka) -> Abandonment | None:
    return pulka.abandonments.filter(status=Abandonment.Status.PENDING).first()


def abandon(pulka_id: int, user: Any, reason: str) -> Abandonment:
    """A club admin abandons the pulka at once; a player at the table proposes it.

    Raises :class:`NotAllowed` when the user may not, or when a proposal is already
    waiting for answers.
    """
    with transaction.atomic():
        pulka = Pulka.objects.select_for_update().select_related("club").get(pk=pulka_id)
        refusal = abandon_refusal(pulka, user)
        if refusal is not None:
            raise NotAllowed(refusal.message)
        reason = normalise_text(reason)[:MAX_REASON]
        if is_club_admin(pulka, user):
            return _abandon_at_once(pulka, user, reason)
        if pending_abandonment(pulka) is not None:
            raise NotAllowed(_("Abandoning this pulka is already waiting for the table's answers."))
        found = Abandonment.objects.create(pulka=pulka, reason=reason, proposed_by=user)
        audit(pulka, AuditEvent.Action.TO_ABANDON, user, None, {"reason": reason})
        for seat in seats_of(pulka, user):
            _answer(found, pulka, user, seat, True)
        _settle(found, pulka, user)
    return found


def answer_abandonment(abandonment_id: int, user: Any, seat: int, agreed: bool) -> Abandonment:
    """One seat's answer: its own player's, or a guest's given by a seated member."""
    with transaction.atomic():
        found = Abandonment.objects.select_for_update().get(pk=abandonment_id)
        pulka = Pulka.objects.select_for_update().select_related("club").get(pk=found.pulka_id)
        if found.status != Abandonment.Status.PENDING:
            raise NotAllowed(_("Abandoning this pulka is no longer waiting for answers."))
        row = answerable_seat(pulka, user, seat)
        if found.consents.filter(player=row.player).exists():
            raise NotAllowed(_("This seat has already answered."))
        _answer(found, pulka, user, seat, agreed)
        _settle(found, pulka, user)
    return found


def _answer(found: Abandonment, pulka: Pulka, user: Any, seat: int, agreed: bool) -> None:
    player = PulkaSeat.objects.get(pulka=pulka, seat=seat).player
    AbandonConsent.objects.create(abandonment=found, player=player, agreed=agreed, answered_by=user)
    details = {"player": player.name, "agreed": agreed}
    audit(pulka, AuditEvent.Action.ABANDON_ANSWER, user, None, details)


def _settle(found: Abandonment, pulka: Pulka, user: Any) -> None:
    """Abandoned once every seat agreed, kept at the first refusal; a new version either way."""
    answers = list(found.consents.values_list("agreed", flat=True))
    if not all(answers):
        _resolve(found, Abandonment.Status.KEPT)
    elif len(answers) == pulka.seats.count():
        _resolve(found, Abandonment.Status.ABANDONED)
        _archive(pulka, user, found.reason)
        return
    pulka.version += 1
    pulka.save(update_fields=["version"])
    events.announce(pulka.pk)


def _abandon_at_once(pulka: Pulka, user: Any, reason: str) -> Abandonment:
    for waiting in pulka.abandonments.filter(status=Abandonment.Status.PENDING):
        _resolve(waiting, Abandonment.Status.LAPSED)
    found = Abandonment.objects.create(
        pulka=pulka,
        reason=reason,
        proposed_by=user,
        status=Abandonment.Status.ABANDONED,
        resolved_at=timezone.now(),
    )
    _archive(pulka, user, reason, by_admin=True)
    return found


def _archive(pulka: Pulka, user: Any, reason: str, *, by_admin: bool = False) -> None:
    """Frozen for good: nothing more is recorded, corrected or proposed."""
    for proposal in pulka.forgotten_deals.filter(status=ForgottenDeal.Status.PENDING):
        proposal.status = ForgottenDeal.Status.LAPSED
        proposal.resolved_at = timezone.now()
        proposal.save(update_fields=["status", "resolved_at"])
    pulka.status = Pulka.Status.ARCHIVED
    pulka.version += 1
    pulka.save(update_fields=["status", "version"])
    events.announce(pulka.pk)
    details = {"reason": reason, "by": "admin" if by_admin else "table"}
    audit(pulka, AuditEvent.Action.ABANDONED, user, None, details)
    events.settled(pulka.pk)  # an abandoned pulka leaves the statistics


def _resolve(found: Abandonment, status: str) -> None:
    found.status = status
    found.resolved_at = timezone.now()
    found.save(update_fields=["status", "resolved_at"])


def answered_seats(found: Abandonment, seats: Sequence[PulkaSeat]) -> dict[int, bool]:
    """Each answer so far by seat number."""
    by_player = {row.player_id: row.seat for row in seats}
    return {
        by_player[consent.player_id]: consent.agreed
        for consent in found.consents.all()
        if consent.player_id in by_player
    }


def pending_with_answers(pulka: Pulka) -> Abandonment | None:
    """The proposal to abandon the pulka that waits for answers, with them: two queries
    at most. Only what the panel shows of its proposer is read (it may be cached)."""
    answers = AbandonConsent.objects.order_by("pk")
    return (
        pulka.abandonments.filter(status=Abandonment.Status.PENDING)
        .select_related("proposed_by")
        .defer(*(f"proposed_by__{name}" for name in render_cache.PRIVATE_USER_FIELDS))
        .prefetch_related(Prefetch("consents", queryset=answers))
        .first()
    )
