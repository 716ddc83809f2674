"""The protocol: every deal in the 4.2.11 notation, every entry explained in words.

Corrections, warnings and penalties (Кодекс 4.2.7) stand as lines of their own after
the deal that was the last one when they were made.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any

from django.urls import reverse
from django.utils.formats import time_format
from django.utils.functional import Promise
from django.utils.timezone import localtime
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from prefscore.clubs.names import display_name
from scoring.engine.deals import GORA, PULYA, WHISTS, Entry
from scoring.engine.deals import Deal as EngineDeal
from scoring.engine.manual import describe, is_manual
from scoring.engine.pulka import ScoredPulka

from ..models import Correction, Deal
from ..recording import CorrectionStep
from .bidi import isolate
from .numbers import format_points, reader_notation
from .sheet import Paper, paper_of

# Entry.reason codes (scoring.engine.deals.Entry) in words, by section.
_PULYA_REASONS = {
    "contract": gettext_lazy("%(player)s: %(points)s into the pulya for the contract made"),
    "unplayed": gettext_lazy(
        "%(player)s: %(points)s into the pulya, the contract not played (nobody whisted)"
    ),
    "misere": gettext_lazy("%(player)s: %(points)s into the pulya for the misère made"),
    "zero_bonus": gettext_lazy(
        "%(player)s: %(points)s into the pulya for taking no trick on the all-pass"
    ),
    "help": gettext_lazy(
        "%(player)s: %(points)s into the pulya as help (his pulya was not closed)"
    ),
    "totus": gettext_lazy("%(player)s: %(points)s more into the pulya for the totus"),
    "manual": gettext_lazy("%(player)s: %(points)s into the pulya, written by hand"),
}
_GORA_REASONS = {
    "remiz": gettext_lazy("%(player)s: %(points)s into the gora for the tricks short (remiz)"),
    "whister_shortfall": gettext_lazy(
        "%(player)s: %(points)s into the gora, the whisters took fewer tricks than they owed"
    ),
    "allpass": gettext_lazy("%(player)s: %(points)s into the gora for tricks on the all-pass"),
    "misere": gettext_lazy("%(player)s: %(points)s into the gora for tricks on the misère"),
    "zero_bonus": gettext_lazy(
        "%(player)s: %(points)s off the gora for taking no trick on the all-pass"
    ),
    "help_writeoff": gettext_lazy(
        "%(player)s: %(points)s off the gora, every pulya being closed (no one to help)"
    ),
    "penalty": gettext_lazy("%(player)s: %(points)s into the gora as a penalty (Кодекс 4.2.7)"),
    "conceded": gettext_lazy(
        "%(player)s: %(points)s into the gora for conceding without three (уход без трёх)"
    ),
    "talon_shown": gettext_lazy("%(player)s: %(points)s into the gora, the talon was shown"),
}
# A manual line's gora figure may be a minus (docs/rules.md §3.11): the plain words
# "into" / "off the gora" say which, and its reason line says why.
# Names stand beside the arrow, never after a preposition, so that no language has to
# decline them ("Борис → Анна", never "висты на Анна").
_WHIST_REASONS = {
    "trick_whists": gettext_lazy("%(player)s → %(on)s: %(points)s whists for the defence's tricks"),
    "consolation": gettext_lazy("%(player)s → %(on)s: %(points)s whists as consolation"),
    "half_whist": gettext_lazy("%(player)s → %(on)s: %(points)s whists for the half-whist"),
    "talon": gettext_lazy("%(player)s → %(on)s: %(points)s whists for fast tricks in the talon"),
    "allpass": gettext_lazy("%(player)s → %(on)s: %(points)s whists for the all-pass"),
    "help": gettext_lazy("%(player)s → %(on)s: %(points)s whists for the help given"),
    "penalty": gettext_lazy("%(player)s → %(on)s: %(points)s whists as a penalty (Кодекс 4.2.7)"),
    "talon_shown": gettext_lazy("%(player)s → %(on)s: %(points)s whists, the talon was shown"),
    "manual": gettext_lazy("%(player)s → %(on)s: %(points)s whists, written by hand"),
}


_FALLBACK = {
    PULYA: gettext_lazy("%(player)s: %(points)s into the pulya"),
    "gora_off": gettext_lazy("%(player)s: %(points)s off the gora"),
    GORA: gettext_lazy("%(player)s: %(points)s into the gora"),
    "whists": gettext_lazy("%(player)s → %(on)s: %(points)s whists"),
}


def explain(entry: Entry, names: Sequence[str], words: dict[object, str] | None = None) -> str:
    """One number a deal wrote, and why, as a sentence a player can check.

    ``words`` caches the sentences already translated, for a protocol of many deals.
    """
    if entry.section == PULYA:
        key: object = (PULYA, entry.reason) if entry.reason in _PULYA_REASONS else PULYA
    elif entry.section == GORA:
        if entry.reason in _GORA_REASONS:
            key = (GORA, entry.reason)
        else:
            key = "gora_off" if entry.points < 0 else GORA
    else:
        key = ("whists", entry.reason) if entry.reason in _WHIST_REASONS else "whists"
    words = {} if words is None else words
    if key not in words:
        words[key] = str(_sentence(key))
    values = {
        "player": isolate(names[entry.player]),
        "points": format_points(-entry.points if entry.points < 0 else entry.points),
        "on": isolate(names[entry.on]) if entry.on is not None else "",
    }
    return words[key] % values


def _sentence(key: object) -> Promise:
    if isinstance(key, tuple):
        section, reason = key
        table = {PULYA: _PULYA_REASONS, GORA: _GORA_REASONS}.get(section, _WHIST_REASONS)
        return table[reason]
    return _FALLBACK[key]  # type: ignore[index]


@dataclass(frozen=True, slots=True)
class ProtocolLine:
    number: int
    notation: str
    dealer: str  # "dealer Anna", in the page's language
    declarer: str
    entries: tuple[str, ...]
    recorded_by: str  # "Recorded by anna.", or empty
    pencil: bool  # the viewer holds the pencil on this deal (Кодекс 4.2.8)
    struck: tuple[str, ...] = ()  # the notations this deal had before its corrections
    corrected_by: tuple[str, ...] = ()  # who corrected it and when, one per correction
    correct: bool = False  # the viewer may ask to correct it (Кодекс 4.2.7, 4.2.9)
    arbiter: bool = False  # the viewer may apply an arbiter's decision (Кодекс 4.2.16)
    held: str = ""  # someone else holds the pencil on it: why it cannot be corrected yet
    kind: str = "deal"
    # Addresses and labels made once here, not by tags on every line of a long protocol.
    correct_url: str = ""
    arbiter_url: str = ""
    correct_label: str = ""
    arbiter_label: str = ""
    # The pencil's own buttons (Кодекс 4.2.8), on the line whose pencil the viewer holds.
    change_url: str = ""
    undo_url: str = ""
    undo_confirm: str = ""


@dataclass(frozen=True, slots=True)
class ProtocolEvent:
    """A line of the protocol between deals: a correction, a warning or a penalty."""

    kind: str  # correction, warning or penalty
    text: str
    number: int  # the deal it is about
    old: str = ""  # a correction: the deal's notation before…
    new: str = ""  # …and after
    note: str = ""  # a correction: who and when, and an arbiter's reason


@dataclass(frozen=True, slots=True)
class LineActions:
    """What the viewer may do on the protocol's deal lines."""

    correctable: frozenset[int] = frozenset()
    arbiter: bool = False
    held: int | None = None  # the deal whose recorder still holds the pencil
    held_text: str = ""


