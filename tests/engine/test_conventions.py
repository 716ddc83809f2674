"""Conventions and presets (scoring/engine/conventions.py; docs/protocol.md, "Preset defaults")."""

from __future__ import annotations

from typing import Any

import pytest

from scoring.engine.conventions import (
    ADDED_OPTIONS,
    FIRST_VERSION_OPTIONS,
    OPTION_NAMES,
    PRESET_NAMES,
    Convention,
    from_options,
    from_spec,
    preset,
)
from scoring.engine.errors import ConventionError

SOCHI: dict[str, Any] = {
    "prices": {"6": 2, "7": 4, "8": 6, "9": 8, "10": 10, "misere": 10},
    "whist_scale": 1,
    "gora_scale": 1,
    "whist_style": "greedy",
    "whister_liability": "full",
    "joint_liability": "second",
    "half_whist_levels": [6, 7],
    "ten": "whisted",
    "consolation": ["whisters", "passer", "dealer"],
    "consolation_unit": "price",
    "misere_consolation": False,
    "prikup_whists": False,
    "allpass_scoring": "gora",
    "allpass_ladder": [1],
    "allpass_amnesty": True,
    "allpass_zero_bonus": "pulya",
    "allpass_dealer_talon": True,
    "allpass_whist_rate": 5,
    "allpass_reset": "any_game",
    "allpass_max_run": None,
    "exit_ladder": [6],
    "allpass_zero_bonus_flat": False,
    "allpass_zero_bonus_dealer": False,
    "allpass_exit_round": False,
    "finish_after_allpass_run": False,
    "help": True,
    "help_excludes_remized_whister": False,
    "help_excludes_dealer": False,
    "end": "all_closed",
    "deal_limit": None,
    "pulya_to_gora": 1,
    "rounding": "codex",
    "rounding_adjusts": "pairwise",
    "rounding_compensation_4": 2,
    "indivisible_mountain": False,
    "gentleman_on_made": False,
    "personal_quota": False,
    "checked_ten_consolation": "defenders",
    "help_writeoff": "points",
    "help_writeoff_stops_at_zero": False,
    # docs/rules.md §3.10: facts of their own, none allowed by default.
    "concede_levels": [],
    "half_whist_first": False,
    "returned_whist_alone": False,
    "dealer_whist": "none",
    "totus_bonus": 0,
    "talon_shown_penalty": "none",
    # gchet's two rules (docs/rules.md §3.3, §3.10.3): the default writes one consolation.
    "returned_whist_consolation": "whister",
    # PU's house rules that came after its presets (docs/rules.md §3.1.7, §3.3, §3.4).
    "help_order": "largest",
    "checked_ten_trick_whists": False,
    "allpass_zero_bonus_excludes_dealer": False,
    # RS's settlement and played half-whist (docs/rules.md §3.7, §3.10.7).
    "mountain_divisor": "players",
    "half_whist_played": False,
}
# docs/protocol.md's preset table: what differs from Sochi.
PRESETS: dict[str, dict[str, Any]] = {
    "sochi": {},
    "leningrad": {
        "whist_scale": 2,
        "gora_scale": 2,
        "whist_style": "gentleman",
        "whister_liability": "half",
        "consolation": ["whisters", "passer"],
        "allpass_ladder": [1, 2, 3],
        "exit_ladder": [6, 7, 8],
        "help": False,
        "end": "sum_reached",
        "pulya_to_gora": 2,
    },
    "rostov": {
        "whist_style": "gentleman",
        "whister_liability": "half",
        "allpass_scoring": "whists",
        "allpass_amnesty": False,
        "allpass_dealer_talon": False,
    },
    "fspr": {
        "whist_scale": 2,
        "gora_scale": 2,
        "whist_style": "gentleman",
        "whister_liability": "half",
        "joint_liability": "both",
        "prikup_whists": True,
        "allpass_ladder": [1, 2, 3],
        "allpass_amnesty": False,
        "allpass_zero_bonus": "gora_double",
        "allpass_reset": "whisted_game",
        "exit_ladder": [6, 7, 7],
        "help": False,
        "end": "deals",
        "pulya_to_gora": 2,
    },
    "pu-home": {
        "whist_scale": 2,
        "gora_scale": 2,
        "whister_liability": "half",
        "joint_liability": "both",
        "ten": "checked",
        "consolation": ["whisters", "passer"],
        "allpass_ladder": [1, 2, 3],
        "allpass_zero_bonus": "gora_double",
        "allpass_dealer_talon": False,
        "allpass_reset": "made_game_or_misere",
        "exit_ladder": [6, 7, 8],
        "allpass_exit_round": True,
        "pulya_to_gora": 2,
        "help_writeoff": "pulya_rate",
        "concede_levels": [6, 7, 8, 9, 10],
        "half_whist_first": True,
        "returned_whist_alone": True,
        "help_order": "clockwise",
        "checked_ten_trick_whists": True,
    },
    "pu-fspr": {
        "whist_scale": 2,
        "gora_scale": 2,
        "whist_style": "gentleman",
        "whister_liability": "half",
        "joint_liability": "both",
        "prikup_whists": True,
        "allpass_ladder": [1, 2, 3],
        "allpass_amnesty": False,
        "allpass_zero_bonus": "gora_double",
        "allpass_reset": "made_whisted_game",
        "exit_ladder": [6, 7, 7],
        "help": False,
        "end": "deals",
        "pulya_to_gora": 2,
        "gentleman_on_made": True,
        "half_whist_first": True,
        "returned_whist_alone": True,
        "dealer_whist": "unliable",
        "allpass_zero_bonus_excludes_dealer": True,
    },
    "rs-sochi": {
        "joint_liability": "second_own",
        "consolation": [],
        "allpass_ladder": [1, 2, 3],
        "allpass_dealer_talon": False,
        "allpass_reset": "played_game_or_misere",
        "allpass_zero_bonus_flat": True,
        "rounding": "exact",
        "personal_quota": True,
        "help_writeoff_stops_at_zero": True,
        "mountain_divisor": "others",
        "half_whist_played": True,
    },
    "gchet": {
        "whist_scale": 2,
        "gora_scale": 2,
        "whist_style": "gentleman",
        "whister_liability": "half",
        "ten": "checked",
        "consolation": ["whisters", "passer"],
        "prikup_whists": True,
        "allpass_ladder": [1, 2, 4],
        "allpass_zero_bonus": "pulya_scaled",
        "allpass_reset": "made_played_game",
        "exit_ladder": [6, 7],
        "allpass_zero_bonus_dealer": True,
        "finish_after_allpass_run": True,
        "help": False,
        "end": "sum_reached",
        "pulya_to_gora": 2,
        "rounding": "exact",
        "checked_ten_consolation": "none",
        "concede_levels": [6, 7],
        "half_whist_first": True,
        "returned_whist_alone": True,
        "dealer_whist": "liable",
        "talon_shown_penalty": "whists",
        "returned_whist_consolation": "both",
    },
}


