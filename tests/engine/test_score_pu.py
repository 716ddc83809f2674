"""``manage.py score`` on the pulka files of PU's three options (docs/rules.md §3.1.7,
§3.3, §3.4): the known answers 200–202 and the peer examples they turned green print
what they expect; a convention that contradicts itself exits 2 with one line."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from django.core.management import call_command

from .test_score_house_deals import _contains

EXAMPLES = Path(__file__).parent / "examples"
FILES = [
    *sorted(EXAMPLES.glob("20[0-9]-pu-*.json")),
    EXAMPLES / "peers/pu-home-08-help-goes-to-the-next-seat-clockwise.json",
    EXAMPLES / "peers/pu-home-12-a-failed-ten-still-writes-trick-whists.json",
    EXAMPLES / "peers/pu-fspr-10-the-three-player-dealer-gets-no-zero-bonus.json",
]


def _write(tmp_path: Path, data: object) -> Path:
    pulka = tmp_path / "pulka.json"
    pulka.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    return pulka


def test_there_is_a_known_answer_for_each_option() -> None:
    assert len(FILES) == 6 and all(path.exists() for path in FILES)


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_score_prints_what_the_example_expects(path: Path, tmp_path: Path) -> None:
    example = json.loads(path.read_text(encoding="utf-8"))
    out = io.StringIO()

    call_command("score", str(_write(tmp_path, example["input"])), stdout=out)

    assert _contains(json.loads(out.getvalue()), example["expect"])


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"help": False}, "option help_order 'clockwise' needs help: help is off"),
        (
            {"checked_ten_trick_whists": True},
            "option checked_ten_trick_whists needs a checked ten: ten is 'whisted'",
        ),
    ],
)
def test_score_refuses_an_option_the_others_leave_no_meaning(
    tmp_path: Path, options: dict[str, object], message: str
) -> None:
    example = json.loads(FILES[0].read_text(encoding="utf-8"))
    data = {**example["input"], "options": {**example["input"]["options"], **options}}
    err = io.StringIO()

    with pytest.raises(SystemExit) as exit_status:
        call_command("score", str(_write(tmp_path, data)), stdout=io.StringIO(), stderr=err)

    assert exit_status.value.code == 2
    assert err.getvalue().strip() == message
