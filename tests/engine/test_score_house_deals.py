"""``manage.py score`` on the pulka files of the deal facts (docs/rules.md §3.10).

The command itself, through ``call_command``, on every known answer 170–178: it prints
the output the example expects and exits 0; a fact the convention does not allow exits
2 with one line naming the deal.
"""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command

EXAMPLES = sorted((Path(__file__).parent / "examples").glob("18[0-8]-rules-*.json"))


def _contains(actual: Any, expected: Any) -> bool:
    if isinstance(expected, dict):
        return all(
            key in actual and _contains(actual[key], value) for key, value in expected.items()
        )
    if (
        isinstance(expected, list)
        and expected
        and isinstance(expected[0], dict)
        and "number" in expected[0]
    ):
        by_number = {item["number"]: item for item in actual}
        return all(_contains(by_number[item["number"]], item) for item in expected)
    return bool(actual == expected)


def test_there_is_an_example_for_every_option() -> None:
    assert len(EXAMPLES) == 9


@pytest.mark.parametrize("path", EXAMPLES, ids=[p.stem for p in EXAMPLES])
def test_score_prints_what_the_example_expects(path: Path, tmp_path: Path) -> None:
    example = json.loads(path.read_text(encoding="utf-8"))
    pulka = tmp_path / "pulka.json"
    pulka.write_text(json.dumps(example["input"], ensure_ascii=False), encoding="utf-8")
    out = io.StringIO()

    call_command("score", str(pulka), stdout=out)

    assert _contains(json.loads(out.getvalue()), example["expect"])


def test_score_refuses_a_concession_the_convention_does_not_allow(tmp_path: Path) -> None:
    example = json.loads(EXAMPLES[0].read_text(encoding="utf-8"))
    data = {**example["input"], "options": {}}
    pulka = tmp_path / "pulka.json"
    pulka.write_text(json.dumps(data), encoding="utf-8")
    err = io.StringIO()

    with pytest.raises(SystemExit) as exit_status:
        call_command("score", str(pulka), stdout=io.StringIO(), stderr=err)

    assert exit_status.value.code == 2
    assert err.getvalue().strip() == (
        "deal 1: this convention does not allow conceding this contract without three"
    )