def protocol_lines(
    scored: ScoredPulka,
    deals: Sequence[Deal],
    pencil: Deal | None,
    *,
    paper: Paper | None = None,
    corrections: Sequence[Correction] = (),
    actions: LineActions | None = None,
    newest: int | None = None,
) -> tuple[ProtocolLine | ProtocolEvent, ...]:
    """One line per deal in the 4.2.11 notation, newest first, with every entry explained.

    Each correction follows the deal that was the last one when it was made, with a
    line of its own for every warning and penalty (Кодекс 4.2.7); the corrected deal's
    line shows its old notation struck out. ``corrections`` are the stored rows in the
    log's order (``services.in_log_order``), matching ``paper.steps`` one to one.
    ``newest`` keeps only the lines of the last so many deals (the table screen's).
    """
    # The words are looked up once here, not per line in the template: a pulka of a
    # hundred deals would otherwise spend most of its page in translation tags.
    names = scored.pulka.names
    actions = actions or LineActions()
    if paper is None:
        paper = paper_of(scored) if scored.corrections else Paper((), ())
    dealer_label, recorded_label = _("dealer %(dealer)s"), _("Recorded by %(user)s.")
    nothing = (_("Nothing is written for this deal."),)
    words: dict[object, str] = {}
    steps = list(zip(paper.steps, corrections, strict=True))
    struck: dict[int, list[str]] = {}
    notes: dict[int, list[str]] = {}
    events: dict[int, list[ProtocolEvent]] = {}
    for step, correction in steps:
        struck.setdefault(step.number, []).append(reader_notation(step.wrong.notation))
        notes.setdefault(step.number, []).append(_corrected_by(correction))
        events.setdefault(step.after_deal, []).extend(_correction_events(step, correction, names))
    links = _Links(deals[0].pulka_id) if deals else None
    lines: list[ProtocolLine | ProtocolEvent] = []
    first = 0 if newest is None else max(0, len(deals) - newest)
    for record, row in zip(scored.records[first:], deals[first:], strict=True):
        user = row.entered_by
        number = record.number
        held_here = pencil is not None and row.pk == pencil.pk
        change_url, undo_url, undo_confirm = _pencil_buttons(row.pulka_id, number, held_here)
        assert links is not None
        lines.append(
            ProtocolLine(
                number,
                reader_notation(record.notation),
                ""
                if is_manual(record.deal)
                else dealer_label % {"dealer": isolate(names[record.dealer])},
                record.deal.declarer or "",
                (*reason_lines(record.deal), *(explain(e, names, words) for e in record.entries))
                or nothing,
                recorded_label % {"user": isolate(display_name(user))} if user is not None else "",
                held_here,
                tuple(struck.get(number, ())),
                tuple(notes.get(number, ())),
                number in actions.correctable,
                actions.arbiter,
                actions.held_text if actions.held == number else "",
                correct_url=links.correct(number),
                arbiter_url=links.arbiter(number),
                correct_label=links.correct_label % {"number": number},
                arbiter_label=links.arbiter_label % {"number": number},
                kind="manual" if is_manual(record.deal) else "deal",
                change_url=change_url,
                undo_url=undo_url,
                undo_confirm=undo_confirm,
            )
        )
        lines.extend(events.get(number, ()))
    return tuple(reversed(lines))


