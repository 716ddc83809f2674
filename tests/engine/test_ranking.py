"""Tournament standings (scoring/engine/ranking.py; Кодекс 4.1.3; docs/tournaments.md §4.7–4.10)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from scoring.engine.conventions import preset
from scoring.engine.deals import parse_deal
from scoring.engine.pulka import Pulka, score_pulka
from scoring.engine.ranking import (
    PlayerStats,
    RankingError,
    Rules,
    TableResult,
    compress,
    cut,
    final_standings,
    round_points,
    stage_standings,
    standings,
    table_result,
)
from scoring.engine.settlement import whole_result

DEALS = (
    {
        "contract": "6S",
        "declarer": "A",
        "whists": {"B": "whist", "C": "pass"},
        "tricks": {"A": 6, "B": 3, "C": 1},
    },
    {"contract": "allpass", "tricks": {"A": 0, "B": 4, "C": 6}},
    {
        "contract": "7H",
        "declarer": "B",
        "whists": {"A": "whist", "C": "pass"},
        "tricks": {"B": 5, "A": 3, "C": 2},
    },
    {"contract": "misere", "declarer": "C", "tricks": {"C": 1}},
)


def scored(deals=DEALS, names=("A", "B", "C"), convention="sochi"):
    log = tuple(parse_deal(d) for d in deals)
    return score_pulka(Pulka(tuple(names), preset(convention), 10, 0, None, log))


def table(round_number, **whists):
    return TableResult(round_number, tuple(whists), tuple(whists.values()))


def order(lines):
    return [line.player for line in lines]


# --- a table's result from the engine's sheet ---


def test_a_tables_result_is_the_whole_whists_of_rule_4_2_12():
    pulka = scored()

    result = table_result(pulka, 1)

    assert result.whists == whole_result(pulka.totals, pulka.pulka.convention).result
    assert sum(result.whists) == 0


def test_a_tables_counts_follow_the_4_1_3_secondary_criteria():
    result = table_result(scored(), 1, ["id-a", "id-b", "id-c"])

    assert result.players == ("id-a", "id-b", "id-c")
    assert result.stats == (
        PlayerStats(allpass_won=1, allpass_tricks=0, remizes=0, misere_tricks=0),
        PlayerStats(allpass_won=0, allpass_tricks=4, remizes=1, misere_tricks=0),
        PlayerStats(allpass_won=0, allpass_tricks=6, remizes=0, misere_tricks=1),
    )


def test_the_dealer_at_a_4_table_does_not_win_or_lose_all_passes():
    deals = (
        {"contract": "allpass", "tricks": {"B": 0, "C": 4, "D": 6}},
        {"contract": "allpass", "tricks": {"A": 2, "C": 0, "D": 8}},
    )

    stats = table_result(scored(deals, ("A", "B", "C", "D")), 1).stats

    assert [s.allpass_won for s in stats] == [0, 1, 1, 0]
    assert [s.allpass_tricks for s in stats] == [2, 0, 4, 14]


def test_a_whister_who_goes_down_counts_a_remiz():
    deals = (
        {
            "contract": "6S",
            "declarer": "A",
            "whists": {"B": "whist", "C": "pass"},
            "tricks": {"A": 8, "B": 1, "C": 1},
        },
    )

    stats = table_result(scored(deals), 1).stats

    assert [s.remizes for s in stats] == [0, 1, 0]


def test_a_running_pulka_counts_as_it_stands():
    result = table_result(scored(DEALS[:1]), 1)

    assert sum(result.whists) == 0
    assert result.whists[0] > 0


def test_one_key_per_seat_is_needed():
    with pytest.raises(RankingError):
        table_result(scored(), 1, ["a", "b"])


# --- standings by whists first (Кодекс 4.1.3) ---


def test_the_largest_sum_of_whists_comes_first():
    results = [table(1, a=30, b=-10, c=-20), table(2, a=-50, b=25, c=25)]

    lines = standings(results)

    assert order(lines) == ["b", "c", "a"]
    assert [line.whists for line in lines] == [15, 5, -20]
    assert [line.rounds for line in lines] == [2, 2, 2]


def test_standings_sum_the_engines_results_across_rounds():
    first = table_result(scored(), 1)
    second = table_result(scored(DEALS[:2]), 2)

    lines = {line.player: line for line in standings([first, second])}

    for seat, name in enumerate("ABC"):
        assert lines[name].whists == first.whists[seat] + second.whists[seat]


def test_a_registered_player_without_a_result_has_a_line_at_zero():
    lines = standings([table(1, a=10, b=0, c=-10)], players=["a", "b", "c", "late"])

    assert [line.player for line in lines if line.rounds == 0] == ["late"]
    assert next(line for line in lines if line.player == "late").points == 0


def test_tie_breaks_apply_in_the_organisers_order():
    plain = PlayerStats()
    results = [
        TableResult(
            1,
            ("a", "b", "c"),
            (10, 10, -20),
            (
                PlayerStats(allpass_won=2, remizes=3),
                PlayerStats(allpass_won=1, remizes=0),
                plain,
            ),
        )
    ]

    by_allpass = standings(results, rules=Rules(tie_breaks=("allpass_won", "remizes")))
    by_remizes = standings(results, rules=Rules(tie_breaks=("remizes", "allpass_won")))

    assert order(by_allpass)[:2] == ["a", "b"]
    assert order(by_remizes)[:2] == ["b", "a"]


def test_fewest_all_pass_and_misere_tricks_win_a_tie():
    results = [
        TableResult(
            1,
            ("a", "b", "c"),
            (5, 5, -10),
            (
                PlayerStats(allpass_tricks=7, misere_tricks=0),
                PlayerStats(allpass_tricks=3, misere_tricks=2),
                PlayerStats(),
            ),
        )
    ]

    assert order(standings(results, rules=Rules(tie_breaks=("allpass_tricks",))))[0] == "b"
    assert order(standings(results, rules=Rules(tie_breaks=("misere_tricks",))))[0] == "a"


def test_players_tied_on_every_criterion_share_the_place_and_the_lot_orders_them():
    results = [table(1, a=10, b=10, c=-20)]

    lines = standings(results, rules=Rules(tie_breaks=()))

    assert [line.place for line in lines] == [1, 1, 3]


def test_the_lot_is_reproducible_and_depends_on_the_seed():
    results = [
        table(1, **{f"p{i}": 0 for i in range(3)}),
        table(1, **{f"q{i}": 0 for i in range(3)}),
    ]
    orders = {tuple(order(standings(results, rules=Rules(seed=seed)))) for seed in range(20)}

    assert order(standings(results, rules=Rules(seed=7))) == order(
        standings(results, rules=Rules(seed=7))
    )
    assert len(orders) > 1


def test_best_round_and_opponents_points_are_columns_and_tie_breaks():
    results = [table(1, a=40, b=-20, c=-20), table(2, a=-40, b=20, c=20)]

    lines = {line.player: line for line in standings(results)}

    assert lines["a"].best_round == 40
    assert lines["b"].best_round == 20
    # a met b and c twice each: (0 + 0) * 2; b met a twice and c twice.
    assert lines["a"].opponents == 0
    assert lines["b"].opponents == 0


def test_unknown_settings_are_refused():
    with pytest.raises(RankingError):
        Rules(normalisation="elo")
    with pytest.raises(RankingError):
        Rules(tie_breaks=("height",))
    with pytest.raises(RankingError):
        Rules(tie_breaks=("whists", "whists"))


def test_a_table_with_mismatched_figures_is_refused():
    with pytest.raises(RankingError):
        TableResult(1, ("a", "b", "c"), (1, 2))
    with pytest.raises(RankingError):
        TableResult(1, ("a", "a", "c"), (1, 2, -3))


# --- normalisation (docs/tournaments.md §4.7) ---


def test_place_points_split_shared_places():
    assert round_points(table(1, a=30, b=-15, c=-15), "places") == (
        3,
        Fraction(3, 4),
        Fraction(3, 4),
    )
    assert round_points(table(1, a=1, b=2, c=3, d=-6), "places") == (1, 2, 3, 0)


def test_place_points_run_from_3_to_0_at_tables_of_3_and_of_4_alike():
    # 3/2/1/0 at a 4-table against 2/1/0 at a 3-table favoured the
    # 4-tables; both now average 1½ a player.
    three = round_points(table(1, a=30, b=0, c=-30), "places")
    four = round_points(table(1, a=30, b=10, c=-10, d=-30), "places")
    assert three == (3, Fraction(3, 2), 0)
    assert four == (3, 2, 1, 0)
    assert sum(three) / 3 == sum(four) / 4


def test_the_serbian_rule_splits_a_table_where_nobody_is_ahead():
    # A table with no deals gave every player 3 points.
    assert round_points(table(1, a=0, b=0, c=0), "serbian") == (Fraction(4, 3),) * 3
    assert round_points(table(1, a=0, b=0, c=0, d=0), "serbian") == (1, 1, 1, 1)


def test_the_serbian_rule_gives_4_to_the_only_positive_score():
    assert round_points(table(1, a=60, b=-20, c=-40), "serbian") == (4, 1, 0)
    assert round_points(table(1, a=60, b=20, c=-80), "serbian") == (3, 2, 0)
    # Shared places get that place's points.
    assert round_points(table(1, a=30, b=30, c=-60), "serbian") == (3, 3, 0)


def test_gambler_compression_counts_above_200_at_a_tenth_and_nothing_above_650():
    assert compress(150, "gambler") == 150
    assert compress(250, "gambler") == 205
    assert compress(700, "gambler") == 245
    assert compress(-300, "gambler") == -300


def test_elephant_compression_halves_51_to_100_and_tenths_above():
    assert compress(50, "elephant") == 50
    assert compress(80, "elephant") == 65
    assert compress(150, "elephant") == 80


def test_normalised_points_rank_first_and_raw_whists_stay_a_column():
    results = [table(1, a=900, b=-450, c=-450), table(2, a=-100, b=150, c=-50)]

    lines = standings(results, rules=Rules(normalisation="gambler"))

    # a: 245 − 100 = 145; b: −450 + 150 = −300.
    assert lines[0].player == "a"
    assert lines[0].points == 145
    assert lines[0].whists == 800


# --- the cut and the final (docs/tournaments.md §4.10) ---


def test_the_cut_keeps_the_top_n():
    lines = standings([table(1, a=30, b=-10, c=-20), table(1, d=5, e=0, f=-5)])

    assert cut(lines, 3) == ("a", "d", "e")
    assert cut(lines, 100) == tuple(order(lines))
    with pytest.raises(RankingError):
        cut(lines, 0)


@pytest.mark.parametrize(("carry", "expected"), [("kept", 60), ("halved", 35), ("cleared", 10)])
def test_finalists_carry_their_qualifying_points_as_configured(carry, expected):
    qualifying = [table(1, a=50, b=-20, c=-30), table(1, d=40, e=-10, f=-30)]
    final = [table(2, a=10, d=-5, e=-5)]

    lines = final_standings(qualifying, final, ["a", "d", "e"], carry)

    line = next(line for line in lines if line.player == "a")
    assert line.points == expected
    assert line.finalist


def test_finalists_come_first_and_the_rest_follow_in_qualifying_order():
    qualifying = [table(1, a=50, b=-20, c=-30), table(1, d=40, e=-10, f=-35)]
    final = [table(2, a=-60, d=40, e=20)]

    lines = final_standings(qualifying, final, ["a", "d", "e"], "cleared")

    assert order(lines) == ["d", "e", "a", "b", "c", "f"]
    assert [line.finalist for line in lines] == [True, True, True, False, False, False]
    assert [line.place for line in lines[3:]] == [4, 5, 6]


def test_an_unknown_carry_is_refused():
    with pytest.raises(RankingError):
        final_standings([], [], [], "doubled")


# --- docs/tournaments.md §7: drops, head-to-head, the stages' columns ---


def test_dropped_players_rank_after_everyone_still_playing():
    results = [table(1, a=50, b=-20, c=-30), table(2, a=-10, b=20, c=-10)]

    lines = standings(results, rules=Rules(), out=["a"])

    assert order(lines) == ["b", "c", "a"]
    assert [line.place for line in lines] == [1, 2, 3]
    assert [line.out for line in lines] == [False, False, True]


def test_the_cut_never_takes_a_dropped_player():
    lines = standings([table(1, a=50, b=-20, c=-30)], out=["a"])

    assert cut(lines, 2) == ("b", "c")


def test_head_to_head_orders_players_level_on_points():
    # a and b are level on 10; where they met, b had more whists than a.
    results = [
        table(1, a=-10, b=30, c=-20),
        table(2, a=20, d=-10, e=-10),
        table(3, b=-20, f=5, g=15),
    ]
    rules = Rules(tie_breaks=("head_to_head",))

    lines = standings(results, rules=rules)

    assert order(lines)[1:3] == ["b", "a"]
    by_player = {line.player: line for line in lines}
    assert by_player["b"].head_to_head == 1
    assert by_player["a"].head_to_head == 0
    # Only tied players get the figure.
    assert by_player["c"].head_to_head is None


def test_after_the_cut_the_qualifying_carried_and_final_figures_are_columns():
    # With the carry kept, −11 in the final was placed below −83
    # with only the final's whists shown; every figure that decides is now on the line.
    qualifying = [table(1, a=-100, b=60, c=40), table(1, d=150, e=-70, f=-80)]
    final = [table(2, a=-11, d=-83, e=94)]

    lines = final_standings(qualifying, final, ["a", "d", "e"], "kept")

    d, e, a = lines[:3]
    assert order(lines[:3]) == ["d", "e", "a"]
    assert (d.qualifying, d.carried, d.stage_points, d.points) == (150, 150, -83, 67)
    assert (e.qualifying, e.carried, e.stage_points, e.points) == (-70, -70, 94, 24)
    assert (a.qualifying, a.carried, a.stage_points, a.points) == (-100, -100, -11, -111)


def test_a_halved_carry_shows_half_the_qualifying_points():
    qualifying = [table(1, a=120, b=-60, c=-60)]
    final = [table(2, a=-10, b=5, c=5)]

    a = next(line for line in final_standings(qualifying, final, ["a", "b", "c"], "halved"))

    assert (a.qualifying, a.carried, a.stage_points, a.points) == (120, 60, -10, 50)


def test_non_finalists_keep_distinct_places_when_their_scores_differ():
    # B (dropped, above the cut) and c had the same place.
    qualifying = [table(1, a=50, b=40, c=-90), table(1, d=30, e=20, f=-50)]
    final = [table(2, a=10, d=-5, e=-5)]

    lines = final_standings(qualifying, final, ["a", "d", "e"], "kept", out=["b"])

    rest = lines[3:]
    assert order(rest) == ["f", "c", "b"]
    assert [line.place for line in rest] == [4, 5, 6]


def test_three_stages_carry_each_stage_into_the_next():
    qualifying = [table(1, a=30, b=20, c=-50), table(1, d=10, e=0, f=-10)]
    semi = [table(2, a=-5, b=5, d=0)]
    final = [table(3, a=1, b=-1)]

    lines = stage_standings(
        [(qualifying, ()), (semi, ["a", "b", "d"]), (final, ["a", "b"])], "kept"
    )

    assert order(lines) == ["a", "b", "d", "e", "f", "c"]
    a = lines[0]
    assert (a.qualifying, a.carried, a.stage_points, a.points) == (30, 25, 1, 26)
    assert [line.place for line in lines] == [1, 2, 3, 4, 5, 6]


def test_a_finalists_line_holds_his_whole_tournament():
    """docs/tournaments.md §6.3: whists in total, the rounds played, every round's score;
    the points are the carry's and the stage's (§4.10)."""
    qualifying = [table(1, a=50, b=-20, c=-30), table(2, a=-10, b=20, c=-10)]
    final = [table(3, a=7, b=-3, c=-4)]

    lines = stage_standings([(qualifying, ()), (final, ["a", "b", "c"])], "cleared")

    a = next(line for line in lines if line.player == "a")
    assert (a.whists, a.rounds, dict(a.by_round)) == (47, 3, {1: 50, 2: -10, 3: 7})
    assert (a.points, a.stage_points, a.best_round) == (7, 7, 50)


def test_finalists_level_on_points_are_ordered_by_their_total_whists():
    """§4.8: the whists tie-break is the total whists, in the final as before it."""
    qualifying = [table(1, a=60, b=-10, c=-50)]
    final = [table(2, a=0, b=0, c=0)]

    lines = stage_standings(
        [(qualifying, ()), (final, ["a", "b", "c"])], "cleared", Rules(tie_breaks=("whists",))
    )

    assert order(lines) == ["a", "b", "c"]
    assert [line.place for line in lines] == [1, 2, 3]
