"""gchet's two rules (docs/rules.md §3.9): the zero-trick bonus in gora units and a
returned whist's consolations (docs/rules.md §3.3 step 3, §3.10.3).

``allpass_zero_bonus: pulya_scaled`` writes ``gora_scale × m`` to the pulya of a player
who took no trick on an all-pass (gchet/Preferans internal/game/score.go);
``returned_whist_consolation: both`` has the returner of a whist also write the
consolation the half-whister would have written as the passer (gchet score.go,
``HalfSeat == b``). Here: the defaults, each refusal, each rule on and off, and
``manage.py score`` on the known answers 220 and 221.
"""

from __future__ import annotations

import io
import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command

from scoring.engine.conventions import (
    ADDED_OPTIONS,
    FIRST_VERSION_OPTIONS,
    PRESET_NAMES,
    Convention,
    from_options,
    from_spec,
    preset,
)
from scoring.engine.errors import ConventionError

from .support import ABCD, allpass, figures, played, score, written
from .test_known_answers import assert_subset

EXAMPLES = Path(__file__).parent / "examples"
GCHET_EXAMPLES = sorted(EXAMPLES.glob("22[0-9]-*-gchet.json"))
RETURNED = {"B": "whist", "C": "half"}  # B passed, C half-whisted, B returned (§3.10.3)
ALONE = {"returned_whist_alone": True}
BOTH = {**ALONE, "returned_whist_consolation": "both"}


# --- the options -------------------------------------------------------------------------


def test_the_defaults_keep_todays_scoring_and_only_gchet_plays_them() -> None:
    assert Convention().allpass_zero_bonus == "pulya"
    assert Convention().returned_whist_consolation == "whister"
    for name in PRESET_NAMES:
        conv = preset(name)
        played_by_gchet = name == "gchet"
        assert (conv.allpass_zero_bonus == "pulya_scaled") == played_by_gchet, name
        assert (conv.returned_whist_consolation == "both") == played_by_gchet, name


@pytest.mark.parametrize(
    ("base", "options", "option", "code"),
    [
        ("sochi", {"returned_whist_consolation": "twice"}, "returned_whist_consolation", "option.choice"),
        ("sochi", {"returned_whist_consolation": True}, "returned_whist_consolation", "option.choice"),
        ("sochi", {"allpass_zero_bonus": "pulya_x2"}, "allpass_zero_bonus", "option.choice"),
        (
            "sochi",
            {"returned_whist_consolation": "both"},
            "returned_whist_consolation",
            "option.needs_returned_whist_alone",
        ),
        (
            "gchet",
            {"returned_whist_alone": False},
            "returned_whist_consolation",
            "option.needs_returned_whist_alone",
        ),
        (
            "rostov",
            {"allpass_zero_bonus": "pulya_scaled"},
            "allpass_zero_bonus",
            "option.scaled_bonus_in_whists",
        ),
    ],
)  # fmt: skip
def test_each_contradiction_is_refused_naming_the_option(
    base: str, options: dict[str, Any], option: str, code: str
) -> None:
    with pytest.raises(ConventionError) as refused:
        from_options(options, preset(base))

    assert (refused.value.option, refused.value.code) == (option, code)


def test_the_refusals_read_as_sentences() -> None:
    with pytest.raises(ConventionError) as refused:
        from_options({"returned_whist_consolation": "both"})

    assert str(refused.value) == (
        "option returned_whist_consolation needs a returned whist played alone: "
        "returned_whist_alone is off"
    )


def test_a_file_written_before_the_option_reads_as_it_did() -> None:
    """A full convention from before ``returned_whist_consolation`` gets one consolation."""
    options = preset("pu-fspr").to_options()
    del options["returned_whist_consolation"]

    assert "returned_whist_consolation" in ADDED_OPTIONS
    assert "returned_whist_consolation" not in FIRST_VERSION_OPTIONS
    assert from_spec(options) == preset("pu-fspr")
    assert from_spec(options).returned_whist_consolation == "whister"


# --- the zero-trick bonus in gora units (docs/rules.md §3.3 step 3) -----------------------


def _zero_bonus(convention: str, bonus: str, **options: Any) -> dict[str, Any]:
    deals = [allpass({"A": 4, "B": 6, "C": 0}), allpass({"A": 0, "B": 5, "C": 5})]
    return score(deals, convention=convention, options={"allpass_zero_bonus": bonus, **options})


def test_the_bonus_is_the_price_of_a_trick_in_the_gora() -> None:
    scaled = _zero_bonus("leningrad", "pulya_scaled")
    plain = _zero_bonus("leningrad", "pulya")

    # Leningrad: kg 2, ladder 1-2-3: 2 a trick, then 4 a trick.
    assert written(scaled, 1)[("C", "pulya", 2)] == 1
    assert written(scaled, 2)[("A", "pulya", 4)] == 1
    assert figures(scaled, "pulya") == {"A": 4, "B": 0, "C": 2}
    assert figures(plain, "pulya") == {"A": 2, "B": 0, "C": 1}  # m: 1, then 2
    assert figures(scaled, "gora") == figures(plain, "gora") == {"A": 8, "B": 32, "C": 20}


def test_with_a_gora_scale_of_1_it_is_the_ladder_price() -> None:
    assert _zero_bonus("sochi", "pulya_scaled", allpass_ladder=[1, 2]) == _zero_bonus(
        "sochi", "pulya", allpass_ladder=[1, 2]
    )


