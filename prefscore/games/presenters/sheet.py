"""The score sheet: drawn as paper players know it, and as a plain table beside it.

The figures are the engine's running totals; a correction (Кодекс 4.2.7) strikes the
figures it makes wrong and writes the right ones after them, as on paper. Where each
correction was made comes from the replayed log (``prefscore.games.recording.replay``).
"""

from __future__ import annotations

import hashlib
from collections import OrderedDict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from threading import Lock
from typing import Any

from django.utils.translation import gettext as _

from scoring.engine.deals import GORA, PULYA, WHISTS, Entry
from scoring.engine.numbers import Points
from scoring.engine.pulka import ScoredPulka
from scoring.engine.sheet import RunningTotals, SheetState, running_totals

from .. import drawing
from ..recording import CorrectionStep, Field, field_of, replay
from .bidi import isolate
from .numbers import format_points

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
    text: str  # the name as it fits its edge
    title: str  # the whole name, "… deals next" on the dealer's, for the tooltip
    deals: bool


@dataclass(frozen=True, slots=True)
class Line:
    x1: str
    y1: str
    x2: str
    y2: str


@dataclass(frozen=True, slots=True)
class SheetFrame:
    """The sheet without its figures and names: the same all evening, coordinates as text."""

    view_box: str
    width: str
    height: str
    cx: str
    cy: str
    r: str
    target: str
    lines: tuple[Line, ...]
    labels: tuple[FieldLabel, ...]
    title: str
    description: str


@dataclass(frozen=True, slots=True)
class DrawnSheet:
    """Everything the SVG template places: plain values, already text."""

    frame: SheetFrame
    fields: tuple[FieldText, ...]
    names: tuple[NameText, ...]


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
class SeriesCell:
    """A series in the plain table: as text (``2.6.10``, ``—`` when empty) unless a
    correction struck or inserted one of its figures, then figure by figure."""

    text: str
    figures: Series = ()  # only when a figure is struck or inserted

    @classmethod
    def of(cls, series: Series) -> SeriesCell:
        if any(figure.struck or figure.inserted for figure in series):
            return cls("", series)
        return cls(".".join(figure.text for figure in series) if series else "—")


NO_CELL = SeriesCell("")  # the player's own column of whists


@dataclass(frozen=True, slots=True)
class SheetRow:
    """One player's figures for the plain table beside the drawing."""

    name: str
    pulya: SeriesCell
    gora: SeriesCell
    whists: tuple[SeriesCell, ...]  # one per seat; NO_CELL on the player's own column


@dataclass(frozen=True, slots=True)
class SheetTable:
    """The plain table of the sheet's figures: a column of whists on each player."""

    whist_headers: tuple[str, ...]
    rows: tuple[SheetRow, ...]


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
class PlayerFigures:
    pulya: Series
    gora: Series
    whists: tuple[Series, ...]  # on each seat; empty on his own


@dataclass(frozen=True, slots=True)
class Paper:
    """The sheet as the players wrote it: every figure, struck ones too, per player."""

    players: tuple[PlayerFigures, ...]
    steps: tuple[CorrectionStep, ...]  # one per correction, in the log's order


class _Pen:
    """Writes running totals field by field, and strikes those a correction makes wrong."""

    def __init__(self) -> None:
        self.written: dict[Field, list[list[Any]]] = {}  # field -> [[value, struck, inserted]]
        self.now: dict[Field, Points] = {}

    def write(self, entries: Iterable[Entry]) -> None:
        """One group of entries (a deal, a correction's penalties): a total per field."""
        touched: set[Field] = set()
        for entry in entries:
            key = field_of(entry)
            self.now[key] = self.now.get(key, 0) + entry.points
            touched.add(key)
        for key in sorted(touched):
            self.written.setdefault(key, []).append([self.now[key], False, False])

    def rewrite(self, right: dict[Field, Points]) -> None:
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

    def series(self, key: Field) -> Series:
        return tuple(
            Figure(format_points(value), struck, inserted)
            for value, struck, inserted in self.written.get(key, ())
        )


