"""``manage.py seat`` (docs/tournaments.md §3): a planned schedule as JSON, pure."""

from __future__ import annotations

import itertools
import json
from collections import Counter

import pytest

from tests.helpers import run_python


def seat(*args: str) -> tuple[int, dict[str, list[object]] | None, str]:
    done = run_python("manage.py", "seat", *args, env={})
    output = json.loads(done.stdout) if done.returncode == 0 else None
    return done.returncode, output, done.stderr


def recount(rounds: list[list[list[int]]]) -> list[int]:
    met: Counter[frozenset[int]] = Counter()
    repeats = []
    for tables in rounds:
        pairs = [frozenset(p) for t in tables for p in itertools.combinations(t, 2)]
        repeats.append(sum(1 for pair in pairs if met[pair]))
        met.update(pairs)
    return repeats


@pytest.mark.parametrize(
    ("players", "tables", "rounds", "sizes"),
    [("12", "3", "4", [3] * 4), ("21", "3", "10", [3] * 7), ("15", "mixed", "5", [4, 4, 4, 3])],
)
def test_seat_prints_a_schedule_without_repeats_where_one_is_known(players, tables, rounds, sizes):
    code, output, stderr = seat("--players", players, "--tables", tables, "--rounds", rounds)

    assert code == 0, stderr
    assert output is not None
    schedule = output["rounds"]
    assert len(schedule) == int(rounds)
    for day in schedule:
        assert sorted(p for t in day for p in t) == list(range(1, int(players) + 1))
        assert sorted(len(t) for t in day) == sorted(sizes)
    assert output["repeats"] == [0] * int(rounds) == recount(schedule)


def test_the_same_seed_gives_the_same_schedule_and_another_seed_another():
    first = seat("--players", "13", "--tables", "mixed", "--rounds", "3", "--seed", "7")
    again = seat("--players", "13", "--tables", "mixed", "--rounds", "3", "--seed", "7")
    other = seat("--players", "13", "--tables", "mixed", "--rounds", "3", "--seed", "8")

    assert first == again
    assert first[1] != other[1]


@pytest.mark.parametrize(
    "args",
    [
        ("--players", "5", "--tables", "mixed", "--rounds", "2"),
        ("--players", "13", "--tables", "4", "--rounds", "2"),
        ("--players", "10", "--tables", "3", "--rounds", "2"),
        ("--players", "ten", "--tables", "3", "--rounds", "2"),
        ("--players", "9", "--tables", "5", "--rounds", "2"),
    ],
)
def test_an_impossible_plan_exits_2_with_one_line_on_stderr(args):
    code, output, stderr = seat(*args)

    assert code == 2
    assert output is None
    assert len(stderr.strip().splitlines()) == 1
