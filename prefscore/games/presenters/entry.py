"""The entry region: the form, only what the next deal, or a deal again, may be; what
the region says once the pulka takes no more; and the panel to abandon it, in words.

The state the deal is dealt in (``scoring.engine.sheet.SheetState``) decides the
dealer, who sits out, the lowest contract allowed and which words the players have.
The rules of abandoning are ``prefscore.games.abandon``'s; the panel (and the audit
trail's lines, ``abandon_sentence``) only says what stands.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.urls import reverse
from django.utils import timezone
from django.utils.formats import time_format
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from prefscore.clubs.models import Role
from prefscore.clubs.names import display_name
from scoring.engine.contracts import Contract, Kind
from scoring.engine.facts import WHISTS
from scoring.engine.seats import seating
from scoring.engine.sheet import SheetState

from ..abandon import pending_with_answers
from ..models import Abandonment, AuditEvent, Pulka, PulkaSeat
from .bidi import isolate
from .numbers import NO_TRUMPS


@dataclass(frozen=True, slots=True)
class Option:
    value: str
    label: str
    checked: bool
    extra: str = ""  # a CSS class the option's input carries
    id: str = ""  # the input's id, made once here rather than by filters per option


@dataclass(frozen=True, slots=True)
class PlayerWord:
    seat: int
    name: str
    field: str
    options: tuple[Option, ...]


@dataclass(frozen=True, slots=True)
class PlayerTricks:
    seat: int
    name: str
    field: str
    value: str
    maximum: int
    note: str
    extra: str = ""
    # The stepper buttons' labels, translated once here rather than per player in the template.
    fewer_label: str = ""
    more_label: str = ""


@dataclass(frozen=True, slots=True)
class EntryForm:
    """The entry form for the next deal, or for a recorded deal again.

    ``mode``: ``record`` the next deal; ``change`` the last one under the pencil rule
    (Кодекс 4.2.8); ``correct`` a recorded deal (4.2.7, 4.2.9); ``arbiter`` an
    arbiter's decision on one (4.2.16); ``propose`` a forgotten deal (4.2.10).
    """

    action: str
    mode: str
    number: int
    dealer: str
    sitting_out: tuple[str, ...]
    allpass_price: int
    min_contract: int
    contracts: tuple[Option, ...]
    suits: tuple[Option, ...]
    declarers: tuple[Option, ...]
    words: tuple[PlayerWord, ...]
    tricks: tuple[PlayerTricks, ...]
    prikup: str | None  # None: the convention writes nothing for the talon
    half_levels: str
    errors: dict[str, list[str]] = field(default_factory=dict)  # by form area
    general_errors: tuple[str, ...] = ()  # not about one area: shown above the form
    notes: tuple[str, ...] = ()  # what the rules say about this mode, above the form
    reason: str | None = None  # an arbiter's decision: the reason typed so far
    penalty: bool = False  # an arbiter's decision: with the 4.2.7 penalty
    subject: str = ""  # the deal as it stands, when the form corrects it
    allpass_chip: str = ""  # the all-pass price per trick in words, the scale applied
    specials: tuple[Option, ...] = ()  # facts of docs/rules.md §3.10 the convention allows
    half_first: bool = False  # either defender may half-whist (docs/rules.md §3.10.2)
    half_played: bool = False  # a half-whist may be played out (docs/rules.md §3.10.7)


CONTRACT_LEVELS = ("6", "7", "8", "9", "10")
MISERE_RANK = 8.5  # a misère outbids 8NT and yields to a 9 (docs/rules.md §2)
# No-trumps is БК on a Russian page and NT on an English one (numbers.py).
SUITS = (("", "—"), ("S", "♠"), ("C", "♣"), ("D", "♦"), ("H", "♥"), ("NT", NO_TRUMPS))


def entry_form(
    state: SheetState,
    action: str,
    number: int,
    values: dict[str, Any],
    errors: dict[str, list[str]] | None = None,
    mode: str = "record",
    *,
    notes: Sequence[str] = (),
    subject: str = "",
) -> EntryForm:
    """The form for a deal dealt in ``state``: only what that deal may be.

    ``values`` are what the form shows: what was typed, or a deal's facts again in
    change mode. Contracts below the exit ladder are not offered (docs/rules.md §3.3).
    """
    conv = state.convention
    names = state.names
    seats = seating(state.size, state.dealer)
    chosen = values.get("contract", "")
    half_levels = {str(level) for level in conv.half_whist_levels}
    contracts = [
        Option(
            level,
            level,
            chosen == level,
            "half-ok" if level in half_levels else "",
            f"contract-{level}",
        )
        for level in CONTRACT_LEVELS
        if int(level) >= state.min_contract
    ]
    if MISERE_RANK >= state.min_contract:
        contracts.append(
            Option("misere", _("misère"), chosen == "misere", "misere", "contract-misere")
        )
    contracts.append(
        Option("allpass", _("all-pass"), chosen == "allpass", "allpass", "contract-allpass")
    )
    suit = values.get("suit", "")
    suits = tuple(Option(v, str(label), suit == v, id=f"suit-{v or 'none'}") for v, label in SUITS)
    declarer = values.get("declarer", "")
    declarers = tuple(
        Option(str(s), names[s], declarer == str(s), id=f"declarer-{s}") for s in seats.active
    )
    words = tuple(_word(s, names[s], values, bool(half_levels)) for s in seats.active)
    if state.size == 4 and conv.dealer_whist != "none":
        words += (_dealer_word(seats.dealer, names[seats.dealer], values),)
    tricks = [_tricks(s, names[s], values, 10) for s in seats.active]
    if state.size == 4 and conv.allpass_dealer_talon and conv.allpass_scoring == "gora":
        dealer = seats.dealer
        note = _("dealer: talon tricks, all-pass only")
        tricks.append(_tricks(dealer, names[dealer], values, 2, note, "talon"))
    specials = _specials(state, values)
    errors = dict(errors or {})
    if not specials and "special" in errors:  # no area to show them beside: above the form
        errors["__all__"] = [*errors.get("__all__", []), *errors.pop("special")]
    return EntryForm(
        action=action,
        mode=mode,
        number=number,
        dealer=isolate(names[state.dealer]),
        sitting_out=tuple(isolate(names[s]) for s in seats.sitting_out),
        allpass_price=state.allpass_price,
        min_contract=state.min_contract,
        contracts=tuple(contracts),
        suits=suits,
        declarers=declarers,
        words=words,
        tricks=tuple(tricks),
        prikup=values.get("prikup", "") if conv.prikup_whists else None,
        half_levels=", ".join(sorted(half_levels)),
        errors={k: v for k, v in (errors or {}).items() if k not in ("__all__", "number")},
        general_errors=tuple(
            [*(errors or {}).get("__all__", []), *(errors or {}).get("number", [])]
        ),
        notes=tuple(notes),
        reason=values.get("reason", "") if mode == "arbiter" else None,
        penalty=values.get("penalty", "") in ("on", "true", "1", "True"),
        subject=subject,
        allpass_chip=_allpass_chip(state),
        specials=specials,
        half_first=conv.half_whist_first,
        half_played=conv.half_whist_played,
    )


def _tricks(
    seat: int, name: str, values: dict[str, Any], maximum: int, note: str = "", extra: str = ""
) -> PlayerTricks:
    """One player's tricks stepper."""
    field_name = f"tricks_{seat}"
    return PlayerTricks(
        seat,
        name,
        field_name,
        values.get(field_name, ""),
        maximum,
        note,
        extra,
        _("One trick fewer for %(name)s") % {"name": isolate(name)},
        _("One trick more for %(name)s") % {"name": isolate(name)},
    )


