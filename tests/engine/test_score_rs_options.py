"""``manage.py score`` on the pulka files of RS's two options (docs/rules.md §3.7,
§3.10.7): the known answers 210–211 and the peer examples they made pass print what they
expect; a half-whist with tricks under a convention that never plays one exits 2 with one
line naming the deal.
"""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from django.core.management import call_command

from tests.engine.test_score_house_deals import _contains

HERE = Path(__file__).parent / "examples"
EXAMPLES = [
    *sorted(HERE.glob("21[0-9]-rs-*.json")),
    HERE / "peers/rs-sochi-13-the-final-multa-is-split-among-the-others.json",
    HERE / "peers/rs-sochi-14-a-half-whist-is-played.json",
]


def _score(data: object, tmp_path: Path) -> str:
    pulka = tmp_path / "pulka.json"
    pulka.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    out = io.StringIO()
    call_command("score", str(pulka), stdout=out)
    return out.getvalue()


def test_there_is_an_example_for_each_option() -> None:
    assert len(EXAMPLES) == 4 and all(path.exists() for path in EXAMPLES)


@pytest.mark.parametrize("path", EXAMPLES, ids=[p.stem for p in EXAMPLES])
def test_score_prints_what_the_example_expects(path: Path, tmp_path: Path) -> None:
    example = json.loads(path.read_text(encoding="utf-8"))
    assert _contains(json.loads(_score(example["input"], tmp_path)), example["expect"])


def test_without_the_option_the_gora_is_the_mean_mountain_again(tmp_path: Path) -> None:
    example = json.loads(EXAMPLES[0].read_text(encoding="utf-8"))
    data = {**example["input"], "options": {"rounding": "exact"}}
    result = json.loads(_score(data, tmp_path))["result"]
    assert result == {"A": -13, "B": -31, "C": 37, "D": 7}  # 10 × (½ − G') + the nets


def test_score_refuses_a_played_half_whist_the_convention_does_not_allow(tmp_path: Path) -> None:
    example = json.loads(EXAMPLES[1].read_text(encoding="utf-8"))
    pulka = tmp_path / "pulka.json"
    pulka.write_text(json.dumps({**example["input"], "options": {}}), encoding="utf-8")
    err = io.StringIO()

    with pytest.raises(SystemExit) as exit_status:
        call_command("score", str(pulka), stdout=io.StringIO(), stderr=err)

    assert exit_status.value.code == 2
    assert err.getvalue().strip() == "deal 1: a half-whisted contract is not played: no tricks"
