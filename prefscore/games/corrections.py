"""Corrections at the table by the Кодекс, rules 4.2.7 to 4.2.10 and 4.2.16.

- 4.2.7: a correction replaces a recorded deal; the engine warns or penalises every
  player the wrong record favoured.
- 4.2.9: until the next deal is recorded anyone at the table may correct; after it,
  only the player the error favoured may, on his own sign-in, and without penalty.
- 4.2.10: a forgotten deal is added before the next deal is recorded, once every
  player at the table agrees on his own device; one refusal drops it.
- 4.2.16: in tournament pulkas an organiser applies an arbiter's decision, with a reason.

The ``*_refusal`` functions say, before any facts are typed, why the rules refuse a
user an act (the views show the form only when they say nothing); the acts themselves
check again under the row lock, since another device may have changed the pulka.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from prefscore.clubs.names import display_name
from scoring.engine.deals import Deal as EngineDeal
from scoring.engine.deals import parse_deal
from scoring.engine.errors import DealError
from scoring.engine.penalties import CorrectionOutcome, favours
from scoring.engine.pulka import ScoredPulka
from scoring.engine.sheet import SheetState, apply

from . import events
from .access import may_arbitrate
from .models import AuditEvent, Consent, Correction, Deal, ForgottenDeal, Pulka, PulkaSeat
from .pencil import locked_message, pencil_holder, result_locked
from .services import NotAllowed, _after_change, audit, score, standing_deals


def seats_of(pulka: Pulka, user: Any) -> list[int]:
    """The seats at this pulka held by the user's linked players (usually one)."""
    if not user.is_authenticated:
        return []
    return list(
        PulkaSeat.objects.filter(pulka=pulka, player__user=user).values_list("seat", flat=True)
    )


# --- who may, before any facts are typed -----------------------------------------------


@dataclass(frozen=True)
class Refusal:
    """Why the rules refuse a user an act at the table, whatever facts he would type."""

    message: str
    forbidden: bool  # it is not his to do (403), rather than not now (409)


def past_deadline(number: int, count: int) -> bool:
    """Deal ``number`` of ``count`` is past the 4.2.9 deadline: a later deal is recorded.

    Until then anyone at the table corrects it, and the engine warns or penalises whoever
    the wrong record favoured (4.2.7); after it, only that player may, without penalty.
    """
    return number < count


def correction_refusal(
    pulka: Pulka, user: Any, deals: Sequence[Deal], number: int
) -> Refusal | None:
    """Why ``user`` may not correct deal ``number`` now, or None (Кодекс 4.2.7-4.2.9).

    A player at the table corrects any deal of a running pulka and the last one of a
    finished pulka, but not the last deal while its recorder holds the pencil (4.2.8):
    until he puts it down there is no error yet, and he changes it himself.
    """
    refusal = _table_refusal(pulka, seats_of(pulka, user), number, len(deals))
    if refusal is not None:
        return refusal
    held = pencil_holder(pulka, deals)
    if held is None or held.number != number:
        return None
    if held.entered_by_id == user.pk:
        return Refusal(
            _("You hold the pencil on this deal: change it instead (Кодекс 4.2.8)."), False
        )
    message = _(
        "%(user)s still holds the pencil on this deal: until he puts it down only he "
        "changes it (Кодекс 4.2.8)."
    ) % {"user": display_name(held.entered_by) if held.entered_by else "—"}
    return Refusal(message, False)


def tournament_finished(pulka: Pulka) -> bool:
    """The table's tournament is finished: its results are final (docs/tournaments.md §4.10)."""
    tournament = pulka.tournament if pulka.tournament_id is not None else None
    return tournament is not None and bool(tournament.finished)


def _table_refusal(pulka: Pulka, seats: Sequence[int], number: int, count: int) -> Refusal | None:
    """The players at the table correct; a finished pulka only its last deal, and a closed
    tournament table none (its result is locked: the arbiter's alone)."""
    if not seats:
        return Refusal(_("Only the players at this table may correct its deals."), True)
    if result_locked(pulka):
        return Refusal(locked_message(), False)
    if pulka.is_frozen and number != count:
        return Refusal(_("This pulka is finished: only an arbiter may correct it now."), False)
    return None


def arbiter_refusal(pulka: Pulka, user: Any) -> Refusal | None:
    """Why ``user`` may not apply an arbiter's decision to this pulka, or None (4.2.16)."""
    if pulka.tournament_id is None:
        return Refusal(_("Arbiters' decisions are for tournament pulkas only."), True)
    if not may_arbitrate(pulka, user):
        return Refusal(_("Only an organiser of the club applies an arbiter's decision."), True)
    if tournament_finished(pulka):
        return Refusal(finished_message(), False)
    return None


def finished_message() -> str:
    """One wording, also manual_entries': the tournament's results are final (§4.10)."""
    return _(
        "The tournament is finished: its results are final. Reopen the tournament to change them."
    )


def proposal_refusal(pulka: Pulka, user: Any) -> Refusal | None:
    """Why ``user`` may not propose a forgotten deal now, or None (4.2.10)."""
    return _proposal_refusal(pulka, seats_of(pulka, user))


def _proposal_refusal(pulka: Pulka, seats: Sequence[int]) -> Refusal | None:
    if not seats:
        return Refusal(_("Only the players at this table may add a forgotten deal."), True)
    if pulka.is_frozen:
        return Refusal(_("This pulka is over: it takes no more deals."), False)
    return None


