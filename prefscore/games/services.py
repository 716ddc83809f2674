"""What happens to a pulka: scoring it, recording a deal, the pencil rule.

Views call these and nothing else for game logic; the arithmetic is the engine's.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import timedelta
from typing import Any
from uuid import UUID

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from scoring.engine import pulka as engine_pulka
from scoring.engine.conventions import Convention
from scoring.engine.deals import Deal as EngineDeal
from scoring.engine.deals import parse_deal
from scoring.engine.errors import DealError
from scoring.engine.sheet import apply

from . import events
from .models import Abandonment, AuditEvent, Correction, Deal, ForgottenDeal, Pulka
from .pencil import locked_message, pencil_deal, pencil_holder, pencil_until, result_locked


class Conflict(Exception):
    """Someone else recorded this deal first; the message says so."""


class NotAllowed(Exception):
    """The rules of the table do not allow this (frozen pulka, pencil window…)."""


class Moved(Exception):
    """The pulka is no longer at the version the caller read: nothing was written."""


def engine_pulka_of(
    pulka: Pulka,
    deals: Iterable[Deal],
    corrections: Iterable[Correction] = (),
    convention: Convention | None = None,
) -> engine_pulka.Pulka:
    """The engine's view of a pulka: snapshot convention, seat names, the log.

    Each correction stands in the log right after the deal that was the last one
    when it was made (docs/protocol.md ``correct`` items). ``convention``: the pulka's
    snapshot already read (an export of many tables reads each snapshot once).
    """
    deals = list(deals)
    pending = in_log_order(corrections)
    log: list[EngineDeal | engine_pulka.Correction] = []
    for deal in deals:
        log.append(parse_deal(deal.facts))
        while pending and pending[0].after_deal <= deal.number:
            log.append(_engine_correction(pending.pop(0)))
    log.extend(_engine_correction(c) for c in pending)
    return engine_pulka.Pulka(
        tuple(pulka.player_names),
        convention or pulka.convention,
        pulka.target,
        pulka.first_dealer,
        pulka.stake_decimal,
        tuple(log),
    )


def in_log_order(corrections: Iterable[Correction]) -> list[Correction]:
    """Corrections in the order the engine folds them: by the deal they followed, then time.

    A draft not yet saved (the correction being asked for now) has no time yet: it comes
    after every saved one that followed the same deal.
    """
    return sorted(corrections, key=_log_position)


def _log_position(correction: Correction) -> tuple[int, bool, float, int]:
    saved = correction.pk is not None and correction.created_at is not None
    stamp = correction.created_at.timestamp() if saved else 0.0
    return (correction.after_deal, not saved, stamp, correction.pk or 0)


def _engine_correction(correction: Correction) -> engine_pulka.Correction:
    return engine_pulka.Correction(
        correction.deal_number, parse_deal(correction.facts), correction.penalise
    )


def standing_deals(pulka: Pulka) -> list[Deal]:
    """The deals that stand, in order: one query whatever their number."""
    return list(pulka.deals.current().order_by("number"))


def load_deals(pulka: Pulka) -> list[Deal]:
    """The standing deals with who recorded them, for the screens: one query."""
    rows = pulka.deals.current().select_related("entered_by").order_by("number")
    return list(
        rows.only(
            "pulka",
            "number",
            "facts",
            "entered_at",
            "entered_by__username",
            "entered_by__first_name",
        )
    )


def load_corrections(pulka: Pulka) -> list[Correction]:
    """The corrections the engine folds in (Кодекс 4.2.7), with who asked: one query."""
    return list(pulka.corrections.select_related("asked_by"))


def score(
    pulka: Pulka,
    deals: list[Deal] | None = None,
    corrections: list[Correction] | None = None,
    convention: Convention | None = None,
) -> engine_pulka.ScoredPulka:
    """The sheet as the engine's fold over the standing deals and corrections (step 4)."""
    if deals is None:
        deals = standing_deals(pulka)
    if corrections is None:
        corrections = list(pulka.corrections.all())
    return engine_pulka.score_pulka(engine_pulka_of(pulka, deals, corrections, convention))


@dataclass(frozen=True)
class Recorded:
    deal: Deal
    scored: engine_pulka.ScoredPulka


def _check_new_deal(pulka: Pulka, deals: list[Deal], facts: Mapping[str, Any]) -> EngineDeal:
    """Parse and score the new deal on top of the log; raises DealError for the form."""
    deal = parse_deal(facts)
    state = score(pulka, deals).state
    apply(state, deal)
    return deal


