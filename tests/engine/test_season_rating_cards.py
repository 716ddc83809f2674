"""The rating change as an event's measure (docs/seasons.md §2) and cards carried across
the season's events (§13), worked by hand and under Hypothesis."""

from __future__ import annotations

from fractions import Fraction as F

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scoring.engine.rating import FinishedPulka, rate, rated
from scoring.engine.season import (
    Event,
    Policy,
    SeasonError,
    Table,
    check_policy,
    qualifiers,
    rating_change,
    season_table,
)

A, B, C, D = 1, 2, 3, 4


def by_player(lines):
    return {line.player: line for line in lines}


def test_a_rating_change_is_the_shown_figures_difference_to_the_hundredth() -> None:
    assert rating_change(0.0, 3.456) == F(346, 100)
    assert rating_change(1.004, 2.006) == F(101, 100)  # 2.01 − 1.00, as the board shows them
    assert rating_change(2.5, -1.25) == F(-375, 100)


def test_rating_changes_best_two_of_three_with_a_coefficient_worked_by_hand() -> None:
    """Best 2 of 3, Sochi ×2:
    A: 1.25, −0.10×2 = −0.20, 0.50 → 1.25 + 0.50 = 1.75
    B: −0.50, 0.30×2 = 0.60, 0.25 → 0.60 + 0.25 = 0.85
    C: −0.75, −0.20×2 = −0.40, −0.75 → −0.40 + (−0.75, the earlier of two equal) = −1.15
    """
    season = (
        Event(
            "e1", (Table((A, B, C), (10, 0, -10), "leningrad", (F("1.25"), F("-0.5"), F("-0.75"))),)
        ),
        Event("e2", (Table((A, B, C), (-5, 5, 0), "sochi", (F("-0.1"), F("0.3"), F("-0.2"))),)),
        Event(
            "e3", (Table((A, B, C), (4, 2, -6), "leningrad", (F("0.5"), F("0.25"), F("-0.75"))),)
        ),
    )
    policy = Policy(measure="rating", aggregate="best", best_n=2, coefficients={"sochi": F(2)})

    lines = season_table(season, policy)

    assert [(line.player, line.rank, line.total) for line in lines] == [
        (A, 1, F("1.75")),
        (B, 2, F("0.85")),
        (C, 3, F("-1.15")),
    ]
    assert by_player(lines)[C].dropped == frozenset({"e3"})


def test_a_table_that_moves_no_rating_counts_nought() -> None:
    """A tournament's table (docs/rating.md §5): attended, worth 0 under the rating measure."""
    season = (Event("cup", (Table((A, B, C), (10, 0, -10)),)),)
    lines = season_table(season, Policy(measure="rating"))
    assert {line.player: (line.total, line.attended) for line in lines} == {
        A: (0, 1),
        B: (0, 1),
        C: (0, 1),
    }


def test_each_pulkas_change_adds_up_to_the_rating_the_board_shows() -> None:
    pulkas = [
        FinishedPulka(1, {"a": 10, "b": 0, "c": -10}, pulka=7),
        FinishedPulka(2, {"a": -3, "b": 5, "c": -2, "d": 0}, pulka=8),
        FinishedPulka(2, {"b": 1, "c": 0, "d": -1}, pulka=9),
    ]
    changes: dict[str, F] = {}
    seen = []
    for pulka, before, after in rated(pulkas):
        seen.append(pulka.pulka)
        for player, moved in after.items():
            change = rating_change(before[player].conservative, moved.conservative)
            changes[player] = changes.get(player, F(0)) + change
    final = rate(pulkas)
    assert sorted(seen) == [7, 8, 9]
    assert changes == {p: rating_change(0.0, r.conservative) for p, r in final.items()}


# --- cards (§13) -----------------------------------------------------------------------

EVENING = Event("evening", (Table((A, B, C, D), (30, 10, -10, -30)),))
CUP = Event("cup", (Table((A, B, C), (5, 0, -5)),), {A: (1, 0), B: (1, 0), D: (0, 1)})
FINAL = Event("final", (Table((A, B, C), (-5, 5, 0)),), {A: (1, 0)})


def test_two_yellows_across_the_season_or_a_red_take_a_player_out_worked_by_hand() -> None:
    """Places: A 3+3+0 = 6, B 2+1½+3 = 6½, C 1+0+1½ = 2½, D 0.
    A has a yellow at the cup and one at the final (2: out), B one (in), D a red (out)."""
    lines = season_table((EVENING, CUP, FINAL), Policy())

    assert [(line.player, line.rank, line.excluded) for line in lines] == [
        (B, 1, False),
        (C, 2, False),
        (A, None, True),
        (D, None, True),
    ]
    a = by_player(lines)[A]
    assert (a.yellow, a.red, a.total) == (2, 0, F(6))
    assert a.cards == (("cup", 1, 0), ("final", 1, 0))
    assert [q.player for q in qualifiers(lines, 3)] == [B, C]  # never by standing when out


def test_without_a_yellow_limit_only_the_red_card_takes_a_player_out() -> None:
    lines = season_table((EVENING, CUP, FINAL), Policy(yellow_cards_limit=None))
    assert [(line.player, line.rank) for line in lines] == [(B, 1), (A, 2), (C, 3), (D, None)]
    assert by_player(lines)[A].yellow == 2


def test_a_yellow_limit_below_one_is_refused_with_its_code() -> None:
    with pytest.raises(SeasonError) as raised:
        check_policy(Policy(yellow_cards_limit=0))
    assert raised.value.code == "season.yellow_cards_limit"


cards = st.dictionaries(
    st.integers(1, 6), st.tuples(st.integers(0, 2), st.integers(0, 1)), max_size=4
)
seats = st.lists(st.integers(1, 6), min_size=3, max_size=3, unique=True)
events = st.lists(st.tuples(seats, cards), min_size=1, max_size=6)


@given(events, st.one_of(st.none(), st.integers(1, 3)))
def test_cards_add_up_across_events_and_decide_who_ranks(drawn, limit) -> None:
    season = tuple(
        Event(f"e{i}", (Table(tuple(p), (3, 0, -3)),), given_cards)
        for i, (p, given_cards) in enumerate(drawn)
    )
    lines = season_table(season, Policy(yellow_cards_limit=limit))
    for line in lines:
        yellow = sum(c.get(line.player, (0, 0))[0] for _, c in drawn)
        red = sum(c.get(line.player, (0, 0))[1] for _, c in drawn)
        assert (line.yellow, line.red) == (yellow, red)
        out = red > 0 or (limit is not None and yellow >= limit)
        assert line.excluded == out and (line.rank is None) == out
    ranked = [line for line in lines if line.rank is not None]
    assert lines[: len(ranked)] == tuple(ranked)
