"""Properties of the draw (scoring/engine/seating.py; docs/tournaments.md §4.13)."""

from __future__ import annotations

import itertools
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.engine.seating import SeatingError, draw_round, meetings, repeats_of, table_plan

FIELDS = st.sampled_from([6, 7, 9, 10, 11, 12, 13, 14, 17, 20, 24])


def names(count: int) -> list[str]:
    return [f"p{i:02d}" for i in range(count)]


@st.composite
def tournaments(draw: st.DrawFn) -> tuple[int, int, int, int]:
    count = draw(FIELDS)
    size = 3 if count % 3 == 0 and draw(st.booleans()) else 4
    return count, size, draw(st.integers(1, 4)), draw(st.integers(0, 10**6))


def play(count, size, rounds, seed, **options):
    history = []
    draws = []
    for _ in range(rounds):
        result = draw_round(names(count), history, size, seed, **options)
        draws.append(result)
        history.append([table.players for table in result.tables])
    return history, draws


@settings(max_examples=25, deadline=None)
@given(tournaments())
def test_everyone_sits_once_a_round_at_the_planned_sizes_and_repeats_are_counted(game):
    count, size, rounds, seed = game
    history, draws = play(count, size, rounds, seed)

    for number, (tables, result) in enumerate(zip(history, draws, strict=True)):
        assert Counter(p for t in tables for p in t) == Counter(names(count))
        assert sorted(len(t) for t in tables) == sorted(table_plan(count, size))
        assert result.repeats == repeats_of(history[:number], tables)
        assert result.max_meetings == max(meetings(history[: number + 1]).values())
        # "Cannot be avoided" only with a proof, and only when there are repeats.
        assert result.repeats_forced == bool(result.proof)
        if result.repeats_forced:
            assert result.repeats > 0


@settings(max_examples=15, deadline=None)
@given(tournaments())
def test_a_seed_gives_the_same_draws(game):
    count, size, rounds, seed = game
    assert play(count, size, rounds, seed)[0] == play(count, size, rounds, seed)[0]


def _can_keep_apart(field, sizes, pairs):
    """Whether some seating of ``field`` at tables of ``sizes`` parts every pair (by trial)."""
    if not sizes:
        return not field
    first, rest = sizes[0], sizes[1:]
    for table in itertools.combinations(field, first):
        if any({a, b} <= set(table) for a, b in pairs):
            continue
        if _can_keep_apart([p for p in field if p not in table], rest, pairs):
            return True
    return False


@settings(max_examples=20, deadline=None)
@given(tournaments(), st.data())
def test_forbidden_pairs_never_sit_together(game, data):
    count, size, rounds, seed = game
    field = names(count)
    pairs = data.draw(st.lists(st.sampled_from(list(itertools.combinations(field, 2))), max_size=3))
    try:
        history, _ = play(count, size, rounds, seed, forbidden=pairs)
    except SeatingError as error:
        # Refused only when no seating at the planned sizes keeps the pairs apart, e.g. a
        # triangle of forbidden pairs and two tables: the message says so, nothing is drawn.
        assert error.code == "seating.forbidden"
        assert not _can_keep_apart(field, table_plan(count, size), pairs)
        return

    for tables in history:
        for table in tables:
            assert not any({a, b} <= set(table) for a, b in pairs)


@settings(max_examples=20, deadline=None)
@given(st.sampled_from([9, 12, 13, 16, 20]), st.integers(0, 10**6))
def test_clubmates_are_apart_in_round_1_when_that_is_possible(count, seed):
    # As many clubs as the smallest table has seats: always feasible.
    field = names(count)
    clubs = {player: f"club{i % 3}" for i, player in enumerate(field)}
    size = 3 if count % 3 == 0 else 4
    plan = table_plan(count, size)
    if len(plan) < max(Counter(clubs.values()).values()):
        return
    draw = draw_round(field, [], size, seed, clubs=clubs)

    for table in draw.tables:
        seen = [clubs[p] for p in table.players]
        if len(table.players) == 3:
            assert len(set(seen)) == 3


@given(st.permutations(range(23)))
@settings(max_examples=60, deadline=None)
def test_a_swiss_preference_is_everyone_by_distance_in_the_standings(standings):
    """Each player's partners in a Swiss round, nearest in the standings first and the
    better placed first at equal distance (§3), as the sort by that key would give."""
    from scoring.engine.seating_round import _nearest

    rank = {player: index for index, player in enumerate(standings)}
    for at, player in enumerate(standings):
        wanted = sorted(rank, key=lambda q, p=player: (abs(rank[q] - rank[p]), rank[q]))
        assert _nearest(standings, at) == wanted
