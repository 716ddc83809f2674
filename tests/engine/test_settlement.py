"""Settlement in whists and money (scoring/engine/settlement.py).

The published steps of docs/rules.md §6.1, §6.2 and §6.3 (S000a, S000f, S002/S003) for
both Кодекс 4.2.14 methods, the rounding of Кодекс 4.2.12 (§6.9), money (4.2.13), and
the fewest payments that settle a result.
"""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction

import pytest

from scoring.engine.conventions import Convention, from_options, preset
from scoring.engine.numbers import Points
from scoring.engine.settlement import (
    Adjustment,
    Totals,
    adjust,
    average_mountain_method,
    compensation,
    converted_gora,
    exact_result,
    largest_remainder,
    money,
    pairwise_method,
    payments,
    rounding_bound,
    whole_result,
)

F = Fraction
NO_WHISTS_4 = ((0,) * 4,) * 4


def sheet(
    pulya: tuple[Points, ...],
    gora: tuple[Points, ...],
    whists: tuple[tuple[Points, ...], ...] | None = None,
    target: int = 10,
) -> Totals:
    size = len(gora)
    names = tuple("ABCDE"[:size])
    return Totals(names, target, pulya, gora, whists or ((0,) * size,) * size)


# §6.1: Leningrad, 4 players, to 50 (S000a «4 кружочка»).
LENINGRAD_61 = sheet((78, 74, 32, 22), (78, 60, 34, 76), target=50)
# §6.2: Piter, 4 players, to 21 (S000f).
PITER_62 = sheet((56, 12, 6, 16), (76, 40, 52, 80), target=21)
# §6.3: Sochi, 4 players С З В Ю, the minimal sheet of the published pair nets (S002).
SOCHI_63 = Totals(
    ("С", "З", "В", "Ю"),
    20,
    (20, 20, 20, 20),
    (5, 10, 20, 16),
    ((0, 2, 0, 0), (0, 0, 0, 0), (10, 50, 0, 0), (42, 78, 0, 0)),
)


def test_leningrad_converts_the_pulya_to_the_gora_twice_over() -> None:
    assert converted_gora(LENINGRAD_61, preset("leningrad")) == (22, 12, 70, 132)
    assert converted_gora(PITER_62, preset("leningrad")) == (6, 58, 82, 90)


def test_sochi_converts_the_pulya_once() -> None:
    assert converted_gora(sheet((8, 10, 12), (0, 0, 0)), preset("sochi")) == (2, 0, -2)


def test_the_average_mountain_method_gives_the_published_circles_of_6_1() -> None:
    method = average_mountain_method(LENINGRAD_61, preset("leningrad"))
    assert method.amnesty == 12
    assert method.amnestied == (10, 0, 58, 120)
    assert method.mean == 47
    assert method.mountain_circle == (370, 470, -110, -730)
    assert method.result == (370, 470, -110, -730)


def test_the_average_mountain_method_gives_the_published_circles_of_6_2() -> None:
    method = average_mountain_method(PITER_62, preset("leningrad"))
    assert (method.amnesty, method.amnestied, method.mean) == (6, (0, 52, 76, 84), 53)
    assert method.mountain_circle == (530, 10, -230, -310)


def test_the_pairwise_method_writes_each_gora_as_whists_on_its_owner() -> None:
    method = pairwise_method(LENINGRAD_61, preset("leningrad"))
    assert method.amnestied == (10, 0, 58, 120)
    assert method.mountain_whists == (25, 0, 145, 300)
    assert method.result == (370, 470, -110, -730)


def test_the_pairwise_method_gives_the_published_nets_of_6_3() -> None:
    method = pairwise_method(SOCHI_63, preset("sochi"))
    assert method.amnestied == (0, 5, 15, 11)
    assert method.mountain_whists == (0, F(25, 2), F(75, 2), F(55, 2))
    assert method.nets == (
        (0, F(29, 2), F(55, 2), F(-29, 2)),
        (F(-29, 2), 0, -25, -63),
        (F(-55, 2), 25, 0, -10),
        (F(29, 2), 63, 10, 0),
    )
    assert method.result == (F(55, 2), F(-205, 2), F(-25, 2), F(175, 2))


def test_both_methods_and_the_formula_agree_on_6_3() -> None:
    exact = exact_result(SOCHI_63, preset("sochi"))
    assert exact == (F(55, 2), F(-205, 2), F(-25, 2), F(175, 2))
    assert pairwise_method(SOCHI_63, preset("sochi")).result == exact
    assert average_mountain_method(SOCHI_63, preset("sochi")).result == exact


def test_codex_rounding_of_6_3_lowers_the_first_seat_by_method_1() -> None:
    whole = whole_result(SOCHI_63, preset("sochi"))
    assert whole.adjustments == (Adjustment(0, -1, 2),)
    assert whole.result == (29, -103, -13, 87)
    method = pairwise_method(adjust(SOCHI_63, whole.adjustments), preset("sochi"))
    assert method.amnestied == (0, 6, 16, 12)
    assert method.mountain_whists == (0, 15, 40, 30)
    assert method.nets[0] == (0, 15, 28, -14)
    assert method.nets[1] == (-15, 0, -25, -63)
    assert method.nets[2] == (-28, 25, 0, -10)
    assert method.nets[3] == (14, 63, 10, 0)


