"""The club rating (docs/rating.md): properties under hypothesis, and what it means."""

from __future__ import annotations

from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.engine.rating import (
    PROVISIONAL_BELOW,
    START_MU,
    START_SIGMA,
    FinishedPulka,
    leaderboard,
    ranks_of,
    rate,
)

PLAYERS = ("Anna", "Boris", "Vera", "Gleb", "Dima", "Zoya")


@st.composite
def tables(draw: st.DrawFn, moment: int | None = None) -> FinishedPulka:
    size = draw(st.integers(3, 4))
    players = draw(st.permutations(PLAYERS))[:size]
    values = draw(st.lists(st.integers(-300, 300), min_size=size - 1, max_size=size - 1))
    results = dict(zip(players, [*values, -sum(values)], strict=True))  # adds up to zero
    when = draw(st.integers(0, 20)) if moment is None else moment
    return FinishedPulka(when, results)


def test_ranks_follow_the_result_and_ties_share_a_place():
    assert ranks_of({"A": 10, "B": Fraction(-5), "C": -5}) == {"A": 1, "B": 2, "C": 2}


def test_one_pulka_moves_the_winner_up_and_the_last_down():
    ratings = rate([FinishedPulka(1, {"Anna": 120, "Boris": -20, "Vera": -100})])

    assert ratings["Anna"].mu > START_MU > ratings["Vera"].mu
    assert all(r.sigma < START_SIGMA and r.pulkas == 1 for r in ratings.values())
    assert [name for name, _ in leaderboard(ratings)] == ["Anna", "Boris", "Vera"]


@settings(max_examples=60, deadline=None)
@given(st.lists(tables(), min_size=0, max_size=12), tables())
def test_the_winner_at_a_table_never_loses_rating(history, table):
    before = rate(history)
    after = rate([*history, FinishedPulka(99, table.results)])
    best = max(table.results.values())
    winners = [p for p, v in table.results.items() if v == best]
    if len(winners) == 1:
        (winner,) = winners
        old = before.get(winner)
        old_mu = old.mu if old else START_MU
        old_conservative = old.conservative if old else START_MU - 3 * START_SIGMA
        assert after[winner].mu >= old_mu
        assert after[winner].conservative >= old_conservative


@settings(max_examples=40, deadline=None)
@given(st.lists(tables(moment=5), min_size=2, max_size=6), st.randoms())
def test_the_order_of_pulkas_that_finished_together_does_not_matter(together, random):
    shuffled = list(together)
    random.shuffle(shuffled)

    assert rate(together) == rate(shuffled)


@settings(max_examples=40, deadline=None)
@given(st.lists(tables(), max_size=15))
def test_recomputing_from_scratch_gives_the_same_ratings(pulkas):
    assert rate(pulkas) == rate(list(pulkas))
    assert rate(pulkas) == rate(sorted(pulkas, key=lambda p: p.finished))


def test_a_player_with_few_pulkas_has_a_wide_uncertainty():
    many = [
        FinishedPulka(t, {"Anna": 10 * (t % 3 - 1), "Boris": 0, "Vera": -10 * (t % 3 - 1)})
        for t in range(30)
    ]
    newcomer = [FinishedPulka(31, {"Anna": 5, "Zoya": -5, "Boris": 0})]

    ratings = rate([*many, *newcomer])

    assert ratings["Zoya"].sigma > 1.5 * ratings["Anna"].sigma
    assert ratings["Zoya"].provisional and not ratings["Anna"].provisional
    assert ratings["Anna"].pulkas == 31 > PROVISIONAL_BELOW


def test_every_player_at_a_table_of_four_is_ranked():
    ratings = rate([FinishedPulka(1, {"A": 30, "B": 0, "C": -10, "D": -20})])

    assert [name for name, _ in leaderboard(ratings)] == ["A", "B", "C", "D"]
    assert all(r.pulkas == 1 for r in ratings.values())
