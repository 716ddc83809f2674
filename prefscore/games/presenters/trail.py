"""Corrections at the table in words: the forgotten-deal banner and the audit trail.

This only formats what the models and the engine hold; the rules are
``corrections.py``'s (Кодекс 4.2.7–4.2.10, 4.2.16), who sits where and the latest
proposal ``seating.Seating``'s and ``recording.latest_proposal``'s, and the figures the engine's.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from fractions import Fraction
from typing import Any

from django.urls import reverse
from django.utils.formats import date_format, time_format
from django.utils.functional import Promise
from django.utils.timezone import localtime
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from prefscore.clubs.names import display_name
from scoring.engine.contracts import Contract, Kind
from scoring.engine.deals import parse_deal
from scoring.engine.errors import ScoringError
from scoring.engine.sheet import SheetState, apply

from ..models import AuditEvent, Deal, ForgottenDeal, Pulka
from ..seating import Seating
from .bidi import isolate
from .entry import ABANDON_ACTIONS, abandon_sentence
from .numbers import format_points, reader_notation
from .protocol import explain

# --- facts in words -------------------------------------------------------------------

_WORDS = {
    "whist": gettext_lazy("whist"),
    "pass": gettext_lazy("pass"),
    "half": gettext_lazy("half"),
}


def describe_facts(facts: Mapping[str, Any], names: Sequence[str] = ()) -> str:
    """A deal's facts as a line a player reads: ``6♠ Anna · Boris whist, Vera pass · …``.

    ``names`` (the seats in order) orders the players as they sit.
    """
    try:
        contract = Contract.parse(str(facts.get("contract", "")))
    except (ScoringError, ValueError):
        return str(facts.get("contract", "?"))
    if contract.kind is Kind.ALLPASS:
        parts = [_("all-pass")]
    elif contract.kind is Kind.MISERE:
        parts = [_("misère")]
    else:
        parts = [reader_notation(contract.symbol)]
    if facts.get("declarer"):
        parts[0] = f"{parts[0]} {facts['declarer']}"
    words = _seated(facts.get("whists") or {}, names)
    if words:
        parts.append(", ".join(f"{name} {_WORDS.get(word, word)}" for name, word in words))
    tricks = _seated(facts.get("tricks") or {}, names)
    if tricks:
        listed = ", ".join(f"{name} {count}" for name, count in tricks)
        parts.append(_("tricks: %(tricks)s") % {"tricks": listed})
    if facts.get("prikup"):
        parts.append(_("talon fast tricks: %(count)s") % {"count": facts["prikup"]})
    if facts.get("conceded") is True:
        parts.append(_("conceded without three"))
    if facts.get("totus") is True:
        parts.append(_("totus"))
    if facts.get("talon_shown") is True:
        parts.append(_("the talon was shown"))
    return " · ".join(parts)


def _seated(by_name: Mapping[str, Any], names: Sequence[str]) -> list[tuple[str, Any]]:
    order = {name: seat for seat, name in enumerate(names)}
    return sorted(by_name.items(), key=lambda item: order.get(item[0], len(order)))


def when(moment: datetime) -> str:
    """A moment of the trail in the page's language, to the second."""
    local = localtime(moment)
    return f"{date_format(local, 'SHORT_DATE_FORMAT')} {time_format(local, 'H:i:s')}"


# --- the forgotten-deal banner (Кодекс 4.2.10) -------------------------------------------


@dataclass(frozen=True, slots=True)
class SeatAnswer:
    name: str
    answer: str  # agreed, refused or waiting
    text: str


@dataclass(frozen=True, slots=True)
class AnswerButtons:
    """Agree and Refuse for one seat the viewer may answer for."""

    seat: int
    agree: str
    refuse: str
    guest: bool


@dataclass(frozen=True, slots=True)
class ForgottenBanner:
    status: str  # ForgottenDeal.Status
    headline: str
    deal: str  # notation and facts in words
    entries: tuple[str, ...]
    answers: tuple[SeatAnswer, ...]
    buttons: tuple[AnswerButtons, ...]
    action: str  # where the answers are posted
    outcome: str  # once resolved: what became of it


