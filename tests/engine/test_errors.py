"""Errors a person can act on (scoring/engine/errors.py)."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

from scoring.engine.errors import (
    TEMPLATES,
    ConventionError,
    DealError,
    ProtocolError,
    ScoringError,
    shown,
)


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


ENGINE = Path(__file__).resolve().parents[2] / "scoring" / "engine"
ERROR_CLASSES = {"ScoringError", "ConventionError", "DealError", "ProtocolError"}
ERROR_CLASSES |= {"SeatingError", "RankingError"}


def _raised_codes() -> list[tuple[str, object]]:
    """Every code literal given to an engine error (or to ``_refuse``), and where."""
    found = []
    for path in sorted(ENGINE.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Name):
                continue
            position = {"ConventionError": 1, "_refuse": 1}.get(node.func.id, 0)
            if node.func.id not in ERROR_CLASSES | {"_refuse"} or len(node.args) <= position:
                continue
            code = node.args[position]
            if isinstance(code, ast.IfExp):
                codes = [code.body, code.orelse]
            else:
                codes = [code]
            for one in codes:
                value = one.value if isinstance(one, ast.Constant) else None
                found.append((f"{path.name}:{node.lineno}", value))
    return found


def test_every_engine_error_is_raised_with_a_known_code() -> None:
    raised = _raised_codes()
    assert len(raised) > 80
    # A name (not a literal) passes on a code checked where it is written.
    unknown = [
        (where, code) for where, code in raised if code is not None and code not in TEMPLATES
    ]
    assert unknown == []
    # And every code is raised somewhere (the sheet's three built from their column).
    source = "".join(
        p.read_text(encoding="utf-8") for p in ENGINE.glob("*.py") if p.name != "errors.py"
    )
    never = [code for code in TEMPLATES if f'"{code}"' not in source]
    assert never == ["file.sheet_pulya", "file.sheet_gora", "file.sheet_whists"]


def test_an_unknown_code_is_refused_at_once() -> None:
    with pytest.raises(KeyError):
        DealError("deal.no_such_code")


def test_the_english_message_is_built_from_the_code_and_its_places() -> None:
    error = DealError("deal.tricks_total", "tricks", total=11).at("deal", 4, 4)
    assert str(error) == "deal 4: tricks add up to 11, they must add up to 10"
    error = error.at("correction", 2)
    assert str(error) == "correction of deal 2: deal 4: tricks add up to 11, they must add up to 10"
    assert (error.code, error.params, error.number, error.corrects) == (
        "deal.tricks_total",
        {"total": 11},
        4,
        2,
    )
    assert str(DealError("deal.half_not_allowed", level=8)) == "half-whist is not allowed on an 8"
    assert str(ProtocolError("file.unknown_field", name="x" * 50)).endswith("…")


def test_an_error_survives_pickling_with_its_code_and_places() -> None:
    import pickle

    error = DealError("deal.tricks_total", "tricks", total=11).at("deal", 4, 4)
    again = pickle.loads(pickle.dumps(error))
    assert (type(again), str(again), again.field, again.number) == (
        DealError,
        str(error),
        "tricks",
        4,
    )
    option = pickle.loads(pickle.dumps(ConventionError("help", "option.bool", value=1)))
    assert (option.option, option.code, str(option)) == ("help", "option.bool", str(option))