class _Links:
    """The deal lines' addresses: reversed once, the deal's number put in per line."""

    MARK = 987654321  # a deal number no pulka reaches (the limit is 2,000)

    def __init__(self, pk: int) -> None:
        self._correct = reverse("games:correct", args=[pk, self.MARK]).split(str(self.MARK))
        self._arbiter = reverse("games:arbiter", args=[pk, self.MARK]).split(str(self.MARK))
        self.correct_label = _("Correct deal %(number)s")
        self.arbiter_label = _("Arbiter's decision on deal %(number)s")

    def correct(self, number: int) -> str:
        return str(number).join(self._correct)

    def arbiter(self, number: int) -> str:
        return str(number).join(self._arbiter)


def split_newest(
    lines: Sequence[ProtocolLine | ProtocolEvent],
) -> tuple[tuple[ProtocolLine | ProtocolEvent, ...], tuple[ProtocolLine | ProtocolEvent, ...]]:
    """The protocol (newest first) cut after the last deal's line: the only line that can
    carry one viewer's pencil (Кодекс 4.2.8), with the corrections made after it; and the rest."""
    for index, line in enumerate(lines):
        if isinstance(line, ProtocolLine):
            return tuple(lines[: index + 1]), tuple(lines[index + 1 :])
    return tuple(lines), ()


def for_viewer(
    lines: Sequence[ProtocolLine | ProtocolEvent],
    actions: LineActions,
    pencil: int | None,
    pulka_pk: int | None = None,
) -> tuple[ProtocolLine | ProtocolEvent, ...]:
    """The shared lines with what this viewer may do on them (``pencil``: the deal
    number whose pencil he holds, in pulka ``pulka_pk``)."""
    return tuple(
        _line_for_viewer(line, actions, pencil, pulka_pk)
        if isinstance(line, ProtocolLine)
        else line
        for line in lines
    )


def _line_for_viewer(
    line: ProtocolLine, actions: LineActions, pencil: int | None, pulka_pk: int | None
) -> ProtocolLine:
    change_url, undo_url, undo_confirm = _pencil_buttons(
        pulka_pk, line.number, line.number == pencil
    )
    return replace(
        line,
        pencil=line.number == pencil,
        correct=line.number in actions.correctable,
        arbiter=actions.arbiter,
        held=actions.held_text if actions.held == line.number else "",
        change_url=change_url,
        undo_url=undo_url,
        undo_confirm=undo_confirm,
    )


def _pencil_buttons(pulka_pk: int | None, number: int, held: bool) -> tuple[str, str, str]:
    """The pencil's "Change" and "Undo" addresses and the undo's question (Кодекс 4.2.8),
    on the line whose pencil the viewer holds: made here once, not by four ``{% url %}``
    tags and a ``{% blocktranslate %}`` in the line's markup."""
    if pulka_pk is None or not held:
        return "", "", ""
    return (
        f"{reverse('games:sheet', args=[pulka_pk])}?change={number}",
        reverse("games:pencil", args=[pulka_pk, number]),
        _("Undo deal %(number)s?") % {"number": number},
    )


_CORRECTED_BY = {
    "correction": gettext_lazy("Corrected by %(user)s at %(time)s (Кодекс 4.2.7)."),
    "voluntary": gettext_lazy(
        "Corrected by %(user)s at %(time)s, of his own will and without penalty (Кодекс 4.2.9)."
    ),
    "arbiter": gettext_lazy("Arbiter's decision by %(user)s at %(time)s (Кодекс 4.2.16)."),
}


