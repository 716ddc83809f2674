"""Bad pulka files: one clear line naming the deal and the problem, never a traceback.

docs/protocol.md: "Bad input: exit status 2 and one line on standard error that names the
deal and the problem". Most cases go through ``score_text`` (what the command calls);
a handful run the ``score`` command itself through ``call_command``, with its exit
status, standard output and standard error; the one subprocess smoke test of the real
``manage.py score`` is tests/test_score_command.py.
"""

from __future__ import annotations

import io
import json
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command

from scoring.engine.errors import ScoringError
from scoring.engine.protocol import score_text

ABC = ["A", "B", "C"]
SIX = {
    "contract": "6S",
    "declarer": "A",
    "whists": {"B": "whist", "C": "pass"},
    "tricks": {"A": 6, "B": 3, "C": 1},
}
ALLPASS = {"contract": "allpass", "tricks": {"A": 0, "B": 4, "C": 6}}


def text(deals: list[Any] | None = None, **fields: Any) -> str:
    """A pulka file's text: Sochi, A B C to 10, with ``fields`` replacing any default."""
    data: dict[str, Any] = {
        "convention": "sochi",
        "players": ABC,
        "target": 10,
        "deals": deals or [],
    }
    data.update(fields)
    return json.dumps({k: v for k, v in data.items() if v is not ...})


def deal(**changes: Any) -> str:
    """A file whose only deal is the 6♠ above with ``changes`` (``...`` drops a field)."""
    changed = {**SIX, **changes}
    return text([{k: v for k, v in changed.items() if v is not ...}])


def exact(message: str) -> tuple[str, bool]:
    return message, True


def part(message: str) -> tuple[str, bool]:
    return message, False