def record_deal(
    pulka_id: int,
    facts: Mapping[str, Any],
    user: Any,
    number: int,
    client_id: UUID | None = None,
) -> Recorded:
    """Record deal ``number`` of a pulka, or refuse it (docs/design.md, "How a deal flows").

    ``number`` is the deal the form expected to create: if another device recorded it
    first, :class:`Conflict` is raised and nothing is saved; so it is when a deal of
    this pulka carries ``client_id`` already (the entry was recorded before: the
    caller answers the replay). A deal the rules refuse raises the engine's
    :class:`DealError`, naming the field.
    """
    try:
        with transaction.atomic():
            pulka = Pulka.objects.select_for_update().get(pk=pulka_id)
            if pulka.is_frozen:
                raise NotAllowed(_("This pulka is over: it takes no more deals."))
            deals = standing_deals(pulka)
            if number != len(deals) + 1:
                raise Conflict(
                    _("Deal %(number)s was already recorded on another device.")
                    % {"number": number}
                )
            # One fold: the sheet so far, then the new deal on top (refused: DealError).
            scored = engine_pulka.with_next_deal(score(pulka, deals), parse_deal(facts))
            deal = Deal.objects.create(
                pulka=pulka, number=number, facts=dict(facts), entered_by=user, client_id=client_id
            )
            deals.append(deal)
            audit(pulka, AuditEvent.Action.RECORDED, user, number, {"facts": dict(facts)})
            _lapse_forgotten(pulka, user)
            _lapse_abandonment(pulka, user)
            _after_change(pulka, scored, user)
    except IntegrityError:
        raise Conflict(
            _("Deal %(number)s was already recorded on another device.") % {"number": number}
        ) from None
    return Recorded(deal, scored)


def record_next(
    pulka: Pulka,
    facts: Mapping[str, Any],
    user: Any,
    number: int,
    scored: engine_pulka.ScoredPulka,
    *,
    forgotten: bool,
    abandonment: bool,
    client_id: UUID | None = None,
) -> Deal:
    """Record deal ``number``, scored by the caller on the log at ``pulka.version``
    (``recording.record``; docs/design.md, "How a deal flows").

    The pulka's row is held for the version bump and the inserts only: the bump is
    guarded by the version read, so :class:`Moved` (nothing written) says that
    something changed the pulka since, and the caller goes the full way
    (:func:`record_deal`). ``forgotten`` and ``abandonment`` say that a proposal waited
    at that version: it lapses now. ``pulka`` is left at the new version.
    """
    status = Pulka.Status.FINISHED if scored.state.closed else Pulka.Status.RUNNING
    try:
        with transaction.atomic():
            rows = Pulka.objects.filter(
                pk=pulka.pk, version=pulka.version, status=Pulka.Status.RUNNING
            )
            if not rows.update(version=pulka.version + 1, status=status):
                raise Moved
            events.announce(pulka.pk)
            deal = Deal.objects.create(
                pulka=pulka, number=number, facts=dict(facts), entered_by=user, client_id=client_id
            )
            audit(pulka, AuditEvent.Action.RECORDED, user, number, {"facts": dict(facts)})
            if forgotten:
                _lapse_forgotten(pulka, user)
            if abandonment:
                _lapse_abandonment(pulka, user)
            if status == Pulka.Status.FINISHED:
                audit(pulka, AuditEvent.Action.FINISHED, user)
                events.settled(pulka.pk)
            events.changed(pulka.pk, pulka.tournament_id)
    except IntegrityError:
        raise Conflict(
            _("Deal %(number)s was already recorded on another device.") % {"number": number}
        ) from None
    pulka.version += 1
    pulka.status = status.value  # as the database gives it back: the cache keys read it
    return deal


def audit(
    pulka: Pulka,
    action: str,
    user: Any,
    deal_number: int | None = None,
    details: Mapping[str, Any] | None = None,
) -> None:
    """Write one line of the pulka's audit trail: nothing is ever deleted."""
    AuditEvent.objects.create(
        pulka=pulka,
        action=action,
        user=user if getattr(user, "is_authenticated", False) else None,
        deal_number=deal_number,
        details=dict(details or {}),
    )


