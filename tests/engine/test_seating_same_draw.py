"""The same inputs and seed give the same seating (scoring/engine/seating.py;
docs/tournaments.md §3, §4.5: the seed is stored so that a draw can be made again).

Each case plays a tournament round after round, as the organiser draws it, and compares
a digest of every round's draw (tables, seats, first dealers, repeats, method, proof)
with the digest the draw gave before its exact search was made cheaper (the commit
before "Drawing a round at 1,000 players" in docs/benchmarks.md). A change of the
seating for the same inputs fails here; a change meant to alter the draw must say so
and record the new digests.
"""

from __future__ import annotations

import functools
import hashlib
import random

import pytest

from scoring.engine.seating import Draw, draw_round


def names(count: int) -> list[str]:
    return [f"p{i:04d}" for i in range(count)]


def tournament(
    count: int,
    size: int,
    rounds: int,
    seed: int,
    *,
    swiss: bool,
    forbidden: tuple[tuple[str, str], ...] = (),
    clubs: dict[str, str] | None = None,
    drop: int = 0,
) -> list[Draw]:
    """``rounds`` rounds drawn one after another; in a Swiss one the standings are a
    seeded shuffle of the field; ``drop`` players leave before round 3."""
    rng = random.Random(f"standings:{seed}")
    field = names(count)
    history: list[list[tuple[str, ...]]] = []
    draws = []
    for number in range(rounds):
        if drop and number == 2:
            field = field[drop:]
        standings = None
        if swiss and history:
            standings = list(field)
            rng.shuffle(standings)
        draw = draw_round(
            field,
            history,
            size,
            seed,
            standings=standings,
            forbidden=forbidden,
            clubs=clubs if not history else None,
        )
        draws.append(draw)
        history.append([table.players for table in draw.tables])
    return draws


def digest(draws: list[Draw]) -> str:
    text = repr(
        [(d.tables, d.repeats, d.max_meetings, d.repeats_forced, d.method, d.proof) for d in draws]
    )
    return hashlib.sha256(text.encode()).hexdigest()


CASES = {
    # The benchmark's field: Swiss rounds of 250 tables, each found by the search.
    "1000 at fours, Swiss, 6 rounds": (
        dict(count=1000, size=4, rounds=6, seed=7, swiss=True),
        "8bdb392a740a473e4fe065616189cd55962a5934a0af6c279e7bd5496f92ee44",
    ),
    "301 mixed, Swiss, 6 rounds": (
        dict(count=301, size=4, rounds=6, seed=3, swiss=True),
        "488e9663fdea28fef22db4f98ba455e3c92f4e1914257721a9bc28f60947353d",
    ),
    # Not Swiss: the player with the fewest partners left is seated first.
    "63 in threes, a forbidden pair, 8 rounds": (
        dict(
            count=63,
            size=3,
            rounds=8,
            seed=5,
            swiss=False,
            forbidden=(("p0000", "p0001"), ("p0002", "p0003")),
        ),
        "3aa82dd5bf1ea020bd5d0e8232a6642a685a93752fff2d3a0d1b3dd2d25c6f0b",
    ),
    "45 mixed, clubs apart, 3 drop after round 2": (
        dict(
            count=45,
            size=4,
            rounds=4,
            seed=11,
            swiss=True,
            clubs={f"p{i:04d}": f"club{i % 5}" for i in range(45)},
            drop=3,
        ),
        "60d464556b948d1c03ec846313447b43a1b3fc86aa056e86c79ceee40f1ba6a0",
    ),
    # Past the no-repeat rounds: the search tries every seating (the proof), then
    # annealing seats the round.
    "42 at fours, a forbidden pair, 14 rounds": (
        dict(count=42, size=4, rounds=14, seed=2, swiss=False, forbidden=(("p0000", "p0001"),)),
        "7a3a98d89eb7185f5b2fc341fcc28231eca6b0acd6a78649e9c2a60c12a842af",
    ),
}


@functools.cache
def played(name: str) -> list[Draw]:
    return tournament(**CASES[name][0])


@pytest.mark.parametrize("name", list(CASES))
def test_the_draw_is_the_same_as_before_for_the_same_inputs_and_seed(name):
    assert digest(played(name)) == CASES[name][1]


def test_the_cases_reach_every_way_of_seating_a_round():
    """The cases above go through the search, the proof by exhausting it and annealing."""
    plain = played("63 in threes, a forbidden pair, 8 rounds")
    tight = played("42 at fours, a forbidden pair, 14 rounds")
    assert {d.method for d in plain} == {"search"}
    assert tight[0].method == "search"
    assert tight[-1].method == "anneal"
    assert tight[-1].proof == "search"
    assert tight[-1].repeats > 0
