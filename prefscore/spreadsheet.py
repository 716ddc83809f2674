"""Cells of the CSV exports, safe in a spreadsheet (docs/exports.md, docs/tournaments.md §6.3).

Imports no app: the statistics' and the tournaments' exports both use it.
"""

from __future__ import annotations

# A text cell starting with one of these is read by a spreadsheet as a formula.
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def text_cell(value: str) -> str:
    """Text as a spreadsheet shows it: a leading apostrophe keeps "=HYPERLINK(…)" a name."""
    return "'" + value if value.startswith(_FORMULA_START) else value
