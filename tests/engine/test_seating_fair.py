"""Fair shares of the tables of 4 in a mixed field (docs/tournaments.md §4.3).

Every shipped schedule is re-checked here (no repeat, the spreads documented, the first
dealer spread within one), the solver re-proves the small impossibilities, and the live
draw and the planned schedule (``manage.py seat``) are checked over many seeds.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter

import pytest

from scoring.engine import seating_fair
from scoring.engine.seating import draw_round, table_plan
from scoring.engine.seating_plan import no_repeat_plan, plan_schedule

# players: (rounds, the least spread of seats at a table of 4 a schedule without a
# repeat can have). Source: CP-SAT (bench/tournament_fair.py; docs/tournaments.md §4.3),
# each smaller spread proved INFEASIBLE; 13 also by the counting argument of §4.3.
FIGURES = {13: (4, 3), 14: (4, 2), 15: (5, 0), 17: (5, 1), 18: (5, 1), 21: (6, 1)}


def solve_fair(*args, **kwargs):
    """The solver, which needs OR-Tools: the ``seating`` extra, which ``make test``
    installs (pyproject.toml). Without it the solver's tests are skipped, saying why."""
    pytest.importorskip(
        "ortools", reason="OR-Tools is the seating extra: pip install -e '.[seating]'"
    )
    from scoring.engine.seating_solver import solve_fair as solve

    return solve(*args, **kwargs)


def repeats(schedule) -> int:
    met = Counter(
        frozenset(pair)
        for tables in schedule
        for table in tables
        for pair in itertools.combinations(table, 2)
    )
    return sum(count - 1 for count in met.values())


def spread(counts) -> int:
    return max(counts) - min(counts)


def test_every_field_of_the_figures_ships_a_schedule_and_nothing_else_is_shipped():
    assert set(seating_fair.SCHEDULES) == set(FIGURES)


@pytest.mark.parametrize("players", sorted(FIGURES))
def test_a_shipped_schedule_is_fair(players):
    rounds, least = FIGURES[players]
    plan = table_plan(players, 4)
    schedule = seating_fair.shipped(players, plan)

    assert schedule is not None and len(schedule) == rounds
    for tables in schedule:
        assert sorted(p for table in tables for p in table) == list(range(players))
        assert sorted(len(table) for table in tables) == sorted(plan)
    assert repeats(schedule) == 0
    assert spread(seating_fair.four_counts(players, schedule)) == least
    dealers = seating_fair.dealer_counts(players, schedule)
    assert sum(dealers) == plan.count(4) * rounds
    assert spread(dealers) <= 1


def test_encoding_a_schedule_gives_it_back():
    schedule = seating_fair.shipped(21, table_plan(21, 4))
    assert schedule is not None

    assert seating_fair.decode(seating_fair.encode(schedule)) == schedule


def test_a_field_of_one_table_size_gets_no_mixed_schedule():
    assert seating_fair.shipped(15, (3, 3, 3, 3, 3)) is None
    assert seating_fair.shipped(16, (4, 4, 4, 4)) is None


# --- the solver proves what cannot be had --------------------------------------------


def test_13_players_over_4_rounds_cannot_all_sit_at_the_table_of_4_once_or_twice():
    """Spread 1 is impossible (CP-SAT, INFEASIBLE); the counting argument of §4.3 too."""
    found = solve_fair(13, 1, 3, 4, spread=1, dealers=False, effort=10)

    assert found.status == "infeasible"


@pytest.mark.parametrize("rounds", [2, 3])
def test_13_players_cannot_share_the_table_of_4_evenly_over_fewer_rounds(rounds):
    """Two tables of 4 of 13 players share a player (§4.3): spread 1 is INFEASIBLE."""
    found = solve_fair(13, 1, 3, rounds, spread=1, dealers=False, effort=10)

    assert found.status == "infeasible"


def test_the_solver_finds_15_players_5_rounds_with_every_share_equal():
    found = solve_fair(15, 3, 1, 5, spread=1, effort=20)

    assert found.status == "found"
    assert repeats(found.rounds) == 0
    assert set(seating_fair.four_counts(15, found.rounds)) == {4}
    assert set(seating_fair.dealer_counts(15, found.rounds)) == {1}


def test_the_solver_gives_the_same_schedule_for_the_same_seed():
    first = solve_fair(15, 3, 1, 5, spread=1, effort=20, seed=3)
    again = solve_fair(15, 3, 1, 5, spread=1, effort=20, seed=3)

    assert first == again and first.status == "found"