def _specials(state: SheetState, values: dict[str, Any]) -> tuple[Option, ...]:
    """The facts of docs/rules.md §3.10 this convention allows, as boxes to tick."""
    conv = state.convention
    offered = []
    if conv.concede_levels:
        offered.append(("conceded", _("Conceded without three (уход без трёх)")))
    if conv.totus_bonus:
        offered.append(("totus", _("Totus: a ten for all ten tricks")))
    if conv.talon_shown_penalty != "none" and state.size >= 4:
        offered.append(("talon_shown", _("The talon was shown")))
    return tuple(
        Option(
            name, label, values.get(name, "") in ("on", "true", "True", "1"), id=f"special-{name}"
        )
        for name, label in offered
    )


def _dealer_word(seat: int, name: str, values: dict[str, Any]) -> PlayerWord:
    """The 4-player dealer's word where he may whist (docs/rules.md §3.10.4): whist or none."""
    field_name = f"word_{seat}"
    word = values.get(field_name, "")
    options = tuple(
        Option(
            value,
            label,
            word == value,
            "dealer" if value else "",
            f"{field_name}-{value or 'none'}",
        )
        for value, label in (("", "—"), ("whist", _("whist")))
    )
    label = _("%(name)s (dealer)") % {"name": isolate(name)}
    return PlayerWord(seat, label, field_name, options)


def _allpass_chip(state: SheetState) -> str:
    """What a trick on an all-pass costs now, as the convention writes it (docs/rules.md
    §3.3): Leningrad's gora scale 2 makes the first all-pass 2 a trick, not 1."""
    price = state.allpass_trick_price
    if price.section == WHISTS:
        return _("all-pass at %(price)s whists a trick") % {"price": price.points}
    return _("all-pass at %(price)s a trick") % {"price": price.points}


