"""Text on the drawn score sheet: running totals and names fitted into their boxes.

A field's running totals wrap at the dots and shrink to fit; when even the smallest
size cannot hold them, the oldest give way to an ellipsis. The boxes come from the
sheet's geometry (``geometry.py``).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Collection
from dataclasses import dataclass

from .geometry import Box, NameSpot

NAME_FONT = 26.0
# Text fitting: font sizes tried in turn, an average glyph width (digits and dots of a
# sans-serif face with tabular figures), and the line height, all relative to the font.
FONT_SIZES = (32.0, 28.0, 25.0, 22.0, 20.0)
GLYPH_WIDTH = 0.58
LINE_HEIGHT = 1.2
ELLIPSIS = "…"


@dataclass(frozen=True, slots=True)
class TextPart:
    """A piece of a line: figures and dots, or one figure struck out by a correction."""

    text: str
    struck: bool = False


@dataclass(frozen=True, slots=True)
class TextLine:
    """One line of a field: the running totals on it; the last of a field is the total now."""

    text: str
    current: str  # the figure standing now, set in bold, when it ends this line
    # ``text`` in pieces when a figure on the line is struck out (Кодекс 4.2.7: the
    # corrected figure stays legible, crossed out, as on paper); empty otherwise.
    parts: tuple[TextPart, ...] = ()


@dataclass(frozen=True, slots=True)
class FittedText:
    x: float
    y: float
    font_size: float
    line_height: float
    lines: tuple[TextLine, ...]
    shortened: bool


def fit_totals(tokens: list[str], box: Box, struck: Collection[int] = ()) -> FittedText | None:
    """Running totals ``2.6.10.12`` wrapped at the dots, as large as the box allows.

    Long series first shrink; when even the smallest size cannot hold them, the
    oldest totals give way to an ellipsis, as the newest ones matter at the table.
    ``struck`` holds the positions of figures struck out by a correction.
    """
    if not tokens or box.w <= 0 or box.h <= 0:
        return None
    marks = frozenset(struck)
    for size in FONT_SIZES:
        lines = _wrap(tokens, _chars(box.w, size))
        if lines and len(lines) <= _rows(box.h, size):
            return _fitted(box, size, tokens, lines, "", False, marks)
    size = FONT_SIZES[-1]
    chars, rows = _chars(box.w, size), _rows(box.h, size)
    # Every figure but the last takes at least two characters with its dot, so no start
    # below this one can fit: skipping them gives the same answer in time bounded by the
    # box, not by the series (a 2,000-deal field tried every start, 2,000 wraps).
    start = max(0, len(tokens) - 2 - (rows * chars) // 2)
    while start < len(tokens) - 1:
        start += 1
        lines = _wrap(tokens, chars, prefix=ELLIPSIS, start=start)
        if lines and len(lines) <= rows:
            return _fitted(box, size, tokens, lines, ELLIPSIS, True, marks)
    return _fitted(box, size, tokens, [[len(tokens) - 1]], "", True, marks)


def _chars(width: float, size: float) -> int:
    return max(1, int(width / (GLYPH_WIDTH * size)))


def _rows(height: float, size: float) -> int:
    return max(1, int((height - size) / (LINE_HEIGHT * size)) + 1) if height >= size else 0


def _piece(tokens: list[str], i: int) -> str:
    return tokens[i] + ("." if i < len(tokens) - 1 else "")


def _wrap(tokens: list[str], chars: int, prefix: str = "", start: int = 0) -> list[list[int]]:
    """Greedy wrap, breaking only after a dot; a line never splits a figure.

    Lines are given as the positions of their figures. Returns no lines when a single
    figure is wider than the box.
    """
    lines: list[list[int]] = []
    line: list[int] = []
    width = len(prefix)
    for i in range(start, len(tokens)):
        piece = len(_piece(tokens, i))
        if width + piece > chars:
            if line:
                lines.append(line)
                line, width = [], 0
            if width + piece > chars:
                return []
        line.append(i)
        width += piece
    lines.append(line)
    return lines


def _fitted(
    box: Box,
    size: float,
    tokens: list[str],
    lines: list[list[int]],
    prefix: str,
    shortened: bool,
    struck: frozenset[int],
) -> FittedText:
    text_lines = []
    for k, line in enumerate(lines):
        last_line = k == len(lines) - 1
        # The figure standing now ends the last line: it is drawn bold.
        now = line[-1] if last_line and line[-1] not in struck else None
        head = [i for i in line if i != now]
        parts = [TextPart(prefix)] if k == 0 and prefix else []
        for i in head:
            parts.append(TextPart(tokens[i], True) if i in struck else TextPart(tokens[i]))
            if i < len(tokens) - 1:
                parts.append(TextPart("."))
        text = "".join(part.text for part in parts)
        marked = any(part.struck for part in parts)
        current = tokens[now] if now is not None else ""
        text_lines.append(TextLine(text, current, _merged(parts) if marked else ()))
    return FittedText(
        box.x,
        box.y + size * 0.85,
        size,
        size * LINE_HEIGHT,
        tuple(text_lines),
        shortened,
    )


def _merged(parts: list[TextPart]) -> tuple[TextPart, ...]:
    """Neighbouring plain pieces as one, so the SVG has a span per struck figure only."""
    merged: list[TextPart] = []
    for part in parts:
        if merged and not part.struck and not merged[-1].struck:
            merged[-1] = TextPart(merged[-1].text + part.text)
        else:
            merged.append(part)
    return tuple(merged)


# A name's room along its edge, in ems of the name's bold face: a margin at both ends
# and the dealer's mark ("● ") kept free, so that the name stays put when the deal
# passes on and neighbouring names never meet (docs/design.md, "Names, languages and taps").
NAME_ROOM = 0.86
DEALER_MARK_EMS = 1.0


def _ems(char: str) -> float:
    """A character's width in ems of a bold sans-serif, generously: wide glyphs (emoji,
    CJK) a full em and more, capitals and m/w wider than the rest."""
    if ord(char) >= 0x1F000 or unicodedata.east_asian_width(char) in ("W", "F"):
        return 1.25
    if unicodedata.combining(char):
        return 0.0
    if char.isupper() or char in "mwшщжюMW":
        return 0.85
    return 0.62


def fit_name(name: str, spot: NameSpot) -> str:
    """A name short enough for its edge; the whole name stays in the tooltip and table."""
    room = spot.length * NAME_ROOM / NAME_FONT - DEALER_MARK_EMS
    if sum(_ems(c) for c in name) <= room:
        return name
    kept, used = "", _ems(ELLIPSIS)
    for char in name:
        used += _ems(char)
        if used > room:
            break
        kept += char
    return kept.rstrip() + ELLIPSIS
