"""Errors a person can act on (scoring/engine/errors.py)."""

from __future__ import annotations

import sys

import pytest

from scoring.engine.errors import ConventionError, DealError, ProtocolError, ScoringError, shown


def test_every_engine_error_is_a_value_error() -> None:
    for kind in (ConventionError, DealError, ProtocolError):
        assert issubclass(kind, ScoringError) and issubclass(kind, ValueError)


def test_errors_carry_the_field_at_fault() -> None:
    assert ConventionError("help", "option.bool", value=1).option == "help"
    error = DealError("deal.tricks_missing", "tricks", 3)
    assert (error.field, error.number) == ("tricks", 3)


@pytest.mark.parametrize(
    ("value", "text"),
    [
        ("A", "'A'"),
        ("a\nb", "'a\\nb'"),
        ("\ud800", "'\\ud800'"),
        (10**50, "100000000000000000000000000000000000000…"),
        ("x" * 100, "'" + "x" * 38 + "…"),
        ([1, 2], "[1, 2]"),
    ],
)
def test_shown_quotes_a_value_on_one_short_line(value: object, text: str) -> None:
    assert shown(value) == text
    assert "\n" not in shown(value) and len(shown(value)) <= 40


def test_shown_copes_with_an_integer_too_long_to_print() -> None:
    limit = sys.get_int_max_str_digits()
    assert shown(10 ** (limit + 10)) == "a number of more than 40 digits"
