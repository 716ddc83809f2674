"""An exported pulka (its deals plus the engine's output fields) scores like its deals."""

from __future__ import annotations

import json
from pathlib import Path

from scoring.engine.protocol import score_text

EXAMPLE = Path(__file__).resolve().parent / "examples" / "001-protocol-example.json"


def test_a_file_carrying_its_own_output_is_rescored_from_its_deals() -> None:
    pulka = json.loads(EXAMPLE.read_text(encoding="utf-8"))["input"]
    output = score_text(json.dumps(pulka))
    exported = {**pulka, **{k: v for k, v in output.items() if k != "deals"}}
    # Each deal item carries its facts and what scoring wrote for it, as the web export.
    exported["deals"] = [
        {**facts, **scored} for facts, scored in zip(pulka["deals"], output["deals"], strict=True)
    ]
    # A stale result in the file is ignored: the deals are the facts.
    exported["result"] = {"A": 999, "B": 0, "C": -999}
    assert score_text(json.dumps(exported)) == output