def test_the_option_names_are_protocol_mds() -> None:
    assert set(OPTION_NAMES) == set(SOCHI)
    assert PRESET_NAMES == (
        "sochi", "leningrad", "rostov", "fspr", "pu-home", "pu-fspr", "rs-sochi", "gchet"
    )  # fmt: skip


@pytest.mark.parametrize("name", list(PRESETS))
def test_each_preset_has_protocol_mds_defaults(name: str) -> None:
    assert preset(name).to_options() == {**SOCHI, **PRESETS[name]}


@pytest.mark.parametrize("name", list(PRESETS))
def test_a_convention_spelled_out_in_full_equals_its_preset(name: str) -> None:
    options = preset(name).to_options()
    assert from_spec(options) == preset(name)


def test_options_override_single_options_of_the_preset() -> None:
    convention = from_spec("leningrad", {"consolation": ["dealer", "whisters"], "help": True})
    assert convention.consolation == ("whisters", "dealer")
    assert convention.help and convention.whist_scale == 2


def test_a_full_convention_must_give_every_option() -> None:
    options = preset("sochi").to_options()
    del options["ten"]
    with pytest.raises(
        ConventionError, match="a convention spelled out must give every option: ten is missing"
    ):
        from_spec(options)


# The presets of the first file version: the peers' presets (docs/rules.md §3.9) came with options
# a first-version file cannot state.
@pytest.mark.parametrize("name", ["sochi", "leningrad", "rostov", "fspr"])
def test_a_full_convention_of_the_first_file_version_reads_as_it_did(name: str) -> None:
    """A file written before any later option existed gives only the first version's."""
    options = preset(name).to_options()
    first_version = {key: options[key] for key in FIRST_VERSION_OPTIONS}
    assert from_spec(first_version) == preset(name)


