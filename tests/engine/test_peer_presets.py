"""The peers' conventions as presets (docs/rules.md §3.9): each reproduces the figures its
app gives.

tests/engine/examples/peers/ holds whole deals and short pulkas scored under the presets
``pu-home``, ``pu-fspr``, ``rs-sochi`` and ``gchet``, with the figures the peer's own code
gives (derived by hand from it and its tests; each ``source`` names the repository and
file). An example whose rule no option states yet lists it under ``needs``, citing the
section of docs/rules.md that states it (or "not in docs/rules.md"): it is expected to fail, strictly, so
that it is noticed the day the option makes it pass. docs/rules.md §3.9, second table.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from scoring.engine.conventions import PRESET_NAMES, preset
from scoring.engine.protocol import score_text
from tests.engine.test_known_answers import assert_subset

PEERS = Path(__file__).resolve().parent / "examples" / "peers"
FILES = sorted(PEERS.glob("*.json"))
PEER_PRESETS = ("pu-home", "pu-fspr", "rs-sochi", "gchet")
# The repositories the figures come from, one per preset.
REPOSITORIES = {
    "pu-home": "refinishru-Andre/pulka",
    "pu-fspr": "refinishru-Andre/pulka",
    "rs-sochi": "rostiktc2-star/preferans-score",
    "gchet": "gchet/Preferans",
}


def load(path: Path) -> dict[str, Any]:
    example: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return example


def _param(path: Path) -> Any:
    needs = load(path).get("needs")
    marks = [pytest.mark.xfail(strict=True, reason="; ".join(needs))] if needs else []
    return pytest.param(path, id=path.stem, marks=marks)


def test_the_peer_presets_are_presets() -> None:
    assert set(PEER_PRESETS) <= set(PRESET_NAMES)


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_each_example_names_the_peer_and_file_it_comes_from(path: Path) -> None:
    example = load(path)
    convention = example["input"]["convention"]

    assert convention in PEER_PRESETS and path.stem.startswith(convention)
    assert REPOSITORIES[convention] in example["source"]
    assert example["note"].strip()
    for need in example.get("needs", []):
        assert need.startswith(("docs/rules.md §", "not in docs/rules.md: ")), need


@pytest.mark.parametrize("path", [_param(p) for p in FILES])
def test_the_preset_gives_the_peers_figures(path: Path) -> None:
    example = load(path)
    output = score_text(json.dumps(example["input"]))
    assert_subset(example["expect"], output)


def test_every_preset_has_deals_and_a_pulka_that_it_reproduces_today() -> None:
    """Several examples per preset pass now, one of them a pulka of three deals or more."""
    passing = [load(p) for p in FILES if "needs" not in load(p)]
    per_preset = Counter(e["input"]["convention"] for e in passing)
    pulkas = {e["input"]["convention"] for e in passing if len(e["input"]["deals"]) >= 3}

    assert all(per_preset[name] >= 4 for name in PEER_PRESETS), per_preset
    assert pulkas == set(PEER_PRESETS)


def test_what_no_option_states_is_listed_and_issue_17_is_all_there() -> None:
    """The list the report gives: since the peers' options landed, what the examples still
    need is only what docs/rules.md does not state (docs/rules.md §3.9, second table)."""
    needs = [need for p in FILES for need in load(p).get("needs", [])]

    assert len(needs) == 0  # the seven of last session: gchet's two, PU's three, RS's two
    assert all(need.startswith("not in docs/rules.md: ") for need in needs)


def test_fspr_as_pu_plays_it_is_fspr_with_pus_house_rules() -> None:
    """ "FSPR (PU)" is prefscore's ФСПР but for what the peers' presets added for PU's FSPR."""
    pu, fspr = preset("pu-fspr").to_options(), preset("fspr").to_options()

    assert {name for name in pu if pu[name] != fspr[name]} == {
        "gentleman_on_made",
        "allpass_reset",
        "half_whist_first",
        "returned_whist_alone",
        "dealer_whist",
        "allpass_zero_bonus_excludes_dealer",
    }
