"""What each game is worth in whists (scoring/engine/values.py; docs/rules.md §6.6, Кодекс 4.1.1)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from scoring.engine.contracts import Contract, Kind
from scoring.engine.conventions import PRESET_NAMES, Convention, from_spec, preset
from scoring.engine.deals import Deal
from scoring.engine.pulka import Pulka, score_pulka
from scoring.engine.settlement import exact_result
from scoring.engine.values import down_one_value, game_values, made_value, misere_value

LENINGRAD_CONSOLING_THE_DEALER = from_spec(
    "leningrad", {"consolation": ["whisters", "passer", "dealer"]}
)


def value(convention: Convention, size: int, key: str) -> Fraction | int:
    return next(v.whists for v in game_values(convention, size) if v.key == key)


@pytest.mark.parametrize(
    ("convention", "size", "key", "whists"),
    [
        (preset("sochi"), 3, "6_made", Fraction(16, 3)),  # §6.6 b: 5.33 a six
        (preset("leningrad"), 3, "6_made", Fraction(32, 3)),  # §6.6 a: 10.67 a six
        (preset("sochi"), 4, "6_down_1", -31),  # §6.6 d
        (LENINGRAD_CONSOLING_THE_DEALER, 4, "6_down_1", -62),  # §6.6 d: «в ленинградке — 62»
        (preset("sochi"), 4, "9_made", 52),  # §6.6 c
        (preset("leningrad"), 4, "9_made", 104),  # §6.6 c
    ],
)
def test_game_values_match_rules_6_6(
    convention: Convention, size: int, key: str, whists: Fraction | int
) -> None:
    assert value(convention, size, key) == whists


def nine_on_a_sheet_to_two(convention: Convention) -> Fraction | int:
    """§6.6 c as the source plays it: four players, pulya to 2, a 9 closes the pulka."""
    deal = Deal(
        Contract(Kind.TRICKS, 9),
        "A",
        (("B", "whist"), ("C", "pass")),
        (("A", 9), ("B", 1), ("C", 0)),
    )
    scored = score_pulka(Pulka(("A", "B", "C", "D"), convention, 2, 3, None, (deal,)))
    assert scored.state.closed
    return exact_result(scored.totals, convention)[0]


def test_a_nine_that_closes_a_sochi_pulka_to_two_is_worth_52() -> None:
    assert nine_on_a_sheet_to_two(preset("sochi")) == 52


def test_a_nine_that_closes_a_leningrad_pulka_to_two_is_worth_104() -> None:
    assert nine_on_a_sheet_to_two(preset("leningrad")) == 104


@pytest.mark.parametrize("name", ["sochi", "leningrad", "rostov"])
def test_a_game_keeps_its_value_whatever_the_target(name: str) -> None:
    # Кодекс 4.1.1: one constant value per game within a pulka.
    assert nine_on_a_sheet_to_two(preset(name)) == made_value(preset(name), 4, 9)


@pytest.mark.parametrize("size", [3, 4])
def test_leningrad_games_are_worth_twice_sochis(size: int) -> None:
    # S000a: "ровно вдвое". Not for a whisted 10 made: its lone whister is short a
    # trick, and Leningrad's half liability of a doubled price equals Sochi's full one.
    sochi, leningrad = preset("sochi"), LENINGRAD_CONSOLING_THE_DEALER
    for level in (6, 7, 8, 9):
        assert made_value(leningrad, size, level) == 2 * made_value(sochi, size, level)
        assert down_one_value(leningrad, size, level) == 2 * down_one_value(sochi, size, level)
    # The whister's 10 gora points count once, not twice: 10 x 10 / n whists less.
    whister_penalty = Fraction(10 * 10, size)
    assert made_value(leningrad, size, 10) == 2 * made_value(sochi, size, 10) - whister_penalty


def test_a_misere_made_and_caught_in_sochi_with_three() -> None:
    assert misere_value(preset("sochi"), 3, 0) == Fraction(200, 3)
    assert misere_value(preset("sochi"), 3, 1) == Fraction(-200, 3)


def test_a_checked_ten_has_a_value_too() -> None:
    checked = from_spec("sochi", {"ten": "checked"})
    assert made_value(checked, 3, 10) == Fraction(200, 3)
    assert down_one_value(checked, 3, 10) == Fraction(-200, 3) - 20


@pytest.mark.parametrize("size", [2, 3, 4, 5])
@pytest.mark.parametrize("name", PRESET_NAMES)
def test_the_table_lists_every_game_for_every_table(name: str, size: int) -> None:
    values = game_values(preset(name), size)
    keys = [v.key for v in values]
    assert keys[:2] == ["6_made", "6_down_1"] and keys[-3:] == [
        "misere_made",
        "misere_caught_1",
        "allpass_trick",
    ]
    assert len(keys) == 13
    made = [v.whists for v in values if v.key.endswith("_made") and v.level]
    assert made == sorted(made), "a higher contract made is worth more"
    assert all(v.whists < 0 for v in values if "down" in v.key or "caught" in v.key)
