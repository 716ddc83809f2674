"""Manual entries on the sheet: who may write them, recording and correcting them.

A manual entry is a line written by hand with its reason (a fine, an arbiter's
adjustment, a carried balance; docs/rules.md §3.11). It is stored as a deal row whose
facts are ``{"manual": {...}}`` (docs/protocol.md, "Manual entries"), so it is numbered,
audited, exported and replayed as deals are; the engine scores it.

Who may write one is not a convention option but a permission (docs/rules.md §3.11.8):
the club's admins, and in a tournament pulka also its organisers, who apply the
arbiters' decisions there (Кодекс 4.2.16). A correction of a manual entry is theirs
too, recorded as an arbiter's decision without penalty.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from scoring.engine.deals import parse_deal
from scoring.engine.errors import DealError
from scoring.engine.manual import describe
from scoring.engine.pulka import ScoredPulka

from .access import may_write_as
from .corrections import Refusal, finished_message, tournament_finished
from .models import AuditEvent, Correction, Deal, Pulka
from .services import NotAllowed, Recorded, _after_change, audit, record_deal, score
from .services import standing_deals as _standing


def manual_refusal(pulka: Pulka, user: Any) -> Refusal | None:
    """Why ``user`` may not write a manual entry now, or None."""
    if not may_write_as(pulka, pulka.club.role_of(user)):
        return Refusal(
            _(
                "Only the club's admins, and in a tournament its organisers, write manual "
                "entries on the sheet."
            ),
            True,
        )
    if pulka.is_frozen:
        return Refusal(_("This pulka is over: it takes no more entries."), False)
    return None


def correction_refusal(
    pulka: Pulka, user: Any, deals: Sequence[Deal], number: int
) -> Refusal | None:
    """Why ``user`` may not correct manual entry ``number``, or None.

    Like a deal, a finished pulka's entries stand, but for the last one (Кодекс 4.2.7:
    the sheet is corrected until it is settled).
    """
    if not may_write_as(pulka, pulka.club.role_of(user)):
        return Refusal(
            _(
                "Only the club's admins, and in a tournament its organisers, correct manual entries."
            ),
            True,
        )
    if pulka.status == Pulka.Status.ARCHIVED:
        return Refusal(_("This pulka is archived."), False)
    if tournament_finished(pulka):
        return Refusal(finished_message(), False)
    if pulka.is_frozen and number != len(deals):
        return Refusal(_("This pulka is finished: only its last entry can be corrected."), False)
    return None


def is_manual_row(deal: Deal) -> bool:
    """Whether a stored deal row is a manual entry (its facts say so)."""
    return isinstance(deal.facts, Mapping) and "manual" in deal.facts


def record_manual(pulka_id: int, facts: Mapping[str, Any], user: Any, number: int) -> Recorded:
    """Record manual entry ``number``: the same path as a deal (lock, fold, audit).

    The permission is checked again in the transaction that records it (the view asked
    first); the engine's refusals are raised as :class:`DealError` for the form, a number
    taken meanwhile as ``Conflict``, a refusal of the permission as ``NotAllowed``.
    """
    with transaction.atomic():
        pulka = Pulka.objects.select_related("club").get(pk=pulka_id)
        refusal = manual_refusal(pulka, user)
        if refusal is not None:
            raise NotAllowed(refusal.message)
        return record_deal(pulka_id, facts, user, number)


def correct_manual(pulka_id: int, user: Any, number: int, facts: Mapping[str, Any]) -> ScoredPulka:
    """Correct manual entry ``number`` with a new line: an arbiter's decision, no penalty.

    The engine refuses a line in a deal's place (``correction.manual_kind``) and facts
    that would make a later deal impossible, as :class:`DealError`.
    """
    with transaction.atomic():
        pulka = Pulka.objects.select_for_update().select_related("club").get(pk=pulka_id)
        deals = _standing(pulka)
        if not 1 <= number <= len(deals) or not is_manual_row(deals[number - 1]):
            raise NotAllowed(_("There is no manual entry %(number)s.") % {"number": number})
        refusal = correction_refusal(pulka, user, deals, number)
        if refusal is not None:
            raise NotAllowed(refusal.message)
        corrections = list(pulka.corrections.all())
        standing = score(pulka, deals, corrections).records[number - 1].deal
        if describe(parse_deal(facts)) == describe(standing):
            raise NotAllowed(_("These are the facts that stand: change what was wrong, or cancel."))
        line = describe_facts(facts)
        draft = Correction(
            pulka=pulka,
            deal_number=number,
            after_deal=len(deals),
            facts=dict(facts),
            kind=Correction.Kind.ARBITER,
            penalise=False,
            reason=line,
        )
        after = score(pulka, deals, [*corrections, draft])
        draft.asked_by = user
        draft.save()
        details = {"kind": draft.kind, "facts": draft.facts, "reason": line, "penalise": False}
        audit(pulka, AuditEvent.Action.ARBITER, user, number, details)
        _after_change(pulka, after, user)
    return after


def describe_facts(facts: Mapping[str, Any]) -> str:
    """The reason a manual entry's facts give (for the correction's record)."""
    try:
        line = describe(parse_deal(facts))
    except DealError:
        return ""
    return line.reason if line is not None else ""
