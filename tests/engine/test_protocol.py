"""The pulka file (scoring/engine/protocol.py; docs/protocol.md "Input" and "Output")."""

from __future__ import annotations

import json
from decimal import Decimal

import pytest

from scoring.engine.conventions import preset
from scoring.engine.errors import ProtocolError, ScoringError
from scoring.engine.protocol import PaperSheet, dumps, loads, read, score_text
from scoring.engine.pulka import Correction, Pulka

from .support import allpass, played, pulka_file, score, unplayed

# docs/protocol.md's input, in full.
PROTOCOL_INPUT = {
    "convention": "sochi",
    "options": {"whist_style": "gentleman"},
    "players": ["A", "B", "C"],
    "target": 10,
    "first_dealer": "A",
    "stake": 0.1,
    "deals": [
        {
            "contract": "6S",
            "declarer": "A",
            "whists": {"B": "whist", "C": "pass"},
            "tricks": {"A": 6, "B": 3, "C": 1},
        },
        {"contract": "allpass", "tricks": {"A": 0, "B": 4, "C": 6}},
        {
            "contract": "7NT",
            "declarer": "B",
            "whists": {"A": "whist", "C": "whist"},
            "tricks": {"B": 6, "A": 2, "C": 2},
            "prikup": 1,
        },
        {"contract": "misere", "declarer": "A", "tricks": {"A": 1}},
        {"contract": "9", "declarer": "B", "whists": {"A": "pass", "C": "pass"}},
        {"contract": "6H", "declarer": "C", "whists": {"A": "pass", "B": "half"}},
        {
            "correct": 1,
            "deal": {
                "contract": "6S",
                "declarer": "A",
                "whists": {"B": "whist", "C": "pass"},
                "tricks": {"A": 7, "B": 2, "C": 1},
            },
        },
    ],
}


def test_protocol_mds_whole_input_scores() -> None:
    out = score_text(json.dumps(PROTOCOL_INPUT))
    assert [d["notation"] for d in out["deals"]] == [
        "6♠/+1",
        "P",
        "7БК/-1",
        "M/-1",
        "9/пас",
        "6♥/½",
    ]
    assert [d["dealer"] for d in out["deals"]] == ["A", "B", "C", "A", "B", "C"]
    assert out["corrections"][0]["warned"] == ["B"]
    assert sum(out["result_whole"].values()) == 0
    assert out["next"] == {"dealer": "A", "allpass_price": 1, "min_contract": 6}


def test_the_output_has_protocol_mds_fields_in_order() -> None:
    out = score_text(json.dumps({**PROTOCOL_INPUT, "deals": PROTOCOL_INPUT["deals"][:2]}))
    assert list(out) == [
        "players",
        "closed",
        "deals",
        "sheet",
        "result",
        "result_whole",
        "money",
        "next",
    ]
    assert list(out["deals"][0]) == ["number", "dealer", "notation", "entries"]
    assert out["deals"][0]["entries"][1] == {
        "player": "B",
        "section": "whists",
        "on": "A",
        "points": 8,
    }
    assert out["sheet"]["B"] == {"pulya": 0, "gora": 4, "whists": {"A": 8, "C": 0}}


def test_money_is_left_out_without_a_stake() -> None:
    out = score([allpass({"A": 0, "B": 4, "C": 6})])
    assert "money" not in out
    assert out["result"] == {"A": 40, "B": -10, "C": -30}


def test_an_unfinished_pulka_is_settled_as_if_stopped_now() -> None:
    # Rule 4.2.3: each unclosed pulya is carried to the gora (10, 10, 10 here).
    out = score([unplayed("6", "A", "BC")])
    assert out["result"] == {"A": 13.33, "B": -6.67, "C": -6.67}
    assert out["result_whole"] == {"A": 14, "B": -7, "C": -7}


def test_figures_that_are_not_whole_print_with_two_decimals() -> None:
    out = score(
        [played("6", "A", {"B": "whist", "C": "pass"}, {"A": 5, "B": 3, "C": 2})],
        options={"whist_style": "gentleman"},
        convention="sochi",
    )
    assert out["result"]["A"] == -27.33
    assert isinstance(out["result_whole"]["A"], int)


def test_cyrillic_names_survive_the_output() -> None:
    out = score([allpass({"Аня": 0, "Боря": 4, "Вера": 6})], players=("Аня", "Боря", "Вера"))
    assert out["players"] == ["Аня", "Боря", "Вера"]
    assert "Аня" in dumps(out)


def test_read_takes_a_decoded_file_and_loads_takes_text() -> None:
    data = pulka_file([allpass({"A": 0, "B": 4, "C": 6})], stake=0.5, first_dealer="B")
    pulka = read(data)
    assert isinstance(pulka, Pulka)
    assert pulka.names == ("A", "B", "C") and pulka.first_dealer == 1 and pulka.target == 10
    assert pulka.stake == Decimal("0.5") and pulka.convention == preset("sochi")
    assert loads(json.dumps(data)) == pulka


def test_a_file_read_twice_is_the_same_pulka() -> None:
    data = {**PROTOCOL_INPUT}
    first = read(data)
    assert read(json.loads(json.dumps(data, ensure_ascii=False))) == first
    assert isinstance(first, Pulka) and isinstance(first.log[-1], Correction)


def test_a_paper_sheet_is_settled_as_it_stands() -> None:
    data = {
        "convention": "sochi",
        "players": ["A", "B", "C"],
        "target": 10,
        "sheet": {
            "A": {"pulya": 10, "gora": 1, "whists": {"B": 0, "C": 0}},
            "B": {"pulya": 10, "gora": 0},
            "C": {"pulya": 10},
        },
    }
    assert isinstance(read(data), PaperSheet)
    out = score_text(json.dumps(data))
    assert out["closed"] and out["deals"] == []
    assert out["result_whole"] == {"A": -6, "B": 3, "C": 3}
    assert "next" not in out


@pytest.mark.parametrize(
    ("sheet", "message"),
    [
        ({"A": {}, "B": {}}, "sheet must give pulya, gora and whists for every player"),
        ({"A": {"gorra": 1}, "B": {}, "C": {}}, "sheet of A: unknown field 'gorra'"),
        ({"A": [], "B": {}, "C": {}}, "sheet of A must be an object"),
        (
            {"A": {"pulya": -1}, "B": {}, "C": {}},
            "pulya of A must be a whole number from 0 to 1000000000, got -1",
        ),
        (
            {"A": {"gora": "1"}, "B": {}, "C": {}},
            "gora of A must be a whole number from -1000000000 to 1000000000, got '1'",
        ),
        (
            {"A": {"whists": {"A": 1}}, "B": {}, "C": {}},
            "whists of A must name the other players only",
        ),
    ],
)
def test_it_refuses_a_bad_paper_sheet(sheet: dict[str, object], message: str) -> None:
    data = {"players": ["A", "B", "C"], "target": 10, "sheet": sheet}
    with pytest.raises(ProtocolError) as error:
        read(data)
    assert str(error.value) == message


def test_dumps_is_readable_json() -> None:
    text = dumps({"players": ["Юля"], "result": {"Юля": 1.5}})
    assert "Юля" in text and json.loads(text)["result"]["Юля"] == 1.5


@pytest.mark.parametrize("name", ["A\nB", "Tab\there", "\x00", "\ud800", "line\u2028break"])
def test_it_refuses_names_that_cannot_be_printed_on_one_line(name: str) -> None:
    with pytest.raises(
        ScoringError, match="a player's name must not hold control characters or line breaks"
    ):
        read({"players": [name, "B", "C"], "target": 10})