# (id, file text, (expected message, whether it is the whole message))
CASES: list[tuple[str, str, tuple[str, bool]]] = [
    # --- the deals -------------------------------------------------------------------
    (
        "tricks that do not add up",
        text([SIX, ALLPASS, {**SIX, "tricks": {"A": 7, "B": 3, "C": 1}}]),
        exact("deal 3: tricks add up to 11, they must add up to 10"),
    ),
    (
        "tricks that add up to 9",
        deal(tricks={"A": 6, "B": 2, "C": 1}),
        exact("deal 1: tricks add up to 9, they must add up to 10"),
    ),
    (
        "an unknown player in tricks",
        deal(tricks={"A": 6, "B": 3, "Z": 1}),
        exact("deal 1: unknown player 'Z' in tricks"),
    ),
    (
        "an unknown declarer",
        deal(declarer="Zoe"),
        exact("deal 1: unknown player 'Zoe' in declarer"),
    ),
    (
        "an unknown defender",
        deal(whists={"B": "whist", "Q": "pass"}),
        exact("deal 1: unknown player 'Q' in whists"),
    ),
    (
        "a declarer among the defenders",
        deal(whists={"A": "whist", "C": "pass"}),
        exact("deal 1: the declarer A cannot also be a defender"),
    ),
    (
        "a contract below the exit ladder",
        text(
            [
                ALLPASS,
                {
                    **SIX,
                    "declarer": "C",
                    "whists": {"A": "whist", "B": "pass"},
                    "tricks": {"C": 6, "A": 3, "B": 1},
                },
            ],
            convention="leningrad",
        ),
        exact("deal 2: after the all-passes the lowest contract allowed is 7, not 6♠"),
    ),
    (
        "half-whist on an 8",
        deal(contract="8", whists={"B": "pass", "C": "half"}, tricks=...),
        exact("deal 1: half-whist is not allowed on an 8"),
    ),
    (
        "whists on a misère",
        deal(contract="misere", tricks={"A": 0}),
        exact("deal 1: a misère is not whisted: leave out whists"),
    ),
    ("an unknown option", text(options={"colour": "red"}), exact("unknown option 'colour'")),
    (
        "an unknown convention",
        text(convention="moscow"),
        exact(
            "unknown convention 'moscow': use one of sochi, leningrad, rostov, fspr, pu-home, pu-fspr, rs-sochi, gchet"
        ),
    ),
    ("one player", text(players=["A"]), exact("a pulka has 2 to 5 players, not 1")),
    ("six players", text(players=list("ABCDEF")), exact("a pulka has 2 to 5 players, not 6")),
    ("no players", text(players=[]), exact("a pulka has 2 to 5 players, not 0")),
    (
        "duplicate player names",
        text(players=["A", "B", "A"]),
        exact("two players have the same name"),
    ),
    (
        "a name with a line break",
        text(players=["A\nB", "C", "D"]),
        exact("a player's name must not hold control characters or line breaks, got 'A\\nB'"),
    ),
    (
        "the correction of a deal that does not exist",
        text([SIX, {"correct": 5, "deal": SIX}]),
        exact("correction of deal 5: there is no such deal yet"),
    ),
    (
        "a correction without its deal",
        text([SIX, {"correct": 1}]),
        part("correction of deal 1: a correction needs 'correct' and 'deal'"),
    ),
    (
        "a correction numbered by text",
        text([SIX, {"correct": "1", "deal": SIX}]),
        exact("correction '1': correct must be the number of a deal"),
    ),
    (
        "a deal after the pulka closed",
        text(
            [
                {"contract": "7", "declarer": "A", "whists": {"B": "pass", "C": "pass"}},
                {"contract": "7", "declarer": "B", "whists": {"C": "pass", "A": "pass"}},
                {"contract": "7", "declarer": "C", "whists": {"A": "pass", "B": "pass"}},
                ALLPASS,
            ],
            target=4,
        ),
        exact("deal 4: the pulka is already over"),
    ),
    (
        "a dealer on the talon with 3 tricks",
        text(
            [{"contract": "allpass", "tricks": {"A": 0, "B": 3, "C": 4, "D": 3}}],
            players=["A", "B", "C", "D"],
            first_dealer="D",
        ),
        exact("deal 1: the dealer plays only the two talon cards: at most 2 tricks"),
    ),
    (
        "a dealer who declares",
        text([SIX], players=["A", "B", "C", "D"], first_dealer="A"),
        exact("deal 1: A sits out this deal and cannot declare"),
    ),
    ("prikup 4", deal(prikup=4), exact("deal 1: talon fast tricks must be 0 to 3, not 4")),
    (
        "contract 11",
        deal(contract="11"),
        exact("deal 1: unknown contract '11': use 6–10 with an optional suit, misere or allpass"),
    ),
    (
        "contract 5S",
        deal(contract="5S"),
        exact("deal 1: unknown contract '5S': use 6–10 with an optional suit, misere or allpass"),
    ),
    ("contract 6X", deal(contract="6X"), exact("deal 1: unknown suit 'X' in contract '6X'")),
    (
        "a contract that is a number",
        deal(contract=6),
        exact("deal 1: contract must be text such as '6S', got 6"),
    ),
    ("no contract", deal(contract=...), exact("deal 1: the contract is missing")),
    ("an unknown deal field", deal(bid="6S"), exact("deal 1: unknown field 'bid'")),
    (
        "a missing word",
        deal(whists={"B": "whist"}),
        exact("deal 1: C's word (whist, pass or half) is missing"),
    ),
    (
        "a misspelt word",
        deal(whists={"B": "vist", "C": "pass"}),
        exact("deal 1: B's word must be whist, pass or half, not 'vist'"),
    ),
    (
        "negative tricks",
        deal(tricks={"A": 11, "B": -1, "C": 0}),
        exact("deal 1: A's tricks must be a whole number 0 to 10"),
    ),
    (
        "a deal that is not an object",
        text([SIX, "6S"]),
        exact("deal 2: each deal must be an object"),
    ),
    # --- wrong types ---------------------------------------------------------------------
    (
        "a string for the target",
        text(target="10"),
        exact("target must be a whole number from 1 to 10000, got '10'"),
    ),
    (
        "a boolean for the target",
        text(target=True),
        exact("target must be a whole number from 1 to 10000, got True"),
    ),
    (
        "a fraction for the target",
        text(target=10.5),
        exact("target must be a whole number from 1 to 10000, got 10.5"),
    ),
    ("no target", text(target=...), exact("target is missing: the pulya each player plays to")),
    (
        "a string for tricks",
        deal(tricks={"A": "6", "B": 3, "C": 1}),
        exact("deal 1: tricks for 'A' must be a whole number, got '6'"),
    ),
    (
        "a boolean for tricks",
        deal(tricks={"A": True, "B": 3, "C": 6}),
        exact("deal 1: tricks for 'A' must be a whole number, got True"),
    ),
    (
        "a boolean for prikup",
        deal(prikup=True),
        exact("deal 1: prikup must be a whole number 0 to 3"),
    ),
    (
        "a number for a word",
        deal(whists={"B": 1, "C": "pass"}),
        exact("deal 1: whists for 'B' must be a word, got 1"),
    ),
    (
        "a list for whists",
        deal(whists=["B", "C"]),
        exact("deal 1: whists must be a map of player names"),
    ),
    (
        "a list for tricks",
        deal(tricks=[6, 3, 1]),
        exact("deal 1: tricks must be a map of player names"),
    ),
    (
        "a list for options",
        text(options=["help"]),
        exact("options must be a map of option names to values"),
    ),
    (
        "a map for players",
        text(players={"A": 1}),
        exact("players must be a list of names in seating order"),
    ),
    (
        "a map for deals",
        text(deals=...)[:-1] + ', "deals": {"1": {}}}',
        exact("deals must be a list"),
    ),
    (
        "a string for an option list",
        text(options={"allpass_ladder": "123"}),
        exact("option allpass_ladder must be a list, got '123'"),
    ),
    (
        "a number for a boolean option",
        text(options={"help": 1}),
        exact("option help must be true or false, got 1"),
    ),
    ("a string for a stake", text(stake="0.1"), exact("stake must be a number, got '0.1'")),
    (
        "a name that is a number",
        text(players=["A", 2, "C"]),
        exact("a player's name must be non-empty text, got 2"),
    ),
    (
        "a first dealer who is not playing",
        text(first_dealer="Z"),
        exact("first_dealer 'Z' is not one of the players"),
    ),
    (
        "a list for the sheet",
        text(deals=..., sheet=[]),
        exact("sheet must give pulya, gora and whists for every player"),
    ),
    # --- huge numbers ----------------------------------------------------------------------
    (
        "a target of 10**400",
        text(target=10**400),
        part("target must be a whole number from 1 to 10000, got 1000000000"),
    ),
    (
        "a stake of 1e309",
        text()[:-1] + ', "stake": 1e309}',
        exact("stake must be a number from 0 to 1000000, got inf"),
    ),
    (
        "huge tricks",
        deal(tricks={"A": 10**30, "B": 3, "C": 1}),
        exact("deal 1: A's tricks must be a whole number 0 to 10"),
    ),
    (
        "a 5000-digit number",
        text()[:-1] + ', "stake": ' + "9" * 5000 + "}",
        part("the file holds a number that is not allowed"),
    ),
    (
        "a huge deal limit",
        text(options={"end": "deals", "deal_limit": 10**100}),
        part("option deal_limit must be a whole number from 1 to 100000, got 1000"),
    ),
    (
        "a huge prikup",
        deal(prikup=10**50),
        exact(
            "deal 1: talon fast tricks must be 0 to 3, not 100000000000000000000000000000000000000…"
        ),
    ),
    # --- not a pulka at all ----------------------------------------------------------------
    (
        "malformed JSON",
        '{"players": ["A", "B", "C"], "target": 10,',
        part("the file is not valid JSON: "),
    ),
    (
        "empty input",
        "",
        exact("the file is not valid JSON: Expecting value: line 1 column 1 (char 0)"),
    ),
    (
        "a NaN",
        text()[:-1] + ', "stake": NaN}',
        exact("the file holds a number that is not allowed: NaN is not a number"),
    ),
    (
        "an Infinity",
        text()[:-1] + ', "stake": -Infinity}',
        exact("the file holds a number that is not allowed: -Infinity is not a number"),
    ),
    (
        "deep nesting",
        "[" * 100_000 + "]" * 100_000,
        part("the file is not valid JSON: maximum recursion depth exceeded"),
    ),
    ("a list instead of a pulka", "[]", exact("the file must hold one JSON object (a pulka)")),
    ("an unknown top field", text(colour="red"), exact("unknown field 'colour'")),
]


