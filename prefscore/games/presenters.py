"""What the table screens show, computed in Python so that templates only place it.

Every figure comes from the engine (``scoring.engine``); this module only formats it
and puts it into the drawing (``drawing.py``), the protocol and the entry form.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from decimal import Decimal
from fractions import Fraction
from typing import Any

from django.utils.formats import number_format, time_format
from django.utils.functional import Promise
from django.utils.timezone import localtime
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from scoring.engine import settlement as engine_settlement
from scoring.engine.contracts import Contract, Kind
from scoring.engine.deals import GORA, PULYA, WHISTS, Entry
from scoring.engine.deals import Deal as EngineDeal
from scoring.engine.numbers import Points
from scoring.engine.penalties import CorrectionOutcome
from scoring.engine.pulka import ScoredPulka, fold
from scoring.engine.seats import seating
from scoring.engine.sheet import (
    DealRecord,
    RunningTotals,
    SheetState,
    apply,
    running_totals,
    start,
)

from . import drawing
from .models import Correction, Deal
from .pencil import pencil_until as pencil_until  # the one pencil rule (Кодекс 4.2.8)

MINUS = "\u2212"
_FRACTIONS = {
    Fraction(1, 2): "½",
    Fraction(1, 3): "⅓",
    Fraction(2, 3): "⅔",
    Fraction(1, 4): "¼",
    Fraction(3, 4): "¾",
}


# --- numbers -------------------------------------------------------------------------


def format_points(value: Points) -> str:
    """A sheet figure as players write it: ``12``, ``−3``, ``12½`` (never a float)."""
    if type(value) is int:  # nearly every figure: skip the Fraction
        return str(value) if value >= 0 else MINUS + str(-value)
    value = Fraction(value)
    sign = MINUS if value < 0 else ""
    value = abs(value)
    whole = int(value)
    rest = value - whole
    if not rest:
        return f"{sign}{whole}"
    if rest in _FRACTIONS:
        return f"{sign}{whole or ''}{_FRACTIONS[rest]}"
    return f"{sign}{whole} {rest.numerator}/{rest.denominator}"


def format_result(value: Points | Decimal, places: int = 2) -> str:
    """A settlement figure: whole as it is, else two decimals in the page's language."""
    number = Decimal(value) if isinstance(value, int | Decimal) else _decimal(value)
    if number == number.to_integral_value():
        text = number_format(int(number), use_l10n=True)
    else:
        text = number_format(number.quantize(Decimal(1).scaleb(-places)), places, use_l10n=True)
    return text.replace("-", MINUS)


def _decimal(value: Points) -> Decimal:
    fraction = Fraction(value)
    return Decimal(fraction.numerator) / Decimal(fraction.denominator)


def format_money(value: Decimal) -> str:
    """Money at the stake: as many decimals as it has, at least none (4.6, −0.9, 12)."""
    normal = value.normalize()
    places = max(0, -normal.as_tuple().exponent)  # type: ignore[operator]
    return format_result(normal, places)


# --- the drawn sheet -----------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class FieldText:
    kind: str  # gora, pulya or whists
    title: str  # the field and its whole series, for the tooltip
    x: str
    y: str
    font_size: str
    line_height: str
    lines: tuple[drawing.TextLine, ...]


@dataclass(frozen=True, slots=True)
class FieldLabel:
    x: str
    y: str
    text: str


@dataclass(frozen=True, slots=True)
class NameText:
    x: str
    y: str
    transform: str
    text: str
    full: str
    deals: bool


@dataclass(frozen=True, slots=True)
class Line:
    x1: str
    y1: str
    x2: str
    y2: str


@dataclass(frozen=True, slots=True)
class DrawnSheet:
    """Everything the SVG template places, coordinates already as text."""

    view_box: str
    width: str
    height: str
    cx: str
    cy: str
    r: str
    target: str
    lines: tuple[Line, ...]
    fields: tuple[FieldText, ...]
    labels: tuple[FieldLabel, ...]
    names: tuple[NameText, ...]
    title: str
    description: str


@dataclass(frozen=True, slots=True)
class Figure:
    """A running total as written on the sheet.

    A correction (Кодекс 4.2.7) strikes the figure it makes wrong and writes the right
    one after it, as on paper: the struck figure stays legible.
    """

    text: str
    struck: bool = False  # written, then struck out by a correction
    inserted: bool = False  # written by a correction, in place of a struck figure


