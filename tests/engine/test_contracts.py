"""Contracts and their prices (scoring/engine/contracts.py; docs/rules.md §2).

Parse and print in pairs: ``Contract.parse(text)``, ``str(contract)`` (canonical) and
``contract.symbol`` (the 4.2.11 notation).
"""

from __future__ import annotations

import pytest

from scoring.engine.contracts import Contract, Kind, Suit, obligation
from scoring.engine.errors import DealError

# (text players may write, canonical form, notation symbol)
PAIRS = [
    ("6S", "6S", "6♠"),
    ("6s", "6S", "6♠"),
    ("6♠", "6S", "6♠"),
    ("6C", "6C", "6♣"),
    ("6♣", "6C", "6♣"),
    ("7D", "7D", "7♦"),
    ("7♥", "7H", "7♥"),
    ("7h", "7H", "7♥"),
    ("8NT", "8NT", "8БК"),
    ("8nt", "8NT", "8БК"),
    ("6БК", "6NT", "6БК"),
    ("6бк", "6NT", "6БК"),
    ("9Б/К", "9NT", "9БК"),
    ("9", "9", "9"),
    ("10", "10", "10"),
    ("10♥", "10H", "10♥"),
    ("10NT", "10NT", "10БК"),
    (" 7 S ", "7S", "7♠"),
    ("misere", "misere", "M"),
    ("MISERE", "misere", "M"),
    ("мизер", "misere", "M"),
    ("M", "misere", "M"),
    ("allpass", "allpass", "P"),
    ("распасы", "allpass", "P"),
    ("P", "allpass", "P"),
]


@pytest.mark.parametrize(("text", "canonical", "symbol"), PAIRS)
def test_it_parses_and_prints_a_contract(text: str, canonical: str, symbol: str) -> None:
    contract = Contract.parse(text)
    assert str(contract) == canonical
    assert contract.symbol == symbol


@pytest.mark.parametrize(("text", "canonical", "symbol"), PAIRS)
def test_the_canonical_form_parses_back_to_the_same_contract(
    text: str, canonical: str, symbol: str
) -> None:
    contract = Contract.parse(text)
    assert Contract.parse(str(contract)) == contract
    assert Contract.parse(contract.symbol) == contract


def test_a_contract_keeps_its_suit_and_level() -> None:
    assert Contract.parse("7♥") == Contract(Kind.TRICKS, 7, Suit.HEARTS)
    assert Contract.parse("9") == Contract(Kind.TRICKS, 9, None)
    assert Contract.parse("misere") == Contract(Kind.MISERE)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("11", "unknown contract '11': use 6–10 with an optional suit, misere or allpass"),
        ("5S", "unknown contract '5S': use 6–10 with an optional suit, misere or allpass"),
        ("", "unknown contract '': use 6–10 with an optional suit, misere or allpass"),
        ("S6", "unknown contract 'S6': use 6–10 with an optional suit, misere or allpass"),
        ("6X", "unknown suit 'X' in contract '6X'"),
        ("7SS", "unknown suit 'SS' in contract '7SS'"),
        ("100", "unknown suit '0' in contract '100'"),
    ],
)
def test_it_refuses_a_contract_it_does_not_know(text: str, message: str) -> None:
    with pytest.raises(DealError) as error:
        Contract.parse(text)
    assert str(error.value) == message
    assert error.value.field == "contract"


@pytest.mark.parametrize("value", [6, 6.0, None, ["6S"], {"level": 6}, True])
def test_it_refuses_a_contract_that_is_not_text(value: object) -> None:
    with pytest.raises(DealError, match="^contract must be text such as '6S', got "):
        Contract.parse(value)  # type: ignore[arg-type]


def test_a_misere_ranks_between_8_and_9() -> None:
    ranks = [Contract.parse(t).rank for t in ("6S", "7NT", "8NT", "misere", "9S", "10")]
    assert ranks == sorted(ranks)
    assert 8 < Contract.parse("misere").rank < 9


def test_the_suit_never_changes_the_rank() -> None:
    assert {Contract.parse(f"7{s}").rank for s in ("S", "C", "D", "H", "NT", "")} == {7.0}


@pytest.mark.parametrize(("level", "tricks"), [(6, 4), (7, 2), (8, 1), (9, 1), (10, 1)])
def test_the_defenders_obligation_is_rules_2s_table(level: int, tricks: int) -> None:
    assert obligation(level) == tricks
    # docs/rules.md §2 states O(L) ≤ 10 − L, which fails for a 10; what its argument needs
    # ("if the declarer goes down, the defence obligation is always met") is that the
    # 11 − L defence tricks of a remiz cover it.
    assert obligation(level) <= 11 - level


def test_suits_have_the_sheets_signs() -> None:
    assert [s.symbol for s in Suit] == ["♠", "♣", "♦", "♥", "БК"]


def test_a_spelling_read_twice_gives_the_same_contract() -> None:
    assert Contract.parse("7♥") is Contract.parse("7♥")
    assert Contract.parse("7♥") == Contract.parse("7H")


def test_a_refused_spelling_is_refused_every_time() -> None:
    for _ in range(2):
        with pytest.raises(DealError, match="unknown suit 'X'"):
            Contract.parse("6X")
