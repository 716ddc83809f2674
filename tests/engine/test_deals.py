"""One deal's facts -> the entries it writes: trick contracts (docs/rules.md §3.1).

Known answers of scoring/engine/deals.py per rule, kept as tables; who deals,
declares and defends in them is said in deal_tables.py.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from scoring.engine.errors import ScoringError

from .deal_tables import (
    B_WHISTS,
    BOTH_WHIST,
    FOUR,
    HALF,
    check,
    row,
    tricks,
)
from .support import (
    notation,
    played,
    score,
    unplayed,
    written,
)

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
        # A returned whist, which Sochi records as whist and pass (docs/rules.md §3.10.3).
        ({"B": "whist", "C": "half"}, "returned after a half-whist as whist and pass"),
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
