"""One deal's facts -> the entries it writes (scoring/engine/deals.py).

Known answers per rule of rules.md §3.1–§3.6, kept as tables. Unless a row says
otherwise: three players A, B, C; A deals the first deal and declares; B is first hand
(f1) and C second hand (f2). With four players D deals and sits out; with five E deals
and D is the outgoing player. Entries are tuples: ("A", "pulya", 2) and
("B", "whists", "A", 8) for 8 whists that B writes on A.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from scoring.engine.errors import ScoringError

from .support import (
    ABCD,
    ABCDE,
    allpass,
    misere,
    notation,
    played,
    score,
    unplayed,
    written,
    written_in_order,
)

FOUR: dict[str, Any] = {"players": ABCD, "first_dealer": "D"}
FIVE: dict[str, Any] = {"players": ABCDE, "first_dealer": "E"}
TWO: dict[str, Any] = {"players": ("A", "B")}
B_WHISTS = {"B": "whist", "C": "pass"}
BOTH_WHIST = {"B": "whist", "C": "whist"}
HALF = {"B": "pass", "C": "half"}


def tricks(a: int, b: int, c: int) -> dict[str, int]:
    return {"A": a, "B": b, "C": c}


def row(name: str, deal: dict[str, Any], expect: list[tuple[Any, ...]], **pulka: Any) -> Any:
    return pytest.param(deal, expect, pulka, id=name)


def check(deal: dict[str, Any], expect: list[tuple[Any, ...]], pulka: dict[str, Any]) -> None:
    assert written(score([deal], **pulka)) == Counter(expect)


# --- §3.1 trick contracts: made and failed, one and two whisters ----------------------

CONTRACTS = [
    row(
        "both pass: a 6 goes to the pulya unplayed", unplayed("6S", "A", "BC"), [("A", "pulya", 2)]
    ),
    row("both pass: a 9 is worth 8 in the pulya", unplayed("9", "A", "BC"), [("A", "pulya", 8)]),
    row(
        "one whister on a made 6 counts the passer's trick too",
        played("6S", "A", B_WHISTS, tricks(6, 3, 1)),
        [("A", "pulya", 2), ("B", "whists", "A", 8)],
    ),
    row(
        "one whister on a made 8",
        played("8", "A", B_WHISTS, tricks(8, 2, 0)),
        [("A", "pulya", 6), ("B", "whists", "A", 12)],
    ),
    row(
        "a made 7 with an overtrick, the whister took the obligation",
        played("7", "A", B_WHISTS, tricks(8, 2, 0)),
        [("A", "pulya", 4), ("B", "whists", "A", 8)],
    ),
    row(
        "two whisters on a made 6 write their own tricks",
        played("6", "A", BOTH_WHIST, tricks(6, 2, 2)),
        [("A", "pulya", 2), ("B", "whists", "A", 4), ("C", "whists", "A", 4)],
    ),
    row(
        "two whisters on a made 7",
        played("7", "A", BOTH_WHIST, tricks(7, 1, 2)),
        [("A", "pulya", 4), ("B", "whists", "A", 4), ("C", "whists", "A", 8)],
    ),
    row(
        "greedy: one whister keeps every defence trick of a 6 down two",
        played("6", "A", B_WHISTS, tricks(4, 4, 2)),
        [
            ("A", "gora", 4),
            ("B", "whists", "A", 12),
            ("B", "whists", "A", 4),
            ("C", "whists", "A", 4),
        ],
    ),
    row(
        "gentleman: the whister and the passer split the defence tricks of a remiz",
        played("6", "A", B_WHISTS, tricks(4, 4, 2)),
        [
            ("A", "gora", 4),
            ("B", "whists", "A", 6),
            ("C", "whists", "A", 6),
            ("B", "whists", "A", 4),
            ("C", "whists", "A", 4),
        ],
        options={"whist_style": "gentleman"},
    ),
    row(
        "gentleman on an odd number of defence tricks still gives whole whists",
        played("6", "A", B_WHISTS, tricks(5, 3, 2)),
        [
            ("A", "gora", 2),
            ("B", "whists", "A", 5),
            ("C", "whists", "A", 5),
            ("B", "whists", "A", 2),
            ("C", "whists", "A", 2),
        ],
        options={"whist_style": "gentleman"},
    ),
    row(
        "gentleman does not split when the contract is made",
        played("6", "A", B_WHISTS, tricks(6, 3, 1)),
        [("A", "pulya", 2), ("B", "whists", "A", 8)],
        options={"whist_style": "gentleman"},
    ),
    row(
        "two whisters on a 7 down one each console and write their tricks",
        played("7", "A", BOTH_WHIST, tricks(6, 2, 2)),
        [
            ("A", "gora", 4),
            ("B", "whists", "A", 8),
            ("C", "whists", "A", 8),
            ("B", "whists", "A", 4),
            ("C", "whists", "A", 4),
        ],
    ),
    row(
        "Leningrad: a made 6 whisted by one is 4 whists a trick",
        played("6", "A", B_WHISTS, tricks(6, 3, 1)),
        [("A", "pulya", 2), ("B", "whists", "A", 16)],
        convention="leningrad",
    ),
    row(
        "Leningrad: a 6 down one, gora doubled, gentleman split, consolation doubled",
        played("6", "A", B_WHISTS, tricks(5, 3, 2)),
        [
            ("A", "gora", 4),
            ("B", "whists", "A", 10),
            ("C", "whists", "A", 10),
            ("B", "whists", "A", 4),
            ("C", "whists", "A", 4),
        ],
        convention="leningrad",
    ),
    row(
        "Rostov: a 6 down one, gentleman split, consolation at the price",
        played("6", "A", B_WHISTS, tricks(5, 3, 2)),
        [
            ("A", "gora", 2),
            ("B", "whists", "A", 5),
            ("C", "whists", "A", 5),
            ("B", "whists", "A", 2),
            ("C", "whists", "A", 2),
        ],
        convention="rostov",
    ),
    row(
        "a whisted 10 made: the lone whister is short one trick",
        played("10", "A", B_WHISTS, tricks(10, 0, 0)),
        [("A", "pulya", 10), ("B", "gora", 10)],
    ),
]


@pytest.mark.parametrize(("deal", "expect", "pulka"), CONTRACTS)
def test_it_writes_a_trick_contract_by_rules_3_1(
    deal: dict[str, Any], expect: list[tuple[Any, ...]], pulka: dict[str, Any]
) -> None:
    check(deal, expect, pulka)


# --- §3.1.5 the whister's shortfall (недовист) ------------------------------------------

# (contract, declarer/B/C tricks, words, convention, options, gora of B, gora of C)
SHORTFALL = [
    # Two whisters on a 6: quota 2 each (W-parlett; C-pulka "1 and 0 -> 1 and 2").
    ("6", (7, 2, 1), BOTH_WHIST, "sochi", {}, 0, 2),  # 2+1: the one with 1 pays 1
    ("6", (7, 1, 2), BOTH_WHIST, "sochi", {}, 2, 0),
    ("6", (7, 3, 0), BOTH_WHIST, "sochi", {}, 0, 2),  # 3+0: the one with 0 pays 1
    ("6", (7, 0, 3), BOTH_WHIST, "sochi", {}, 2, 0),
    ("6", (8, 2, 0), BOTH_WHIST, "sochi", {}, 0, 4),  # 2+0: the one with 0 pays 2
    ("6", (9, 1, 0), BOTH_WHIST, "sochi", {}, 2, 4),  # 1+0: 1 and 2
    ("6", (9, 0, 1), BOTH_WHIST, "sochi", {}, 4, 2),
    ("6", (10, 0, 0), BOTH_WHIST, "sochi", {}, 4, 4),
    ("6", (6, 2, 2), BOTH_WHIST, "sochi", {}, 0, 0),
    ("6", (6, 4, 0), BOTH_WHIST, "sochi", {}, 0, 0),  # the obligation is shared: 4 in all
    # Two whisters on a 7: quota 1 each.
    ("7", (8, 1, 1), BOTH_WHIST, "sochi", {}, 0, 0),
    ("7", (8, 2, 0), BOTH_WHIST, "sochi", {}, 0, 0),
    ("7", (9, 1, 0), BOTH_WHIST, "sochi", {}, 0, 4),
    ("7", (9, 0, 1), BOTH_WHIST, "sochi", {}, 4, 0),
    ("7", (10, 0, 0), BOTH_WHIST, "sochi", {}, 4, 4),
    # Two whisters on 8, 9, 10 with no trick: joint liability.
    ("8", (10, 0, 0), BOTH_WHIST, "sochi", {}, 0, 6),
    ("9", (10, 0, 0), BOTH_WHIST, "sochi", {}, 0, 8),
    ("10", (10, 0, 0), BOTH_WHIST, "sochi", {}, 0, 10),
    ("8", (10, 0, 0), BOTH_WHIST, "sochi", {"joint_liability": "both"}, 6, 6),
    ("9", (10, 0, 0), BOTH_WHIST, "sochi", {"joint_liability": "both"}, 8, 8),
    ("10", (10, 0, 0), BOTH_WHIST, "sochi", {"joint_liability": "both"}, 10, 10),
    ("8", (9, 1, 0), BOTH_WHIST, "sochi", {}, 0, 0),
    # One whister: the passer's tricks count for him, he bears all the shortfall.
    ("6", (8, 1, 1), B_WHISTS, "sochi", {}, 4, 0),
    ("6", (7, 1, 2), B_WHISTS, "sochi", {}, 2, 0),
    ("7", (9, 0, 1), B_WHISTS, "sochi", {}, 4, 0),
    ("7", (8, 1, 1), B_WHISTS, "sochi", {}, 0, 0),
    ("7", (10, 0, 0), B_WHISTS, "sochi", {}, 8, 0),
    ("8", (10, 0, 0), B_WHISTS, "sochi", {}, 6, 0),
    ("9", (10, 0, 0), B_WHISTS, "sochi", {}, 8, 0),
    # Half liability (Rostov, Leningrad, ФСПР): half of gora_scale x price a trick.
    ("6", (9, 1, 0), BOTH_WHIST, "rostov", {}, 1, 2),
    ("8", (10, 0, 0), BOTH_WHIST, "rostov", {}, 0, 3),
    ("6", (8, 1, 1), B_WHISTS, "rostov", {}, 2, 0),
    ("6", (9, 1, 0), BOTH_WHIST, "leningrad", {}, 2, 4),
    ("6", (7, 2, 1), B_WHISTS, "leningrad", {}, 2, 0),
    ("8", (10, 0, 0), BOTH_WHIST, "fspr", {}, 6, 6),
    ("9", (10, 0, 0), BOTH_WHIST, "fspr", {}, 8, 8),
    ("8", (10, 0, 0), BOTH_WHIST, "sochi", {"whister_liability": "half"}, 0, 3),
]


@pytest.mark.parametrize(
    ("contract", "counts", "words", "convention", "options", "gora_b", "gora_c"),
    SHORTFALL,
    ids=[f"{c[3]}-{c[0]}-{'-'.join(map(str, c[1]))}-{'+'.join(c[2].values())}" for c in SHORTFALL],
)
def test_a_whister_short_of_the_obligation_writes_to_the_gora(
    contract: str,
    counts: tuple[int, int, int],
    words: dict[str, str],
    convention: str,
    options: dict[str, Any],
    gora_b: int,
    gora_c: int,
) -> None:
    out = score(
        [played(contract, "A", words, tricks(*counts))], convention=convention, options=options
    )
    assert out["sheet"]["B"]["gora"] == gora_b
    assert out["sheet"]["C"]["gora"] == gora_c
    assert out["sheet"]["A"]["gora"] == 0


def test_a_whister_who_goes_down_still_writes_his_trick_whists() -> None:
    out = score([played("6", "A", BOTH_WHIST, tricks(7, 2, 1))])
    assert written(out) == Counter(
        [("A", "pulya", 2), ("B", "whists", "A", 4), ("C", "whists", "A", 2), ("C", "gora", 2)]
    )


# --- §3.1.2 half-whist --------------------------------------------------------------------

HALF_WHIST = [
    row(
        "Sochi: half-whist on a 6 writes 4",
        played("6", "A", HALF),
        [("A", "pulya", 2), ("C", "whists", "A", 4)],
    ),
    row(
        "Sochi: half-whist on a 7 writes 4",
        played("7", "A", HALF),
        [("A", "pulya", 4), ("C", "whists", "A", 4)],
    ),
    row(
        "Leningrad: half-whist on a 6 writes 8",
        played("6", "A", HALF),
        [("A", "pulya", 2), ("C", "whists", "A", 8)],
        convention="leningrad",
    ),
    row(
        "Leningrad: half-whist on a 7 writes 8",
        played("7♥", "A", HALF),
        [("A", "pulya", 4), ("C", "whists", "A", 8)],
        convention="leningrad",
    ),
    row(
        "with four players the half-whister is second hand, the dealer writes nothing",
        played("6", "A", HALF),
        [("A", "pulya", 2), ("C", "whists", "A", 4)],
        **FOUR,
    ),
]


@pytest.mark.parametrize(("deal", "expect", "pulka"), HALF_WHIST)
def test_a_half_whisted_contract_is_not_played(
    deal: dict[str, Any], expect: list[tuple[Any, ...]], pulka: dict[str, Any]
) -> None:
    check(deal, expect, pulka)


@pytest.mark.parametrize(
    ("words", "message"),
    [
        ({"B": "half", "C": "pass"}, "half-whist is only for the second defender"),
        ({"B": "whist", "C": "half"}, "half-whist is only for the second defender"),
        ({"B": "half", "C": "half"}, "half-whist is only for the second defender"),
    ],
)
def test_it_refuses_half_whist_out_of_turn(words: dict[str, str], message: str) -> None:
    with pytest.raises(ScoringError, match=message):
        score([played("6", "A", words)])


@pytest.mark.parametrize("contract", ["8", "9", "10"])
def test_it_refuses_half_whist_above_a_7(contract: str) -> None:
    with pytest.raises(ScoringError, match=f"half-whist is not allowed on an? {contract}"):
        score([played(contract, "A", HALF)])


def test_half_whist_levels_can_be_narrowed_to_the_6() -> None:
    with pytest.raises(ScoringError, match="half-whist is not allowed on a 7"):
        score([played("7", "A", HALF)], options={"half_whist_levels": [6]})


def test_a_half_whisted_contract_takes_no_tricks() -> None:
    with pytest.raises(ScoringError, match="a half-whisted contract is not played: no tricks"):
        score([played("6", "A", HALF, tricks(6, 2, 2))])


# --- a checked 10 (ten: checked) ------------------------------------------------------------

CHECKED = {"options": {"ten": "checked"}}
CHECKED_TEN = [
    row(
        "a checked 10 with no tricks goes to the pulya",
        played("10", "A", {}),
        [("A", "pulya", 10)],
        **CHECKED,
    ),
    row(
        "a checked 10 with the defenders' passes written",
        played("10", "A", {"B": "pass", "C": "pass"}),
        [("A", "pulya", 10)],
        **CHECKED,
    ),
    row(
        "a checked 10 made",
        played("10", "A", {}, tricks(10, 0, 0)),
        [("A", "pulya", 10)],
        **CHECKED,
    ),
    row(
        "a checked 10 down two: gora and consolation, both defenders as whisters",
        played("10", "A", {}, tricks(8, 1, 1)),
        [("A", "gora", 20), ("B", "whists", "A", 20), ("C", "whists", "A", 20)],
        **CHECKED,
    ),
    row(
        "a checked 10 down one with four players: the dealer consoles too",
        played("10", "A", {}, tricks(9, 1, 0)),
        [
            ("A", "gora", 10),
            ("B", "whists", "A", 10),
            ("C", "whists", "A", 10),
            ("D", "whists", "A", 10),
        ],
        **CHECKED,
        **FOUR,
    ),
    row(
        "a checked 10 down one in Leningrad",
        played("10", "A", {}, tricks(9, 0, 1)),
        [("A", "gora", 20), ("B", "whists", "A", 20), ("C", "whists", "A", 20)],
        convention="leningrad",
        **CHECKED,
    ),
]


@pytest.mark.parametrize(("deal", "expect", "pulka"), CHECKED_TEN)
def test_a_checked_ten_is_played_whenever_tricks_are_given(
    deal: dict[str, Any], expect: list[tuple[Any, ...]], pulka: dict[str, Any]
) -> None:
    check(deal, expect, pulka)


@pytest.mark.parametrize(
    ("deal", "expect"),
    [
        (played("10", "A", {}), "10/пас"),
        (played("10", "A", {}, tricks(10, 0, 0)), "10/="),
        (played("10NT", "A", {}, tricks(7, 2, 1)), "10БК/-3"),
    ],
)
def test_a_checked_ten_is_noted_like_any_contract(deal: dict[str, Any], expect: str) -> None:
    assert notation(score([deal], options={"ten": "checked"})) == expect


@pytest.mark.parametrize(
    "words",
    [B_WHISTS, BOTH_WHIST, {"B": "pass", "C": "whist"}, {"B": "whist"}],
)
@pytest.mark.parametrize("given", [tricks(10, 0, 0), tricks(8, 1, 1), None])
def test_a_checked_ten_takes_the_defenders_words_and_ignores_them(
    words: dict[str, str], given: dict[str, int] | None
) -> None:
    options = {"ten": "checked"}
    with_words = score([played("10", "A", words, given)], options=options)
    without = score([played("10", "A", {}, given)], options=options)
    assert with_words["deals"] == without["deals"]
    assert with_words["sheet"] == without["sheet"]


def test_a_checked_ten_takes_no_half_whist() -> None:
    with pytest.raises(ScoringError, match="a 10 is not whisted in this convention: it is checked"):
        score([played("10", "A", HALF)], options={"ten": "checked", "half_whist_levels": [6, 7]})


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


# --- §3.6 talon (prikup) whists ------------------------------------------------------------

TALON = {"options": {"prikup_whists": True}}
TALON_WHISTS = [
    row(
        "three players: a marriage on a 9 is 8 whists, half from each opponent",
        unplayed("9", "A", "BC") | {"prikup": 1},
        [("A", "pulya", 8), ("B", "whists", "A", 4), ("C", "whists", "A", 4)],
        **TALON,
    ),
    row(
        "three players: two aces on a 6 are 6 whists, 3 from each",
        unplayed("6", "A", "BC") | {"prikup": 3},
        [("A", "pulya", 2), ("B", "whists", "A", 3), ("C", "whists", "A", 3)],
        **TALON,
    ),
    row(
        "four players: the dealer writes them all",
        unplayed("9", "A", "BC") | {"prikup": 1},
        [("A", "pulya", 8), ("D", "whists", "A", 8)],
        **TALON,
        **FOUR,
    ),
    row(
        "five players: only the dealer writes, not the outgoing player",
        unplayed("9", "A", "BC") | {"prikup": 1},
        [("A", "pulya", 8), ("E", "whists", "A", 8)],
        **TALON,
        **FIVE,
    ),
    row(
        "two players: the opponent writes half",
        played("9", "A", {"B": "pass"}, prikup=2),
        [("A", "pulya", 8), ("B", "whists", "A", 8)],
        **TALON,
        **TWO,
    ),
    row(
        "Leningrad scale: A+K on a 6 with four players is 8 whists",
        unplayed("6", "A", "BC") | {"prikup": 2},
        [("A", "pulya", 2), ("D", "whists", "A", 8)],
        convention="leningrad",
        **TALON,
        **FOUR,
    ),
    row(
        "written whether the contract is made or not",
        played("6", "A", B_WHISTS, tricks(5, 3, 2), prikup=1),
        [
            ("A", "gora", 2),
            ("B", "whists", "A", 10),
            ("B", "whists", "A", 2),
            ("C", "whists", "A", 2),
            ("D", "whists", "A", 2),
            ("D", "whists", "A", 2),
        ],
        **TALON,
        **FOUR,
    ),
    row(
        "written on a half-whisted contract too",
        played("7", "A", HALF, prikup=1),
        [("A", "pulya", 4), ("C", "whists", "A", 4), ("D", "whists", "A", 4)],
        **TALON,
        **FOUR,
    ),
    row(
        "without prikup_whists the count is kept and nothing is written",
        unplayed("9", "A", "BC") | {"prikup": 1},
        [("A", "pulya", 8)],
        **FOUR,
    ),
    row(
        "ФСПР writes talon whists by default",
        unplayed("6", "A", "BC") | {"prikup": 1},
        [("A", "pulya", 2), ("D", "whists", "A", 4)],
        convention="fspr",
        **FOUR,
    ),
]


@pytest.mark.parametrize(("deal", "expect", "pulka"), TALON_WHISTS)
def test_it_writes_talon_whists_by_rule_3_6(
    deal: dict[str, Any], expect: list[tuple[Any, ...]], pulka: dict[str, Any]
) -> None:
    check(deal, expect, pulka)


@pytest.mark.parametrize("prikup", [-1, 4, 10])
def test_talon_fast_tricks_are_0_to_3(prikup: int) -> None:
    with pytest.raises(ScoringError, match=f"talon fast tricks must be 0 to 3, not {prikup}"):
        score([unplayed("6", "A", "BC") | {"prikup": prikup}], options={"prikup_whists": True})


# --- §3.1.3 consolation --------------------------------------------------------------------

SIX_DOWN_ONE = played("6", "A", B_WHISTS, tricks(5, 3, 2))
TRICK_WHISTS = ("B", "whists", "A", 10)
CONSOLATION = [
    row(
        "whisters, passer and dealer",
        SIX_DOWN_ONE,
        [("B", "whists", "A", 2), ("C", "whists", "A", 2), ("D", "whists", "A", 2)],
        options={"consolation": ["whisters", "passer", "dealer"]},
        **FOUR,
    ),
    row(
        "whisters only",
        SIX_DOWN_ONE,
        [("B", "whists", "A", 2)],
        options={"consolation": ["whisters"]},
        **FOUR,
    ),
    row(
        "the passer only",
        SIX_DOWN_ONE,
        [("C", "whists", "A", 2)],
        options={"consolation": ["passer"]},
        **FOUR,
    ),
    row(
        "the dealer only",
        SIX_DOWN_ONE,
        [("D", "whists", "A", 2)],
        options={"consolation": ["dealer"]},
        **FOUR,
    ),
    row("nobody", SIX_DOWN_ONE, [], options={"consolation": []}, **FOUR),
    row(
        "flat10: 10 an undertrick, whatever the price",
        SIX_DOWN_ONE,
        [("B", "whists", "A", 10), ("C", "whists", "A", 10), ("D", "whists", "A", 10)],
        options={"consolation_unit": "flat10"},
        **FOUR,
    ),
    row(
        "flat10 is not scaled in Leningrad",
        SIX_DOWN_ONE,
        [("B", "whists", "A", 10), ("C", "whists", "A", 10)],
        convention="leningrad",
        options={"consolation_unit": "flat10"},
        **FOUR,
    ),
    row(
        "five players: the dealer and the outgoing player both console",
        SIX_DOWN_ONE,
        [
            ("B", "whists", "A", 2),
            ("C", "whists", "A", 2),
            ("D", "whists", "A", 2),
            ("E", "whists", "A", 2),
        ],
        **FIVE,
    ),
    row(
        "three players: there is no dealer sitting out to console",
        SIX_DOWN_ONE,
        [("B", "whists", "A", 2), ("C", "whists", "A", 2)],
    ),
]


@pytest.mark.parametrize(("deal", "expect", "pulka"), CONSOLATION)
def test_consolation_comes_from_the_configured_players(
    deal: dict[str, Any], expect: list[tuple[Any, ...]], pulka: dict[str, Any]
) -> None:
    out = written(score([deal], **pulka))
    trick_whists = 5 if pulka.get("convention") == "leningrad" else 10
    if pulka.get("convention") == "leningrad":
        # Leningrad splits the 5 defence tricks (x4) between whister and passer.
        base = Counter([("A", "gora", 4), ("B", "whists", "A", 10), ("C", "whists", "A", 10)])
    else:
        base = Counter([("A", "gora", 2), ("B", "whists", "A", trick_whists)])
    assert out - base == Counter(expect)
    assert base - out == Counter()


# --- two and five players ----------------------------------------------------------------


def test_two_players_the_dummy_always_passes_and_the_whister_keeps_every_trick() -> None:
    deal = played("6", "A", {"B": "whist"}, {"A": 4, "B": 6})
    out = score([deal], convention="leningrad", **TWO)
    assert written(out) == Counter(
        [("A", "gora", 8), ("B", "whists", "A", 24), ("B", "whists", "A", 8)]
    )


def test_two_players_the_whister_is_the_only_consoler() -> None:
    deal = played("7", "A", {"B": "whist"}, {"A": 6, "B": 4})
    out = score([deal], options={"consolation": ["whisters", "passer", "dealer"]}, **TWO)
    assert written(out) == Counter(
        [("A", "gora", 4), ("B", "whists", "A", 16), ("B", "whists", "A", 4)]
    )


def test_two_players_the_passer_option_alone_consoles_nobody() -> None:
    deal = played("7", "A", {"B": "whist"}, {"A": 6, "B": 4})
    out = score([deal], options={"consolation": ["passer", "dealer"]}, **TWO)
    assert written(out) == Counter([("A", "gora", 4), ("B", "whists", "A", 16)])


def test_two_players_a_short_whister_pays_for_the_dummy_too() -> None:
    out = score([played("6", "A", {"B": "whist"}, {"A": 7, "B": 3})], **TWO)
    assert written(out) == Counter([("A", "pulya", 2), ("B", "whists", "A", 6), ("B", "gora", 2)])


def test_two_players_need_only_the_opponents_word() -> None:
    with pytest.raises(ScoringError, match="unknown player 'C' in whists"):
        score([played("6", "A", {"B": "pass", "C": "pass"})], **TWO)


def test_five_players_the_outgoing_player_cannot_declare() -> None:
    with pytest.raises(ScoringError, match="D sits out this deal and cannot declare"):
        score([unplayed("6", "D", "AB")], **FIVE)


def test_five_players_the_dealer_cannot_whist() -> None:
    with pytest.raises(ScoringError, match="E sits out this deal and cannot whist"):
        score([played("6", "A", {"B": "pass", "E": "whist"})], **FIVE)


# --- Кодекс 4.2.11 notation ----------------------------------------------------------------

NOTATION = [
    ("6♠/=", played("6S", "A", B_WHISTS, tricks(6, 3, 1))),
    ("6♠/+2", played("6♠", "A", B_WHISTS, tricks(8, 2, 0))),
    ("8/-1", played("8", "A", B_WHISTS, tricks(7, 2, 1))),
    ("7♥/-3", played("7H", "A", BOTH_WHIST, tricks(4, 3, 3))),
    ("9♦/=", played("9D", "A", B_WHISTS, tricks(9, 1, 0))),
    ("6♣/=", played("6c", "A", B_WHISTS, tricks(6, 2, 2))),
    ("7БК/=", played("7NT", "A", B_WHISTS, tricks(7, 3, 0))),
    ("7БК/=", played("7БК", "A", B_WHISTS, tricks(7, 3, 0))),
    ("M/=", misere("A", 0)),
    ("M/-2", misere("A", 2)),
    ("P", allpass(tricks(3, 3, 4))),
    ("6/½", played("6", "A", HALF)),
    ("7♥/½", played("7♥", "A", HALF)),
    ("6/пас", unplayed("6", "A", "BC")),
    ("10БК/пас", unplayed("10NT", "A", "BC")),
]


@pytest.mark.parametrize(("expect", "deal"), NOTATION, ids=[n for n, _ in NOTATION])
def test_it_writes_the_4_2_11_notation(expect: str, deal: dict[str, Any]) -> None:
    assert notation(score([deal])) == expect


# --- what a deal needs --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("deal", "message"),
    [
        (played("6", "A", {"B": "whist"}), "C's word (whist, pass or half) is missing"),
        (played("6", "A", B_WHISTS), "the tricks are missing"),
        (played("6", "A", B_WHISTS, {"A": 6, "B": 4}), "C's tricks are missing"),
        (
            unplayed("6", "A", "BC") | {"tricks": tricks(6, 2, 2)},
            "nobody whisted, so no tricks are played",
        ),
        ({"contract": "6", "whists": B_WHISTS}, "the declarer is missing"),
        (
            {"contract": "misere", "declarer": "A"},
            "the declarer's tricks on the misère are missing",
        ),
        (allpass(tricks(0, 4, 6)) | {"declarer": "A"}, "an all-pass has no declarer"),
        (allpass(tricks(0, 4, 6)) | {"whists": B_WHISTS}, "an all-pass has no whists"),
        (allpass(tricks(0, 4, 6)) | {"prikup": 1}, "an all-pass has no talon tricks"),
        (
            played("6", "A", {"B": "whist", "C": "maybe"}),
            "C's word must be whist, pass or half, not 'maybe'",
        ),
    ],
)
def test_it_names_what_a_deal_lacks(deal: dict[str, Any], message: str) -> None:
    with pytest.raises(ScoringError) as error:
        score([deal])
    assert str(error.value) == f"deal 1: {message}"