def _word(seat: int, name: str, values: dict[str, Any], half: bool) -> PlayerWord:
    field_name = f"word_{seat}"
    word = values.get(field_name, "")
    choices = [("", "—"), ("whist", _("whist")), ("pass", _("pass"))]
    if half:
        choices.append(("half", _("half")))
    options = tuple(
        Option(
            value,
            label,
            word == value,
            "half" if value == "half" else "",
            f"{field_name}-{value or 'none'}",
        )
        for value, label in choices
    )
    return PlayerWord(seat, name, field_name, options)


def values_from_facts(facts: dict[str, Any], names: Sequence[str]) -> dict[str, str]:
    """A recorded deal's facts as the form's values, for a change under the pencil rule."""
    values: dict[str, str] = {}
    contract = Contract.parse(str(facts.get("contract", "")))
    if contract.kind is Kind.TRICKS:
        values["contract"] = str(contract.level)
        values["suit"] = contract.suit.value if contract.suit else ""
    else:
        values["contract"] = contract.kind.value
    seat_of = {name: str(seat) for seat, name in enumerate(names)}
    if facts.get("declarer") in seat_of:
        values["declarer"] = seat_of[facts["declarer"]]
    for name, word in (facts.get("whists") or {}).items():
        if name in seat_of:
            values[f"word_{seat_of[name]}"] = str(word)
    for name, count in (facts.get("tricks") or {}).items():
        if name in seat_of:
            values[f"tricks_{seat_of[name]}"] = str(count)
    if facts.get("prikup"):
        values["prikup"] = str(facts["prikup"])
    for name in ("conceded", "totus", "talon_shown"):
        if facts.get(name) is True:
            values[name] = "on"
    return values


# --- when the pulka takes no more deals ----------------------------------------------


def over_text(pulka: Pulka, state: SheetState, pencil_until: Any, seated: bool) -> str:
    """What a pulka that takes no more deals says of itself: one thing, said plainly.

    Why it is over comes first, by the convention's ``end`` (docs/rules.md §3.5): a pulka
    ended by the deal limit, or closed by a tournament's organiser, does not say that
    every pulya is closed. A finished pulka takes no new deal, but
    its last deal can still be put right: by its recorder under the pencil rule
    (Кодекс 4.2.8), by the players at the table as a correction (4.2.7); a tournament
    table's result is locked once it is over, the arbiter's alone (4.2.16). Only an
    abandoned (archived) pulka is frozen for good.
    """
    if pulka.status == Pulka.Status.ARCHIVED:
        return _("This pulka was abandoned: it is archived and its sheet is frozen for good.")
    if pulka.status != Pulka.Status.FINISHED:
        return _("This pulka is no longer played: the sheet takes no more deals.")
    text = end_message(state)
    if pulka.tournament_id is not None:  # its result is locked (docs/tournaments.md §4.9)
        return (
            text
            + " "
            + _("Its result is locked: only the tournament's arbiter changes it (Кодекс 4.2.16).")
        )
    if pencil_until is not None:
        until = time_format(timezone.localtime(pencil_until), "H:i")
        text += " " + _(
            "Until %(time)s you may still change or undo the last deal (Кодекс 4.2.8)."
        ) % {"time": until}
    elif seated:
        text += " " + _(
            "Its last deal can still be corrected by a player at the table (Кодекс 4.2.7)."
        )
    return text


def end_message(state: SheetState) -> str:
    """Why a finished pulka is over, by its convention's ``end`` (docs/rules.md §3.5)."""
    if not state.closed:
        return _("The organiser closed this table: it takes no more deals.")
    end = state.convention.end
    if end == "deals":
        return _("The deal limit is reached: the pulka is over and takes no more deals.")
    if end == "sum_reached":
        return _("The pulyas add up to the total: the pulka is over and takes no more deals.")
    return _("Every pulya is closed: the pulka is over and takes no more deals.")


# --- abandoning the pulka, in words ---------------------------------------------------

