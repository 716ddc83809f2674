"""What a result card holds: words and figures already formatted, nothing to compute.

A name (a player's, a club's, a pulka's title) is a segment of its own: drawn as a run of
its own (so that an Arabic name keeps its direction without turning the sentence round
it) and shortened by its measured width, never allowed to push anything off the card.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Mapping
from dataclasses import asdict, dataclass

# Drawn differently: a new version draws every card again (the key changes).
LAYOUT_VERSION = "1"
WIDTH, HEIGHT = 1200, 630
_PLACEHOLDER = re.compile(r"%\((\w+)\)s")


@dataclass(frozen=True, slots=True)
class Segment:
    """A piece of a line; ``name``: a name, isolated and shortened to fit."""

    text: str
    name: bool = False


Line = tuple[Segment, ...]


@dataclass(frozen=True, slots=True)
class Row:
    """One line of the card's table: a rank (may be empty), a name, its figures."""

    name: str
    cells: tuple[str, ...]
    negative: tuple[bool, ...] = ()
    rank: str = ""
    mine: bool = False  # the reader's own line, marked
    gap_before: bool = False  # rows left out above it (the reader's line below a top 10)


@dataclass(frozen=True, slots=True)
class Card:
    title: Line
    subtitle: Line
    name_heading: str
    headings: tuple[str, ...]
    rows: tuple[Row, ...]
    notes: tuple[Line, ...] = ()
    footer: str = "prefscore"
    ranked: bool = False  # a rank column before the names

    def key(self) -> str:
        """A hash of everything the card shows: its kept file's name."""
        shown = json.dumps(asdict(self), ensure_ascii=False, sort_keys=True, default=str)
        return hashlib.sha256(f"{LAYOUT_VERSION}\n{shown}".encode()).hexdigest()[:32]


def name(text: str) -> Segment:
    return Segment(text, name=True)


def words(text: str) -> Segment:
    return Segment(text)


def sentence(template: str, names: Mapping[str, str], values: Mapping[str, str]) -> Line:
    """A translated sentence cut into segments at its ``%(key)s`` placeholders: those of
    ``names`` become name segments, those of ``values`` words. The sentence stays one
    string for the translator; each name in it is still drawn on its own."""
    parts: list[Segment] = []
    at = 0
    for found in _PLACEHOLDER.finditer(template):
        if found.start() > at:
            parts.append(Segment(template[at : found.start()]))
        key = found.group(1)
        if key in names:
            parts.append(Segment(names[key], name=True))
        else:
            parts.append(Segment(values.get(key, "")))
        at = found.end()
    if at < len(template):
        parts.append(Segment(template[at:]))
    return tuple(parts)


def top_and_mine(rows: tuple[Row, ...], top: int = 10) -> tuple[Row, ...]:
    """The first ``top`` rows, and the reader's own row below them (marked off by a gap)
    when it is further down: a standings card shows the leaders and where you stand."""
    shown = rows[:top]
    mine = next((row for row in rows[top:] if row.mine), None)
    if mine is None:
        return shown
    return (*shown, Row(mine.name, mine.cells, mine.negative, mine.rank, True, True))


@dataclass(frozen=True, slots=True)
class Preview:
    """A public page's preview in a chat: its Open Graph and Twitter tags
    (``templates/_preview.html``), the card as the image with its size."""

    title: str
    description: str
    url: str
    image: str
    width: int = WIDTH
    height: int = HEIGHT
