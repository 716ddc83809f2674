"""The running sheet (scoring/engine/sheet.py): help, runs of all-passes, the end.

docs/rules.md §3.3 (runs, ladders, exit), §3.4 (help, Кодекс 4.2.3), §3.5 (end), docs/protocol.md
"Runs of all-passes", "Help" and "Order and limits".
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from scoring.engine.contracts import Contract, Kind
from scoring.engine.conventions import preset
from scoring.engine.deals import Deal
from scoring.engine.errors import DealError, ScoringError
from scoring.engine.sheet import apply, is_over, pulka_over, start

from .support import (
    ABC,
    ABCD,
    ABCDE,
    allpass,
    figures,
    misere,
    played,
    score,
    unplayed,
    written,
    written_in_order,
)

# --- §3.4 help ---------------------------------------------------------------------------


def test_a_closed_pulya_helps_the_largest_unclosed_one() -> None:
    deals = [unplayed("10", "A", "BC"), unplayed("6", "B", "CA"), unplayed("6", "A", "BC")]
    out = score(deals)
    assert written(out, 3) == Counter([("B", "pulya", 2), ("A", "whists", "B", 20)])
    assert figures(out, "pulya") == {"A": 10, "B": 4, "C": 0}


@pytest.mark.parametrize(
    ("closer", "giver_deal", "receiver"),
    [
        ("A", unplayed("6", "A", "BC"), "B"),
        ("B", unplayed("6", "B", "CA"), "C"),
        ("C", unplayed("6", "C", "AB"), "A"),
    ],
)
def test_help_on_a_tie_goes_to_the_nearest_player_clockwise(
    closer: str, giver_deal: dict[str, Any], receiver: str
) -> None:
    others = "".join(p for p in ABC if p != closer)
    out = score([unplayed("10", closer, others), giver_deal])
    assert written(out, 2) == Counter([(receiver, "pulya", 2), (closer, "whists", receiver, 20)])


def test_help_reaches_the_dealer_who_sits_out() -> None:
    # Кодекс 4.2.3.1: sitting out as dealer does not stop help.
    deals = [
        unplayed("10", "C", "AB") | {"dealer": "D"},
        unplayed("6", "C", "AB") | {"dealer": "D"},
    ]
    out = score(deals, players=ABCD)
    assert written(out, 2) == Counter([("D", "pulya", 2), ("C", "whists", "D", 20)])


def test_help_excludes_dealer_skips_the_dealer() -> None:
    deals = [
        unplayed("10", "C", "AB") | {"dealer": "D"},
        unplayed("6", "C", "AB") | {"dealer": "D"},
    ]
    out = score(deals, players=ABCD, options={"help_excludes_dealer": True})
    assert written(out, 2) == Counter([("A", "pulya", 2), ("C", "whists", "A", 20)])


def test_help_excludes_dealer_skips_both_players_sitting_out_with_five() -> None:
    deals = [
        unplayed("10", "A", "BC") | {"dealer": "E"},
        unplayed("7", "B", "CD") | {"dealer": "A"},
        unplayed("6", "D", "BC") | {"dealer": "A"},
        # C deals, B is the outgoing player: both sit out; A gives 2.
        unplayed("6", "A", "DE") | {"dealer": "C"},
    ]
    default = score(deals, players=ABCDE)
    assert written(default, 4) == Counter([("B", "pulya", 2), ("A", "whists", "B", 20)])
    excluded = score(deals, players=ABCDE, options={"help_excludes_dealer": True})
    assert written(excluded, 4) == Counter([("D", "pulya", 2), ("A", "whists", "D", 20)])


def test_help_fills_several_pulyas_and_writes_the_rest_off_the_gora() -> None:
    deals = [unplayed("7", "A", "BC"), unplayed("6", "B", "CA"), unplayed("9", "A", "BC")]
    out = score(deals, target=4)
    assert written_in_order(out, 3) == [
        ("B", "pulya", 2),
        ("A", "whists", "B", 20),
        ("C", "pulya", 4),
        ("A", "whists", "C", 40),
        ("A", "gora", -2),
    ]
    assert out["closed"]
    assert figures(out, "gora") == {"A": -2, "B": 0, "C": 0}


def test_a_remized_whister_receives_help_under_the_codex() -> None:
    deals = [
        unplayed("10", "A", "BC"),
        unplayed("7", "B", "CA"),
        played("6", "A", {"B": "whist", "C": "pass"}, {"A": 8, "B": 1, "C": 1}),
    ]
    out = score(deals)
    assert written(out, 3) == Counter(
        [("B", "pulya", 2), ("A", "whists", "B", 20), ("B", "whists", "A", 4), ("B", "gora", 4)]
    )


def test_help_excludes_remized_whister_writes_the_help_off_the_gora() -> None:
    deals = [
        unplayed("10", "A", "BC"),
        unplayed("7", "B", "CA"),
        played("6", "A", {"B": "whist", "C": "pass"}, {"A": 8, "B": 1, "C": 1}),
    ]
    out = score(deals, options={"help_excludes_remized_whister": True})
    assert written(out, 3) == Counter(
        [("A", "gora", -2), ("B", "whists", "A", 4), ("B", "gora", 4)]
    )


def test_help_excludes_remized_whister_still_helps_a_larger_pulya() -> None:
    deals = [
        unplayed("10", "A", "BC"),
        unplayed("7", "C", "AB"),
        played("6", "A", {"B": "whist", "C": "pass"}, {"A": 8, "B": 1, "C": 1}),
    ]
    out = score(deals, options={"help_excludes_remized_whister": True})
    assert written(out, 3)[("C", "pulya", 2)] == 1


def test_without_help_a_pulya_runs_past_the_target() -> None:
    out = score(
        [unplayed("10", "A", "BC"), unplayed("6", "A", "BC")], convention="leningrad", target=20
    )
    assert figures(out, "pulya") == {"A": 12, "B": 0, "C": 0}
    assert written(out, 2) == Counter([("A", "pulya", 2)])


def test_zero_bonus_pulya_goes_through_help() -> None:
    deals = [unplayed("10", "A", "BC"), unplayed("6", "B", "CA"), allpass({"A": 0, "B": 4, "C": 6})]
    out = score(deals)
    assert written(out, 3) == Counter(
        [("B", "gora", 4), ("C", "gora", 6), ("B", "pulya", 1), ("A", "whists", "B", 10)]
    )


def test_two_players_with_an_indivisible_mountain_write_off_half() -> None:
    deals = [unplayed("7", "A", "B"), unplayed("6", "B", "A"), unplayed("8", "A", "B")]
    out = score(deals, players=("A", "B"), target=4, options={"indivisible_mountain": True})
    assert written_in_order(out, 3) == [
        ("B", "pulya", 2),
        ("A", "whists", "B", 20),
        ("A", "gora", -2),
    ]
    # R[A] = 10·(G'B − G'A) + W[A][B] − W[B][A] = 10·2 + 20.
    assert out["result"] == {"A": 40, "B": -40}


def test_two_players_keep_the_games_value_with_either_mountain() -> None:
    # Кодекс 4.1.1 c: half written off an indivisible mountain is worth the whole
    # written off a divided one.
    deals = [unplayed("7", "A", "B"), unplayed("6", "B", "A"), unplayed("8", "A", "B")]
    divided = score(deals, players=("A", "B"), target=4)
    assert figures(divided, "gora") == {"A": -4, "B": 0}
    assert divided["result"] == {"A": 40, "B": -40}


# --- §3.5 the end of the pulka -------------------------------------------------------------


def test_all_closed_ends_when_every_pulya_reaches_the_target() -> None:
    deals = [unplayed("7", "A", "BC"), unplayed("7", "B", "CA")]
    assert not score(deals, target=4)["closed"]
    assert score([*deals, unplayed("7", "C", "AB")], target=4)["closed"]


def test_sum_reached_ends_when_the_pulyas_add_up_to_n_targets() -> None:
    deals = [unplayed("6", "A", "BC"), unplayed("6", "B", "CA")]
    assert not score(deals, convention="leningrad", target=2)["closed"]
    assert score([*deals, unplayed("6", "C", "AB")], convention="leningrad", target=2)["closed"]


def test_sum_reached_ends_on_one_players_overshoot() -> None:
    out = score([unplayed("10", "A", "BC")], convention="leningrad", target=3)
    assert out["closed"]
    assert figures(out, "pulya") == {"A": 10, "B": 0, "C": 0}


def test_end_deals_stops_at_the_deal_limit() -> None:
    options = {"end": "deals", "deal_limit": 2}
    deals = [allpass({"A": 0, "B": 4, "C": 6}), allpass({"A": 3, "B": 3, "C": 4})]
    assert not score(deals[:1], options=options)["closed"]
    assert score(deals, options=options)["closed"]
    with pytest.raises(ScoringError, match="^deal 3: the pulka is already over$"):
        score([*deals, unplayed("6", "C", "AB")], options=options)


def test_the_target_or_a_deal_limit_whichever_comes_first() -> None:
    # docs/rules.md §3.5: a deal limit with another end ends at the first of the two.
    limit = {"deal_limit": 2}
    passes = [allpass({"A": 0, "B": 4, "C": 6}), allpass({"A": 3, "B": 3, "C": 4})]
    assert not score(passes[:1], options=limit, target=4)["closed"]
    assert score(passes, options=limit, target=4)["closed"]  # the deals came first
    closing = [unplayed("7", "A", "BC"), unplayed("7", "B", "CA"), unplayed("7", "C", "AB")]
    many = {"deal_limit": 18}
    assert not score(closing[:2], options=many, target=4)["closed"]
    assert score(closing, options=many, target=4)["closed"]  # the target came first
    with pytest.raises(ScoringError, match="^deal 3: the pulka is already over$"):
        score([*passes, unplayed("6", "C", "AB")], options=limit, target=4)


def test_end_deals_without_a_limit_never_ends() -> None:
    deals = [unplayed("10", p, [q for q in ABC if q != p]) for p in ABC * 10]
    out = score(deals, convention="fspr", target=2)
    assert not out["closed"]
    assert len(out["deals"]) == 30


def test_it_refuses_a_deal_after_the_pulka_closed() -> None:
    deals = [unplayed("7", "A", "BC"), unplayed("7", "B", "CA"), unplayed("7", "C", "AB")]
    with pytest.raises(ScoringError, match="^deal 4: the pulka is already over$"):
        score([*deals, allpass({"A": 3, "B": 3, "C": 4})], target=4)


def test_pulka_over_reads_the_convention() -> None:
    assert pulka_over(preset("sochi"), 10, (10, 10, 10), 3)
    assert not pulka_over(preset("sochi"), 10, (10, 10, 9), 3)
    assert pulka_over(preset("leningrad"), 10, (30, 0, 0), 1)
    assert not pulka_over(preset("leningrad"), 10, (29, 0, 0), 1)
    assert not pulka_over(preset("fspr"), 10, (99, 99, 99), 1000)


# --- §3.3 runs of all-passes: ladder, reset, max run, exit ---------------------------------

RUN_OF_FOUR = [
    allpass({"A": 0, "B": 4, "C": 6}),
    allpass({"A": 2, "B": 3, "C": 5}),
    allpass({"A": 1, "B": 4, "C": 5}),
    allpass({"A": 2, "B": 2, "C": 6}),
]


def test_the_allpass_ladder_climbs_and_stays_at_its_last_value() -> None:
    options = {"allpass_ladder": [1, 2, 3], "allpass_amnesty": False}
    out = score(RUN_OF_FOUR, options=options)
    assert written(out, 1) == Counter([("B", "gora", 4), ("C", "gora", 6), ("A", "pulya", 1)])
    assert written(out, 2) == Counter([("A", "gora", 4), ("B", "gora", 6), ("C", "gora", 10)])
    assert written(out, 3) == Counter([("A", "gora", 3), ("B", "gora", 12), ("C", "gora", 15)])
    assert written(out, 4) == Counter([("A", "gora", 6), ("B", "gora", 6), ("C", "gora", 18)])


def test_leningrad_all_passes_cost_2_4_6_6() -> None:
    out = score(RUN_OF_FOUR, convention="leningrad", options={"allpass_amnesty": False})
    assert [written(out, n)[("C", "gora", c)] for n, c in ((1, 12), (2, 20), (3, 30), (4, 36))] == [
        1,
        1,
        1,
        1,
    ]


@pytest.mark.parametrize(("count", "price"), [(0, 1), (1, 2), (2, 3), (3, 3), (4, 3)])
def test_next_gives_the_price_of_the_next_allpass(count: int, price: int) -> None:
    out = score(RUN_OF_FOUR[:count], options={"allpass_ladder": [1, 2, 3]})
    assert out["next"]["allpass_price"] == price


@pytest.mark.parametrize(("count", "price"), [(1, 2), (2, 1), (3, 2), (4, 1)])
def test_allpass_max_run_starts_the_run_again(count: int, price: int) -> None:
    out = score(RUN_OF_FOUR[:count], options={"allpass_ladder": [1, 2, 3], "allpass_max_run": 2})
    assert out["next"]["allpass_price"] == price


WHISTED_MADE = played("6", "C", {"A": "whist", "B": "pass"}, {"C": 6, "A": 3, "B": 1})
WHISTED_FAILED = played("6", "C", {"A": "whist", "B": "pass"}, {"C": 5, "A": 4, "B": 1})
HALF_WHISTED = played("6", "C", {"A": "pass", "B": "half"})
# (reset rule, the deal after one all-pass, whether it ends the run)
RESETS = [
    ("any_game", unplayed("6", "C", "AB"), True),
    ("any_game", misere("C", 1), True),
    ("any_game", WHISTED_FAILED, True),
    ("whisted_game", unplayed("6", "C", "AB"), False),
    ("whisted_game", unplayed("8", "C", "AB"), False),
    ("whisted_game", HALF_WHISTED, False),
    ("whisted_game", misere("C", 0), False),
    ("whisted_game", misere("C", 2), False),
    ("whisted_game", WHISTED_MADE, True),
    ("whisted_game", WHISTED_FAILED, True),
    ("game_or_misere", unplayed("6", "C", "AB"), True),
    ("game_or_misere", HALF_WHISTED, True),
    ("game_or_misere", WHISTED_MADE, True),
    ("game_or_misere", WHISTED_FAILED, False),
    ("game_or_misere", misere("C", 0), True),
    ("game_or_misere", misere("C", 3), True),
]


@pytest.mark.parametrize(
    ("rule", "deal", "resets"),
    RESETS,
    ids=[f"{r}-{d['contract']}-{i}" for i, (r, d, _) in enumerate(RESETS)],
)
def test_allpass_reset_decides_which_deal_ends_a_run(
    rule: str, deal: dict[str, Any], resets: bool
) -> None:
    options = {"allpass_ladder": [1, 2, 3], "allpass_reset": rule}
    out = score([RUN_OF_FOUR[0], RUN_OF_FOUR[1], deal], options=options)
    assert out["next"]["allpass_price"] == (1 if resets else 3)


def test_a_checked_ten_is_no_whisted_game() -> None:
    options = {"allpass_ladder": [1, 2], "allpass_reset": "whisted_game", "ten": "checked"}
    deal = played("10", "B", {}, {"B": 10, "C": 0, "A": 0})
    assert score([RUN_OF_FOUR[0], deal], options=options)["next"]["allpass_price"] == 2


@pytest.mark.parametrize(
    ("ladder", "allpasses", "refused", "allowed"),
    [
        ([6, 7, 8], 1, ["6S", "6NT"], ["7S", "misere", "8", "allpass"]),
        ([6, 7, 8], 2, ["7NT"], ["misere", "8S", "9"]),
        ([6, 7, 8], 3, ["7"], ["misere", "8"]),
        ([6, 7, 7], 2, ["6"], ["7S"]),
        ([6, 9], 1, ["8NT", "misere"], ["9S", "10"]),
        ([6], 3, [], ["6S"]),
    ],
)
def test_the_exit_ladder_refuses_low_contracts_after_allpasses(
    ladder: list[int], allpasses: int, refused: list[str], allowed: list[str]
) -> None:
    options = {"exit_ladder": ladder}
    run = RUN_OF_FOUR[:allpasses]
    dealer = ABC[allpasses % 3]
    declarer = ABC[(allpasses + 1) % 3]
    defenders = [p for p in ABC if p != declarer]

    def deal(contract: str) -> dict[str, Any]:
        if contract == "allpass":
            return allpass({"A": 3, "B": 3, "C": 4})
        if contract == "misere":
            return misere(declarer, 0)
        return unplayed(contract, declarer, defenders)

    assert (
        score(run, options=options)["next"]["min_contract"]
        == ladder[min(allpasses, len(ladder) - 1)]
    )
    for contract in refused:
        with pytest.raises(
            ScoringError,
            match=f"deal {allpasses + 1}: after the all-passes the lowest contract allowed is",
        ):
            score([*run, deal(contract)], options=options)
    for contract in allowed:
        out = score([*run, deal(contract)], options=options)
        assert out["deals"][-1]["dealer"] == dealer


def test_a_contract_below_the_exit_ladder_is_named() -> None:
    with pytest.raises(ScoringError) as error:
        score([RUN_OF_FOUR[0], unplayed("6S", "C", "AB")], convention="leningrad")
    assert (
        str(error.value) == "deal 2: after the all-passes the lowest contract allowed is 7, not 6♠"
    )


def test_a_misere_is_refused_where_only_a_9_may_follow() -> None:
    with pytest.raises(ScoringError, match="lowest contract allowed is 9, not M$"):
        score([RUN_OF_FOUR[0], misere("C", 0)], options={"exit_ladder": [6, 9]})


def test_an_unwhisted_game_keeps_the_exit_ladder_under_whisted_game() -> None:
    deals = [RUN_OF_FOUR[0], unplayed("7", "C", "AB")]
    out = score(deals, convention="fspr")
    assert out["next"]["min_contract"] == 7
    assert out["next"]["allpass_price"] == 2


# --- dealers and the next deal ------------------------------------------------------------


def test_the_deal_passes_clockwise_from_the_first_dealer() -> None:
    hands = ["DAB", "ABC", "BCD", "CDA"]
    deals = [allpass(dict(zip(hand, (2, 3, 5), strict=True))) for hand in hands]
    out = score(deals, players=ABCD, first_dealer="C")
    assert [d["dealer"] for d in out["deals"]] == ["C", "D", "A", "B"]
    assert out["next"]["dealer"] == "C"


def test_an_explicit_dealer_restarts_the_rotation() -> None:
    deals = [RUN_OF_FOUR[0], RUN_OF_FOUR[1] | {"dealer": "A"}, RUN_OF_FOUR[2]]
    out = score(deals)
    assert [d["dealer"] for d in out["deals"]] == ["A", "A", "B"]
    assert out["next"]["dealer"] == "C"


def test_an_empty_pulka_tells_the_first_deal() -> None:
    out = score([], first_dealer="B", convention="leningrad")
    assert out["next"] == {"dealer": "B", "allpass_price": 1, "min_contract": 6}
    assert out["deals"] == [] and not out["closed"]


def test_next_after_two_leningrad_allpasses() -> None:
    out = score(RUN_OF_FOUR[:2], convention="leningrad")
    assert out["next"] == {"dealer": "C", "allpass_price": 3, "min_contract": 8}


def test_the_dealer_of_four_sits_out() -> None:
    with pytest.raises(ScoringError, match="^deal 1: D sits out this deal and cannot declare$"):
        score([unplayed("6", "D", "AB")], players=ABCD, first_dealer="D")


# --- the fold itself ----------------------------------------------------------------------


def test_apply_never_changes_the_state_it_is_given() -> None:
    state = start(ABC, preset("sochi"), 10)
    deal = Deal(Contract(Kind.ALLPASS), tricks=(("A", 0), ("B", 4), ("C", 6)))
    after, record = apply(state, deal)
    assert state.gora == (0, 0, 0) and state.pulya == (0, 0, 0) and state.deals_played == 0
    assert after.gora == (0, 4, 6) and after.pulya == (1, 0, 0)
    assert record.number == 1 and record.dealer == 0 and record.notation == "P"
    assert apply(state, deal) == (after, record)


def test_start_takes_the_first_dealer_round_the_table() -> None:
    assert start(ABC, preset("sochi"), 10, first_dealer=4).dealer == 1


def test_apply_refuses_a_closed_sheet() -> None:
    state = start(ABC, preset("sochi"), 2)
    for declarer in (0, 1, 2):
        name = ABC[declarer]
        words = tuple((p, "pass") for p in ABC if p != name)
        state, _ = apply(state, Deal(Contract(Kind.TRICKS, 6), name, words))
    assert state.closed and is_over(state)
    with pytest.raises(DealError, match="the pulka is already over"):
        apply(state, Deal(Contract(Kind.ALLPASS), tricks=(("A", 0), ("B", 4), ("C", 6))))


def test_apply_names_an_unknown_dealer() -> None:
    state = start(ABC, preset("sochi"), 10)
    with pytest.raises(DealError, match="unknown dealer 'Z'"):
        apply(state, Deal(Contract(Kind.ALLPASS), tricks=(("A", 0),), dealer="Z"))