def forgotten_banner(
    pulka: Pulka,
    proposal: ForgottenDeal | None,
    seating: Seating,
    user: Any,
    state: SheetState,
    last_deal: Deal | None,
) -> ForgottenBanner | None:
    """What the table sees of the latest forgotten deal, or None when there is nothing.

    A pending proposal shows with Agree and Refuse for each seat the viewer answers
    for: his own, and guests' seats (no account) when he sits at the table. A resolved
    one stays, saying what became of it, until the next deal is recorded.
    """
    if proposal is None:
        return None
    pending = proposal.status == ForgottenDeal.Status.PENDING
    if not pending and last_deal is not None and proposal.resolved_at is not None:
        if proposal.resolved_at < last_deal.entered_at:
            return None
    names = pulka.player_names
    values = {"user": _who(proposal.proposed_by), "number": proposal.number}
    headline = _("%(user)s proposes a forgotten deal, to be deal %(number)s (Кодекс 4.2.10)")
    deal, entries = _proposed_deal(proposal, state, names) if pending else ("", ())
    if not deal:
        deal = describe_facts(proposal.facts, names)
    answered = _answered(proposal, seating, names)
    answers = tuple(_seat_answer(name, answered) for name in names)
    buttons: tuple[AnswerButtons, ...] = ()
    if pending:
        buttons = _buttons(seating, user, answered, names)
    return ForgottenBanner(
        status=proposal.status,
        headline=headline % values,
        deal=deal,
        entries=entries,
        answers=answers,
        buttons=buttons,
        action=reverse("games:answer", args=[pulka.pk, proposal.pk]),
        outcome=_outcome(proposal, answered),
    )


def _answered(proposal: ForgottenDeal, seating: Seating, names: Sequence[str]) -> dict[str, bool]:
    """Each answer so far by the name the sheet gives the seat."""
    found = {}
    for consent in proposal.consents.all():
        seat = seating.seat_of_player(consent.player_id)
        found[names[seat] if seat is not None else consent.player.name] = consent.agreed
    return found


def _proposed_deal(
    proposal: ForgottenDeal, state: SheetState, names: Sequence[str]
) -> tuple[str, tuple[str, ...]]:
    """The proposed deal as the sheet would write it now: notation and every entry."""
    try:
        _state, record = apply(state, parse_deal(proposal.facts))
    except ScoringError:
        return "", ()
    words: dict[object, str] = {}
    text = describe_facts(proposal.facts, names)
    return text, tuple(explain(entry, names, words) for entry in record.entries)


def _seat_answer(name: str, answered: Mapping[str, bool]) -> SeatAnswer:
    values = {"name": isolate(name)}
    if name not in answered:
        return SeatAnswer(name, "waiting", _("%(name)s: waiting") % values)
    if answered[name]:
        return SeatAnswer(name, "agreed", _("%(name)s: agreed") % values)
    return SeatAnswer(name, "refused", _("%(name)s: refused") % values)


def _buttons(
    seating: Seating, user: Any, answered: Mapping[str, bool], names: Sequence[str]
) -> tuple[AnswerButtons, ...]:
    own = seating.of_user(user)
    if not own:
        return ()
    found = [
        AnswerButtons(seat, _("Agree"), _("Refuse"), False)
        for seat in own
        if names[seat] not in answered
    ]
    for seat in seating.guests():
        if names[seat] in answered:
            continue
        values = {"name": isolate(names[seat])}
        found.append(
            AnswerButtons(
                seat,
                _("Agree on behalf of %(name)s") % values,
                _("Refuse on behalf of %(name)s") % values,
                True,
            )
        )
    return tuple(found)


def _outcome(proposal: ForgottenDeal, answered: Mapping[str, bool]) -> str:
    values: dict[str, object] = {"number": proposal.number}
    if proposal.status == ForgottenDeal.Status.ADDED:
        return _("Everyone agreed: the forgotten deal is now deal %(number)s.") % values
    if proposal.status == ForgottenDeal.Status.REFUSED:
        refused = ", ".join(isolate(name) for name, agreed in answered.items() if not agreed)
        values["names"] = refused
        return _("%(names)s refused: the forgotten deal is dropped (Кодекс 4.2.10).") % values
    if proposal.status == ForgottenDeal.Status.LAPSED:
        return _(
            "The forgotten deal lapsed: the next deal was recorded before everyone agreed "
            "(Кодекс 4.2.10)."
        )
    return ""


