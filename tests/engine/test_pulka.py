"""A whole pulka folded into a sheet (scoring/engine/pulka.py)."""

from __future__ import annotations

import pytest

from scoring.engine.contracts import Contract, Kind
from scoring.engine.conventions import preset
from scoring.engine.deals import Deal
from scoring.engine.errors import DealError
from scoring.engine.pulka import Correction, Pulka, fold, score_pulka

ALLPASS = Contract(Kind.ALLPASS)


def deal(a: int, b: int, c: int) -> Deal:
    return Deal(ALLPASS, tricks=(("A", a), ("B", b), ("C", c)))


def pulka(*log: Deal | Correction) -> Pulka:
    return Pulka(("A", "B", "C"), preset("sochi"), 10, 0, None, log)


def test_score_pulka_folds_every_deal_in_order() -> None:
    scored = score_pulka(pulka(deal(0, 4, 6), deal(3, 3, 4)))
    assert [r.number for r in scored.records] == [1, 2]
    assert [r.dealer for r in scored.records] == [0, 1]
    assert scored.totals.gora == (0, 4, 7)
    assert scored.totals.pulya == (1, 0, 0)
    assert scored.state.deals_played == 2


def test_an_error_names_its_deal_and_field() -> None:
    with pytest.raises(DealError) as error:
        score_pulka(pulka(deal(0, 4, 6), deal(3, 3, 5)))
    assert str(error.value) == "deal 2: tricks add up to 11, they must add up to 10"
    assert (error.value.number, error.value.field) == (2, "tricks")


def test_fold_names_the_deal_too() -> None:
    with pytest.raises(DealError, match="^deal 1: tricks add up to 9"):
        fold(pulka(), [deal(3, 3, 3)])


def test_a_correction_replaces_its_deal_and_refolds() -> None:
    scored = score_pulka(pulka(deal(0, 4, 6), deal(3, 3, 4), Correction(1, deal(1, 4, 5))))
    assert scored.totals.pulya == (0, 0, 0)
    assert scored.totals.gora == (0, 3, 5)
    assert scored.records[0].deal == deal(1, 4, 5)
    assert scored.corrections[0].number == 1 and scored.corrections[0].after_deal == 2


def test_scoring_twice_gives_the_same_answer() -> None:
    log = pulka(deal(0, 4, 6), deal(3, 3, 4), Correction(2, deal(4, 3, 3)))
    assert score_pulka(log) == score_pulka(log)
