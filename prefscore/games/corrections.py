"""Corrections at the table by the Кодекс, rules 4.2.7 to 4.2.10 and 4.2.16.

- 4.2.7: a correction replaces a recorded deal; the engine warns or penalises every
  player the wrong record favoured.
- 4.2.9: until the next deal is recorded anyone at the table may correct; after it,
  only the player the error favoured may, on his own sign-in, and without penalty.
- 4.2.10: a forgotten deal is added before the next deal is recorded, once every
  player at the table agrees on his own device; one refusal drops it.
- 4.2.16: in tournament pulkas an organiser applies an arbiter's decision, with a reason.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from prefscore.clubs.models import Role
from scoring.engine.deals import parse_deal
from scoring.engine.errors import DealError
from scoring.engine.penalties import CorrectionOutcome, favours
from scoring.engine.pulka import ScoredPulka
from scoring.engine.sheet import apply

from .models import AuditEvent, Consent, Correction, Deal, ForgottenDeal, Pulka, PulkaSeat
from .services import NotAllowed, _after_change, audit, score, standing_deals


def seats_of(pulka: Pulka, user: Any) -> list[int]:
    """The seats at this pulka held by the user's linked players (usually one)."""
    if not user.is_authenticated:
        return []
    return list(
        PulkaSeat.objects.filter(pulka=pulka, player__user=user).values_list("seat", flat=True)
    )


def may_arbitrate(pulka: Pulka, user: Any) -> bool:
    """In tournament pulkas organisers and admins apply arbiters' decisions (4.2.16)."""
    return pulka.tournament_id is not None and pulka.club.role_of(user) in (
        Role.ORGANISER,
        Role.ADMIN,
    )


@dataclass(frozen=True)
class Corrected:
    correction: Correction
    outcome: CorrectionOutcome
    scored: ScoredPulka


def correct_deal(
    pulka_id: int,
    user: Any,
    number: int,
    facts: Mapping[str, Any],
    arbiter_reason: str | None = None,
    arbiter_penalty: bool = True,
) -> Corrected:
    """Correct deal ``number`` by Кодекс 4.2.7/4.2.9, or as an arbiter by 4.2.16.

    Raises :class:`NotAllowed` when the rules forbid this user the correction, and
    the engine's :class:`DealError` when the corrected facts break a rule.
    """
    with transaction.atomic():
        pulka = Pulka.objects.select_for_update().select_related("club").get(pk=pulka_id)
        deals = standing_deals(pulka)
        corrections = list(pulka.corrections.all())
        if not 1 <= number <= len(deals):
            raise NotAllowed(_("There is no deal %(number)s to correct.") % {"number": number})
        if pulka.status == Pulka.Status.ARCHIVED:
            raise NotAllowed(_("This pulka is archived."))
        before = score(pulka, deals, corrections)
        draft = Correction(
            pulka=pulka, deal_number=number, after_deal=len(deals), facts=dict(facts)
        )
        draft.kind, draft.penalise = _kind(
            pulka, user, number, deals, before, draft, arbiter_reason
        )
        if draft.kind == Correction.Kind.ARBITER:
            draft.penalise, draft.reason = arbiter_penalty, arbiter_reason or ""
        after = score(pulka, deals, [*corrections, draft])
        draft.asked_by = user
        draft.save()
        outcome = after.corrections[-1]
        _audit_correction(pulka, user, draft, outcome)
        _after_change(pulka, after, user)
    return Corrected(draft, outcome, after)


def _kind(
    pulka: Pulka,
    user: Any,
    number: int,
    deals: list[Deal],
    before: ScoredPulka,
    draft: Correction,
    arbiter_reason: str | None,
) -> tuple[str, bool]:
    if arbiter_reason is not None:
        if pulka.tournament_id is None:
            raise NotAllowed(_("Arbiters' decisions are for tournament pulkas only."))
        if not may_arbitrate(pulka, user):
            raise NotAllowed(_("Only an organiser of the club applies an arbiter's decision."))
        if not arbiter_reason.strip():
            raise NotAllowed(_("State the reason for the arbiter's decision."))
        return Correction.Kind.ARBITER, True
    seats = seats_of(pulka, user)
    if not seats:
        raise NotAllowed(_("Only the players at this table may correct its deals."))
    if pulka.status == Pulka.Status.FINISHED and number != len(deals):
        raise NotAllowed(_("This pulka is finished: only an arbiter may correct it now."))
    if number == len(deals):
        return Correction.Kind.CORRECTION, True
    # Past the deadline: only the favoured player, of his own will (Кодекс 4.2.9).
    trial = score(pulka, deals, [*pulka.corrections.all(), draft])
    wrong = before.records[number - 1].entries
    right = trial.records[number - 1].entries
    favoured = {f.player for f in favours(wrong, right, len(pulka.player_names))}
    if not favoured & set(seats):
        raise NotAllowed(
            _(
                "The next deal has been recorded: only the player this error favoured may "
                "correct it now, of his own will (Кодекс 4.2.9)."
            )
        )
    return Correction.Kind.VOLUNTARY, False


