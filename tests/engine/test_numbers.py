"""Exact sheet arithmetic (scoring/engine/numbers.py; docs/rules.md §3.7: exact rationals)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from scoring.engine.numbers import exact_div, is_whole, normalise, to_json_number


@pytest.mark.parametrize(
    ("value", "divisor", "expect", "kind"),
    [
        (10, 2, 5, int),
        (10, 4, Fraction(5, 2), Fraction),
        (-10, 3, Fraction(-10, 3), Fraction),
        (Fraction(3, 2), 3, Fraction(1, 2), Fraction),
        (Fraction(4, 2), 2, 1, int),
        (0, 7, 0, int),
    ],
)
def test_exact_div_keeps_whole_numbers_as_int(
    value: int | Fraction, divisor: int, expect: int | Fraction, kind: type
) -> None:
    result = exact_div(value, divisor)
    assert result == expect and type(result) is kind


def test_normalise_turns_whole_fractions_into_ints() -> None:
    assert type(normalise(Fraction(6, 3))) is int
    assert normalise(Fraction(1, 3)) == Fraction(1, 3)
    assert is_whole(Fraction(4, 2)) and is_whole(3) and not is_whole(Fraction(1, 2))


@pytest.mark.parametrize(
    ("value", "printed"),
    [
        (5, 5),
        (Fraction(10, 2), 5),
        (Fraction(32, 3), 10.67),
        (Fraction(-20, 3), -6.67),
        (Fraction(55, 2), 27.5),
    ],
)
def test_figures_print_whole_or_with_two_decimals(value: int | Fraction, printed: float) -> None:
    assert to_json_number(value) == printed
    assert type(to_json_number(value)) is type(printed)