Series = tuple[Figure, ...]


@dataclass(frozen=True, slots=True)
class SheetRow:
    """One player's figures for the plain table beside the drawing."""

    name: str
    pulya: Series
    gora: Series
    whists: tuple[Series | None, ...]  # one per seat; None on the player's own column


LABEL_FONT = 19.0


def _written(series: Series) -> str:
    """A series as the sheet writes it, for tooltips: ``2.6.10``, struck figures crossed."""
    if not series:
        return "—"
    return ".".join(_crossed(f.text) if f.struck else f.text for f in series)


def _crossed(text: str) -> str:
    # U+0336 strikes each character through in a tooltip, where no markup goes.
    return "".join(character + "\u0336" for character in text)


def totals_of(scored: ScoredPulka) -> tuple[RunningTotals, ...]:
    """Running totals per player: every deal's entries, then every penalty (Кодекс 4.2.4)."""
    size = len(scored.pulka.names)
    groups: list[Iterable[Entry]] = [record.entries for record in scored.records]
    groups += [c.penalties for c in scored.corrections]
    return running_totals(size, groups)


# --- the sheet as written, corrections and all ------------------------------------------


@dataclass(frozen=True, slots=True)
class CorrectionStep:
    """One correction where the fold met it: the deal before and after, the judgement."""

    number: int
    after_deal: int
    wrong: DealRecord
    right: DealRecord
    outcome: CorrectionOutcome


@dataclass(frozen=True, slots=True)
class PlayerFigures:
    pulya: Series
    gora: Series
    whists: tuple[Series, ...]  # on each seat; empty on his own


@dataclass(frozen=True, slots=True)
class Paper:
    """The sheet as the players wrote it: every figure, struck ones too, per player."""

    players: tuple[PlayerFigures, ...]
    steps: tuple[CorrectionStep, ...]  # one per correction, in the log's order


Key = tuple[str, int, int]