def test_raising_a_gora_gives_the_published_second_method_of_6_3() -> None:
    raised = adjust(SOCHI_63, [Adjustment(3, +1, 2)])
    assert raised.gora == (5, 10, 20, 17)
    assert [row[3] for row in raised.whists] == [-2, -2, -2, 0]
    method = average_mountain_method(raised, preset("sochi"))
    assert (sum(method.amnestied), method.mean) == (32, 8)
    assert method.mountain_circle == (80, 30, -70, -40)
    assert method.result == (28, -102, -12, 86)


def test_rounding_compensation_4_of_3_moves_the_adjusted_seat_by_one_and_a_half() -> None:
    convention = from_options({"rounding_compensation_4": 3})
    whole = whole_result(SOCHI_63, convention)
    assert whole.adjustments == (Adjustment(0, -1, 3),)
    assert whole.result == (26, -102, -12, 88)


def test_codex_rounding_with_three_players_is_rule_4_2_12s_example() -> None:
    totals = sheet((10, 10, 10), (1, 0, 0))
    assert exact_result(totals, preset("sochi")) == (F(-20, 3), F(10, 3), F(10, 3))
    whole = whole_result(totals, preset("sochi"))
    assert whole.adjustments == (Adjustment(0, -1, 3),)
    assert whole.result == (-6, 3, 3)


# (goras of an even sheet, expected adjustments as (seat, change), expected result).
# By default the adjusted gora is one whose adjustment lets method 1 divide every
# amnestied gora: 0/1/0 lowers the 1 (not the first seat's 0), 1/1/0 raises the 0 to
# make 1/1/1, 1/1/1/0 lowers the 0 to make the amnestied 2/2/2/0 even.
CODEX_ROUNDING = [
    ((0, 0, 0), (), (0, 0, 0)),
    ((3, 0, 0), (), (-20, 10, 10)),
    ((1, 0, 0), ((0, -1),), (-6, 3, 3)),
    ((0, 1, 0), ((1, -1),), (3, -6, 3)),
    ((1, 1, 0), ((2, 1),), (-3, -3, 6)),
    ((1, 0, 0, 0), ((0, -1),), (-6, 2, 2, 2)),
    ((2, 0, 0, 0), (), (-15, 5, 5, 5)),
    ((1, 1, 0, 0), (), (-5, -5, 5, 5)),
    ((1, 1, 1, 0), ((3, -1),), (-3, -3, -3, 9)),
    ((1, 0, 0, 0, 0), (), (-8, 2, 2, 2, 2)),
    ((1, 0), (), (-5, 5)),
]


@pytest.mark.parametrize(("gora", "adjustments", "result"), CODEX_ROUNDING)
def test_codex_rounding_takes_the_fewest_adjustments_lowering_first(
    gora: tuple[int, ...], adjustments: tuple[tuple[int, int], ...], result: tuple[int, ...]
) -> None:
    size = len(gora)
    totals = sheet((10,) * size, gora)
    whole = whole_result(totals, preset("sochi"))
    assert tuple((a.seat, a.change) for a in whole.adjustments) == adjustments
    assert whole.result == result
    assert sum(whole.result) == 0
    exact = exact_result(totals, preset("sochi"))
    bound = rounding_bound(size, preset("sochi"), len(adjustments))
    assert all(abs(w - e) <= bound for w, e in zip(whole.result, exact, strict=True))


def test_codex_rounding_may_start_from_another_seat() -> None:
    whole = whole_result(sheet((10, 10, 10), (1, 0, 0)), preset("sochi"), first_seat=2)
    assert whole.adjustments == (Adjustment(2, -1, 3),)
    assert whole.result == (-7, 3, 4)


@pytest.mark.parametrize(
    ("values", "rounded"),
    [
        ((F(55, 2), F(-205, 2), F(-25, 2), F(175, 2)), (28, -102, -13, 87)),
        ((F(-20, 3), F(10, 3), F(10, 3)), (-6, 3, 3)),
        ((F(20, 3), F(-10, 3), F(-10, 3)), (7, -3, -4)),
        ((F(1, 3), F(1, 3), F(-2, 3)), (1, 0, -1)),
        ((5, -5), (5, -5)),
        ((F(27, 4), F(-1, 4), F(-13, 2)), (7, 0, -7)),
    ],
)
def test_exact_rounding_is_largest_remainder_ties_to_the_earlier_seat(
    values: tuple[Points, ...], rounded: tuple[int, ...]
) -> None:
    assert largest_remainder(values) == rounded
    assert sum(rounded) == sum(values)


def test_exact_rounding_is_used_when_rounding_is_exact() -> None:
    whole = whole_result(SOCHI_63, from_options({"rounding": "exact"}))
    assert whole.adjustments == ()
    assert whole.result == (28, -102, -13, 87)