def _who(user: Any) -> str:
    return isolate(display_name(user)) if user is not None else "—"


def _at(moment: datetime) -> str:
    return time_format(localtime(moment), "H:i")


def _corrected_by(row: Correction) -> str:
    template = _CORRECTED_BY.get(row.kind, _CORRECTED_BY["correction"])
    return str(template) % {"user": _who(row.asked_by), "time": _at(row.created_at)}


def _correction_events(
    step: CorrectionStep, row: Correction, names: Sequence[str]
) -> list[ProtocolEvent]:
    """A correction's own line, then one line per warning and per penalty (Кодекс 4.2.7).

    Given in reverse, as the protocol is turned newest first at the end: there the
    correction's line heads its warnings and penalties.
    """
    values = {"number": step.number}
    if row.kind == "arbiter":
        text = (
            _("Arbiter's decision on deal %(number)s (Кодекс 4.2.16)")
            if row.penalise
            else _("Arbiter's decision on deal %(number)s, without penalty (Кодекс 4.2.16)")
        )
    elif row.penalise:
        text = _("Correction of deal %(number)s (Кодекс 4.2.7)")
    else:
        text = _(
            "Correction of deal %(number)s by the player it favoured, without penalty "
            "(Кодекс 4.2.9)"
        )
    note = _("by %(user)s at %(time)s") % {"user": _who(row.asked_by), "time": _at(row.created_at)}
    if row.reason and row.kind == "arbiter":
        note = _("%(who)s. Reason: %(reason)s") % {"who": note, "reason": isolate(row.reason)}
    found = [
        ProtocolEvent(
            "correction",
            text % values,
            step.number,
            reader_notation(step.wrong.notation),
            reader_notation(step.right.notation),
            note,
        )
    ]
    for seat in step.outcome.warned:
        found.append(
            ProtocolEvent(
                "warning",
                _("Warning, Кодекс 4.2.7: %(player)s (first correction)")
                % {"player": isolate(names[seat])},
                step.number,
            )
        )
    for entry in step.outcome.penalties:
        found.append(ProtocolEvent("penalty", penalty_text(entry, names), step.number))
    return list(reversed(found))


def penalty_text(entry: Entry, names: Sequence[str]) -> str:
    """One penalty entry of Кодекс 4.2.7 as the protocol writes it."""
    values = {
        "player": isolate(names[entry.player]),
        "points": format_points(entry.points),
        "on": isolate(names[entry.on]) if entry.on is not None else "",
    }
    if entry.section == WHISTS:
        return _("Penalty, Кодекс 4.2.7: %(player)s → %(on)s: %(points)s whists") % values
    return _("Penalty, Кодекс 4.2.7: %(player)s: %(points)s into the gora") % values


# --- manual entries on the sheet and in the protocol (docs/rules.md §3.11) -------------


def reason_lines(deal: EngineDeal) -> tuple[str, ...]:
    """The protocol's extra line for a manual entry: the reason given; () for a deal."""
    line = describe(deal)
    if line is None:
        return ()
    return (_("Written by hand: %(reason)s") % {"reason": line.reason},)


@dataclass(frozen=True, slots=True)
class ManualNote:
    """A manual line of the sheet: its number, its figure and its reason (§3.11)."""

    number: int
    figure: str
    reason: str
    correct_url: str = ""


def manual_notes(scored: ScoredPulka, pulka_pk: int | None = None) -> tuple[ManualNote, ...]:
    """Every manual line of the sheet as it stands (corrections applied), oldest first.

    With ``pulka_pk`` each carries its correction link: for the manual entry page, which
    only those who may correct reach. The drawn sheet, shared by every viewer, has none.
    """
    notes = []
    for record in scored.records:
        line = describe(record.deal)
        if line is None:
            continue
        figure = _figure(line.player, line.section, line.points, line.on)
        url = ""
        if pulka_pk is not None:
            url = reverse("games:manual_correct", args=[pulka_pk, record.number])
        notes.append(ManualNote(record.number, figure, line.reason, url))
    return tuple(notes)


def _figure(player: str, section: str, points: int, on: str | None) -> str:
    shown = format_points(abs(points))
    named = isolate(player)
    if section == "whists":
        return _("%(player)s → %(on)s: %(points)s whists") % {
            "player": named,
            "on": isolate(on or ""),
            "points": shown,
        }
    if section == "pulya":
        return _("%(player)s: %(points)s into the pulya") % {"player": named, "points": shown}
    if points < 0:
        return _("%(player)s: %(points)s off the gora") % {"player": named, "points": shown}
    return _("%(player)s: %(points)s into the gora") % {"player": named, "points": shown}
