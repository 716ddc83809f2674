"""Cells a spreadsheet keeps as they are (prefscore/spreadsheet.py): a fraction of whists
is never a date nor a division, a name never a formula."""

from __future__ import annotations

import csv
import io
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from prefscore.spreadsheet import exact_cell, figure_cell, text_cell


@pytest.mark.parametrize(
    ("value", "decimal", "cell"),
    [
        (Fraction(-16, 3), ".", "-5.3333"),
        ("-16/3", ",", "-5,3333"),
        (Fraction(21, 2), ".", "10.5"),
        (Fraction(7, 4), ".", "1.75"),
        (12, ".", "12"),
        ("-20/1", ".", "-20"),
        (None, ".", ""),
    ],
)
def test_a_figure_is_a_number_a_spreadsheet_reads(value, decimal, cell):
    assert figure_cell(value, decimal) == cell


@given(
    st.one_of(
        st.integers(-(10**6), 10**6),
        st.fractions(min_value=-(10**5), max_value=10**5, max_denominator=12),
    ),
    st.sampled_from([".", ","]),
)
def test_a_whole_figure_is_written_as_its_fraction_would_be(value, decimal):
    """An int's shortcut (no Fraction made) writes what the Fraction would, and so does
    a Fraction given as it is: the standings CSV writes 10,000 of them."""
    exact = Fraction(value)
    if exact.denominator == 1:
        expected = str(exact.numerator)
    else:
        expected = f"{float(exact):.4f}".rstrip("0").replace(".", decimal)
    assert figure_cell(value, decimal) == expected
    assert figure_cell(str(value), decimal) == expected


def test_a_true_or_false_is_a_figure_not_a_word():
    assert figure_cell(True) == "1"
    assert figure_cell(False) == "0"


@pytest.mark.parametrize(
    ("value", "cell"), [("-16/3", "'-16/3"), (Fraction(35, 3), "'35/3"), ("6", "6"), (-4, "-4")]
)
def test_an_exact_fraction_is_text_and_a_whole_one_a_number(value, cell):
    assert exact_cell(value) == cell


def test_no_cell_looks_like_a_date_a_division_or_a_formula():
    """What a spreadsheet takes for a date (d/m, m/d) or a formula starts so: none does."""
    cells = [exact_cell("-16/3"), exact_cell("1/3"), figure_cell("1/3"), text_cell("=1+1")]
    row = next(csv.reader(io.StringIO(",".join(cells))))

    for cell in row:
        assert not cell[:1].isdigit() or "/" not in cell
        assert not cell.startswith(("=", "+", "@"))
        assert not (cell.startswith("-") and "/" in cell)