class _Pen:
    """Writes running totals field by field, and strikes those a correction makes wrong."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.written: dict[Key, list[list[Any]]] = {}  # key -> [[value, struck, inserted]]
        self.now: dict[Key, Points] = {}

    @staticmethod
    def key(entry: Entry) -> Key:
        if entry.section == WHISTS:
            return (WHISTS, entry.player, entry.on if entry.on is not None else 0)
        return (entry.section, entry.player, 0)

    def write(self, entries: Iterable[Entry]) -> None:
        """One group of entries (a deal, a correction's penalties): a total per field."""
        touched: set[Key] = set()
        for entry in entries:
            key = self.key(entry)
            self.now[key] = self.now.get(key, 0) + entry.points
            touched.add(key)
        for key in sorted(touched):
            self.written.setdefault(key, []).append([self.now[key], False, False])

    def rewrite(self, right: dict[Key, Points]) -> None:
        """After a correction: strike each field's figure that is now wrong, write the right one."""
        for key in sorted(set(right) | set(self.now)):
            value = right.get(key, 0)
            if self.now.get(key, 0) == value:
                continue
            figures = self.written.setdefault(key, [])
            if figures:
                figures[-1][1] = True
            # A field left with nothing standing is empty again, as on paper: no 0.
            if value or any(not struck for _value, struck, _inserted in figures):
                figures.append([value, False, True])
            self.now[key] = value

    def series(self, key: Key) -> Series:
        return tuple(
            Figure(format_points(value), struck, inserted)
            for value, struck, inserted in self.written.get(key, ())
        )


def _standing(state: SheetState, penalties: Iterable[Entry]) -> dict[Key, Points]:
    """Every field's figure: the fold's state and the penalties written so far."""
    size = state.size
    values: dict[Key, Points] = {}
    for p in range(size):
        values[(PULYA, p, 0)] = state.pulya[p]
        values[(GORA, p, 0)] = state.gora[p]
        for q in range(size):
            if q != p:
                values[(WHISTS, p, q)] = state.whists[p][q]
    for entry in penalties:
        key = _Pen.key(entry)
        values[key] = values.get(key, 0) + entry.points
    return {k: v for k, v in values.items() if v}


def paper_of(scored: ScoredPulka) -> Paper:
    """The sheet as written at the table, with each correction where it was made.

    Deals write their running totals; a correction (Кодекс 4.2.7) refolds the log with
    the deal replaced, strikes every figure that changed and writes the right one after
    it, then writes its penalties. The figures standing at the end are the engine's.
    """
    pulka = scored.pulka
    size = len(pulka.names)
    pen = _Pen(size)
    steps: list[CorrectionStep] = []
    if not scored.corrections:
        for record in scored.records:
            pen.write(record.entries)
    else:
        state = start(pulka.names, pulka.convention, pulka.target, pulka.first_dealer)
        deals: list[EngineDeal] = []
        records: list[DealRecord] = []
        penalties: list[Entry] = []
        judged = iter(scored.corrections)
        for item in pulka.log:
            if isinstance(item, EngineDeal):
                state, record = apply(state, item)
                deals.append(item)
                records.append(record)
                pen.write(record.entries)
                continue
            outcome = next(judged)
            wrong = records[item.number - 1]
            deals[item.number - 1] = item.deal
            state, records = fold(pulka, deals)
            pen.rewrite(_standing(state, penalties))
            pen.write(outcome.penalties)
            penalties.extend(outcome.penalties)
            steps.append(
                CorrectionStep(item.number, len(deals), wrong, records[item.number - 1], outcome)
            )
    players = tuple(
        PlayerFigures(
            pen.series((PULYA, p, 0)),
            pen.series((GORA, p, 0)),
            tuple(() if q == p else pen.series((WHISTS, p, q)) for q in range(size)),
        )
        for p in range(size)
    )
    return Paper(players, tuple(steps))


def draw_sheet(scored: ScoredPulka, paper: Paper | None = None) -> DrawnSheet:
    """The score sheet as paper players know it, laid out for the pulka's size."""
    names = scored.pulka.names
    size = len(names)
    geometry = drawing.layout(size)
    if paper is None:
        paper = paper_of(scored)
    fields: list[FieldText] = []
    labels: list[FieldLabel] = []
    num = drawing.num
    for seat, area in enumerate(geometry.seats):
        own = paper.players[seat]
        fields += _field("gora", _("%(name)s: gora") % {"name": names[seat]}, own.gora, area.gora)
        fields += _field(
            "pulya", _("%(name)s: pulya") % {"name": names[seat]}, own.pulya, area.pulya
        )
        for on, box in area.whists:
            title = _("%(name)s: whists on %(other)s") % {"name": names[seat], "other": names[on]}
            # The opponent's name sits in the field's bottom corner, below the figures.
            room = drawing.Box(box.x, box.y, box.w, max(0.0, box.h - LABEL_FONT * 1.15))
            fields += _field("whists", title, own.whists[on], room)
            labels.append(_label(names[on], box))
    cx, cy = geometry.centre
    return DrawnSheet(
        view_box=geometry.view_box,
        width=num(geometry.width),
        height=num(geometry.height),
        cx=num(cx),
        cy=num(cy),
        r=num(geometry.radius),
        target=str(scored.pulka.target),
        lines=tuple(Line(num(s.x1), num(s.y1), num(s.x2), num(s.y2)) for s in geometry.lines),
        fields=tuple(fields),
        labels=tuple(labels),
        names=tuple(_names(names, geometry, scored.state)),
        title=_("Score sheet to %(target)s: %(players)s")
        % {"target": scored.pulka.target, "players": ", ".join(names)},
        description=_(
            "Each player's sector holds, from the centre out, the gora, the pulya and the "
            "whists on each opponent. The table below gives the same figures."
        ),
    )


def _field(kind: str, title: str, series: Series, box: drawing.Box) -> list[FieldText]:
    struck = [i for i, figure in enumerate(series) if figure.struck]
    fitted = drawing.fit_totals([figure.text for figure in series], box, struck)
    if fitted is None:
        return []
    num = drawing.num
    return [
        FieldText(
            kind,
            f"{title}: {_written(series)}",
            num(fitted.x),
            num(fitted.y),
            num(fitted.font_size),
            num(fitted.line_height),
            fitted.lines,
        )
    ]


def _label(name: str, box: drawing.Box) -> FieldLabel:
    """The opponent a whist field is written on, small in its corner."""
    room = max(3, int(box.w / (0.6 * LABEL_FONT)) - 1)
    text = name if len(name) <= room else name[: room - 1] + drawing.ELLIPSIS
    return FieldLabel(
        drawing.num(box.x + box.w), drawing.num(box.y + box.h - 3), _("→%(name)s") % {"name": text}
    )


def _names(names: Sequence[str], geometry: drawing.Layout, state: SheetState) -> list[NameText]:
    num = drawing.num
    found = []
    for seat, area in enumerate(geometry.seats):
        spot = area.name
        transform = f"rotate({spot.rotate} {num(spot.x)} {num(spot.y)})" if spot.rotate else ""
        deals = not state.closed and state.dealer == seat
        found.append(
            NameText(
                num(spot.x),
                num(spot.y),
                transform,
                drawing.fit_name(names[seat], spot),
                names[seat],
                deals,
            )
        )
    return found


def sheet_rows(scored: ScoredPulka, paper: Paper | None = None) -> tuple[SheetRow, ...]:
    """The same figures as the drawing, as running totals in a plain table."""
    names = scored.pulka.names
    if paper is None:
        paper = paper_of(scored)
    rows = []
    for seat, own in enumerate(paper.players):
        whists = tuple(None if other == seat else own.whists[other] for other in range(len(names)))
        rows.append(SheetRow(names[seat], own.pulya, own.gora, whists))
    return tuple(rows)


# --- the protocol --------------------------------------------------------------------

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
}
_WHIST_REASONS = {
    "trick_whists": gettext_lazy(
        "%(player)s writes %(points)s whists on %(on)s for the defence's tricks"
    ),
    "consolation": gettext_lazy("%(player)s writes %(points)s whists on %(on)s as consolation"),
    "half_whist": gettext_lazy("%(player)s writes %(points)s whists on %(on)s for the half-whist"),
    "talon": gettext_lazy(
        "%(player)s writes %(points)s whists on %(on)s for fast tricks in the talon"
    ),
    "allpass": gettext_lazy("%(player)s writes %(points)s whists on %(on)s for the all-pass"),
    "help": gettext_lazy("%(player)s writes %(points)s whists on %(on)s for the help given"),
    "penalty": gettext_lazy(
        "%(player)s writes %(points)s whists on %(on)s as a penalty (Кодекс 4.2.7)"
    ),
}