def _audit_correction(
    pulka: Pulka, user: Any, correction: Correction, outcome: CorrectionOutcome
) -> None:
    names = pulka.player_names
    details = {
        "kind": correction.kind,
        "facts": correction.facts,
        "reason": correction.reason,
        "penalise": correction.penalise,
    }
    action = (
        AuditEvent.Action.ARBITER
        if correction.kind == Correction.Kind.ARBITER
        else AuditEvent.Action.CORRECTED
    )
    who = user if getattr(user, "is_authenticated", False) else None
    number = correction.deal_number
    rows = [AuditEvent(pulka=pulka, action=action, user=who, deal_number=number, details=details)]
    for seat in outcome.warned:
        rows.append(
            AuditEvent(
                pulka=pulka,
                action=AuditEvent.Action.WARNED,
                user=who,
                deal_number=number,
                details={"player": names[seat]},
            )
        )
    for entry in outcome.penalties:
        penalty = {
            "player": names[entry.player],
            "section": entry.section,
            "points": str(entry.points),
            "on": names[entry.on] if entry.on is not None else None,
        }
        rows.append(
            AuditEvent(
                pulka=pulka,
                action=AuditEvent.Action.PENALISED,
                user=who,
                deal_number=number,
                details=penalty,
            )
        )
    # One statement however many warnings and penalties: a correction's cost stays flat.
    AuditEvent.objects.bulk_create(rows)


def propose_forgotten(pulka_id: int, user: Any, facts: Mapping[str, Any]) -> ForgottenDeal:
    """Propose a forgotten deal (Кодекс 4.2.10); the proposer's own seat agrees at once."""
    with transaction.atomic():
        pulka = Pulka.objects.select_for_update().select_related("club").get(pk=pulka_id)
        seats = seats_of(pulka, user)
        if not seats:
            raise NotAllowed(_("Only the players at this table may add a forgotten deal."))
        if pulka.is_frozen:
            raise NotAllowed(_("This pulka is finished: its sheet is frozen."))
        if pulka.forgotten_deals.filter(status=ForgottenDeal.Status.PENDING).exists():
            raise NotAllowed(_("A forgotten deal is already waiting for the table's consent."))
        deals = standing_deals(pulka)
        apply(score(pulka, deals).state, parse_deal(facts))
        proposal = ForgottenDeal.objects.create(
            pulka=pulka, number=len(deals) + 1, facts=dict(facts), proposed_by=user
        )
        audit(pulka, AuditEvent.Action.PROPOSED, user, proposal.number, {"facts": dict(facts)})
        for seat in seats:
            _answer(proposal, pulka, user, seat, True)
        _settle_proposal(proposal, pulka, user)
        _seen_by_the_table(proposal, pulka)
    return proposal


def answer_forgotten(proposal_id: int, user: Any, seat: int, agreed: bool) -> ForgottenDeal:
    """A player agrees or refuses on his own sign-in; one refusal drops the deal.

    A guest seat (no account) is answered by a club member seated at the table, on
    the guest's behalf, and the audit trail says who answered.
    """
    with transaction.atomic():
        proposal = ForgottenDeal.objects.select_for_update().get(pk=proposal_id)
        pulka = Pulka.objects.select_for_update().select_related("club").get(pk=proposal.pulka_id)
        if proposal.status != ForgottenDeal.Status.PENDING:
            raise NotAllowed(_("This forgotten deal is no longer waiting for answers."))
        seat_row = PulkaSeat.objects.select_related("player").filter(pulka=pulka, seat=seat).first()
        if seat_row is None:
            raise NotAllowed(_("There is no such seat at this table."))
        own = seat_row.player.user_id == user.pk
        on_behalf_of_guest = seat_row.player.user_id is None and seats_of(pulka, user)
        if not (own or on_behalf_of_guest):
            raise NotAllowed(_("Each player answers for himself, on his own sign-in."))
        if Consent.objects.filter(proposal=proposal, player=seat_row.player).exists():
            raise NotAllowed(_("This seat has already answered."))
        _answer(proposal, pulka, user, seat, agreed)
        _settle_proposal(proposal, pulka, user)
        _seen_by_the_table(proposal, pulka)
    return proposal


def _seen_by_the_table(proposal: ForgottenDeal, pulka: Pulka) -> None:
    """A new version, so every device's poll shows the proposal and its answers.

    An added deal has had its version from ``_after_change`` already.
    """
    if proposal.status != ForgottenDeal.Status.ADDED:
        pulka.version += 1
        pulka.save(update_fields=["version"])


def _answer(proposal: ForgottenDeal, pulka: Pulka, user: Any, seat: int, agreed: bool) -> None:
    player = PulkaSeat.objects.get(pulka=pulka, seat=seat).player
    Consent.objects.create(proposal=proposal, player=player, agreed=agreed, answered_by=user)
    action = AuditEvent.Action.CONSENTED if agreed else AuditEvent.Action.REFUSED
    audit(pulka, action, user, proposal.number, {"player": player.name})


def _settle_proposal(proposal: ForgottenDeal, pulka: Pulka, user: Any) -> None:
    answers = list(proposal.consents.values_list("agreed", flat=True))
    if not all(answers):
        _resolve(proposal, ForgottenDeal.Status.REFUSED)
        return
    if len(answers) < len(pulka.player_names):
        return
    deals = standing_deals(pulka)
    if proposal.number != len(deals) + 1:
        _resolve(proposal, ForgottenDeal.Status.LAPSED)
        audit(pulka, AuditEvent.Action.LAPSED, user, proposal.number)
        return
    try:
        apply(score(pulka, deals).state, parse_deal(proposal.facts))
    except DealError:
        _resolve(proposal, ForgottenDeal.Status.LAPSED)
        audit(pulka, AuditEvent.Action.LAPSED, user, proposal.number)
        return
    deal = Deal.objects.create(
        pulka=pulka, number=proposal.number, facts=proposal.facts, entered_by=proposal.proposed_by
    )
    _resolve(proposal, ForgottenDeal.Status.ADDED)
    audit(pulka, AuditEvent.Action.ADDED, user, deal.number, {"facts": proposal.facts})
    _after_change(pulka, score(pulka, [*deals, deal]), user)


def _resolve(proposal: ForgottenDeal, status: str) -> None:
    proposal.status = status
    proposal.resolved_at = timezone.now()
    proposal.save(update_fields=["status", "resolved_at"])
