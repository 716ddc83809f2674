"""The season table worked by hand (docs/seasons.md), and its properties under Hypothesis."""

from __future__ import annotations

from fractions import Fraction as F

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scoring.engine.season import (
    Event,
    Move,
    Policy,
    SeasonError,
    Table,
    aggregate,
    counted_keys,
    divided,
    promotions,
    qualifiers,
    season_table,
)

A, B, C, D, E, X = 1, 2, 3, 4, 5, 6

# Six evenings, tables of 4 and 3, the third under Sochi (coefficient 2).
SERIES = (
    Event("e1", (Table((A, B, C, D), (30, 10, -10, -30), "leningrad"),)),
    Event("e2", (Table((A, B, E), (20, 0, -20), "leningrad"),)),
    Event("e3", (Table((B, C, D, E), (40, 20, 0, -60), "sochi"),)),
    Event("e4", (Table((D, C, X, E), (30, 10, -10, -30), "leningrad"),)),
    Event("e5", (Table((A, B, C, D), (-30, -10, 10, 30), "leningrad"),)),
    Event("e6", (Table((A, C, E), (5, -5, 0), "leningrad"),)),
)
BEST_4_OF_6 = Policy(
    measure="places",
    aggregate="best",
    best_n=4,
    minimum=3,
    coefficients={"sochi": F(2)},
    tie_breaks=("best_result", "attended"),
)


def by_player(lines):
    return {line.player: line for line in lines}


def test_six_evenings_best_four_worked_by_hand() -> None:
    """docs/seasons.md §2–§6, by hand.

    Place points: e1 A3 B2 C1 D0; e2 (three) A3 B1½ E0; e3 Sochi ×2: B6 C4 D2 E0;
    e4 D3 C2 X1 E0; e5 D3 C2 B1 A0; e6 (three) A3 E1½ C0.
    B 2+1½+6+1 = 10½. C best 4 of 5: 4+2+2+1 = 9 (e6 dropped). A 3+3+0+3 = 9.
    D 0+2+3+3 = 8. E 0+0+0+1½ = 1½. X one evening: two more to be ranked.
    C and A level at 9: C's best evening (4) beats A's (3).
    """
    table = season_table(SERIES, BEST_4_OF_6)
    assert [(line.player, line.rank, line.total) for line in table] == [
        (B, 1, F(21, 2)),
        (C, 2, F(9)),
        (A, 3, F(9)),
        (D, 4, F(8)),
        (E, 5, F(3, 2)),
        (X, None, F(1)),
    ]
    lines = by_player(table)
    assert lines[C].dropped == {"e6"}
    assert lines[C].counted == {"e1", "e3", "e4", "e5"}
    assert dict(lines[C].points)["e3"] == 4
    assert lines[X].needed == 2 and lines[X].attended == 1
    assert lines[A].dropped == frozenset() and lines[A].wins == 3


def test_two_tables_won_on_one_evening_are_two_wins() -> None:
    """§2, §6: a player wins each table where his whists are the single best."""
    evening = Event(
        "e1",
        (
            Table((A, B, C), (20, 0, -20), "sochi"),
            Table((A, D, E), (10, -4, -6), "sochi"),
            Table((B, C, D), (5, 5, -10), "sochi"),  # a shared best: nobody wins it
        ),
    )
    lines = by_player(season_table((evening,), Policy(tie_breaks=("wins",))))
    assert lines[A].wins == 2
    assert lines[B].wins == 0 and lines[C].wins == 0


def test_without_the_coefficient_the_sochi_evening_counts_once() -> None:
    plain = Policy(**{**BEST_4_OF_6.__dict__, "coefficients": {}})
    lines = by_player(season_table(SERIES, plain))
    assert lines[C].total == 2 + 2 + 2 + 1
    assert lines[B].total == 2 + F(3, 2) + 3 + 1


def test_average_and_whists() -> None:
    policy = Policy(measure="whists", aggregate="average")
    lines = by_player(season_table(SERIES, policy))
    assert lines[A].total == F(30 + 20 - 30 + 5, 4)
    assert lines[E].total == F(-20 - 60 - 30 + 0, 4)


def test_players_level_on_everything_share_a_rank() -> None:
    events = (Event("e1", (Table((A, B, C), (10, 10, -20)),)),)
    table = season_table(events, Policy())
    assert [(line.player, line.rank) for line in table] == [(A, 1), (B, 1), (C, 3)]


@pytest.mark.parametrize(
    ("policy", "code"),
    [
        (Policy(measure="money"), "season.unknown_measure"),
        (Policy(aggregate="median"), "season.unknown_aggregate"),
        (Policy(aggregate="best", best_n=0), "season.best_n_missing"),
        (Policy(minimum=-1), "season.negative_minimum"),
        (Policy(tie_breaks=("luck",)), "season.unknown_tie_break"),
        (Policy(coefficients={"sochi": F(0)}), "season.coefficient_not_positive"),
    ],
)
def test_a_policy_that_cannot_apply_is_refused_with_its_code(policy, code) -> None:
    with pytest.raises(SeasonError) as raised:
        season_table(SERIES, policy)
    assert raised.value.code == code


