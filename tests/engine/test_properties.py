"""Properties of the engine over random legal pulkas, every preset, 2 to 5 players.

docs/design.md: "every settlement adds up to zero; both Кодекс methods agree; replaying a
protocol file gives the same sheet". The pulkas come from ``legal.py``: each deal is
drawn for the state it meets, so every one is a pulka a table could have played.
"""

from __future__ import annotations

import json
from collections import defaultdict
from fractions import Fraction

import pytest
from hypothesis import HealthCheck, given, settings

from scoring.engine.conventions import PRESET_NAMES, Convention
from scoring.engine.deals import GORA, PULYA
from scoring.engine.numbers import Points
from scoring.engine.protocol import loads, read, score_text
from scoring.engine.pulka import Pulka, score_pulka
from scoring.engine.settlement import (
    Totals,
    average_mountain_method,
    exact_result,
    pairwise_method,
    payments,
    rounding_bound,
    whole_result,
)

from .legal import DrawnPulka, legal_pulkas

SIZES = (2, 3, 4, 5)
COMBINATIONS = [(preset, size) for preset in PRESET_NAMES for size in SIZES]
IDS = [f"{preset}-{size}p" for preset, size in COMBINATIONS]
# 16 combinations at 20 pulkas each (320 a property, with up to 40 deals a pulka)
# keeps the suite quick on two cores; drawing the deals is most of the time.
PROPERTY = settings(
    max_examples=20,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


def totals_of(drawn: DrawnPulka) -> Totals:
    s = drawn.final
    return Totals(s.names, s.target, s.pulya, s.gora, s.whists)


def check_settlement(totals: Totals, convention: Convention) -> None:
    size = totals.size
    exact = exact_result(totals, convention)
    assert sum(Fraction(r) for r in exact) == 0
    assert pairwise_method(totals, convention).result == exact
    assert average_mountain_method(totals, convention).result == exact

    whole = whole_result(totals, convention)
    assert all(type(r) is int for r in whole.result)
    assert sum(whole.result) == 0
    bound = rounding_bound(size, convention, len(whole.adjustments))
    assert all(abs(w - e) <= bound for w, e in zip(whole.result, exact, strict=True))

    for result in (exact, whole.result):
        found = payments(result)
        assert len(found) <= size - 1
        balance: list[Points] = list(result)
        for payment in found:
            assert payment.amount > 0
            balance[payment.payer] += payment.amount
            balance[payment.payee] -= payment.amount
        assert all(b == 0 for b in balance)


@pytest.mark.parametrize(("preset", "size"), COMBINATIONS, ids=IDS)
def test_every_settlement_adds_up_to_zero_and_both_methods_agree(preset: str, size: int) -> None:
    @PROPERTY
    @given(legal_pulkas(preset, size))
    def check(drawn: DrawnPulka) -> None:
        # Every sheet on the way is a sheet players may stop at and settle (rule 4.2.3).
        for state in (*drawn.states[1:-1:6], drawn.final):
            totals = Totals(state.names, state.target, state.pulya, state.gora, state.whists)
            check_settlement(totals, drawn.convention)

    check()


@pytest.mark.parametrize(("preset", "size"), COMBINATIONS, ids=IDS)
def test_replaying_a_pulka_file_gives_the_same_sheet_entry_by_entry(preset: str, size: int) -> None:
    @PROPERTY
    @given(legal_pulkas(preset, size))
    def check(drawn: DrawnPulka) -> None:
        text = json.dumps(drawn.data, ensure_ascii=False)
        pulka = loads(text)
        assert isinstance(pulka, Pulka)
        assert read(json.loads(text)) == pulka
        scored = score_pulka(pulka)
        assert scored == score_pulka(pulka)
        assert scored.state == drawn.final
        assert scored.records == drawn.records

        output = score_text(text)
        assert output == score_text(json.dumps(json.loads(text)))
        assert json.loads(json.dumps(output, ensure_ascii=False)) == output
        assert output["closed"] == drawn.final.closed
        assert len(output["deals"]) == len(drawn.data["deals"])
        check_entries(drawn, size)

    check()


def check_entries(drawn: DrawnPulka, size: int) -> None:
    """The entries of each deal add up to the sheet after it; help stays in the target."""
    target = drawn.final.target
    pulya: dict[int, Points] = defaultdict(int)
    gora: dict[int, Points] = defaultdict(int)
    whists: dict[tuple[int, int], Points] = defaultdict(int)
    for record, state in zip(drawn.records, drawn.states[1:], strict=True):
        for entry in record.entries:
            if entry.section == PULYA:
                pulya[entry.player] += entry.points
            elif entry.section == GORA:
                gora[entry.player] += entry.points
            else:
                assert entry.on is not None and entry.on != entry.player
                whists[entry.player, entry.on] += entry.points
                assert entry.points >= 0 or entry.reason == "penalty"
        assert state.pulya == tuple(pulya[i] for i in range(size))
        assert state.gora == tuple(gora[i] for i in range(size))
        assert all(state.whists[i][j] == whists[i, j] for i in range(size) for j in range(size))
        if drawn.convention.help:
            assert all(p <= target for p in state.pulya)
        help_given = [e for e in record.entries if e.reason == "help" and e.section == PULYA]
        help_whists = [e for e in record.entries if e.reason == "help" and e.section != PULYA]
        assert [10 * e.points for e in help_given] == [e.points for e in help_whists]