def paper_of(scored: ScoredPulka) -> Paper:
    """The sheet as written at the table, with each correction where it was made.

    Deals write their running totals; a correction strikes every figure its refold
    changed and writes the right one after it, then writes its penalties.
    """
    size = len(scored.pulka.names)
    pen = _Pen()
    steps: list[CorrectionStep] = []
    for item in replay(scored):
        if isinstance(item, CorrectionStep):
            pen.rewrite(item.standing)
            pen.write(item.outcome.penalties)
            steps.append(item)
        else:
            pen.write(item.entries)
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
        fields += _field(
            "gora", _("%(name)s: gora") % {"name": isolate(names[seat])}, own.gora, area.gora
        )
        fields += _field(
            "pulya", _("%(name)s: pulya") % {"name": isolate(names[seat])}, own.pulya, area.pulya
        )
        for on, box in area.whists:
            title = _("%(name)s → %(other)s: whists") % {
                "name": isolate(names[seat]),
                "other": isolate(names[on]),
            }
            # The opponent's name sits in the field's bottom corner, below the figures.
            room = drawing.Box(box.x, box.y, box.w, max(0.0, box.h - LABEL_FONT * 1.15))
            fields += _field("whists", title, own.whists[on], room)
            labels.append(_label(names[on], box))
    cx, cy = geometry.centre
    frame = SheetFrame(
        view_box=geometry.view_box,
        width=num(geometry.width),
        height=num(geometry.height),
        cx=num(cx),
        cy=num(cy),
        r=num(geometry.radius),
        target=str(scored.pulka.target),
        lines=tuple(Line(num(s.x1), num(s.y1), num(s.x2), num(s.y2)) for s in geometry.lines),
        labels=tuple(labels),
        title=_("Score sheet to %(target)s: %(players)s")
        % {"target": scored.pulka.target, "players": ", ".join(names)},
        description=_(
            "Each player's sector holds, from the centre out, the gora, the pulya and the "
            "whists on each opponent. The table below gives the same figures."
        ),
    )
    return DrawnSheet(frame, tuple(fields), tuple(_names(names, geometry, scored.state)))


# Fitted fields by a digest of their figures and their box, the least recently used
# going first (each entry is the few lines shown, whatever the length of the series).
_FITS: OrderedDict[tuple[bytes, drawing.Box], drawing.FittedText | None] = OrderedDict()
FITS_KEPT = 2048
_fits_lock = Lock()


def _fit(texts: list[str], box: drawing.Box, struck: tuple[int, ...]) -> drawing.FittedText | None:
    # A deal changes a few fields of the sheet; the others fit as in the version before,
    # and fitting a long series (wrapping it at every size) is most of drawing it. The
    # figures are remembered by a digest: a marathon's field holds 2,000 of them.
    written = f"{'.'.join(texts)}|{struck}".encode()
    key = (hashlib.blake2b(written, digest_size=16).digest(), box)
    with _fits_lock:
        if key in _FITS:
            _FITS.move_to_end(key)
            return _FITS[key]
    fitted = drawing.fit_totals(texts, box, struck)
    with _fits_lock:
        _FITS[key] = fitted
        if len(_FITS) > FITS_KEPT:
            _FITS.popitem(last=False)
    return fitted


def forget_fits() -> None:
    """No field fitted before (a new worker's state: benches and tests)."""
    with _fits_lock:
        _FITS.clear()


def _field(kind: str, title: str, series: Series, box: drawing.Box) -> list[FieldText]:
    struck = tuple(i for i, figure in enumerate(series) if figure.struck)
    fitted = _fit([figure.text for figure in series], box, struck)
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
        drawing.num(box.x + box.w),
        drawing.num(box.y + box.h - 3),
        _("→%(name)s") % {"name": isolate(text)},
    )


def _names(names: Sequence[str], geometry: drawing.Layout, state: SheetState) -> list[NameText]:
    num = drawing.num
    found = []
    for seat, area in enumerate(geometry.seats):
        spot = area.name
        transform = f"rotate({spot.rotate} {num(spot.x)} {num(spot.y)})" if spot.rotate else ""
        deals = not state.closed and state.dealer == seat
        title = _("%(name)s deals next") % {"name": isolate(names[seat])} if deals else names[seat]
        found.append(
            NameText(
                num(spot.x),
                num(spot.y),
                transform,
                isolate(drawing.fit_name(names[seat], spot)),
                title,
                deals,
            )
        )
    return found


def sheet_table(scored: ScoredPulka, paper: Paper | None = None) -> SheetTable:
    """The same figures as the drawing, as running totals in a plain table."""
    names = scored.pulka.names
    if paper is None:
        paper = paper_of(scored)
    rows = []
    for seat, own in enumerate(paper.players):
        whists = tuple(
            NO_CELL if other == seat else SeriesCell.of(own.whists[other])
            for other in range(len(names))
        )
        rows.append(
            SheetRow(names[seat], SeriesCell.of(own.pulya), SeriesCell.of(own.gora), whists)
        )
    headers = tuple(_("Whists → %(name)s") % {"name": isolate(name)} for name in names)
    return SheetTable(headers, tuple(rows))