results = st.lists(st.fractions(min_value=-50, max_value=50, max_denominator=4), max_size=12)


@given(results, st.integers(min_value=1, max_value=12))
def test_best_n_never_counts_a_worse_result_in_place_of_a_better(values, n) -> None:
    points = [(f"e{i}", value) for i, value in enumerate(values)]
    policy = Policy(aggregate="best", best_n=n)
    counted = counted_keys(points, policy)
    kept = [value for key, value in points if key in counted]
    dropped = [value for key, value in points if key not in counted]
    assert len(kept) == min(n, len(values))
    assert all(k >= d for k in kept for d in dropped)
    assert aggregate(points, policy) == sum(sorted(values, reverse=True)[:n], F(0))


players = st.integers(min_value=1, max_value=9)
tables = st.lists(players, min_size=3, max_size=4, unique=True).flatmap(
    lambda seats: st.tuples(
        st.just(tuple(seats)),
        st.lists(st.integers(-100, 100), min_size=len(seats), max_size=len(seats)).map(tuple),
        st.sampled_from(("leningrad", "sochi")),
    )
)
events = st.lists(st.lists(tables, min_size=1, max_size=2), max_size=8)


@given(
    events,
    st.sampled_from(("sum", "average", "best")),
    st.integers(0, 4),
    st.sampled_from(("places", "whists", "rating")),
)
def test_the_table_ranks_by_total_and_lists_everyone(drawn, how, minimum, measure) -> None:
    # Under the rating measure each seat's change is drawn as its whists in hundredths.
    season = tuple(
        Event(
            f"e{i}",
            tuple(Table(p, w, c, tuple(F(x, 100) for x in w)) for p, w, c in event),
        )
        for i, event in enumerate(drawn)
    )
    policy = Policy(
        measure=measure,
        aggregate=how,
        best_n=3,
        minimum=minimum,
        coefficients={"sochi": F(4, 3)},
    )
    table = season_table(season, policy)
    everyone = {p for event in drawn for seats, _, _ in event for p in seats}
    assert {line.player for line in table} == everyone
    ranked = [line for line in table if line.rank is not None]
    assert [line.total for line in ranked] == sorted((x.total for x in ranked), reverse=True)
    assert all(line.needed == max(minimum - line.attended, 0) for line in table)
    assert all(line.total == aggregate(line.points, policy) for line in table)
    assert season_table(season, policy) == table


def test_the_top_three_and_a_wildcard_are_seeded_by_the_table() -> None:
    """docs/seasons.md §9: B, C, A by standing; X (below the minimum) as a wildcard, seeded
    after them by his place in the table; a wildcard of the top is not entered twice."""
    table = season_table(SERIES, BEST_4_OF_6)
    chosen = qualifiers(table, 3, wildcards=(X, C, 99))
    assert [(q.player, q.seed, q.wildcard) for q in chosen] == [
        (B, 1, False),
        (C, 2, False),
        (A, 3, False),
        (X, 4, True),
        (99, 5, True),
    ]


@given(events, st.integers(0, 6), st.lists(st.integers(1, 12), max_size=4))
def test_qualifiers_are_the_top_ranked_and_the_wildcards_once_each(drawn, top, wild) -> None:
    season = tuple(
        Event(f"e{i}", tuple(Table(p, w, c) for p, w, c in event)) for i, event in enumerate(drawn)
    )
    table = season_table(season, Policy(minimum=1))
    chosen = qualifiers(table, top, wild)
    players = [q.player for q in chosen]
    assert len(players) == len(set(players))
    assert [q.seed for q in chosen] == list(range(1, len(chosen) + 1))
    ranked = [line.player for line in table if line.rank is not None][:top]
    assert {q.player for q in chosen if not q.wildcard} == set(ranked)
    assert set(players) == set(ranked) | set(wild)


def test_two_divisions_move_one_up_and_one_down() -> None:
    """docs/seasons.md §10, by hand: the series' table is B, C, A, D, E, then X (unranked).
    Division 0 (the higher): A, B, X; division 1: C, D, E. Within 0: B 1, A 2, X unranked;
    within 1: C 1, D 2, E 3. One moves: C up; the bottom of 0 is X (below the minimum)."""
    table = season_table(SERIES, BEST_4_OF_6)
    split = divided(table, {A: 0, B: 0, X: 0, C: 1, D: 1, E: 1}, BEST_4_OF_6)
    assert [(line.player, line.rank) for line in split[0]] == [(B, 1), (A, 2), (X, None)]
    assert [(line.player, line.rank) for line in split[1]] == [(C, 1), (D, 2), (E, 3)]
    assert promotions(split, 1, lowest=1) == (Move(X, 0, 1), Move(C, 1, 0))
    assert set(promotions(split, 2, lowest=1)) == {
        Move(X, 0, 1),
        Move(A, 0, 1),
        Move(C, 1, 0),
        Move(D, 1, 0),
    }
