"""Runs of all-passes: what ends one, the exit after a round, the finish held for a run,
and the zero-trick bonus variants (scoring/engine/allpass_runs.py, allpass.py;
docs/rules.md §3.3, §3.5).

The known answers with peer figures are tests/engine/examples/060–065; these tests
check every cell of the reset table and that each option, off, leaves today's result.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from scoring.engine.allpass_runs import OUTCOMES, RESETTING, next_run
from scoring.engine.conventions import from_options, preset
from scoring.engine.errors import DealError
from scoring.engine.protocol import score_text

EXAMPLES = Path(__file__).resolve().parent / "examples"
ALLPASS = {"contract": "allpass", "tricks": {"A": 2, "B": 3, "C": 5}}

# One deal of each outcome after an all-pass (3 players, A dealt the all-pass, so B
# deals this one and C is first hand).
OUTCOME_DEALS: dict[str, dict[str, Any]] = {
    "unplayed": {"contract": "6S", "declarer": "C", "whists": {"A": "pass", "B": "pass"}},
    "whisted_made": {
        "contract": "6S",
        "declarer": "C",
        "whists": {"A": "whist", "B": "pass"},
        "tricks": {"C": 6, "A": 2, "B": 2},
    },
    "whisted_failed": {
        "contract": "6S",
        "declarer": "C",
        "whists": {"A": "whist", "B": "pass"},
        "tricks": {"C": 5, "A": 3, "B": 2},
    },
    "ten_made": {"contract": "10S", "declarer": "C", "tricks": {"C": 10, "A": 0, "B": 0}},
    "ten_failed": {"contract": "10S", "declarer": "C", "tricks": {"C": 9, "A": 1, "B": 0}},
    "misere_made": {"contract": "misere", "declarer": "C", "tricks": {"C": 0}},
    "misere_failed": {"contract": "misere", "declarer": "C", "tricks": {"C": 2}},
}

# docs/rules.md §3.3, the table "Which deal ends a run under each value", row by row.
TABLE = {
    "unplayed": "yes no yes no yes no no",
    "whisted_made": "yes yes yes yes yes yes yes",
    "whisted_failed": "yes yes no no no yes no",
    "ten_made": "yes no yes no yes yes yes",
    "ten_failed": "yes no no no no yes no",
    "misere_made": "yes no yes no yes yes yes",
    "misere_failed": "yes no yes no no yes no",
}
VALUES = (
    "any_game",
    "whisted_game",
    "game_or_misere",
    "made_whisted_game",
    "made_game_or_misere",
    "played_game_or_misere",
    "made_played_game",
)


def _score(deals: list[dict[str, Any]], convention: str = "sochi", **options: Any) -> Any:
    data = {
        "convention": convention,
        "options": options,
        "players": ["A", "B", "C"],
        "target": 20,
        "deals": deals,
    }
    return score_text(json.dumps(data))


def _example(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((EXAMPLES / f"{name}.json").read_text(encoding="utf-8"))
    return data


@pytest.mark.parametrize("outcome", OUTCOMES)
@pytest.mark.parametrize("value", VALUES)
def test_each_reset_value_ends_a_run_with_the_outcomes_of_its_table_row(value, outcome):
    ends = TABLE[outcome].split()[VALUES.index(value)] == "yes"
    out = _score(
        [ALLPASS, OUTCOME_DEALS[outcome]],
        allpass_ladder=[1, 2],
        ten="checked",
        allpass_reset=value,
    )

    assert out["next"]["allpass_price"] == (1 if ends else 2)
    assert (outcome in RESETTING[value]) is ends


def test_the_three_old_values_keep_their_meaning_on_a_whisted_failure():
    failed = OUTCOME_DEALS["whisted_failed"]
    prices = {
        value: _score([ALLPASS, failed], allpass_ladder=[1, 2], allpass_reset=value)["next"][
            "allpass_price"
        ]
        for value in ("any_game", "whisted_game", "game_or_misere")
    }

    assert prices == {"any_game": 1, "whisted_game": 1, "game_or_misere": 2}


def test_under_fspr_s_own_reset_the_failed_seven_ends_the_run():
    example = _example("060-3.3-allpass-reset-made-whisted-game-pu-fspr")
    data = example["input"]
    data["options"] = {}
    out = score_text(json.dumps(data))

    assert (out["sheet"]["A"]["gora"], out["sheet"]["B"]["gora"]) == (12, 16)
    assert out["next"]["allpass_price"] == 2


def test_without_the_flat_bonus_the_zero_earns_the_ladder_price():
    data = _example("062-3.3-allpass-reset-played-and-flat-zero-bonus-rs")["input"]
    del data["options"]["allpass_zero_bonus_flat"]
    out = score_text(json.dumps(data))

    assert out["sheet"]["A"]["pulya"] == 2 + 2  # the 2nd all-pass's price, then the six


@pytest.mark.parametrize(
    ("bonus", "section", "points"),
    [("pulya", "pulya", 1), ("gora", "gora", -1), ("gora_double", "gora", -4)],
)
def test_the_flat_bonus_counts_the_price_as_one_in_every_kind(bonus, section, points):
    deals = [ALLPASS, ALLPASS, {"contract": "allpass", "tricks": {"A": 0, "B": 4, "C": 6}}]
    out = _score(deals, "leningrad", allpass_zero_bonus=bonus, allpass_zero_bonus_flat=True)
    entries = out["deals"][2]["entries"]

    assert {"player": "A", "section": section, "points": points} in entries


def test_the_flat_bonus_gives_the_rostov_dealer_one_too():
    data = {
        "convention": "rostov",
        "options": {"allpass_ladder": [3], "allpass_zero_bonus_flat": True},
        "players": ["A", "B", "C", "D"],
        "target": 20,
        "first_dealer": "D",
        "deals": [{"contract": "allpass", "tricks": {"A": 0, "B": 4, "C": 6}}],
    }
    entries = score_text(json.dumps(data))["deals"][0]["entries"]

    assert {"player": "A", "section": "pulya", "points": 1} in entries
    assert {"player": "D", "section": "pulya", "points": 1} in entries


def test_without_the_dealer_bonus_the_dealer_on_the_talon_earns_nothing():
    data = _example("063-3.3-allpass-made-played-and-dealer-zero-bonus-gchet")["input"]
    del data["options"]["allpass_zero_bonus_dealer"]
    out = score_text(json.dumps(data))

    assert (out["sheet"]["D"]["pulya"], out["sheet"]["B"]["pulya"]) == (0, 2)


def test_the_dealer_bonus_needs_no_trick_from_the_talon():
    data = _example("063-3.3-allpass-made-played-and-dealer-zero-bonus-gchet")["input"]
    data["deals"] = [{"contract": "allpass", "tricks": {"A": 3, "B": 4, "C": 2, "D": 1}}]
    entries = score_text(json.dumps(data))["deals"][0]["entries"]

    assert not [e for e in entries if e["section"] == "pulya"]


def test_without_the_exit_round_the_six_is_refused_below_the_exit():
    data = _example("064-3.3-allpass-exit-round-pu-home")["input"]
    del data["options"]["allpass_exit_round"]
    with pytest.raises(DealError) as caught:
        score_text(json.dumps(data))

    assert caught.value.code == "deal.below_exit"


def test_the_round_needs_every_seat_of_a_four_player_table():
    conv = from_options({"allpass_exit_round": True}, preset("leningrad"))
    run, led = 2, 0
    for first_hand in (1, 2, 3):
        run, led = next_run(
            conv, run, led, is_allpass=True, resets=False, first_hand=first_hand, size=4
        )
    assert (run, led) == (5, 0b1110)

    assert next_run(conv, run, led, is_allpass=True, resets=False, first_hand=0, size=4) == (0, 0)


def test_a_first_hand_kept_in_place_does_not_complete_the_round():
    conv = from_options({"allpass_exit_round": True}, preset("leningrad"))
    run, led = next_run(conv, 2, 0, is_allpass=True, resets=False, first_hand=0, size=3)
    run, led = next_run(conv, run, led, is_allpass=False, resets=False, first_hand=0, size=3)

    assert (run, led) == (3, 0b001)


def test_a_deal_below_the_top_does_not_start_the_count():
    conv = from_options({"allpass_exit_round": True}, preset("leningrad"))

    assert next_run(conv, 1, 0, is_allpass=True, resets=False, first_hand=2, size=3) == (2, 0)
    assert next_run(conv, 2, 0, is_allpass=False, resets=False, first_hand=2, size=3) == (2, 0)


def test_without_the_held_finish_the_third_deal_is_refused():
    data = _example("065-3.5-finish-after-allpass-run-gchet")["input"]
    del data["options"]["finish_after_allpass_run"]
    with pytest.raises(DealError) as caught:
        score_text(json.dumps(data))

    assert caught.value.code == "deal.pulka_over"


def test_a_held_finish_is_still_open_while_the_run_goes_on():
    data = _example("065-3.5-finish-after-allpass-run-gchet")["input"]
    data["deals"] = data["deals"][:2]

    assert score_text(json.dumps(data))["closed"] is False


def test_a_held_finish_waits_for_closed_pulyas_too():
    def ten(declarer: str, level: int = 10) -> dict[str, Any]:
        others = [name for name in "ABC" if name != declarer]
        return {
            "contract": f"{level}S",
            "declarer": declarer,
            "whists": {name: "pass" for name in others},
        }

    closing_allpass = {"contract": "allpass", "tricks": {"A": 5, "B": 5, "C": 0}}
    deals = [ten("A"), ten("B"), ten("C", 9), closing_allpass, ten("A", 6)]
    data: dict[str, Any] = {
        "convention": "sochi",
        "options": {"finish_after_allpass_run": True, "allpass_ladder": [2]},
        "players": ["A", "B", "C"],
        "target": 10,
        "deals": deals[:4],
    }
    held = score_text(json.dumps(data))
    assert [held["sheet"][name]["pulya"] for name in "ABC"] == [10, 10, 10]
    assert held["closed"] is False  # every pulya closed by the zero bonus, but a run is on

    data["deals"] = deals
    assert score_text(json.dumps(data))["closed"] is True

    del data["options"]["finish_after_allpass_run"]
    with pytest.raises(DealError):
        score_text(json.dumps(data))


@pytest.mark.parametrize(
    "name",
    sorted(path.stem for path in EXAMPLES.glob("06[0-5]-*.json")),
)
def test_manage_py_score_scores_each_allpass_example(name, tmp_path):
    from .test_bad_input import call_score
    from .test_known_answers import assert_subset

    example = _example(name)
    path = tmp_path / "pulka.json"
    path.write_text(json.dumps(example["input"], ensure_ascii=False), encoding="utf-8")
    done = call_score(str(path))

    assert done.returncode == 0, done.stderr
    assert_subset(example["expect"], json.loads(done.stdout))
