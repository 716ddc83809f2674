"""Cells of the CSV exports, safe in a spreadsheet (docs/exports.md, docs/tournaments.md §6.3).

A spreadsheet opening a CSV file reads whatever looks like a formula as a formula and
whatever looks like a date as a date: a name "=HYPERLINK(…)" would run, and a result of
``-16/3`` whists would become the 16th of March or a division. So every cell goes
through one of these: a name or title as text, a figure as a decimal number, an exact
fraction as text that the spreadsheet keeps as it is.

Imports no app: the statistics', the seasons' and the tournaments' exports all use it.
"""

from __future__ import annotations

from fractions import Fraction

# A text cell starting with one of these is read by a spreadsheet as a formula.
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
# Places a figure keeps: whists come in thirds and quarters, 4 places tell them apart.
PLACES = 4


def text_cell(value: str) -> str:
    """Text as a spreadsheet shows it: a leading apostrophe keeps "=HYPERLINK(…)" a name."""
    return "'" + value if value.startswith(_FORMULA_START) else value


def figure_cell(value: Fraction | int | str | None, decimal: str = ".") -> str:
    """A figure as a spreadsheet reads a number: whole as an integer, else a decimal of
    ``PLACES`` places (``decimal``: the mark a spreadsheet set to Russian reads, ",")."""
    if value is None or value == "":
        return ""
    if type(value) is int:  # most figures: no Fraction made (a standings CSV has 10,000)
        return str(value)
    exact = value if isinstance(value, Fraction) else Fraction(value)
    if exact.denominator == 1:
        return str(exact.numerator)
    return f"{float(exact):.{PLACES}f}".rstrip("0").replace(".", decimal)


def exact_cell(value: Fraction | int | str) -> str:
    """An exact figure (``-16/3``) as text the spreadsheet keeps, never a date nor a
    division: a leading apostrophe, as for a name that looks like a formula. A whole one
    is a number."""
    exact = Fraction(value)
    return str(exact.numerator) if exact.denominator == 1 else f"'{exact}"
