"""Properties of the standings (scoring/engine/ranking.py; docs/tournaments.md §4.13)."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.engine.normalise import NORMALISATIONS
from scoring.engine.ranking import (
    TIE_BREAKS,
    Rules,
    TableResult,
    cut,
    final_standings,
    standings,
)


@st.composite
def tournaments(draw):
    """A field of 6–16 players over 1–4 rounds at tables of 3 or 4, zero-sum whists."""
    players = [f"p{n}" for n in range(draw(st.integers(6, 16)))]
    rounds = draw(st.integers(1, 4))
    rng = random.Random(draw(st.integers(0, 10**6)))
    results = []
    for number in range(1, rounds + 1):
        seated = players[:]
        rng.shuffle(seated)
        while len(seated) >= 3:
            size = 4 if len(seated) % 3 and len(seated) >= 4 else 3
            table, seated = seated[:size], seated[size:]
            whists = [draw(st.integers(-60, 60)) for _ in table[1:]]
            results.append(TableResult(number, tuple(table), (-sum(whists), *whists)))
    names = list(TIE_BREAKS)
    tie_breaks = tuple(draw(st.permutations(names))[: draw(st.integers(0, len(names)))])
    rules = Rules(draw(st.sampled_from(NORMALISATIONS)), tie_breaks, draw(st.integers(0, 99)))
    out = draw(st.sets(st.sampled_from(players), max_size=3))
    return players, results, rules, out


@settings(max_examples=60, deadline=None)
@given(tournaments())
def test_every_player_has_one_line_and_places_follow_the_order(case):
    players, results, rules, out = case

    lines = standings(results, players, rules, out)

    assert sorted(line.player for line in lines) == sorted(players)
    places = [line.place for line in lines]
    assert places == sorted(places)
    assert all(1 <= line.place <= index + 1 for index, line in enumerate(lines))
    # Dropped players come after everyone still playing.
    flags = [line.out for line in lines]
    assert flags == sorted(flags)
    assert sum(line.whists for line in lines) == 0


@settings(max_examples=60, deadline=None)
@given(tournaments())
def test_standings_recomputed_from_shuffled_tables_are_the_same(case):
    players, results, rules, out = case
    shuffled = results[:]
    random.Random(5).shuffle(shuffled)

    assert standings(shuffled, reversed(players), rules, out) == standings(
        results, players, rules, out
    )


@settings(max_examples=60, deadline=None)
@given(tournaments(), st.sampled_from(["kept", "halved", "cleared"]))
def test_after_a_cut_points_are_what_was_carried_plus_the_final(case, carry):
    players, results, rules, out = case
    before = standings(results, players, rules, out)
    finalists = cut(before, 3)
    final = [TableResult(99, finalists, (5, -2, -3))]

    lines = final_standings(results, final, finalists, carry, rules, players, out)

    assert {line.player for line in lines if line.finalist} == set(finalists)
    assert [line.finalist for line in lines] == sorted(
        (line.finalist for line in lines), reverse=True
    )
    for line in lines[:3]:
        assert line.points == line.carried + line.stage_points
    assert [line.place for line in lines] == sorted(line.place for line in lines)
    assert not any(line.out for line in lines if line.finalist)