_FALLBACK = {
    PULYA: gettext_lazy("%(player)s: %(points)s into the pulya"),
    "gora_off": gettext_lazy("%(player)s: %(points)s off the gora"),
    GORA: gettext_lazy("%(player)s: %(points)s into the gora"),
    "whists": gettext_lazy("%(player)s writes %(points)s whists on %(on)s"),
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
        "player": names[entry.player],
        "points": format_points(-entry.points if entry.points < 0 else entry.points),
        "on": names[entry.on] if entry.on is not None else "",
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
) -> tuple[ProtocolLine | ProtocolEvent, ...]:
    """One line per deal in the 4.2.11 notation, newest first, with every entry explained.

    Each correction follows the deal that was the last one when it was made, with a
    line of its own for every warning and penalty (Кодекс 4.2.7); the corrected deal's
    line shows its old notation struck out. ``corrections`` are the stored rows in the
    log's order (``services.in_log_order``), matching ``paper.steps`` one to one.
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
        struck.setdefault(step.number, []).append(step.wrong.notation)
        notes.setdefault(step.number, []).append(_corrected_by(correction))
        events.setdefault(step.after_deal, []).extend(_correction_events(step, correction, names))
    lines: list[ProtocolLine | ProtocolEvent] = []
    for record, row in zip(scored.records, deals, strict=True):
        user = row.entered_by
        number = record.number
        lines.append(
            ProtocolLine(
                number,
                record.notation,
                dealer_label % {"dealer": names[record.dealer]},
                record.deal.declarer or "",
                tuple(explain(e, names, words) for e in record.entries) or nothing,
                recorded_label % {"user": user.get_username()} if user is not None else "",
                pencil is not None and row.pk == pencil.pk,
                tuple(struck.get(number, ())),
                tuple(notes.get(number, ())),
                number in actions.correctable,
                actions.arbiter,
                actions.held_text if actions.held == number else "",
            )
        )
        lines.extend(events.get(number, ()))
    return tuple(reversed(lines))


_CORRECTED_BY = {
    "correction": gettext_lazy("Corrected by %(user)s at %(time)s (Кодекс 4.2.7)."),
    "voluntary": gettext_lazy(
        "Corrected by %(user)s at %(time)s, of his own will and without penalty (Кодекс 4.2.9)."
    ),
    "arbiter": gettext_lazy("Arbiter's decision by %(user)s at %(time)s (Кодекс 4.2.16)."),
}


def _who(user: Any) -> str:
    return user.get_username() if user is not None else "—"


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
        note = _("%(who)s. Reason: %(reason)s") % {"who": note, "reason": row.reason}
    found = [
        ProtocolEvent(
            "correction", text % values, step.number, step.wrong.notation, step.right.notation, note
        )
    ]
    for seat in step.outcome.warned:
        found.append(
            ProtocolEvent(
                "warning",
                _("Warning, Кодекс 4.2.7: %(player)s (first correction)") % {"player": names[seat]},
                step.number,
            )
        )
    for entry in step.outcome.penalties:
        found.append(ProtocolEvent("penalty", penalty_text(entry, names), step.number))
    return list(reversed(found))


def penalty_text(entry: Entry, names: Sequence[str]) -> str:
    """One penalty entry of Кодекс 4.2.7 as the protocol writes it."""
    values = {
        "player": names[entry.player],
        "points": format_points(entry.points),
        "on": names[entry.on] if entry.on is not None else "",
    }
    if entry.section == WHISTS:
        return _("Penalty, Кодекс 4.2.7: %(player)s writes %(points)s whists on %(on)s") % values
    return _("Penalty, Кодекс 4.2.7: %(player)s: %(points)s into the gora") % values


# --- the entry form ------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Option:
    value: str
    label: str
    checked: bool
    extra: str = ""  # a CSS class the option's input carries


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


CONTRACT_LEVELS = ("6", "7", "8", "9", "10")
MISERE_RANK = 8.5  # a misère outbids 8NT and yields to a 9 (rules.md §2)
SUITS = (("", "—"), ("S", "♠"), ("C", "♣"), ("D", "♦"), ("H", "♥"), ("NT", "БК"))


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
    change mode. Contracts below the exit ladder are not offered (rules.md §3.3).
    """
    conv = state.convention
    names = state.names
    seats = seating(state.size, state.dealer)
    chosen = values.get("contract", "")
    half_levels = {str(level) for level in conv.half_whist_levels}
    contracts = [
        Option(level, level, chosen == level, "half-ok" if level in half_levels else "")
        for level in CONTRACT_LEVELS
        if int(level) >= state.min_contract
    ]
    if MISERE_RANK >= state.min_contract:
        contracts.append(Option("misere", _("misère"), chosen == "misere", "misere"))
    contracts.append(Option("allpass", _("all-pass"), chosen == "allpass", "allpass"))
    suit = values.get("suit", "")
    suits = tuple(Option(v, label, suit == v) for v, label in SUITS)
    declarer = values.get("declarer", "")
    declarers = tuple(Option(str(s), names[s], declarer == str(s)) for s in seats.active)
    words = tuple(_word(s, names[s], values, bool(half_levels)) for s in seats.active)
    tricks = [
        PlayerTricks(s, names[s], f"tricks_{s}", values.get(f"tricks_{s}", ""), 10, "")
        for s in seats.active
    ]
    if state.size == 4 and conv.allpass_dealer_talon and conv.allpass_scoring == "gora":
        dealer = seats.dealer
        tricks.append(
            PlayerTricks(
                dealer,
                names[dealer],
                f"tricks_{dealer}",
                values.get(f"tricks_{dealer}", ""),
                2,
                _("dealer: talon tricks, all-pass only"),
                "talon",
            )
        )
    return EntryForm(
        action=action,
        mode=mode,
        number=number,
        dealer=names[state.dealer],
        sitting_out=tuple(names[s] for s in seats.sitting_out),
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
    )