def _lapse_forgotten(pulka: Pulka, user: Any) -> None:
    """A forgotten deal can be added only until the next deal is recorded (Кодекс 4.2.10)."""
    for proposal in pulka.forgotten_deals.filter(status=ForgottenDeal.Status.PENDING):
        proposal.status = ForgottenDeal.Status.LAPSED
        proposal.resolved_at = timezone.now()
        proposal.save(update_fields=["status", "resolved_at"])
        audit(pulka, AuditEvent.Action.LAPSED, user, proposal.number)


def _lapse_abandonment(pulka: Pulka, user: Any) -> None:
    """Recording the next deal keeps the pulka: a proposal to abandon it lapses (abandon.py)."""
    for found in pulka.abandonments.filter(status=Abandonment.Status.PENDING):
        found.status = Abandonment.Status.LAPSED
        found.resolved_at = timezone.now()
        found.save(update_fields=["status", "resolved_at"])
        audit(pulka, AuditEvent.Action.ABANDON_LAPSED, user)


def _after_change(pulka: Pulka, scored: engine_pulka.ScoredPulka, user: Any = None) -> None:
    was_finished = pulka.status == Pulka.Status.FINISHED
    pulka.version += 1
    # A closed tournament table stays closed (docs/tournaments.md §4.9): an arbiter's
    # change to its result does not let it play on.
    locked = was_finished and pulka.tournament_id is not None
    closed = scored.state.closed or locked
    pulka.status = Pulka.Status.FINISHED if closed else Pulka.Status.RUNNING
    pulka.save(update_fields=["version", "status"])
    events.announce(pulka.pk)
    if pulka.status == Pulka.Status.FINISHED and not was_finished:
        audit(pulka, AuditEvent.Action.FINISHED, user)
    if was_finished or pulka.status == Pulka.Status.FINISHED:
        events.settled(pulka.pk)
    events.changed(pulka.pk, pulka.tournament_id)
    if pulka.tournament_id is not None and pulka.status == Pulka.Status.RUNNING:
        events.table_change(pulka.pk)


def pencil_change(
    pulka_id: int, user: Any, number: int, facts: Mapping[str, Any] | None
) -> engine_pulka.ScoredPulka:
    """Undo (``facts`` None) or change the last deal under the pencil rule (Кодекс 4.2.8).

    The old row is withdrawn, never deleted; a change records a new row with the same
    number.
    """
    with transaction.atomic():
        pulka = Pulka.objects.select_for_update().select_related("club").get(pk=pulka_id)
        deals = standing_deals(pulka)
        if result_locked(pulka):
            raise NotAllowed(locked_message())
        last = pencil_deal(pulka, user, deals)
        if last is None or last.number != number:
            raise NotAllowed(
                _("Only whoever recorded the last deal may change it, within the pencil window.")
            )
        if pulka.corrections.filter(deal_number=number).exists():
            # The pencil is down once the table corrected the deal (Кодекс 4.2.8).
            raise NotAllowed(_("This deal has been corrected: the pencil rule no longer applies."))
        deals.pop()
        if facts is not None:
            _check_new_deal(pulka, deals, facts)
        Deal.objects.filter(pk=last.pk).update(withdrawn_at=timezone.now(), withdrawn_by=user)
        if facts is not None:
            changed = Deal.objects.create(
                pulka=pulka, number=number, facts=dict(facts), entered_by=user
            )
            # A change keeps the deal's pencil window (Кодекс 4.2.8): it runs from when
            # the deal was first recorded, not from each change (a microsecond later,
            # so that the rows of one number keep their order).
            changed.entered_at = last.entered_at + timedelta(microseconds=1)
            Deal.objects.filter(pk=changed.pk).update(entered_at=changed.entered_at)
            deals.append(changed)
        scored = score(pulka, deals)
        if facts is None:
            audit(pulka, AuditEvent.Action.UNDONE, user, number, {"facts": last.facts})
        else:
            details = {"before": last.facts, "after": dict(facts)}
            audit(pulka, AuditEvent.Action.CHANGED, user, number, details)
        _after_change(pulka, scored, user)
    return scored


__all__ = [
    "Conflict",
    "DealError",
    "Moved",
    "NotAllowed",
    "Recorded",
    "engine_pulka_of",
    "in_log_order",
    "load_corrections",
    "load_deals",
    "pencil_change",
    "pencil_deal",
    "pencil_holder",
    "pencil_until",
    "record_deal",
    "record_next",
    "score",
    "standing_deals",
]
