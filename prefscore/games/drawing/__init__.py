"""The drawn score sheet (docs/design.md, "The drawn sheet"): its geometry and its text.

``geometry`` cuts the sheet into one sector per player and each sector into fields;
``text`` fits the running totals and the names into them. ``drawing.X`` finds each
public name of both.
"""

from __future__ import annotations

from .geometry import (
    CIRCLE,
    MARGIN,
    PAD,
    Box,
    Layout,
    NameSpot,
    Point,
    SeatArea,
    Segment,
    layout,
    num,
)
from .text import (
    ELLIPSIS,
    FONT_SIZES,
    GLYPH_WIDTH,
    LINE_HEIGHT,
    NAME_FONT,
    FittedText,
    TextLine,
    TextPart,
    fit_name,
    fit_totals,
)

__all__ = [
    "CIRCLE",
    "ELLIPSIS",
    "FONT_SIZES",
    "GLYPH_WIDTH",
    "LINE_HEIGHT",
    "MARGIN",
    "NAME_FONT",
    "PAD",
    "Box",
    "FittedText",
    "Layout",
    "NameSpot",
    "Point",
    "SeatArea",
    "Segment",
    "TextLine",
    "TextPart",
    "fit_name",
    "fit_totals",
    "layout",
    "num",
]