@pytest.mark.parametrize(("content", "expected"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_it_rejects_bad_input_with_one_clear_line(content: str, expected: tuple[str, bool]) -> None:
    message, whole = expected
    with pytest.raises(ScoringError) as error:
        score_text(content)
    found = str(error.value)
    assert "\n" not in found and len(found) < 300
    if whole:
        assert found == message
    else:
        assert found.startswith(message), found


def test_there_are_at_least_35_bad_input_cases() -> None:
    assert len(CASES) >= 35
    assert len({c[0] for c in CASES}) == len(CASES)


def test_a_pulka_of_too_many_deals_is_refused() -> None:
    with pytest.raises(ScoringError, match="^a pulka has at most 2000 deals$"):
        score_text(text([ALLPASS] * 2_001))


# --- the real command ---------------------------------------------------------------------


@dataclass(frozen=True)
class Done:
    """What a run of the command gave, as a process would: exit status and both streams."""

    returncode: int
    stdout: bytes
    stderr: bytes


def call_score(*args: str, stdin: bytes = b"") -> Done:
    """``manage.py score ARGS`` in this process: ``sys.exit(2)`` becomes returncode 2."""
    out, err = io.StringIO(), io.StringIO()
    saved = sys.stdin
    sys.stdin = io.TextIOWrapper(io.BytesIO(stdin), encoding="utf-8")
    try:
        call_command("score", *args, stdout=out, stderr=err)
        code = 0
    except SystemExit as exit_:
        code = exit_.code if isinstance(exit_.code, int) else 1
    finally:
        sys.stdin = saved
    return Done(code, out.getvalue().encode("utf-8"), err.getvalue().encode("utf-8"))


def run_command(stdin: bytes) -> Done:
    return call_score("-", stdin=stdin)


COMMAND_CASES = [
    (
        "tricks that do not add up",
        text([SIX, ALLPASS, {**SIX, "tricks": {"A": 7, "B": 3, "C": 1}}]).encode(),
        "deal 3: tricks add up to 11, they must add up to 10",
    ),
    ("non-UTF-8 bytes", b'{"players": ["\xff\xfe"], "target": 10}', "the file is not UTF-8 text"),
    ("empty input", b"", "the file is not valid JSON: Expecting value: line 1 column 1 (char 0)"),
    (
        "deep nesting",
        b"[" * 100_000 + b"]" * 100_000,
        "the file is not valid JSON: maximum recursion depth exceeded",
    ),
    (
        "a lone surrogate in a name",
        text(players=["\ud800", "B", "C"]).encode(),
        "a player's name must not hold control characters",
    ),
    (
        "a NaN",
        text().encode()[:-1] + b', "stake": NaN}',
        "the file holds a number that is not allowed: NaN is not a number",
    ),
    ("one player", text(players=["A"]).encode(), "a pulka has 2 to 5 players, not 1"),
]


@pytest.mark.parametrize(
    ("stdin", "message"), [c[1:] for c in COMMAND_CASES], ids=[c[0] for c in COMMAND_CASES]
)
def test_the_command_exits_2_with_one_line_on_stderr(stdin: bytes, message: str) -> None:
    done = run_command(stdin)
    stderr = done.stderr.decode("utf-8")
    assert done.returncode == 2, stderr
    assert "Traceback" not in stderr
    assert stderr.endswith("\n") and stderr.count("\n") == 1, stderr
    assert stderr.startswith(message), stderr
    assert done.stdout == b""


def test_the_command_scores_a_good_file_with_exit_0() -> None:
    done = run_command(text([SIX, ALLPASS], stake=0.1).encode())
    assert done.returncode == 0, done.stderr.decode()
    assert done.stderr == b""
    output = json.loads(done.stdout)
    assert output["deals"][0]["notation"] == "6♠/="
    assert sum(output["result_whole"].values()) == 0


def test_the_command_reads_a_file_and_names_a_missing_one(tmp_path: Path) -> None:
    good = tmp_path / "pulka.json"
    good.write_text(text([ALLPASS]), encoding="utf-8")
    done = call_score(str(good))
    assert done.returncode == 0 and json.loads(done.stdout)["deals"][0]["notation"] == "P"
    missing = tmp_path / "nowhere.json"
    done = call_score(str(missing))
    assert done.returncode == 2
    assert done.stderr.decode() == f"cannot read {missing}: No such file or directory\n"


# Every kind of log item refuses a field that is not its own (docs/protocol.md: "Unknown
# names are an error, never ignored"), ``dealer`` beside ``manual`` included: nobody
# deals a manual entry. A played deal's ``dealer`` is its own field (the rotation
# restarts from him), so there it is read, not refused.
MISERE = {"contract": "misere", "declarer": "A", "tricks": {"A": 0}}
PASSED = {"contract": "7H", "declarer": "B", "whists": {"A": "pass", "C": "pass"}}
MANUAL = {"manual": {"player": "A", "section": "gora", "points": 2, "reason": "fine"}}
ITEMS = {
    "contract": SIX,
    "unplayed": PASSED,
    "misere": MISERE,
    "allpass": ALLPASS,
    "manual": MANUAL,
}


@pytest.mark.parametrize("kind", list(ITEMS))
@pytest.mark.parametrize("stray", [{"foo": 1}, {"penalty": False}, {"reason": "x"}])
def test_every_kind_of_deal_refuses_a_field_not_its_own(kind: str, stray: dict) -> None:
    with pytest.raises(ScoringError) as error:
        score_text(text([{**ITEMS[kind], **stray}]))
    assert error.value.code == "deal.unknown_field"
    assert str(error.value) == f"deal 1: unknown field '{next(iter(stray))}'"


@pytest.mark.parametrize("kind", list(ITEMS))
def test_a_corrections_deal_refuses_a_field_not_its_own(kind: str) -> None:
    correction = {"correct": 1, "deal": {**ITEMS[kind], "foo": 1}}
    with pytest.raises(ScoringError) as error:
        score_text(text([ITEMS[kind], correction]))
    assert error.value.code == "deal.unknown_field"


def test_a_correction_refuses_a_field_beside_its_deal() -> None:
    with pytest.raises(ScoringError) as error:
        score_text(text([SIX, {"correct": 1, "deal": SIX, "dealer": "B"}]))
    assert error.value.code == "correction.fields"


def test_a_dealer_is_read_on_a_played_deal_and_refused_beside_a_manual_entry() -> None:
    """A is due to deal the first item; each names B."""
    played = score_text(text([{**ALLPASS, "dealer": "B"}]))
    assert played["deals"][0]["dealer"] == "B" and played["next"]["dealer"] == "C"
    with pytest.raises(ScoringError) as error:
        score_text(text([{**MANUAL, "dealer": "B"}]))
    assert error.value.code == "deal.unknown_field"
    assert str(error.value) == "deal 1: unknown field 'dealer'"
    with pytest.raises(ScoringError) as error:
        score_text(text([SIX, {"correct": 1, "deal": {**MANUAL, "dealer": "B"}}]))
    assert error.value.code == "deal.unknown_field"
