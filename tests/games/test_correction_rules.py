"""Who may correct, and what a correction applies: the rules the correction views ask.

``prefscore.games.corrections`` says why a user is refused before any facts are typed
(Кодекс 4.2.7-4.2.10, 4.2.16) and which facts a correction applies; the views only
parse, ask and render.
"""

from __future__ import annotations

from typing import Any

import pytest

from prefscore.games import corrections
from prefscore.games.models import Pulka
from prefscore.games.services import NotAllowed, record_deal, score, standing_deals
from scoring.engine.errors import DealError
from tests.games.conftest import six

WRONG = six("Anna", {"Anna": 6, "Boris": 4, "Vera": 0}, {"Boris": "whist", "Vera": "pass"})
RIGHT = six("Anna", {"Anna": 7, "Boris": 3, "Vera": 0}, {"Boris": "whist", "Vera": "pass"})


@pytest.fixture
def recorded(table: dict[str, Any]) -> dict[str, Any]:
    record_deal(table["pulka"].pk, WRONG, table["users"]["Anna"], 1)
    return table


def test_the_recorder_holding_the_pencil_changes_the_deal_and_no_one_corrects_it(
    recorded: dict[str, Any],
) -> None:
    pulka, users = recorded["pulka"], recorded["users"]
    deals = standing_deals(pulka)

    own = corrections.correction_refusal(pulka, users["Anna"], deals, 1)
    other = corrections.correction_refusal(pulka, users["Boris"], deals, 1)

    assert own is not None and "change it instead" in own.message and not own.forbidden
    assert other is not None and "anna still holds the pencil" in other.message
    assert not other.forbidden


def test_once_the_pencil_is_down_the_players_at_the_table_correct_and_outsiders_not(
    recorded: dict[str, Any],
) -> None:
    pulka, users = recorded["pulka"], recorded["users"]
    pulka.deals.update(entered_by=None)
    deals = standing_deals(pulka)

    assert corrections.correction_refusal(pulka, users["Boris"], deals, 1) is None
    outsider = corrections.correction_refusal(pulka, users["Outsider"], deals, 1)
    assert outsider is not None and outsider.forbidden


def test_a_finished_pulka_lets_only_its_last_deal_be_corrected(recorded: dict[str, Any]) -> None:
    pulka, users = recorded["pulka"], recorded["users"]
    record_deal(pulka.pk, RIGHT, users["Boris"], 2)
    pulka.deals.update(entered_by=None)
    pulka.status = Pulka.Status.FINISHED
    deals = standing_deals(pulka)

    first = corrections.correction_refusal(pulka, users["Vera"], deals, 1)
    assert first is not None and "only an arbiter" in first.message
    assert corrections.correction_refusal(pulka, users["Vera"], deals, 2) is None


def test_the_deadline_is_the_next_deal() -> None:
    assert not corrections.past_deadline(3, 3)
    assert corrections.past_deadline(2, 3)


def test_arbiters_decide_in_tournament_pulkas_only(recorded: dict[str, Any]) -> None:
    refusal = corrections.arbiter_refusal(recorded["pulka"], recorded["users"]["Organiser"])

    assert refusal is not None and "tournament" in refusal.message and refusal.forbidden


def test_forgotten_deals_are_proposed_and_answered_at_the_table(recorded: dict[str, Any]) -> None:
    pulka, users = recorded["pulka"], recorded["users"]

    assert corrections.proposal_refusal(pulka, users["Vera"]) is None
    assert corrections.answer_refusal(pulka, users["Vera"]) is None
    proposal = corrections.proposal_refusal(pulka, users["Outsider"])
    answer = corrections.answer_refusal(pulka, users["Outsider"])
    assert proposal is not None and proposal.forbidden
    assert answer is not None and answer.forbidden
    pulka.status = Pulka.Status.FINISHED
    frozen = corrections.proposal_refusal(pulka, users["Vera"])
    assert frozen is not None and not frozen.forbidden


def test_a_correction_keeps_the_deals_dealer_and_must_change_something(
    recorded: dict[str, Any],
) -> None:
    pulka = recorded["pulka"]
    before = score(pulka, []).state
    standing = {**WRONG, "dealer": "Vera"}

    facts = corrections.corrected_facts(before, standing, RIGHT)

    assert facts == {**RIGHT, "dealer": "Vera"}
    with pytest.raises(NotAllowed, match="facts that stand"):
        corrections.corrected_facts(before, standing, WRONG)
    with pytest.raises(DealError):
        corrections.corrected_facts(before, standing, {"contract": "6S"})