def test_the_flat_bonus_counts_m_as_1_before_the_scale() -> None:
    out = _zero_bonus("leningrad", "pulya_scaled", allpass_zero_bonus_flat=True)

    assert figures(out, "pulya") == {"A": 2, "B": 0, "C": 2}  # kg × 1 on both all-passes


def test_the_4_player_dealer_with_no_talon_trick_gets_it_too_under_gchet() -> None:
    deals = [allpass({"A": 4, "B": 3, "C": 3, "D": 0})]
    out = score(deals, convention="gchet", players=ABCD, first_dealer="D")

    # gchet: kg 2, m 1, amnesty 0 (the dealer took none): 2 a trick, 2 to D's pulya.
    assert written(out) == Counter(
        [("A", "gora", 8), ("B", "gora", 6), ("C", "gora", 6), ("D", "pulya", 2)]
    )


def test_it_settles_as_gchets_former_gora_double_when_no_pulya_overflows() -> None:
    """gchet's G = gora − 2 × pulya: kg·m in the pulya is worth 2·kg·m off the gora."""
    scaled = _zero_bonus("gchet", "pulya_scaled")
    double = _zero_bonus("gchet", "gora_double")

    assert figures(scaled, "pulya") == {"A": 4, "B": 0, "C": 2}
    assert figures(double, "pulya") == {"A": 0, "B": 0, "C": 0}
    assert scaled["result"] == double["result"]


# --- a returned whist's consolations (docs/rules.md §3.10.3) ------------------------------


def _returned(tricks: dict[str, int], options: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
    deal = played("7C", "A", RETURNED, tricks)
    return score([deal], **{"convention": "leningrad", "options": options, **kwargs})


def test_on_a_remiz_the_returner_writes_the_half_whisters_consolation_too() -> None:
    tricks = {"A": 6, "B": 4, "C": 0}  # A down one; Leningrad: 8 whists a trick on a 7
    one = _returned(tricks, ALONE)
    both = _returned(tricks, BOTH)

    assert written(one) == Counter(
        [("A", "gora", 8), ("B", "whists", "A", 32), ("B", "whists", "A", 8)]
    )
    assert written(both) == written(one) + Counter([("B", "whists", "A", 8)])
    assert both["sheet"]["C"]["whists"] == {"A": 0, "B": 0}


def test_a_made_contract_writes_the_same_either_way() -> None:
    tricks = {"A": 8, "B": 2, "C": 0}

    assert _returned(tricks, BOTH) == _returned(tricks, ALONE)


def test_without_the_passers_consolation_there_is_none_to_write() -> None:
    tricks = {"A": 6, "B": 4, "C": 0}
    whisters_only = {"consolation": ["whisters"]}

    assert _returned(tricks, {**BOTH, **whisters_only}) == _returned(
        tricks, {**ALONE, **whisters_only}
    )


def test_a_flat_consolation_is_written_twice_flat() -> None:
    out = _returned({"A": 5, "B": 5, "C": 0}, {**BOTH, "consolation_unit": "flat10"})

    assert written(out)[("B", "whists", "A", 20)] == 2  # down two: 10 × 2, twice


def test_an_ordinary_whist_and_pass_is_left_as_it_was() -> None:
    deal = played("7C", "A", {"B": "whist", "C": "pass"}, {"A": 6, "B": 3, "C": 1})
    gchet = score([deal], convention="gchet")
    whister = score([deal], convention="gchet", options={"returned_whist_consolation": "whister"})

    assert gchet == whister
    assert written(gchet)[("C", "whists", "A", 8)] >= 1  # the passer consoles himself


def test_the_4_player_dealer_keeps_his_consolation() -> None:
    deal = played("7S", "A", RETURNED, {"A": 5, "B": 5, "C": 0})
    out = score([deal], convention="fspr", options=BOTH, players=ABCD, first_dealer="D")

    assert written(out) == Counter(
        [
            ("A", "gora", 16),
            ("B", "whists", "A", 40),
            ("B", "whists", "A", 16),
            ("B", "whists", "A", 16),
            ("D", "whists", "A", 16),
        ]
    )


# --- manage.py score -----------------------------------------------------------------------


def test_there_are_the_two_known_answers() -> None:
    assert [p.name[:3] for p in GCHET_EXAMPLES] == ["220", "221"]


@pytest.mark.parametrize("path", GCHET_EXAMPLES, ids=[p.stem for p in GCHET_EXAMPLES])
def test_score_prints_what_the_example_expects(path: Path, tmp_path: Path) -> None:
    example = json.loads(path.read_text(encoding="utf-8"))
    pulka = tmp_path / "pulka.json"
    pulka.write_text(json.dumps(example["input"], ensure_ascii=False), encoding="utf-8")
    out = io.StringIO()

    call_command("score", str(pulka), stdout=out)

    assert_subset(example["expect"], json.loads(out.getvalue()))


def test_score_refuses_both_consolations_without_a_returned_whist_alone(tmp_path: Path) -> None:
    example = json.loads(GCHET_EXAMPLES[1].read_text(encoding="utf-8"))
    data = {**example["input"], "options": {"returned_whist_consolation": "both"}}
    pulka = tmp_path / "pulka.json"
    pulka.write_text(json.dumps(data), encoding="utf-8")
    err = io.StringIO()

    with pytest.raises(SystemExit) as exit_status:
        call_command("score", str(pulka), stdout=io.StringIO(), stderr=err)

    assert exit_status.value.code == 2
    assert "returned_whist_consolation" in err.getvalue()
    assert "returned_whist_alone is off" in err.getvalue()
