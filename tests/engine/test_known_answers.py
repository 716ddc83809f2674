"""Known answers: the worked examples of docs/rules.md §6 and docs/protocol.md, kept as data.

Each file in tests/engine/examples holds a pulka, the source of its figures, and a
subset of the output the engine must print for it (numbers to two decimals).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from scoring.engine.protocol import score_text

EXAMPLES = Path(__file__).resolve().parent / "examples"
FILES = sorted(EXAMPLES.glob("*.json"))


def assert_subset(expected: Any, actual: Any, where: str = "") -> None:
    """Every expected field is in the output with the same value; lists item by item."""
    if isinstance(expected, dict):
        assert isinstance(actual, dict), where
        for key, value in expected.items():
            assert key in actual, f"{where}.{key} missing"
            assert_subset(value, actual[key], f"{where}.{key}")
    elif (
        isinstance(expected, list)
        and expected
        and isinstance(expected[0], dict)
        and "number" in expected[0]
    ):
        by_number = {item["number"]: item for item in actual}
        for item in expected:
            assert_subset(item, by_number[item["number"]], f"{where}[{item['number']}]")
    else:
        assert actual == expected, f"{where}: expected {expected!r}, got {actual!r}"


def test_the_examples_are_there() -> None:
    assert len(FILES) >= 20


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_each_example_names_its_source(path: Path) -> None:
    assert json.loads(path.read_text(encoding="utf-8"))["source"].strip()


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_the_engine_gives_the_published_answer(path: Path) -> None:
    example = json.loads(path.read_text(encoding="utf-8"))
    output = score_text(json.dumps(example["input"]))
    assert_subset(example["expect"], output)


def test_the_protocol_example_prints_exactly_what_protocol_md_shows() -> None:
    """docs/protocol.md's output block is the whole output, not a subset: nothing more."""
    example = json.loads((EXAMPLES / "001-protocol-example.json").read_text(encoding="utf-8"))
    output = score_text(json.dumps(example["input"]))
    assert output == {"players": ["A", "B", "C"], **example["expect"]}
    assert list(output) == [
        "players", "closed", "deals", "sheet", "result", "result_whole", "money", "next"
    ]  # fmt: skip