def test_compensation_is_floor_of_ten_over_n_or_the_four_player_option() -> None:
    sochi = preset("sochi")
    assert [compensation(n, sochi) for n in (2, 3, 4, 5)] == [5, 3, 2, 2]
    assert compensation(4, from_options({"rounding_compensation_4": 3})) == 3


def test_the_rounding_bound_is_rule_3_7_5s_shift() -> None:
    sochi = preset("sochi")
    assert rounding_bound(3, sochi, 1) == 1
    assert rounding_bound(4, sochi, 1) == F(3, 2)
    assert rounding_bound(4, sochi, 2) == 3


@pytest.mark.parametrize(
    ("result", "stake", "expect"),
    [
        ((29, -103, -13, 87), "0.01", ("0.29", "-1.03", "-0.13", "0.87")),
        ((46, -9, -37), "0.1", ("4.6", "-0.9", "-3.7")),
        ((10, -10), "2.5", ("25", "-25")),
        ((1, -1), "0", ("0", "0")),
    ],
)
def test_money_is_whists_times_the_stake(
    result: tuple[int, ...], stake: str, expect: tuple[str, ...]
) -> None:
    assert money(result, Decimal(stake)) == tuple(Decimal(e) for e in expect)


# (result, number of payments the fewest need)
PAYMENTS = [
    ((10, -10, 5, -5), 2),
    ((10, -5, 5, -10), 2),
    ((30, -10, -10, -10), 3),
    ((0, 0, 0), 0),
    ((F(10, 3), F(-10, 3), 0), 1),
    ((15, -10, -5, 10, -10), 3),
    ((20, -5, -5, -5, -5), 4),
    ((7, -3, -4), 2),
    ((3, 4, -7, 5, -5), 3),
]


@pytest.mark.parametrize(("result", "fewest"), PAYMENTS)
def test_payments_settle_the_result_with_the_fewest_payments(
    result: tuple[Points, ...], fewest: int
) -> None:
    found = payments(result)
    assert len(found) == fewest
    balance = list(result)
    for payment in found:
        assert payment.amount > 0
        assert result[payment.payer] < 0 < result[payment.payee]
        balance[payment.payer] += payment.amount
        balance[payment.payee] -= payment.amount
    assert balance == [0] * len(result)


def test_payments_for_plus_ten_minus_ten_plus_five_minus_five_pair_them_off() -> None:
    assert {(p.payer, p.payee, p.amount) for p in payments((10, -10, 5, -5))} == {
        (1, 0, 10),
        (3, 2, 5),
    }


def test_two_players_with_an_indivisible_mountain_settle_the_whole_difference() -> None:
    totals = sheet((10, 10), (0, 3), ((0, 5), (0, 0)))
    convention = from_options({"indivisible_mountain": True})
    # R[A] = 10·(G'B − G'A) + W[A][B] − W[B][A]
    assert exact_result(totals, convention) == (35, -35)
    assert pairwise_method(totals, convention).result == (35, -35)
    assert average_mountain_method(totals, convention).result == (35, -35)
    assert exact_result(totals, preset("sochi")) == (20, -20)


def test_a_convention_without_fields_is_sochi() -> None:
    assert Convention() == preset("sochi")


# --- who adjusts by rule 4.2.12: the gora the pairwise method cannot divide -------------

# A Sochi pulka of three played to 10 (a club's evening, a hand count agreeing): after
# the amnesty the goras are 6 / 23 / 0, and Вера wrote 40 whists on Анна and 38 on
# Борис. Their sum 29 needs one point more (Кодекс 4.2.12); method 1 (4.2.14) divides
# 10·6/3 and 10·0/3 but not 10·23/3: Борис is the one whose gora moves, 23 → 24, and
# Анна and Вера each write 3 whists less on him.
CODEX_EVENING = Totals(
    ("Анна", "Борис", "Вера"),
    10,
    (10, 10, 10),
    (6, 23, 0),
    ((0, 0, 0), (0, 0, 0), (40, 38, 0)),
)


def test_the_player_whose_gora_does_not_divide_adjusts_by_default() -> None:
    whole = whole_result(CODEX_EVENING, preset("sochi"))
    assert whole.adjustments == (Adjustment(1, 1, 3),)
    assert whole.result == (-3, -172, 175)


def test_the_table_may_still_choose_who_adjusts() -> None:
    """The first seat, chosen, gives the other whole result the rule allows."""
    whole = whole_result(CODEX_EVENING, preset("sochi"), first_seat=0)
    assert whole.adjustments == (Adjustment(0, 1, 3),)
    assert whole.result == (-4, -171, 175)
    assert sum(whole.result) == 0


def test_a_pulka_started_under_the_first_seat_default_keeps_its_result() -> None:
    """``rounding_adjusts: first_seat``: the default before the pairwise one, kept in the
    snapshot of every pulka started then (scoring.0010_rounding_adjusts)."""
    older = from_options({"rounding_adjusts": "first_seat"})
    whole = whole_result(CODEX_EVENING, older)
    assert whole.adjustments == (Adjustment(0, 1, 3),)
    assert whole.result == (-4, -171, 175)
    # The table's choice still counts under either default.
    assert whole_result(CODEX_EVENING, older, first_seat=1).result == (-3, -172, 175)