def test_every_option_added_since_the_first_version_may_be_left_out() -> None:
    assert ADDED_OPTIONS == set(OPTION_NAMES) - set(FIRST_VERSION_OPTIONS)
    assert {"allpass_exit_round", "personal_quota", "gentleman_on_made"} <= ADDED_OPTIONS
    assert "ten" in FIRST_VERSION_OPTIONS


@pytest.mark.parametrize(
    "value",
    [
        "made_whisted_game",
        "made_game_or_misere",
        "played_game_or_misere",
        "made_played_game",
    ],
)
def test_the_added_allpass_reset_values_are_accepted(value: str) -> None:
    assert from_options({"allpass_reset": value}).allpass_reset == value


def test_the_dealer_zero_bonus_needs_the_dealer_on_the_talon() -> None:
    with pytest.raises(ConventionError) as caught:
        from_options({"allpass_zero_bonus_dealer": True, "allpass_dealer_talon": False})
    assert caught.value.code == "option.needs_dealer_talon"
    assert caught.value.option == "allpass_zero_bonus_dealer"
    assert from_options({"allpass_zero_bonus_dealer": True}).allpass_zero_bonus_dealer


@pytest.mark.parametrize(
    "name",
    [
        "allpass_zero_bonus_flat",
        "allpass_zero_bonus_dealer",
        "allpass_exit_round",
        "finish_after_allpass_run",
    ],
)
def test_the_allpass_flags_must_be_true_or_false(name: str) -> None:
    with pytest.raises(ConventionError) as caught:
        from_options({name: 1})
    assert caught.value.code == "option.bool"


BAD_OPTIONS = [
    ({"colour": "red"}, "colour", "unknown option 'colour'"),
    (
        {"whist_style": "polite"},
        "whist_style",
        "option whist_style must be one of greedy, gentleman, got 'polite'",
    ),
    (
        {"whist_scale": 0},
        "whist_scale",
        "option whist_scale must be a whole number from 1 to 100, got 0",
    ),
    (
        {"whist_scale": True},
        "whist_scale",
        "option whist_scale must be a whole number from 1 to 100, got True",
    ),
    (
        {"whist_scale": "2"},
        "whist_scale",
        "option whist_scale must be a whole number from 1 to 100, got '2'",
    ),
    (
        {"gora_scale": 2.0},
        "gora_scale",
        "option gora_scale must be a whole number from 1 to 100, got 2.0",
    ),
    ({"help": 1}, "help", "option help must be true or false, got 1"),
    ({"help": "yes"}, "help", "option help must be true or false, got 'yes'"),
    (
        {"prices": [2, 4, 6, 8, 10, 10]},
        "prices",
        "option prices must be a map of 6..10 and misere to prices",
    ),
    ({"prices": {"6": 2}}, "prices", "option prices lacks 7, 8, 9, 10, misere"),
    ({"prices": {**SOCHI["prices"], "11": 12}}, "prices", "option prices has unknown key '11'"),
    (
        {"prices": {**SOCHI["prices"], "6": "2"}},
        "prices",
        "option prices needs a whole number for 6, 7, 8, 9, 10, misere",
    ),
    (
        {"prices": {**SOCHI["prices"], "6": 0}},
        "prices",
        "option prices must lie between 1 and 1000",
    ),
    (
        {"half_whist_levels": [8]},
        "half_whist_levels",
        "option half_whist_levels may hold only 6 and 7",
    ),
    (
        {"half_whist_levels": [6.0]},
        "half_whist_levels",
        "option half_whist_levels may hold only 6 and 7",
    ),
    (
        {"half_whist_levels": 6},
        "half_whist_levels",
        "option half_whist_levels must be a list, got 6",
    ),
    (
        {"consolation": ["everyone"]},
        "consolation",
        "option consolation may hold only whisters, passer and dealer",
    ),
    (
        {"consolation": ["dealer", "dealer"]},
        "consolation",
        "option consolation names someone twice",
    ),
    ({"consolation": "dealer"}, "consolation", "option consolation must be a list, got 'dealer'"),
    (
        {"allpass_ladder": []},
        "allpass_ladder",
        "option allpass_ladder must be a list of whole numbers from 1 to 1000",
    ),
    (
        {"allpass_ladder": [1, 0]},
        "allpass_ladder",
        "option allpass_ladder must be a list of whole numbers from 1 to 1000",
    ),
    (
        {"exit_ladder": [5]},
        "exit_ladder",
        "option exit_ladder must be a list of whole numbers from 6 to 10",
    ),
    (
        {"exit_ladder": [6, 11]},
        "exit_ladder",
        "option exit_ladder must be a list of whole numbers from 6 to 10",
    ),
    (
        {"allpass_max_run": 0},
        "allpass_max_run",
        "option allpass_max_run must be a whole number from 1 to 100000, got 0",
    ),
    ({"pulya_to_gora": 3}, "pulya_to_gora", "option pulya_to_gora must be 1 or 2, got 3"),
    ({"pulya_to_gora": True}, "pulya_to_gora", "option pulya_to_gora must be 1 or 2, got True"),
    (
        {"rounding_compensation_4": 4},
        "rounding_compensation_4",
        "option rounding_compensation_4 must be 2 or 3, got 4",
    ),
    (
        {"help": False, "help_excludes_dealer": True},
        "help_excludes_dealer",
        "option help_excludes_dealer needs help: help is off",
    ),
    (
        {"allpass_scoring": "whists"},
        "allpass_amnesty",
        "option allpass_amnesty applies to all-pass in gora only: allpass_scoring is 'whists'",
    ),
    (
        {"end": "sometime"},
        "end",
        "option end must be one of all_closed, sum_reached, deals, got 'sometime'",
    ),
    # docs/rules.md §3.10
    (
        {"concede_levels": [5]},
        "concede_levels",
        "option concede_levels may hold each of 6 to 10 once",
    ),
    (
        {"concede_levels": [6, 6]},
        "concede_levels",
        "option concede_levels may hold each of 6 to 10 once",
    ),
    (
        {"half_whist_first": 1},
        "half_whist_first",
        "option half_whist_first must be true or false, got 1",
    ),
    (
        {"dealer_whist": "always"},
        "dealer_whist",
        "option dealer_whist must be one of none, unliable, liable, got 'always'",
    ),
    (
        {"totus_bonus": -1},
        "totus_bonus",
        "option totus_bonus must be a whole number from 0 to 1000, got -1",
    ),
    (
        {"talon_shown_penalty": "pulya"},
        "talon_shown_penalty",
        "option talon_shown_penalty must be one of none, whists, gora, got 'pulya'",
    ),
]


