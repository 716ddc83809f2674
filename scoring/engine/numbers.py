"""Exact arithmetic for sheet values: whole numbers stay ``int``, the rest ``Fraction``.

Every sheet figure is exact (docs/rules.md §3.7: "All values are exact rationals"). Most
figures are whole, so ints are kept for speed and a Fraction appears only where a
division is not exact.
"""

from __future__ import annotations

from fractions import Fraction
from typing import TypeAlias

Points: TypeAlias = int | Fraction


def exact_div(value: Points, divisor: int) -> Points:
    """Divide exactly, returning an ``int`` when the quotient is whole (docs/rules.md §3.7)."""
    if isinstance(value, int) and value % divisor == 0:
        return value // divisor
    return normalise(Fraction(value, divisor))


def normalise(value: Points) -> Points:
    """Return a whole Fraction as ``int`` so that equal figures print alike."""
    if isinstance(value, Fraction) and value.denominator == 1:
        return value.numerator
    return value


def is_whole(value: Points) -> bool:
    """True when the figure is a whole number of whists or points."""
    return isinstance(value, int) or value.denominator == 1


def to_json_number(value: Points) -> int | float:
    """Print a figure as docs/protocol.md asks: whole as an integer, else two decimals."""
    if type(value) is int:  # nearly every figure: the output's hot path
        return value
    value = normalise(value)
    if isinstance(value, int):
        return value
    return round(float(value), 2)