ABANDON_ACTIONS = frozenset(
    {
        AuditEvent.Action.TO_ABANDON,
        AuditEvent.Action.ABANDON_ANSWER,
        AuditEvent.Action.ABANDON_LAPSED,
        AuditEvent.Action.ABANDONED,
    }
)
# Names stand apart from the verbs ("Анна: за"), so no sentence declines or genders them.
_LINES = {
    "to_abandon": gettext_lazy("Proposed abandoning the pulka. Reason: %(reason)s"),
    "yes": gettext_lazy("Abandoning the pulka — %(player)s: agrees."),
    "no": gettext_lazy("Abandoning the pulka — %(player)s: refuses; the pulka is kept."),
    "yes-guest": gettext_lazy(
        "Abandoning the pulka — %(player)s (a guest, answered on the guest's behalf): agrees."
    ),
    "no-guest": gettext_lazy(
        "Abandoning the pulka — %(player)s (a guest, answered on the guest's behalf): "
        "refuses; the pulka is kept."
    ),
    "abandon_off": gettext_lazy("Abandoning the pulka lapsed: the next deal was recorded."),
    "admin": gettext_lazy(
        "A club admin abandoned the pulka: it is archived and frozen. Reason: %(reason)s"
    ),
    "table": gettext_lazy(
        "Everyone at the table agreed: the pulka is abandoned, archived and frozen. "
        "Reason: %(reason)s"
    ),
}


def abandon_sentence(
    event: AuditEvent, details: Mapping[str, Any], user_of: Callable[[str], int | None]
) -> str:
    """One audit line of abandoning a pulka; ``user_of`` gives a seat's account by name."""
    player = str(details.get("player") or "")
    key = str(event.action)
    if event.action == AuditEvent.Action.ABANDON_ANSWER:
        own = event.user_id is not None and user_of(player) == event.user_id
        key = ("yes" if details.get("agreed") else "no") + ("" if own else "-guest")
    elif event.action == AuditEvent.Action.ABANDONED:
        key = "admin" if details.get("by") == "admin" else "table"
    return str(_LINES[key]) % {"player": player, "reason": details.get("reason") or "—"}


@dataclass(frozen=True, slots=True)
class AbandonSeat:
    name: str
    answer: str  # agreed, refused or waiting
    text: str  # "Анна: за"


@dataclass(frozen=True, slots=True)
class AbandonButtons:
    """Agree and Refuse for one seat the viewer answers for: his own, or a guest's."""

    seat: int
    label: str


@dataclass(frozen=True, slots=True)
class PendingAbandon:
    headline: str
    reason: str
    answers: tuple[AbandonSeat, ...]
    buttons: tuple[AbandonButtons, ...]
    action: str  # where answers are posted


@dataclass(frozen=True, slots=True)
class AbandonPanel:
    action: str  # where a proposal (or an admin's abandoning) is posted
    offered: bool  # the viewer may start it
    at_once: bool  # a club admin: abandoned at once, without the table's answers
    pending: PendingAbandon | None


def abandon_panel(
    pulka: Pulka,
    user: Any,
    seats: Sequence[PulkaSeat],
    role: str | None,
    pending: Callable[[Pulka], Abandonment | None] = pending_with_answers,
) -> AbandonPanel | None:
    """The panel for a club pulka that is not archived; None otherwise. One query, or
    none when ``pending`` takes the waiting proposal from the cache."""
    if pulka.tournament_id is not None or pulka.status == Pulka.Status.ARCHIVED:
        return None
    own = [row.seat for row in seats if user.is_authenticated and row.player.user_id == user.pk]
    found = pending(pulka)
    return AbandonPanel(
        action=reverse("games:abandon", args=[pulka.pk]),
        offered=found is None and (bool(own) or role == Role.ADMIN),
        at_once=role == Role.ADMIN,
        pending=_pending(pulka, found, seats, own) if found is not None else None,
    )


def _pending(
    pulka: Pulka, found: Abandonment, seats: Sequence[PulkaSeat], own: Sequence[int]
) -> PendingAbandon:
    by_player = {consent.player_id: consent.agreed for consent in found.consents.all()}
    answers, buttons = [], []
    for row in seats:
        agreed = by_player.get(row.player_id)
        state = "waiting" if agreed is None else ("agreed" if agreed else "refused")
        words = {"waiting": _("waiting"), "agreed": _("agrees"), "refused": _("refuses")}
        answers.append(
            AbandonSeat(row.player.name, state, f"{isolate(row.player.name)}: {words[state]}")
        )
        answerable = row.seat in own or (bool(own) and row.player.user_id is None)
        if agreed is None and answerable:
            buttons.append(AbandonButtons(row.seat, _answer_label(row, row.seat in own)))
    proposer = display_name(found.proposed_by) if found.proposed_by else "—"
    return PendingAbandon(
        headline=_("Abandon this pulka? Proposed by %(user)s; it is archived once everyone agrees.")
        % {"user": isolate(proposer)},
        reason=found.reason,
        answers=tuple(answers),
        buttons=tuple(buttons),
        action=reverse("games:abandon_answer", args=[pulka.pk, found.pk]),
    )


def _answer_label(row: PulkaSeat, own: bool) -> str:
    if own:
        return _("Your answer")
    return _("%(player)s (a guest): your answer on the guest's behalf") % {
        "player": isolate(row.player.name)
    }
