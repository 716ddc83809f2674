"""A pulka's limits (docs/protocol.md, "Limits") and the checkpointed fold: a correction
re-scores only the deals from the one it corrects, and gives exactly what
folding the whole log again would."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scoring.engine.deals import parse_deal
from scoring.engine.errors import DealError, ScoringError
from scoring.engine.penalties import judge_correction
from scoring.engine.protocol import read, score_text
from scoring.engine.pulka import (
    MAX_CORRECTIONS,
    MAX_DEALS,
    REFOLD_LIMIT,
    Correction,
    Pulka,
    fold,
    score_pulka,
)
from scoring.engine.sheet import add_entries, apply, start

from .legal import legal_pulkas

ALLPASS = {"contract": "allpass", "tricks": {"A": 4, "B": 3, "C": 3}}
OTHER_ALLPASS = {"contract": "allpass", "tricks": {"A": 3, "B": 4, "C": 3}}


def text(deals: list[dict[str, Any]]) -> str:
    return json.dumps(
        {"convention": "sochi", "players": ["A", "B", "C"], "target": 50, "deals": deals}
    )


def refold_everything(pulka: Pulka) -> Any:
    """The fold as it was before checkpoints: the whole log again for each correction."""
    deals, judged, warned = [], [], frozenset()
    state = start(pulka.names, pulka.convention, pulka.target, pulka.first_dealer)
    records = []
    for item in pulka.log:
        if not isinstance(item, Correction):
            deals.append(item)
            try:
                state, record = apply(state, item)
            except DealError as error:
                raise error.at("deal", len(deals), len(deals)) from None
            records.append(record)
            continue
        if not 1 <= item.number <= len(deals):
            raise DealError("correction.no_such_deal", "correct").at("correction", item.number)
        wrong = records[item.number - 1]
        deals[item.number - 1] = item.deal
        try:
            state, records = fold(pulka, deals)
        except DealError as error:
            raise error.at("correction", item.number) from None
        outcome = judge_correction(
            item.number,
            len(deals),
            wrong.entries,
            records[item.number - 1].entries,
            len(pulka.names),
            warned,
            item.penalise,
        )
        warned = warned | frozenset(outcome.warned)
        judged.append(outcome)
    for outcome in judged:
        state = add_entries(state, outcome.penalties)
    return state, tuple(records), tuple(judged)


def outcome_of(score: Any, pulka: Pulka) -> Any:
    try:
        return score(pulka)
    except ScoringError as error:
        return ("refused", str(error), getattr(error, "places", ()))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(drawn=legal_pulkas("sochi", 3, max_deals=14), data=st.data())
def test_checkpoints_give_what_refolding_everything_gives(drawn, data) -> None:
    pulka = read(drawn.data)
    deals = [item for item in pulka.log if not isinstance(item, Correction)]
    log = list(pulka.log)
    for _ in range(data.draw(st.integers(0, 5))):
        if not deals:
            break
        position = data.draw(st.integers(1, len(log)))
        number = data.draw(st.integers(1, len(deals) + 1))  # one past the end: refused
        facts = data.draw(st.sampled_from(drawn.data["deals"]))
        log.insert(position, Correction(number, parse_deal(facts), data.draw(st.booleans())))
    corrected = Pulka(
        pulka.names, pulka.convention, pulka.target, pulka.first_dealer, pulka.stake, tuple(log)
    )

    new = outcome_of(score_pulka, corrected)
    old = outcome_of(refold_everything, corrected)

    if isinstance(old, tuple) and old and old[0] == "refused":
        assert new == old
    else:
        assert (new.state, new.records, new.corrections) == old


def test_a_pulka_of_more_than_2000_deals_is_refused() -> None:
    with pytest.raises(ScoringError, match=f"^a pulka has at most {MAX_DEALS} deals$"):
        score_text(text([ALLPASS] * (MAX_DEALS + 1)))


def test_a_pulka_of_more_than_2000_corrections_is_refused() -> None:
    log = [ALLPASS] + [{"correct": 1, "deal": OTHER_ALLPASS}] * (MAX_CORRECTIONS + 1)
    with pytest.raises(ScoringError, match=f"^a pulka has at most {MAX_CORRECTIONS} corrections$"):
        score_text(text(log))


def test_a_file_of_too_many_items_is_refused_before_reading_them() -> None:
    with pytest.raises(ScoringError, match="at most 2000 deals and 2000 corrections"):
        score_text(text([ALLPASS] * 4001))


def test_correcting_early_deals_over_and_over_is_refused_within_the_budget() -> None:
    # Each correction of deal 1 re-scores the 1000 deals after it: the 101st would pass the
    # budget, and is refused there rather than folded (how long it takes is bench/'s).
    corrections = [{"correct": 1, "deal": OTHER_ALLPASS}] * (REFOLD_LIMIT // 1000 + 1)

    with pytest.raises(ScoringError, match="would re-score more than 100000 deals"):
        score_text(text([ALLPASS] * 1000 + corrections))


def test_the_limits_hold_exactly_at_the_edge() -> None:
    log = [ALLPASS] * MAX_DEALS + [{"correct": MAX_DEALS, "deal": OTHER_ALLPASS}] * MAX_CORRECTIONS
    output = score_text(text(log))

    assert len(output["corrections"]) == MAX_CORRECTIONS


# --- one more deal on top of a scored pulka ------------------------------------------------


def test_one_more_deal_on_top_equals_scoring_the_longer_log() -> None:
    from scoring.engine.deals import parse_deal
    from scoring.engine.protocol import read
    from scoring.engine.pulka import score_pulka, with_next_deal

    deals = [ALLPASS] * 5 + [{"correct": 2, "deal": OTHER_ALLPASS}] + [ALLPASS] * 3
    shorter = read(json.loads(text(deals)))
    longer = read(json.loads(text([*deals, OTHER_ALLPASS])))

    on_top = with_next_deal(score_pulka(shorter), parse_deal(OTHER_ALLPASS))

    assert on_top == score_pulka(longer)
