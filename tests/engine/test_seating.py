"""Tournament seating (scoring/engine/seating.py; docs/tournaments.md §3, §4.13)."""

from __future__ import annotations

import itertools
from collections import Counter

import pytest

from scoring.engine.seating import (
    SeatingError,
    design_schedule,
    draw_round,
    meetings,
    no_repeat_bound,
    repeats_forced,
    table_plan,
    tables_by_standing,
)


def field(count: int) -> list[str]:
    return [f"p{i:02d}" for i in range(count)]


def play(count: int, size: int, rounds: int, seed: int = 1) -> list[list[tuple[str, ...]]]:
    """Draw ``rounds`` rounds one after another, as the organiser would."""
    history: list[list[tuple[str, ...]]] = []
    for _ in range(rounds):
        draw = draw_round(field(count), history, size, seed)
        history.append([table.players for table in draw.tables])
    return history


# --- table plans and bounds ---


@pytest.mark.parametrize(
    ("players", "size", "plan"),
    [
        (9, 3, (3, 3, 3)),
        (12, 4, (4, 4, 4)),
        (13, 4, (4, 3, 3, 3)),
        (6, 4, (3, 3)),
        (7, 4, (4, 3)),
        (11, 4, (4, 4, 3)),
        (3, 3, (3,)),
    ],
)
def test_the_table_plan_follows_n_equals_4a_plus_3b(players, size, plan):
    assert table_plan(players, size) == plan


@pytest.mark.parametrize(("players", "size"), [(5, 4), (10, 3), (11, 3), (2, 3), (9, 5)])
def test_a_field_that_cannot_be_seated_is_refused_with_a_reason(players, size):
    with pytest.raises(SeatingError):
        table_plan(players, size)


def test_the_no_repeat_bound_is_n_minus_1_over_k_minus_1():
    assert no_repeat_bound(9, 3) == 4
    assert no_repeat_bound(15, 3) == 7
    assert no_repeat_bound(16, 4) == 5
    assert no_repeat_bound(12, 3) == 5


def test_repeats_are_forced_from_round_2_for_12_or_8_players_at_4_tables():
    assert repeats_forced((4, 4, 4), 2)
    assert repeats_forced((4, 4), 2)
    assert not repeats_forced((4, 4, 4), 1)
    assert not repeats_forced((3, 3, 3, 3), 2)


def test_repeats_are_forced_past_the_bound():
    assert not repeats_forced((3, 3, 3), 4)
    assert repeats_forced((3, 3, 3), 5)
    assert repeats_forced((4, 4, 4, 4), 6)


# --- every player seated exactly once, tables as planned ---


SEATABLE = [
    (count, size)
    for count in (3, 6, 7, 9, 12, 13, 16, 18, 21, 22, 30)
    for size in (3, 4)
    if size == 4 or count % 3 == 0
]


@pytest.mark.parametrize(("count", "size"), SEATABLE)
def test_every_player_is_seated_exactly_once_per_round_at_planned_tables(count, size):
    plan = table_plan(count, size)
    for tables in play(count, size, 3):
        seated = Counter(player for table in tables for player in table)
        assert seated == Counter(field(count))
        assert sorted(len(t) for t in tables) == sorted(plan)


def test_seats_and_first_dealer_are_drawn_within_the_table():
    draw = draw_round(field(13), [], 4, 5)
    for table in draw.tables:
        assert 0 <= table.first_dealer < len(table.players)


# --- zero repeats where the bound allows (docs/tournaments.md §4.13) ---


@pytest.mark.parametrize(("count", "size", "rounds"), [(9, 3, 4), (15, 3, 7), (16, 4, 5)])
@pytest.mark.parametrize("seed", [0, 1, 2024])
def test_nobody_meets_an_opponent_twice_up_to_the_bound(count, size, rounds, seed):
    history = play(count, size, rounds, seed)

    met = meetings(history)

    assert max(met.values()) == 1
    # The bound is met: every pair has met exactly once.
    assert len(met) == count * (count - 1) // 2


