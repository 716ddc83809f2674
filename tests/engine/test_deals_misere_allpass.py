"""One deal's entries: misère and all-pass (docs/rules.md §3.2, §3.3).

Known answers of scoring/engine/deals.py per rule, kept as tables; who deals,
declares and defends in them is said in deal_tables.py.
"""

from __future__ import annotations

from typing import Any

import pytest

from scoring.engine.errors import ScoringError

from .deal_tables import (
    FIVE,
    FOUR,
    TWO,
    check,
    row,
    tricks,
)
from .support import (
    ABCD,
    allpass,
    misere,
    score,
    written_in_order,
)

# --- §3.2 misère ----------------------------------------------------------------------------

MISERE = [
    row("a clean misère writes 10 to the pulya", misere("A", 0), [("A", "pulya", 10)]),
    row("a misère caught once writes 10 to the gora", misere("A", 1), [("A", "gora", 10)]),
    row("a misère caught thrice writes 30", misere("A", 3), [("A", "gora", 30)]),
    row(
        "Leningrad: 20 a misère trick", misere("A", 1), [("A", "gora", 20)], convention="leningrad"
    ),
    row(
        "the defenders' tricks may be given and add up to 10",
        {"contract": "misere", "declarer": "A", "tricks": tricks(2, 5, 3)},
        [("A", "gora", 20)],
    ),
    row(
        "misere_consolation: every other player writes 10 a trick",
        misere("A", 2),
        [("A", "gora", 20), ("B", "whists", "A", 20), ("C", "whists", "A", 20)],
        options={"misere_consolation": True},
    ),
    row(
        "misere_consolation with four players: the dealer writes too",
        misere("A", 1),
        [
            ("A", "gora", 10),
            ("B", "whists", "A", 10),
            ("C", "whists", "A", 10),
            ("D", "whists", "A", 10),
        ],
        options={"misere_consolation": True},
        **FOUR,
    ),
    row(
        "misere_consolation in Leningrad is 10 a trick, not scaled",
        misere("A", 1),
        [("A", "gora", 20), ("B", "whists", "A", 10), ("C", "whists", "A", 10)],
        convention="leningrad",
        options={"misere_consolation": True},
    ),
    row(
        "misere_consolation writes nothing on a clean misère",
        misere("A", 0),
        [("A", "pulya", 10)],
        options={"misere_consolation": True},
    ),
]


@pytest.mark.parametrize(("deal", "expect", "pulka"), MISERE)
def test_it_writes_a_misere_by_rule_3_2(
    deal: dict[str, Any], expect: list[tuple[Any, ...]], pulka: dict[str, Any]
) -> None:
    check(deal, expect, pulka)


def test_a_misere_is_not_whisted() -> None:
    with pytest.raises(ScoringError, match="a misère is not whisted: leave out whists"):
        score([{**misere("A", 0), "whists": {"B": "whist", "C": "pass"}}])


def test_a_misere_writes_no_talon_whists() -> None:
    with pytest.raises(ScoringError, match="a misère has no talon whists"):
        score([misere("A", 0, prikup=1)], options={"prikup_whists": True})


# --- §3.3 all-pass in the gora ------------------------------------------------------------

