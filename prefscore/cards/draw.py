"""A card drawn: Pillow on the vendored DejaVu Sans (Latin, Cyrillic, Greek, Arabic, and
the card suits), 1200 × 630, PNG.

Every text is measured before it is drawn: a name too wide for its place is shortened
with an ellipsis at the width it has, so that nothing leaves the card or runs into its
neighbour. Each name is drawn as a run of its own, with its own direction (with Pillow's
Raqm layout and FriBiDi, which Debian and Pillow's wheels have; without them the basic
layout draws the letters unjoined, still in place). A character the font lacks (most
emoji) is drawn as the font's blank box, measured like any other.
"""

from __future__ import annotations

import io
import re
import unicodedata
from functools import lru_cache
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

from .layout import HEIGHT, WIDTH, Card, Line, Row

FONTS = Path(__file__).resolve().parent / "fonts"
REGULAR, BOLD = FONTS / "DejaVuSans.ttf", FONTS / "DejaVuSans-Bold.ttf"
ELLIPSIS = "…"
_SPACES = re.compile(r"\s+")

FELT, CREAM, INK, MUTED, RED, LINE, MINE = (
    "#0b5d3b",
    "#fbf8f1",
    "#1d1d1b",
    "#5a5f5c",
    "#b3261e",
    "#d9d4c7",
    "#e6f0e9",
)
MARGIN = 48
HEAD = 150  # the felt band: title and subtitle
FOOT = 46
CELL = 150  # each figure's column
RANK = 64


@lru_cache(maxsize=32)
def font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(str(BOLD if bold else REGULAR), size)


def width(text: str, face: ImageFont.FreeTypeFont) -> float:
    return float(face.getlength(text)) if text else 0.0


def _cut(text: str, count: int) -> str:
    """The first ``count`` characters, not ending inside a character that combines with
    what follows (a combining mark, a joiner, a variation selector goes with its base)."""
    while 0 < count < len(text) and (
        unicodedata.combining(text[count]) or text[count] in "\u200d\ufe0e\ufe0f"
    ):
        count -= 1
    return text[:count].rstrip()


def fit(text: str, face: ImageFont.FreeTypeFont, room: float) -> str:
    """``text`` whole if it fits in ``room`` pixels, else as much as fits and an ellipsis."""
    text = _SPACES.sub(" ", text)  # no line breaks nor runs of spaces
    if width(text, face) <= room:
        return text
    low, high = 0, len(text)
    while low < high:  # the longest prefix that fits with its ellipsis
        middle = (low + high + 1) // 2
        if width(_cut(text, middle) + ELLIPSIS, face) <= room:
            low = middle
        else:
            high = middle - 1
    return (
        _cut(text, low) + ELLIPSIS if low else (ELLIPSIS if width(ELLIPSIS, face) <= room else "")
    )


def place(
    line: Line, room: float, face: ImageFont.FreeTypeFont, name_face: ImageFont.FreeTypeFont
) -> list[tuple[str, ImageFont.FreeTypeFont]]:
    """A line of words and names laid across ``room`` pixels, as (text, face) runs: the
    words whole, the names sharing what is left (short names keep their width, the long
    ones share the rest), each name a run of its own."""
    fixed = sum(width(seg.text, face) for seg in line if not seg.name)
    wanted = [width(seg.text, name_face) for seg in line if seg.name]
    allowed = [0.0] * len(wanted)
    left = max(room - fixed, 0.0)
    for done, index in enumerate(sorted(range(len(wanted)), key=wanted.__getitem__)):
        allowed[index] = min(wanted[index], left / (len(wanted) - done))
        left -= allowed[index]
    names = iter(allowed)
    runs: list[tuple[str, ImageFont.FreeTypeFont]] = []
    used = 0.0
    for seg in line:
        chosen = name_face if seg.name else face
        limit = next(names) if seg.name else room - used
        text = fit(seg.text, chosen, max(min(limit, room - used), 0.0))
        runs.append((text, chosen))
        used += width(text, chosen)
    return runs