def test_the_solver_refuses_tables_that_do_not_seat_the_field():
    with pytest.raises(ValueError):
        solve_fair(13, 2, 2, 3)


# --- the live draw and manage.py seat follow the fair schedule ----------------------


def live(players: int, rounds: int, seed: int, swiss: bool = False):
    names = [f"p{i:02d}" for i in range(players)]
    history, fours, dealt = [], Counter(), Counter()
    total = 0
    order = random.Random(seed)
    for _ in range(rounds):
        # A Swiss draw takes the planned rounds in the order of the standings.
        standings = order.sample(names, players) if swiss and history else None
        draw = draw_round(names, history, 4, seed, dealt_first=dict(dealt), standings=standings)
        total += draw.repeats
        for table in draw.tables:
            if len(table.players) == 4:
                dealt[table.players[table.first_dealer]] += 1
                fours.update(table.players)
        history.append([table.players for table in draw.tables])
    return total, [fours[n] for n in names], [dealt[n] for n in names]


@pytest.mark.parametrize("players", [13, 15, 17])
@pytest.mark.parametrize("seed", range(6))
def test_the_live_draw_is_fair_for_every_seed(players, seed):
    rounds, least = FIGURES[players]

    total, fours, dealt = live(players, rounds, seed)

    assert total == 0
    assert spread(fours) == least
    assert spread(dealt) <= 1


@pytest.mark.parametrize("players", [13, 15, 18])
@pytest.mark.parametrize("seed", range(3))
def test_a_swiss_draw_that_takes_the_rounds_in_another_order_is_fair_at_the_end(players, seed):
    rounds, least = FIGURES[players]

    total, fours, dealt = live(players, rounds, seed, swiss=True)

    assert (total, spread(fours)) == (0, least)
    assert spread(dealt) <= 1


def test_21_players_live_are_fair_too():
    total, fours, dealt = live(21, 6, 11)

    assert (total, spread(fours), spread(dealt)) == (0, 1, 1)


@pytest.mark.parametrize("players", sorted(FIGURES))
@pytest.mark.parametrize("seed", range(8))
def test_the_planned_schedule_is_fair_for_every_seed(players, seed):
    rounds, least = FIGURES[players]

    schedule = plan_schedule(players, table_plan(players, 4), rounds, seed)

    assert repeats(schedule) == 0
    assert spread(seating_fair.four_counts(players, schedule)) == least
    assert spread(seating_fair.dealer_counts(players, schedule)) <= 1


def test_the_live_plan_is_the_shipped_schedule_with_the_players_in_a_seeded_order():
    plan = table_plan(15, 4)

    first = no_repeat_plan(15, plan, 5, 7)

    assert first == no_repeat_plan(15, plan, 5, 7)
    assert first != no_repeat_plan(15, plan, 5, 8)
    shipped = seating_fair.shipped(15, plan)
    assert shipped is not None
    order = list(range(15))
    random.Random("7:live:15:(4, 4, 4, 3)").shuffle(order)
    assert [list(t) for t in first] == [[tuple(order[p] for p in t) for t in r] for r in shipped]


def test_later_rounds_keep_the_dealers_spread_by_fewest_so_far():
    schedule = [[(0, 1, 2, 3), (4, 5, 6)], [(0, 4, 7, 8), (1, 5, 9)]]

    dealt = seating_fair.with_dealers(10, schedule, kept=1)

    assert dealt[0][0][0] == 0
    assert dealt[1][0][0] == 4  # 0 dealt first already; 4 is the lowest of the others


def test_no_three_4_cycles_with_the_identity_make_a_latin_square():
    """The last step of the proof that 13 players over 4 rounds need spread 3 (§4.3):
    the three who never sit at the table of 4 would each follow a 4-cycle of the rounds,
    and the three 4-cycles with the identity would form a Latin square."""
    rounds = range(4)
    cycles = [
        p
        for p in itertools.permutations(rounds)
        if all(p[r] != r for r in rounds) and all(p[p[r]] != r for r in rounds)
    ]
    assert len(cycles) == 6  # the 4-cycles of four rounds

    latin = [
        trio
        for trio in itertools.combinations(cycles, 3)
        if all(len({r, *(c[r] for c in trio)}) == 4 for r in rounds)
    ]

    assert latin == []