def _word(seat: int, name: str, values: dict[str, Any], half: bool) -> PlayerWord:
    field_name = f"word_{seat}"
    word = values.get(field_name, "")
    choices = [("", "—"), ("whist", _("whist")), ("pass", _("pass"))]
    if half:
        choices.append(("half", _("half")))
    options = tuple(
        Option(value, label, word == value, "half" if value == "half" else "")
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
    return values


# --- settlement ----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Cell:
    text: str
    negative: bool = False


def cell(value: Points | Decimal) -> Cell:
    return Cell(format_result(value), value < 0)


@dataclass(frozen=True, slots=True)
class SettlementRow:
    """One player's line through every step of the settlement."""

    name: str
    pulya: str
    gora: str
    converted: str
    amnestied: str
    mountain_whists: str
    whists: tuple[str, ...]  # written by this player on each seat (blank on his own)
    pair_nets: tuple[Cell, ...]
    pairwise: Cell
    mountain_circle: Cell
    whist_circles: tuple[Cell, ...]
    average: Cell
    exact: Cell
    whole: Cell
    money: Cell | None


@dataclass(frozen=True, slots=True)
class SettlementView:
    names: tuple[str, ...]
    rows: tuple[SettlementRow, ...]
    finished: bool
    target: int
    pulya_to_gora: int
    amnesty: str
    mean: str
    divisor: int
    adjustments: tuple[str, ...]
    seat_choices: tuple[Option, ...]
    stake: str | None
    payments: tuple[str, ...]
    codex_rounding: bool


def settlement_view(scored: ScoredPulka, first_seat: int) -> SettlementView:
    """Both Кодекс 4.2.14 methods step by step, whole whists by 4.2.12, money and payments."""
    pulka, totals, conv = scored.pulka, scored.totals, scored.pulka.convention
    names = pulka.names
    size = len(names)
    pairwise = engine_settlement.pairwise_method(totals, conv)
    average = engine_settlement.average_mountain_method(totals, conv)
    exact = engine_settlement.exact_result(totals, conv)
    whole = engine_settlement.whole_result(totals, conv, first_seat)
    stake = pulka.stake
    money = engine_settlement.money(whole.result, stake) if stake is not None else None
    rows = tuple(
        SettlementRow(
            name=names[i],
            pulya=format_points(totals.pulya[i]),
            gora=format_points(totals.gora[i]),
            converted=format_points(pairwise.converted[i]),
            amnestied=format_points(pairwise.amnestied[i]),
            mountain_whists=format_result(pairwise.mountain_whists[i]),
            whists=tuple("" if i == j else format_points(totals.whists[i][j]) for j in range(size)),
            pair_nets=_cells(pairwise.nets[i], i),
            pairwise=cell(pairwise.result[i]),
            mountain_circle=cell(average.mountain_circle[i]),
            whist_circles=_cells(average.whist_circles[i], i),
            average=cell(average.result[i]),
            exact=cell(exact[i]),
            whole=cell(whole.result[i]),
            money=None if money is None else Cell(format_money(money[i]), money[i] < 0),
        )
        for i in range(size)
    )
    return SettlementView(
        names=names,
        rows=rows,
        finished=scored.state.closed,
        target=totals.target,
        pulya_to_gora=conv.pulya_to_gora,
        amnesty=format_points(pairwise.amnesty),
        mean=format_result(average.mean),
        divisor=1 if size == 2 and conv.indivisible_mountain else size,
        adjustments=tuple(_adjustment(a, names) for a in whole.adjustments),
        seat_choices=tuple(Option(str(s), n, s == first_seat) for s, n in enumerate(names)),
        stake=format_money(stake) if stake is not None else None,
        payments=tuple(_payment(p, names, stake) for p in engine_settlement.payments(whole.result)),
        codex_rounding=conv.rounding == "codex",
    )


def _cells(row: Sequence[Points], own: int) -> tuple[Cell, ...]:
    return tuple(Cell("") if j == own else cell(v) for j, v in enumerate(row))


def _adjustment(adjustment: engine_settlement.Adjustment, names: Sequence[str]) -> str:
    """One rule 4.2.12 adjustment in words: who changed his gora, who wrote whists on him."""
    others = ", ".join(n for s, n in enumerate(names) if s != adjustment.seat)
    values = {
        "player": names[adjustment.seat],
        "others": others,
        "q": adjustment.compensation,
    }
    if adjustment.change < 0:
        return (
            _(
                "%(player)s writes one point off his gora; %(others)s each write %(q)s whists on him."
            )
            % values
        )
    return (
        _("%(player)s adds one point to his gora; %(others)s each write %(q)s whists fewer on him.")
        % values
    )


def _payment(
    payment: engine_settlement.Payment, names: Sequence[str], stake: Decimal | None
) -> str:
    values = {
        "payer": names[payment.payer],
        "payee": names[payment.payee],
        "whists": format_result(payment.amount),
    }
    if stake is None:
        return _("%(payer)s pays %(payee)s %(whists)s whists") % values
    values["money"] = format_money(Decimal(payment.amount) * stake)
    return _("%(payer)s pays %(payee)s %(whists)s whists (%(money)s)") % values