def _line(
    draw: ImageDraw.ImageDraw,
    line: Line,
    x: float,
    y: float,
    room: float,
    faces: tuple[ImageFont.FreeTypeFont, ImageFont.FreeTypeFont],
    fill: str,
) -> None:
    for text, face in place(line, room, *faces):
        if text:
            draw.text((x, y), text, font=face, fill=fill)
        x += width(text, face)


def _row(
    draw: ImageDraw.ImageDraw,
    card: Card,
    row: Row,
    top: float,
    height: float,
    face: ImageFont.FreeTypeFont,
) -> None:
    if row.mine:
        draw.rectangle((MARGIN - 12, top, WIDTH - MARGIN + 12, top + height), fill=MINE)
    if row.gap_before:
        draw.line((MARGIN, top, WIDTH - MARGIN, top), fill=LINE, width=2)
    y = top + (height - face.size) / 2 - 2
    x = MARGIN
    if card.ranked:
        draw.text((x, y), fit(row.rank, face, RANK - 8), font=face, fill=MUTED)
        x += RANK
    name_room = WIDTH - MARGIN - CELL * len(card.headings) - x - 16
    name_face = font(face.size, bold=row.mine)
    draw.text((x, y), fit(row.name, name_face, name_room), font=name_face, fill=INK)
    for index, text in enumerate(row.cells):
        right = WIDTH - MARGIN - CELL * (len(row.cells) - 1 - index)
        negative = index < len(row.negative) and row.negative[index]
        shown = fit(text, face, CELL - 12)
        draw.text((right - width(shown, face), y), shown, font=face, fill=RED if negative else INK)


def draw_card(card: Card) -> bytes:
    """The card as PNG bytes."""
    image = Image.new("RGB", (WIDTH, HEIGHT), CREAM)
    draw = ImageDraw.Draw(image)
    draw.rectangle((0, 0, WIDTH, HEAD), fill=FELT)
    room = WIDTH - 2 * MARGIN
    _line(draw, card.title, MARGIN, 30, room, (font(46, True), font(46, True)), "#ffffff")
    _line(draw, card.subtitle, MARGIN, 94, room, (font(26), font(26, True)), "#d8ebe0")

    notes = card.notes[:4]
    note_height = 40
    table_top = HEAD + 18
    table_bottom = HEIGHT - FOOT - note_height * len(notes) - (12 if notes else 0)
    count = len(card.rows) + 1
    row_height = min(56.0, (table_bottom - table_top) / count)
    size = max(int(row_height * 0.55), 14)
    face, heading_face = font(size), font(max(size - 4, 12), True)

    y = table_top + (row_height - heading_face.size) / 2
    x = MARGIN + (RANK if card.ranked else 0)
    draw.text((x, y), fit(card.name_heading, heading_face, 400), font=heading_face, fill=MUTED)
    for index, heading in enumerate(card.headings):
        right = WIDTH - MARGIN - CELL * (len(card.headings) - 1 - index)
        shown = fit(heading, heading_face, CELL - 12)
        draw.text((right - width(shown, heading_face), y), shown, font=heading_face, fill=MUTED)
    top = table_top + row_height
    draw.line((MARGIN, top, WIDTH - MARGIN, top), fill=LINE, width=2)
    for row in card.rows:
        _row(draw, card, row, top, row_height, face)
        top += row_height

    y = top + 16
    for note in notes:
        _line(draw, note, MARGIN, y, room, (font(26), font(26, True)), INK)
        y += note_height

    draw.line((0, HEIGHT - FOOT, WIDTH, HEIGHT - FOOT), fill=LINE, width=2)
    draw.text(
        (MARGIN, HEIGHT - FOOT + 10), fit(card.footer, font(22), room), font=font(22), fill=MUTED
    )
    # A few colours and their anti-aliased edges: 64 in a palette draw the same, in a
    # third of the bytes and half the time of a full-colour PNG.
    out = io.BytesIO()
    image.quantize(colors=64, method=Image.Quantize.FASTOCTREE).save(out, format="PNG")
    return out.getvalue()