ALLPASS_GORA = [
    row(
        "a player with no trick writes the price to the pulya",
        allpass(tricks(0, 4, 6)),
        [("B", "gora", 4), ("C", "gora", 6), ("A", "pulya", 1)],
    ),
    row(
        "amnesty subtracts the smallest count first",
        allpass(tricks(2, 3, 5)),
        [("B", "gora", 1), ("C", "gora", 3)],
    ),
    row(
        "without amnesty every trick is written",
        allpass(tricks(2, 3, 5)),
        [("A", "gora", 2), ("B", "gora", 3), ("C", "gora", 5)],
        options={"allpass_amnesty": False},
    ),
    row(
        "zero bonus gora: the price comes off the gora",
        allpass(tricks(0, 4, 6)),
        [("B", "gora", 4), ("C", "gora", 6), ("A", "gora", -1)],
        options={"allpass_zero_bonus": "gora"},
    ),
    row(
        "zero bonus gora_double: twice the price comes off",
        allpass(tricks(0, 4, 6)),
        [("B", "gora", 4), ("C", "gora", 6), ("A", "gora", -2)],
        options={"allpass_zero_bonus": "gora_double"},
    ),
    row(
        "zero bonus gora_double in Leningrad: 2 x gora_scale x price",
        allpass(tricks(0, 4, 6)),
        [("B", "gora", 8), ("C", "gora", 12), ("A", "gora", -4)],
        convention="leningrad",
        options={"allpass_zero_bonus": "gora_double"},
    ),
    row(
        "zero bonus pulya in Leningrad is the ladder value, not scaled",
        allpass(tricks(0, 4, 6)),
        [("B", "gora", 8), ("C", "gora", 12), ("A", "pulya", 1)],
        convention="leningrad",
    ),
    row(
        "zero bonus none",
        allpass(tricks(0, 4, 6)),
        [("B", "gora", 4), ("C", "gora", 6)],
        options={"allpass_zero_bonus": "none"},
    ),
    row(
        "two players with no trick both get the bonus, clockwise from first hand",
        allpass(tricks(0, 0, 10)),
        [("C", "gora", 10), ("B", "pulya", 1), ("A", "pulya", 1)],
    ),
    row(
        "three players: the dealer holds a hand and gets the bonus like anyone",
        allpass(tricks(0, 4, 6), dealer="A"),
        [("B", "gora", 4), ("C", "gora", 6), ("A", "pulya", 1)],
    ),
    row(
        "four players: the dealer on the talon takes up to 2 tricks (S000e 2-1-5-2)",
        allpass({"A": 2, "B": 1, "C": 5, "D": 2}),
        [("A", "gora", 1), ("C", "gora", 4), ("D", "gora", 1)],
        **FOUR,
    ),
    row(
        "four players: a dealer left out of the tricks took none, and gets no bonus",
        allpass(tricks(0, 4, 6)),
        [("B", "gora", 4), ("C", "gora", 6), ("A", "pulya", 1)],
        **FOUR,
    ),
    row(
        "four players: the dealer's 0 counts in the amnesty",
        allpass(tricks(3, 3, 4)),
        [("A", "gora", 3), ("B", "gora", 3), ("C", "gora", 4)],
        **FOUR,
    ),
    row(
        "four players: the dealer never gets the gora bonus either",
        allpass({"A": 0, "B": 4, "C": 6, "D": 0}),
        [("B", "gora", 4), ("C", "gora", 6), ("A", "gora", -1)],
        options={"allpass_zero_bonus": "gora"},
        **FOUR,
    ),
    row(
        "four players without the dealer on the talon: only the three hands play",
        allpass(tricks(2, 3, 5)),
        [("B", "gora", 1), ("C", "gora", 3)],
        options={"allpass_dealer_talon": False},
        **FOUR,
    ),
    row(
        "five players: the three hands play, the dealer and the outgoing player sit out",
        allpass(tricks(0, 4, 6)),
        [("B", "gora", 4), ("C", "gora", 6), ("A", "pulya", 1)],
        **FIVE,
    ),
    row(
        "two players: both hands play, no dummy",
        allpass({"A": 0, "B": 10}),
        [("B", "gora", 10), ("A", "pulya", 1)],
        **TWO,
    ),
]


@pytest.mark.parametrize(("deal", "expect", "pulka"), ALLPASS_GORA)
def test_it_writes_an_allpass_to_the_gora_by_rule_3_3(
    deal: dict[str, Any], expect: list[tuple[Any, ...]], pulka: dict[str, Any]
) -> None:
    check(deal, expect, pulka)