def answer_refusal(pulka: Pulka, user: Any) -> Refusal | None:
    """Only the players at the table answer a forgotten deal, for a seat (4.2.10)."""
    if not seats_of(pulka, user):
        return Refusal(_("Only the players at this table answer."), True)
    return None


# --- correcting a deal ------------------------------------------------------------------


def corrected_facts(
    before: SheetState, standing: Mapping[str, Any], typed: Mapping[str, Any]
) -> dict[str, Any]:
    """The facts a correction of a deal applies: as typed, with the deal's own dealer.

    ``standing`` are the deal's facts as they stand, ``before`` the sheet as it stood when
    it was dealt. Raises the engine's :class:`DealError` when the typed facts break a
    rule there, and :class:`NotAllowed` when they are the facts that stand: a correction
    corrects something.
    """
    facts = dict(typed)
    if standing.get("dealer"):
        facts["dealer"] = standing["dealer"]  # the form has no dealer: keep the deal's own
    corrected = parse_deal(facts)
    apply(before, corrected)
    if _same(corrected, _parsed(standing)):
        raise NotAllowed(_("These are the facts that stand: change what was wrong, or cancel."))
    return facts


def _parsed(facts: Mapping[str, Any]) -> EngineDeal | None:
    try:
        return parse_deal(facts)
    except DealError:
        return None


def _same(a: EngineDeal, b: EngineDeal | None) -> bool:
    """The same facts, whatever order the players were named in."""
    if b is None:
        return False
    return (
        a.contract,
        a.declarer,
        sorted(a.whists),
        sorted(a.tricks or ()),
        a.prikup,
        (a.conceded, a.totus, a.talon_shown),
    ) == (
        b.contract,
        b.declarer,
        sorted(b.whists),
        sorted(b.tricks or ()),
        b.prikup,
        (b.conceded, b.totus, b.talon_shown),
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
        refusal = arbiter_refusal(pulka, user)
        if refusal is not None:
            raise NotAllowed(refusal.message)
        if not arbiter_reason.strip():
            raise NotAllowed(_("State the reason for the arbiter's decision."))
        return Correction.Kind.ARBITER, True
    seats = seats_of(pulka, user)
    refusal = _table_refusal(pulka, seats, number, len(deals))
    if refusal is not None:
        raise NotAllowed(refusal.message)
    if not past_deadline(number, len(deals)):
        return Correction.Kind.CORRECTION, True
    # Past the deadline: only the favoured player, of his own will (Кодекс 4.2.9).
    trial = score(pulka, deals, [*pulka.corrections.all(), draft])
    wrong = before.records[number - 1].entries
    right = trial.records[number - 1].entries
    favoured = {f.player for f in favours(wrong, right, len(pulka.player_names))}
    if not favoured & set(seats):
        raise NotAllowed(
            _(
                "Refused: the wrong record did not favour you, and after the next deal only the "
                "player it favoured may correct it (Кодекс 4.2.9). An organiser can ask the judges."
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
        refusal = _proposal_refusal(pulka, seats)
        if refusal is not None:
            raise NotAllowed(refusal.message)
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
        seat_row = answerable_seat(pulka, user, seat)
        if Consent.objects.filter(proposal=proposal, player=seat_row.player).exists():
            raise NotAllowed(_("This seat has already answered."))
        _answer(proposal, pulka, user, seat, agreed)
        _settle_proposal(proposal, pulka, user)
        _seen_by_the_table(proposal, pulka)
    return proposal


def answerable_seat(pulka: Pulka, user: Any, seat: int) -> PulkaSeat:
    """The seat ``user`` may answer for at the table's consent (Кодекс 4.2.10), or
    NotAllowed: his own seat, or a guest's without an account when he sits there too.

    Used by every question put to the whole table: a forgotten deal, abandoning the pulka.
    """
    row = PulkaSeat.objects.select_related("player").filter(pulka=pulka, seat=seat).first()
    if row is None:
        raise NotAllowed(_("There is no such seat at this table."))
    own = row.player.user_id == user.pk
    for_a_guest = row.player.user_id is None and bool(seats_of(pulka, user))
    if not (own or for_a_guest):
        raise NotAllowed(_("Each player answers for himself, on his own sign-in."))
    return row


def _seen_by_the_table(proposal: ForgottenDeal, pulka: Pulka) -> None:
    """A new version, so every device's poll shows the proposal and its answers.

    An added deal has had its version from ``_after_change`` already.
    """
    if proposal.status != ForgottenDeal.Status.ADDED:
        pulka.version += 1
        pulka.save(update_fields=["version"])
        events.announce(pulka.pk)


def _answer(proposal: ForgottenDeal, pulka: Pulka, user: Any, seat: int, agreed: bool) -> None:
    player = PulkaSeat.objects.get(pulka=pulka, seat=seat).player
    Consent.objects.create(proposal=proposal, player=player, agreed=agreed, answered_by=user)
    action = AuditEvent.Action.CONSENTED if agreed else AuditEvent.Action.REFUSED
    # Who answered for whom, as it was then: a guest linked to an account later must not
    # turn a proxy answer into her own.
    details = {"player": player.name, "seat": seat, "proxy": player.user_id != user.pk}
    audit(pulka, action, user, proposal.number, details)


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