@pytest.mark.parametrize(("count", "size"), [(9, 3), (15, 3), (16, 4), (27, 3), (64, 4)])
def test_each_known_design_is_a_resolvable_design(count, size):
    schedule = design_schedule(field(count), size, 3)

    assert len(schedule) == no_repeat_bound(count, size)
    for tables in schedule:
        assert sorted(p for t in tables for p in t) == field(count)
        assert all(len(t) == size for t in tables)
    assert max(meetings(schedule).values()) == 1


def test_no_design_is_claimed_for_other_fields():
    assert design_schedule(field(12), 3, 1) == []
    assert design_schedule(field(12), 4, 1) == []


@pytest.mark.parametrize(("count", "size", "rounds"), [(12, 3, 4), (21, 3, 5), (13, 4, 3)])
def test_the_search_avoids_repeats_when_they_are_avoidable(count, size, rounds):
    history = play(count, size, rounds)

    assert max(meetings(history).values()) == 1


@pytest.mark.parametrize("count", [18, 24, 30, 36, 48])
@pytest.mark.parametrize("size", [3, 4])
def test_round_2_never_repeats_when_there_are_as_many_tables_as_seats(count, size):
    plan = table_plan(count, size)
    assert len(plan) >= max(plan)

    history = play(count, size, 2, seed=count)

    assert max(meetings(history).values()) == 1


def test_a_design_is_left_when_the_field_changes_and_the_search_takes_over():
    first = draw_round(field(9), [], 3, 8)
    assert first.method == "design"
    history = [[t.players for t in first.tables]]

    # A tenth and eleventh player arrive late, a twelfth too: no design for 12 here.
    second = draw_round(field(12), history, 3, 8)

    assert second.method == "search"
    assert second.repeats == 0


def test_an_unavoidable_repeat_is_reported_and_kept_to_the_pigeonhole_minimum():
    history = play(12, 4, 3)
    draw = draw_round(field(12), history[:2], 4, 1)

    assert draw.repeats_forced
    # Each table of 4 holds two players of one of last round's 3 tables: 3 repeats a
    # round, no more (6 over 3 rounds, docs/tournaments.md §3). Fewer repeats come first, so a pair
    # may meet a third time rather than two more pairs a second time.
    assert draw.repeats == 3
    assert max(meetings(history).values()) <= 3


def test_the_draw_reports_its_repeats_against_the_history():
    history = play(12, 4, 2)
    draw = draw_round(field(12), history, 4, 1)
    before = meetings(history)

    counted = sum(
        1
        for table in draw.tables
        for pair in itertools.combinations(table.players, 2)
        if before[frozenset(pair)]
    )

    assert draw.repeats == counted


# --- determinism ---


@pytest.mark.parametrize(("count", "size"), [(9, 3), (12, 3), (13, 4), (16, 4)])
def test_a_fixed_seed_gives_identical_draws(count, size):
    assert play(count, size, 3, seed=42) == play(count, size, 3, seed=42)


def test_different_seeds_give_different_draws():
    assert play(12, 3, 2, seed=1) != play(12, 3, 2, seed=2)


def test_the_order_players_are_given_in_does_not_matter():
    players = field(13)
    assert draw_round(players, [], 4, 9) == draw_round(list(reversed(players)), [], 4, 9)


def test_a_player_entered_twice_is_refused():
    with pytest.raises(SeatingError):
        draw_round(["a", "b", "c", "a"], [], 3, 1)


# --- final tables by standing ---


def test_final_tables_seat_the_best_players_together():
    ranked = field(7)

    tables = tables_by_standing(ranked, 4, 1)

    assert [sorted(t.players) for t in tables] == [ranked[:4], ranked[4:]]


def test_final_tables_are_seeded_and_reproducible():
    assert tables_by_standing(field(6), 3, 1) == tables_by_standing(field(6), 3, 1)