@pytest.mark.parametrize(
    ("options", "option", "message"),
    BAD_OPTIONS,
    ids=[b[1] + "-" + str(i) for i, b in enumerate(BAD_OPTIONS)],
)
def test_it_refuses_a_bad_option_and_names_it(
    options: dict[str, Any], option: str, message: str
) -> None:
    with pytest.raises(ConventionError) as error:
        from_options(options)
    assert str(error.value) == message
    assert error.value.option == option


def test_a_rostov_allpass_with_the_dealer_on_the_talon_is_refused() -> None:
    with pytest.raises(ConventionError, match="in whists the talon is never opened"):
        from_spec("rostov", {"allpass_dealer_talon": True})


def test_an_unknown_preset_is_refused() -> None:
    with pytest.raises(
        ConventionError,
        match="unknown convention 'moscow': use one of sochi, leningrad, rostov, fspr, pu-home, pu-fspr, rs-sochi, gchet",
    ):
        preset("moscow")


@pytest.mark.parametrize("spec", [5, None, ["sochi"], True])
def test_a_convention_is_a_name_or_a_map(spec: object) -> None:
    with pytest.raises(
        ConventionError, match="convention must be a preset name or a map of options"
    ):
        from_spec(spec)


def test_constructing_a_convention_validates_it() -> None:
    with pytest.raises(ConventionError, match="option whist_scale"):
        Convention(whist_scale=-1)


def test_prices_change_what_a_contract_is_worth() -> None:
    convention = from_options(
        {"prices": {"6": 8, "7": 16, "8": 24, "9": 32, "10": 40, "misere": 40}}
    )
    assert [convention.price(level) for level in (6, 7, 8, 9, 10)] == [8, 16, 24, 32, 40]
    assert convention.misere_price == 40


def test_end_deals_takes_a_deal_limit() -> None:
    convention = from_options({"end": "deals", "deal_limit": 18})
    assert convention.deal_limit == 18