def _who(user: Any) -> str:
    return isolate(display_name(user)) if user is not None else "—"


# --- the audit trail ---------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class AuditLine:
    action: str
    label: str  # the action's name
    at: datetime
    when: str
    who: str
    text: str


@dataclass(frozen=True, slots=True)
class WithdrawnRow:
    number: int
    facts: str
    entered: str  # who recorded it, and when
    withdrawn: str  # who withdrew it, and when


_SENTENCES: dict[str, Promise] = {
    AuditEvent.Action.RECORDED: gettext_lazy("Recorded deal %(number)s: %(facts)s."),
    AuditEvent.Action.CHANGED: gettext_lazy(
        "Changed deal %(number)s under the pencil rule (Кодекс 4.2.8): %(before)s → %(after)s."
    ),
    AuditEvent.Action.UNDONE: gettext_lazy(
        "Undid deal %(number)s under the pencil rule (Кодекс 4.2.8): %(facts)s."
    ),
    AuditEvent.Action.PROPOSED: gettext_lazy(
        "Proposed a forgotten deal, to be deal %(number)s (Кодекс 4.2.10): %(facts)s."
    ),
    AuditEvent.Action.ADDED: gettext_lazy(
        "Everyone agreed: the forgotten deal was added as deal %(number)s."
    ),
    AuditEvent.Action.LAPSED: gettext_lazy(
        "The forgotten deal %(number)s lapsed: the next deal was recorded first (Кодекс 4.2.10)."
    ),
    AuditEvent.Action.WARNED: gettext_lazy(
        "Warning to %(player)s for deal %(number)s: his first correction (Кодекс 4.2.7)."
    ),
    AuditEvent.Action.FINISHED: gettext_lazy(
        "Every pulya is closed: the pulka is over and takes no more deals."
    ),
    AuditEvent.Action.SHARED: gettext_lazy(
        "Made the result public: anyone with the new link sees it and its card."
    ),
    AuditEvent.Action.UNSHARED: gettext_lazy(
        "Took the result's public link back: it shows nothing any more."
    ),
    AuditEvent.Action.IMPORTED: gettext_lazy(
        "Imported the pulka from a file (SHA-256 %(sha256)s). Deals: %(deals)s; "
        "corrections: %(corrections)s."
    ),
}
_CORRECTED = {
    "correction": gettext_lazy("Corrected deal %(number)s (Кодекс 4.2.7): %(facts)s."),
    "voluntary": gettext_lazy(
        "Corrected deal %(number)s of his own will, after the next deal, without penalty "
        "(Кодекс 4.2.9): %(facts)s."
    ),
    "imported": gettext_lazy(
        "Corrected deal %(number)s, as the imported file records it: %(facts)s."
    ),
    "imported-no-penalty": gettext_lazy(
        "Corrected deal %(number)s without penalty, as the imported file records it: %(facts)s."
    ),
}
_ARBITER = {
    True: gettext_lazy(
        "Arbiter's decision on deal %(number)s, with the 4.2.7 penalty (Кодекс 4.2.16): "
        "%(facts)s. Reason: %(reason)s"
    ),
    False: gettext_lazy(
        "Arbiter's decision on deal %(number)s, without penalty (Кодекс 4.2.16): "
        "%(facts)s. Reason: %(reason)s"
    ),
}
# Keyed by the stored action (a str; the Action members equal and hash as their values).
_ANSWERS: dict[tuple[str, bool], Promise] = {
    (AuditEvent.Action.CONSENTED, True): gettext_lazy(
        "%(player)s agreed to the forgotten deal %(number)s."
    ),
    (AuditEvent.Action.CONSENTED, False): gettext_lazy(
        "Agreed to the forgotten deal %(number)s on behalf of %(player)s, a guest."
    ),
    (AuditEvent.Action.REFUSED, True): gettext_lazy(
        "%(player)s refused the forgotten deal %(number)s: it is dropped."
    ),
    (AuditEvent.Action.REFUSED, False): gettext_lazy(
        "Refused the forgotten deal %(number)s on behalf of %(player)s, a guest: it is dropped."
    ),
}