def test_zero_bonus_pulya_entries_go_clockwise_from_first_hand() -> None:
    out = score([allpass({"A": 0, "B": 10, "C": 0})], players=ABCD, first_dealer="D")
    assert written_in_order(out)[-2:] == [("A", "pulya", 1), ("C", "pulya", 1)]


def test_the_dealer_on_the_talon_takes_at_most_two_tricks() -> None:
    with pytest.raises(
        ScoringError, match="the dealer plays only the two talon cards: at most 2 tricks"
    ):
        score([allpass({"A": 0, "B": 3, "C": 4, "D": 3})], **FOUR)


def test_the_dealer_off_the_talon_takes_no_trick() -> None:
    with pytest.raises(ScoringError, match="D takes no tricks in this deal"):
        score(
            [allpass({"A": 0, "B": 3, "C": 5, "D": 2})],
            options={"allpass_dealer_talon": False},
            **FOUR,
        )


# --- §3.3 all-pass in whists (Rostov) -----------------------------------------------------

ALLPASS_WHISTS = [
    row(
        "the player with fewest tricks writes 5 a trick on each other",
        allpass(tricks(0, 4, 6)),
        [("A", "whists", "B", 20), ("A", "whists", "C", 30), ("A", "pulya", 1)],
    ),
    row(
        "a tie for fewest (k = 2): each writes half",
        allpass(tricks(2, 2, 6)),
        [("A", "whists", "C", 15), ("B", "whists", "C", 15)],
    ),
    row(
        "a tie at zero: half each, and both get the pulya bonus",
        allpass(tricks(0, 0, 10)),
        [("A", "whists", "C", 25), ("B", "whists", "C", 25), ("B", "pulya", 1), ("A", "pulya", 1)],
    ),
    row(
        "the lowest count is not a zero: no bonus",
        allpass(tricks(1, 3, 6)),
        [("A", "whists", "B", 15), ("A", "whists", "C", 30)],
    ),
    row(
        "four players: the dealer gets 1 in the pulya and takes no trick",
        allpass(tricks(1, 3, 6)),
        [("A", "whists", "B", 15), ("A", "whists", "C", 30), ("D", "pulya", 1)],
        **FOUR,
    ),
    row(
        "four players with the zero bonus off: no pulya for the dealer",
        allpass(tricks(1, 3, 6)),
        [("A", "whists", "B", 15), ("A", "whists", "C", 30)],
        options={"allpass_zero_bonus": "none"},
        **FOUR,
    ),
    row(
        "four players with the zero bonus in gora: the dealer gets nothing",
        allpass(tricks(0, 4, 6)),
        [("A", "whists", "B", 20), ("A", "whists", "C", 30), ("A", "gora", -1)],
        options={"allpass_zero_bonus": "gora"},
        **FOUR,
    ),
    row(
        "allpass_whist_rate changes the whists a trick",
        allpass(tricks(0, 4, 6)),
        [("A", "whists", "B", 40), ("A", "whists", "C", 60), ("A", "pulya", 1)],
        options={"allpass_whist_rate": 10},
    ),
]


@pytest.mark.parametrize(("deal", "expect", "pulka"), ALLPASS_WHISTS)
def test_it_writes_a_rostov_allpass_in_whists(
    deal: dict[str, Any], expect: list[tuple[Any, ...]], pulka: dict[str, Any]
) -> None:
    check(deal, expect, {"convention": "rostov", **pulka})


def test_three_players_cannot_tie_three_ways_for_the_fewest_tricks() -> None:
    # k = 3 would need three equal counts adding up to 10: the table never meets it.
    assert not [t for t in range(11) if 3 * t == 10]
    with pytest.raises(ScoringError, match="tricks add up to 9"):
        score([allpass(tricks(3, 3, 3))], convention="rostov")


def test_a_rostov_allpass_never_opens_the_talon() -> None:
    with pytest.raises(ScoringError, match="D takes no tricks in this deal"):
        score([allpass({"A": 1, "B": 3, "C": 4, "D": 2})], convention="rostov", **FOUR)
