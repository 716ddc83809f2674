"""Deals with facts of their own (scoring/engine/house_deals.py; docs/rules.md §3.10).

Each option off (every preset) refuses its fact with its own code; on, the deal writes
what the worked examples of tests/engine/examples/180–188 say. Here: the refusals, and
the same deal with the option on and off.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from scoring.engine.errors import DealError, ScoringError
from scoring.engine.protocol import read
from scoring.engine.pulka import score_pulka
from scoring.engine.stats import play_stats

from .support import ABCD, figures, played, pulka_file, score, written

FOUR = {"players": ABCD, "first_dealer": "D"}


def _code(deals: list[dict[str, Any]], **kwargs: Any) -> str:
    with pytest.raises(ScoringError) as error:
        score(deals, **kwargs)
    assert isinstance(error.value, DealError)
    return error.value.code


@pytest.mark.parametrize(
    ("deal", "options", "code"),
    [
        ({"contract": "6S", "declarer": "A", "conceded": True}, {}, "deal.concede_not_allowed"),
        (
            {"contract": "8S", "declarer": "A", "conceded": True},
            {"concede_levels": [6, 7]},
            "deal.concede_not_allowed",
        ),
        (
            played("6S", "A", {"B": "whist", "C": "pass"}, {"A": 6, "B": 3, "C": 1}, conceded=True),
            {"concede_levels": [6]},
            "deal.concede_tricks",
        ),
        (
            {"contract": "misere", "declarer": "A", "conceded": True},
            {},
            "deal.flag_trick_contract_only",
        ),
        (
            {"contract": "allpass", "tricks": {"A": 4, "B": 3, "C": 3}, "totus": True},
            {},
            "deal.flag_trick_contract_only",
        ),
        ({"contract": "6S", "declarer": "A", "conceded": "yes"}, {}, "deal.flag_not_bool"),
        (played("10S", "A", {"B": "pass", "C": "pass"}, totus=True), {}, "deal.totus_not_allowed"),
        (
            played("9S", "A", {"B": "pass", "C": "pass"}, totus=True),
            {"totus_bonus": 5},
            "deal.totus_level",
        ),
        (
            played("7S", "A", {"B": "pass", "C": "pass"}, talon_shown=True),
            {"talon_shown_penalty": "whists"},
            "deal.talon_shown_players",
        ),
        (played("7S", "A", {"B": "half", "C": "pass"}), {}, "deal.half_second_only"),
        (
            played("6S", "A", {"B": "half", "C": "half"}),
            {"half_whist_first": True},
            "deal.half_one_only",
        ),
        (
            played("6S", "A", {"B": "half", "C": "whist"}, {"A": 6, "B": 2, "C": 2}),
            {"returned_whist_alone": True},
            "deal.half_second_only",
        ),
        (
            played("8S", "A", {"B": "whist", "C": "half"}, {"A": 8, "B": 2, "C": 0}),
            {"returned_whist_alone": True},
            "deal.half_not_allowed",
        ),
    ],
)
def test_a_fact_the_convention_does_not_allow_is_refused_with_its_code(
    deal: dict[str, Any], options: dict[str, Any], code: str
) -> None:
    assert _code([deal], options=options) == code


def test_a_shown_talon_is_refused_where_nothing_is_written_for_it() -> None:
    deal = played("7S", "A", {"B": "pass", "C": "pass"}, talon_shown=True)
    assert _code([deal], **FOUR) == "deal.talon_shown_not_allowed"


def test_the_dealer_who_may_not_whist_sits_out_as_before() -> None:
    deal = played("6S", "A", {"B": "pass", "C": "pass", "D": "whist"}, {"A": 6, "B": 2, "C": 2})
    assert _code([deal], **FOUR) == "deal.whister_sits_out"


@pytest.mark.parametrize(
    ("words", "code"),
    [
        ({"B": "whist", "C": "pass", "D": "whist"}, "deal.dealer_whist_after_pass"),
        ({"B": "pass", "C": "pass", "D": "half"}, "deal.dealer_word"),
    ],
)
def test_the_dealer_whists_only_after_both_defenders_declined(
    words: dict[str, str], code: str
) -> None:
    deal = played("6S", "A", words, {"A": 6, "B": 2, "C": 2})
    assert _code([deal], options={"dealer_whist": "liable"}, **FOUR) == code


def test_a_checked_ten_is_not_whisted_by_the_dealer_either() -> None:
    deal = played("10S", "A", {"B": "pass", "C": "pass", "D": "whist"}, {"A": 10, "B": 0, "C": 0})
    options = {"dealer_whist": "unliable", "ten": "checked"}
    assert _code([deal], options=options, **FOUR) == "deal.dealer_whist_checked_ten"


def test_the_dealer_whists_only_with_four_players() -> None:
    deal = played("6S", "A", {"B": "pass", "C": "pass", "E": "whist"}, {"A": 6, "B": 2, "C": 2})
    players = ("A", "B", "C", "D", "E")
    assert _code([deal], options={"dealer_whist": "liable"}, players=players, first_dealer="E") == (
        "deal.whister_sits_out"
    )


def test_a_dealer_passing_changes_nothing() -> None:
    words = {"B": "pass", "C": "pass"}
    plain = score([played("6S", "A", words)], **FOUR)
    passed = score(
        [played("6S", "A", {**words, "D": "pass"})], options={"dealer_whist": "liable"}, **FOUR
    )
    assert written(passed) == written(plain)


def test_the_liable_dealer_pays_the_shortfall_the_unliable_one_does_not() -> None:
    # Sochi: a 6 made with 7, the dealer's defence took 3 of the 4 owed: one short.
    deal = played("6S", "A", {"B": "pass", "C": "pass", "D": "whist"}, {"A": 7, "B": 2, "C": 1})
    liable = score([deal], options={"dealer_whist": "liable"}, **FOUR)
    unliable = score([deal], options={"dealer_whist": "unliable"}, **FOUR)
    assert written(liable) == written(unliable) + Counter({("D", "gora", 2): 1})


def test_a_returned_whist_under_gentleman_is_split_unless_the_returner_writes_alone() -> None:
    # Leningrad (gentleman): A down 1 on a 6; B returned after C's half-whist.
    tricks = {"A": 5, "B": 4, "C": 1}
    as_whist_and_pass = score(
        [played("6S", "A", {"B": "whist", "C": "pass"}, tricks)], convention="leningrad"
    )
    returned = score(
        [played("6S", "A", {"B": "whist", "C": "half"}, tricks)],
        convention="leningrad",
        options={"returned_whist_alone": True},
    )
    assert figures(as_whist_and_pass, "whists")["C"]["A"] == 10 + 4
    assert figures(returned, "whists")["C"]["A"] == 0
    assert figures(returned, "whists")["B"]["A"] == 20 + 4


def test_a_concession_ends_no_run_of_all_passes() -> None:
    deals = [
        {"contract": "allpass", "tricks": {"A": 2, "B": 3, "C": 5}},
        {"contract": "6S", "declarer": "B", "conceded": True},
    ]
    options = {"allpass_ladder": [1, 2], "concede_levels": [6]}
    assert score(deals, options=options)["next"]["allpass_price"] == 2
    played_deals = [deals[0], played("6S", "B", {"C": "pass", "A": "pass"})]
    assert score(played_deals, options=options)["next"]["allpass_price"] == 1


def test_a_totus_bonus_goes_through_help() -> None:
    # Target 10: a totus made closes A's pulya (10) and helps with the bonus of 5.
    deal = played("10S", "A", {"B": "pass", "C": "pass"}, totus=True)
    out = score([deal], options={"totus_bonus": 5})
    assert figures(out, "pulya") == {"A": 10, "B": 5, "C": 0}
    assert figures(out, "whists")["A"]["B"] == 50


def test_old_files_read_the_same_with_every_option_on() -> None:
    options = {
        "concede_levels": [6, 7, 8, 9, 10],
        "half_whist_first": True,
        "returned_whist_alone": True,
        "dealer_whist": "liable",
        "totus_bonus": 5,
        "talon_shown_penalty": "gora",
    }
    deals = [
        played("6S", "A", {"B": "whist", "C": "pass"}, {"A": 6, "B": 3, "C": 1}),
        played("7S", "B", {"C": "pass", "D": "half"}),
        played("10S", "C", {"D": "whist", "A": "whist"}, {"C": 9, "D": 1, "A": 0}),
    ]
    assert score(deals, options=options, **FOUR)["sheet"] == score(deals, **FOUR)["sheet"]


def test_a_concession_counts_in_the_statistics_as_down_three() -> None:
    data = pulka_file(
        [{"contract": "7S", "declarer": "A", "conceded": True}], options={"concede_levels": [7]}
    )
    pulka = read(data)
    stats = play_stats(score_pulka(pulka).records, pulka.names, "A")  # type: ignore[union-attr]
    assert (stats.by_level[7].down, stats.by_level[7].undertricks) == (1, 3)
