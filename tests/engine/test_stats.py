"""Player statistics from the engine's records, against a pulka counted by hand."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import HealthCheck, given, settings

from scoring.engine.conventions import PRESET_NAMES
from scoring.engine.protocol import read
from scoring.engine.pulka import score_pulka
from scoring.engine.settlement import Totals, exact_result
from scoring.engine.stats import (
    ContractCount,
    PlayStats,
    PulkaResult,
    add_up,
    balance_after_each_deal,
    play_stats,
    record_of,
    rivals_of,
)
from tests.engine.legal import DrawnPulka, legal_pulkas

# Sochi, three players. Counted by hand from the facts and the sheet the engine writes:
# 1 Anna 6♠ made (Boris whists, Vera passes); 2 all-pass 2/4/4; 3 Vera 7♥ one down
# (Anna whists, Boris passes); 4 Boris's misère caught; 5 Anna 8NT unplayed (both pass);
# 6 Boris 6♣ +1, Anna and Vera whist with 1+2 tricks: 3 of the 4 owed, Anna's shortfall
# (rules.md §3.4: the whister short of his own 2 writes the gora); 7 Vera 6♦ unplayed
# (Anna passes, Boris half-whists).
THREE = {"players": ["Anna", "Boris", "Vera"], "target": 20, "deals": [
    {"contract": "6S", "declarer": "Anna", "whists": {"Boris": "whist", "Vera": "pass"}, "tricks": {"Anna": 6, "Boris": 3, "Vera": 1}},
    {"contract": "allpass", "tricks": {"Anna": 2, "Boris": 4, "Vera": 4}},
    {"contract": "7H", "declarer": "Vera", "whists": {"Anna": "whist", "Boris": "pass"}, "tricks": {"Vera": 6, "Anna": 3, "Boris": 1}},
    {"contract": "misere", "declarer": "Boris", "tricks": {"Boris": 1}},
    {"contract": "8NT", "declarer": "Anna", "whists": {"Boris": "pass", "Vera": "pass"}},
    {"contract": "6C", "declarer": "Boris", "whists": {"Anna": "whist", "Vera": "whist"}, "tricks": {"Boris": 7, "Anna": 1, "Vera": 2}},
    {"contract": "6D", "declarer": "Vera", "whists": {"Anna": "pass", "Boris": "half"}},
]}  # fmt: skip

# Four players: the dealer sits each deal out. Deal 1 is dealt by Anna, 2 by Boris.
FOUR = {"players": ["Anna", "Boris", "Vera", "Gleb"], "target": 20, "deals": [
    {"contract": "misere", "declarer": "Gleb", "tricks": {"Gleb": 0}},
    {"contract": "7S", "declarer": "Anna", "whists": {"Vera": "whist", "Gleb": "pass"}, "tricks": {"Anna": 5, "Vera": 4, "Gleb": 1}},
]}  # fmt: skip


def stats(data, player):
    pulka = read(data)
    return play_stats(score_pulka(pulka).records, pulka.names, player)


def test_anna_by_hand():
    anna = stats(THREE, "Anna")

    assert anna.deals == 7
    assert anna.by_level == {6: ContractCount(1, 1, 0, 0), 8: ContractCount(1, 1, 0, 0)}
    assert anna.by_suit == {"S": ContractCount(1, 1, 0, 0), "NT": ContractCount(1, 1, 0, 0)}
    assert (anna.defended, anna.whists, anna.half_whists, anna.whister_remizes) == (3, 2, 0, 1)
    assert (anna.allpass_deals, anna.allpass_tricks) == (1, 2)


def test_boris_by_hand():
    boris = stats(THREE, "Boris")

    assert (boris.misere_declared, boris.misere_made, boris.misere_caught) == (1, 0, 1)
    assert boris.by_level == {6: ContractCount(1, 1, 0, 0)}
    assert (boris.defended, boris.whists, boris.half_whists, boris.whister_remizes) == (4, 1, 1, 0)
    assert boris.allpass_tricks_per_deal == 4


def test_vera_by_hand():
    vera = stats(THREE, "Vera")

    assert vera.by_level == {7: ContractCount(1, 0, 1, 1), 6: ContractCount(1, 1, 0, 0)}
    assert vera.contracts == ContractCount(2, 1, 1, 1)
    assert vera.contracts.average_undertricks == 1
    assert (vera.defended, vera.whists) == (3, 1)


def test_the_dealer_of_four_sits_out_and_a_made_misere_counts():
    assert stats(FOUR, "Anna").deals == 1  # she dealt deal 1
    assert stats(FOUR, "Boris").deals == 1  # he dealt deal 2
    gleb = stats(FOUR, "Gleb")
    assert (gleb.deals, gleb.misere_made, gleb.defended) == (2, 1, 1)
    assert stats(FOUR, "Anna").by_level == {7: ContractCount(1, 0, 1, 2)}


def test_statistics_of_two_pulkas_are_the_sum_of_each():
    one, two = stats(THREE, "Anna"), stats(THREE, "Anna")

    both = add_up([one, two])

    assert both.deals == 14 and both.whister_remizes == 2
    assert both.by_level[6] == ContractCount(2, 2, 0, 0)
    assert add_up([]) == PlayStats()


def test_records_runs_and_rivals():
    results = [
        PulkaResult(3, Fraction(-40), False, {"Boris": Fraction(-40)}),
        PulkaResult(1, Fraction(50), True, {"Boris": Fraction(20), "Vera": Fraction(30)}),
        PulkaResult(2, Fraction(10), True, {"Vera": Fraction(10)}),
        PulkaResult(4, Fraction(5), True, {"Vera": Fraction(5)}),
    ]

    record = record_of(results)
    rivals = rivals_of(results)

    assert (record.pulkas, record.total, record.best, record.worst) == (4, 25, 50, -40)
    assert record.longest_winning_run == 2 and record.per_pulka == Fraction(25, 4)
    assert [(r.name, r.pulkas, r.balance) for r in rivals] == [
        ("Vera", 3, Fraction(45)),
        ("Boris", 2, Fraction(-20)),
    ]


# --- the balance after every deal --------------------------------------------------------


@pytest.mark.parametrize("preset", sorted(PRESET_NAMES))
@pytest.mark.parametrize("size", [3, 4])
def test_the_balance_after_each_deal_is_the_settlement_of_the_sheet_then(preset, size):
    @settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(legal_pulkas(preset, size, max_deals=25))
    def check(drawn: DrawnPulka) -> None:
        scored = score_pulka(read(drawn.data))
        balances = balance_after_each_deal(scored)
        assert len(balances) == len(drawn.states) - 1
        for state, balance in zip(drawn.states[1:], balances, strict=True):
            totals = Totals(state.names, state.target, state.pulya, state.gora, state.whists)
            assert balance == tuple(exact_result(totals, drawn.convention))
            assert sum(balance) == 0

    check()


def test_a_new_deal_settles_only_its_own_sheet(monkeypatch):
    from scoring.engine import stats

    monkeypatch.setattr(stats, "_SETTLED", {})
    calls = []
    real = stats.exact_result
    monkeypatch.setattr(stats, "exact_result", lambda t, c: calls.append(t) or real(t, c))
    deals = THREE["deals"]
    before = balance_after_each_deal(score_pulka(read({**THREE, "deals": deals[:-1]})))
    assert len(calls) == len(deals) - 1
    calls.clear()

    after = balance_after_each_deal(score_pulka(read(THREE)))

    assert len(calls) == 1  # the newest sheet; the others are the ones settled before
    assert after[:-1] == before


def test_the_settlements_kept_are_bounded_and_change_no_figure(monkeypatch):
    from scoring.engine import stats

    monkeypatch.setattr(stats, "_SETTLED", {})
    monkeypatch.setattr(stats, "SETTLED_KEPT", 4)
    scored = score_pulka(read(THREE))
    expected = [
        tuple(exact_result(t, scored.state.convention)) for t in _sheets_after_each_deal(scored)
    ]

    assert balance_after_each_deal(scored) == expected
    assert balance_after_each_deal(scored) == expected
    assert all(len(kept) <= 4 for kept in stats._SETTLED.values())


def _sheets_after_each_deal(scored):
    """The sheet after each deal, counted here from the records (no corrections in THREE)."""
    size = len(scored.state.names)
    pulya, gora = [0] * size, [0] * size
    whists = [[0] * size for _ in range(size)]
    sheets = []
    for record in scored.records:
        for entry in record.entries:
            if entry.section == "pulya":
                pulya[entry.player] += entry.points
            elif entry.section == "gora":
                gora[entry.player] += entry.points
            elif entry.on is not None:
                whists[entry.player][entry.on] += entry.points
        sheets.append(
            Totals(
                scored.state.names,
                scored.state.target,
                tuple(pulya),
                tuple(gora),
                tuple(tuple(row) for row in whists),
            )  # fmt: skip
        )
    return sheets


def test_corrections_penalties_count_from_the_deal_they_were_made_after():
    fixed = {**THREE["deals"][0], "tricks": {"Anna": 7, "Boris": 2, "Vera": 1}}
    deals = THREE["deals"]
    data = {**THREE, "deals": [*deals[:3], {"correct": 1, "deal": fixed}, *deals[3:]]}
    scored = score_pulka(read(data))

    balances = balance_after_each_deal(scored)

    assert balances[-1] == tuple(exact_result(scored.totals, scored.state.convention))


@pytest.mark.parametrize("size", [3, 4])
def test_a_deal_on_top_of_a_scored_pulka_equals_the_whole_fold(size):
    from scoring.engine.deals import parse_deal
    from scoring.engine.pulka import with_next_deal

    @settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(legal_pulkas("sochi", size, max_deals=20))
    def check(drawn: DrawnPulka) -> None:
        deals = drawn.data["deals"]
        if not deals:
            return
        shorter = read({**drawn.data, "deals": deals[:-1]})
        on_top = with_next_deal(score_pulka(shorter), parse_deal(deals[-1]))
        assert on_top == score_pulka(read(drawn.data))

    check()