def audit_lines(
    events: Sequence[AuditEvent], seating: Seating, names: Sequence[str] = ()
) -> tuple[AuditLine, ...]:
    """Every event of the trail in order, each as a sentence with who and when."""
    labels = dict(AuditEvent.Action.choices)
    return tuple(
        AuditLine(
            event.action,
            str(labels.get(event.action, event.action)),
            event.at,
            when(event.at),
            _who(event.user),
            sentence(event, seating, names),
        )
        for event in events
    )


def sentence(event: AuditEvent, seating: Seating, names: Sequence[str] = ()) -> str:
    """What one audit event says, in the page's language."""
    details = event.details or {}
    values: dict[str, Any] = {
        "number": event.deal_number or "",
        "facts": describe_facts(details.get("facts") or {}, names),
        "player": details.get("player") or "",
    }
    action = event.action
    if action == AuditEvent.Action.IMPORTED:
        values.update({key: details.get(key, "") for key in ("sha256", "deals", "corrections")})
    if action == AuditEvent.Action.CHANGED:
        values["before"] = describe_facts(details.get("before") or {}, names)
        values["after"] = describe_facts(details.get("after") or {}, names)
    template: Promise
    if action == AuditEvent.Action.CORRECTED:
        template = _CORRECTED.get(details.get("kind", ""), _CORRECTED["correction"])
    elif action == AuditEvent.Action.ARBITER:
        values["reason"] = details.get("reason") or "—"
        template = _ARBITER[_arbiter_penalised(details)]
    elif action == AuditEvent.Action.PENALISED:
        return _penalty_sentence(event.deal_number, details)
    elif action in ABANDON_ACTIONS:
        return abandon_sentence(event, details, seating.user_of)
    elif action in (AuditEvent.Action.CONSENTED, AuditEvent.Action.REFUSED):
        own = event.user_id is not None and seating.user_of(values["player"]) == event.user_id
        if "proxy" in details:  # recorded by newer releases: who answered for whom, then
            own = not details["proxy"]
        template = _ANSWERS[(action, own)]
    else:
        template = _SENTENCES.get(action, gettext_lazy("%(number)s"))
    return str(template) % values


def _arbiter_penalised(details: Mapping[str, Any]) -> bool:
    # The audit detail of an arbiter's decision predates the penalty flag in some rows.
    return bool(details.get("penalise", True))


def _penalty_sentence(number: int | None, details: Mapping[str, Any]) -> str:
    try:
        points = format_points(Fraction(str(details.get("points", "0"))))
    except (ValueError, ZeroDivisionError):
        points = str(details.get("points"))
    values = {
        "number": number or "",
        "player": isolate(details.get("player") or ""),
        "points": points,
        "on": isolate(details.get("on") or ""),
    }
    if details.get("section") == "whists":
        return (
            _("Penalty for deal %(number)s (Кодекс 4.2.7): %(player)s → %(on)s: %(points)s whists.")
            % values
        )
    return (
        _("Penalty for deal %(number)s (Кодекс 4.2.7): %(player)s: %(points)s into the gora.")
        % values
    )


def withdrawn_rows(pulka: Pulka) -> tuple[WithdrawnRow, ...]:
    """Deal rows a pencil change or undo withdrew (Кодекс 4.2.8): kept, never deleted."""
    rows = (
        pulka.deals.filter(withdrawn_at__isnull=False)
        .select_related("entered_by", "withdrawn_by")
        .order_by("number", "entered_at")
    )
    return tuple(
        WithdrawnRow(
            row.number,
            describe_facts(row.facts, pulka.player_names),
            _("%(user)s at %(when)s")
            % {"user": _who(row.entered_by), "when": when(row.entered_at)},
            _("%(user)s at %(when)s")
            % {"user": _who(row.withdrawn_by), "when": when(row.withdrawn_at)}
            if row.withdrawn_at
            else "",
        )
        for row in rows
    )
