"""One deal's entries: talon, consolation, 2 and 5 players, notation (§3.6, §3.1.3).

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
    FIVE,
    FOUR,
    HALF,
    TWO,
    check,
    row,
    tricks,
)
from .support import (
    allpass,
    misere,
    notation,
    played,
    score,
    unplayed,
    written,
)

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
