"""Corrections by the Кодекс at the table: rules 4.2.7, 4.2.9, 4.2.10 and 4.2.16."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from django.utils import translation

from prefscore.games.corrections import answer_forgotten, correct_deal, propose_forgotten
from prefscore.games.models import AuditEvent, Correction, Deal, ForgottenDeal, Pulka
from prefscore.games.services import NotAllowed, pencil_change, record_deal, score
from scoring.engine.errors import DealError
from tests.web.fixtures_tournaments import make_tournament

from .conftest import six

# Anna declares 6♠; Boris whists, Vera passes. Recorded with 4 defence tricks (Boris
# writes 8 whists on Anna), when the defence took only 3 (6 whists): Boris over-wrote 2.
WRONG = six("Anna", {"Anna": 6, "Boris": 4, "Vera": 0}, {"Boris": "whist", "Vera": "pass"})
RIGHT = six("Anna", {"Anna": 7, "Boris": 3, "Vera": 0}, {"Boris": "whist", "Vera": "pass"})
OTHER = {"contract": "allpass", "tricks": {"Anna": 3, "Boris": 3, "Vera": 4}}


@pytest.fixture(autouse=True)
def english() -> Iterator[None]:
    """The refusals are matched by their English wording: the site's default is Russian."""
    with translation.override("en"):
        yield


def record(table: dict[str, Any], facts: dict[str, Any], by: str = "Anna") -> None:
    pulka = table["pulka"]
    number = Deal.objects.filter(pulka=pulka, withdrawn_at__isnull=True).count() + 1
    record_deal(pulka.pk, facts, table["users"][by], number)


def sheet(table: dict[str, Any]) -> Any:
    table["pulka"].refresh_from_db()
    return score(table["pulka"]).state


def test_the_first_correction_a_player_receives_is_a_warning(table: dict[str, Any]) -> None:
    wrong = six("Anna", {"Anna": 6, "Boris": 4, "Vera": 0}, {"Boris": "whist", "Vera": "pass"})
    record(table, wrong)
    right = six("Anna", {"Anna": 7, "Boris": 3, "Vera": 0}, {"Boris": "whist", "Vera": "pass"})
    done = correct_deal(table["pulka"].pk, table["users"]["Vera"], 1, right)
    assert done.outcome.warned == (1,)  # Boris
    assert done.outcome.penalties == ()
    assert sheet(table).whists[1][0] == 6  # the corrected figure: 3 defence tricks x 2


def test_the_second_correction_favouring_a_player_costs_the_over_entry(
    table: dict[str, Any],
) -> None:
    record(
        table, six("Anna", {"Anna": 6, "Boris": 4, "Vera": 0}, {"Boris": "whist", "Vera": "pass"})
    )
    correct_deal(
        table["pulka"].pk,
        table["users"]["Vera"],
        1,
        six("Anna", {"Anna": 7, "Boris": 3, "Vera": 0}, {"Boris": "whist", "Vera": "pass"}),
    )
    record(
        table,
        six("Vera", {"Vera": 6, "Boris": 4, "Anna": 0}, {"Anna": "pass", "Boris": "whist"}),
        by="Vera",
    )
    done = correct_deal(
        table["pulka"].pk,
        table["users"]["Anna"],
        2,
        six("Vera", {"Vera": 7, "Boris": 3, "Anna": 0}, {"Anna": "pass", "Boris": "whist"}),
    )
    # Boris over-wrote 2 whists on Vera: removed, and Vera writes 2 on Boris (4.2.7 a);
    # with 3 defence tricks he was also 1 short of the 4 due, 2 gora he had not written.
    assert [(e.player, e.section, e.points, e.on) for e in done.outcome.penalties] == [
        (2, "whists", 2, 1),
        (1, "gora", 2, None),
    ]
    state = sheet(table)
    assert state.whists[1][2] == 6 and state.whists[2][1] == 2


def test_pulya_over_written_goes_into_the_offenders_gora(table: dict[str, Any]) -> None:
    unplayed_seven = {
        "contract": "7S",
        "declarer": "Anna",
        "whists": {"Boris": "pass", "Vera": "pass"},
    }
    unplayed_six = {**unplayed_seven, "contract": "6S"}
    record(table, unplayed_seven)
    correct_deal(table["pulka"].pk, table["users"]["Boris"], 1, unplayed_six)  # warning
    record(table, unplayed_seven)
    done = correct_deal(table["pulka"].pk, table["users"]["Boris"], 2, unplayed_six)
    assert [(e.player, e.section, e.points) for e in done.outcome.penalties] == [(0, "gora", 2)]
    state = sheet(table)
    assert state.pulya[0] == 4 and state.gora[0] == 2


def test_gora_under_written_goes_into_the_offenders_gora(table: dict[str, Any]) -> None:
    made = six("Anna", {"Anna": 6, "Boris": 2, "Vera": 2}, {"Boris": "whist", "Vera": "pass"})
    down = six("Anna", {"Anna": 5, "Boris": 3, "Vera": 2}, {"Boris": "whist", "Vera": "pass"})
    record(table, made)
    correct_deal(table["pulka"].pk, table["users"]["Boris"], 1, down)  # Anna warned
    record(table, made)
    done = correct_deal(table["pulka"].pk, table["users"]["Boris"], 2, down)
    # Anna wrote 2 pulya instead of 2 gora: pulya over 2 + gora under 2 = 4 more gora.
    assert (0, "gora", 4) in [(e.player, e.section, e.points) for e in done.outcome.penalties]


def test_anyone_at_the_table_corrects_until_the_next_deal(table: dict[str, Any]) -> None:
    record(table, WRONG)
    done = correct_deal(table["pulka"].pk, table["users"]["Vera"], 1, RIGHT)
    assert done.correction.kind == Correction.Kind.CORRECTION and done.correction.penalise


def test_after_the_next_deal_only_the_favoured_player_may_correct(table: dict[str, Any]) -> None:
    record(table, WRONG)
    record(table, OTHER, by="Boris")
    with pytest.raises(NotAllowed, match="4.2.9"):
        correct_deal(table["pulka"].pk, table["users"]["Vera"], 1, RIGHT)
    assert not Correction.objects.exists()
    done = correct_deal(table["pulka"].pk, table["users"]["Boris"], 1, RIGHT)
    assert done.correction.kind == Correction.Kind.VOLUNTARY
    assert not done.correction.penalise and done.outcome.warned == ()
    assert sheet(table).whists[1][0] == 6  # the corrected 3 defence tricks x 2


def test_someone_not_at_the_table_cannot_correct(table: dict[str, Any]) -> None:
    record(table, WRONG)
    for who in ("Outsider", "Organiser"):
        with pytest.raises(NotAllowed):
            correct_deal(table["pulka"].pk, table["users"][who], 1, RIGHT)
    assert not Correction.objects.exists()


def test_a_correction_that_breaks_a_rule_is_refused_and_not_saved(table: dict[str, Any]) -> None:
    record(table, WRONG)
    bad = six("Anna", {"Anna": 6, "Boris": 3, "Vera": 3}, {"Boris": "whist", "Vera": "pass"})
    with pytest.raises(DealError, match="add up to 12"):
        correct_deal(table["pulka"].pk, table["users"]["Vera"], 1, bad)
    assert not Correction.objects.exists()


def test_a_correction_of_a_deal_that_does_not_exist_is_refused(table: dict[str, Any]) -> None:
    with pytest.raises(NotAllowed, match="no deal 3"):
        correct_deal(table["pulka"].pk, table["users"]["Vera"], 3, RIGHT)


def test_an_organiser_applies_an_arbiters_decision_with_a_reason(table: dict[str, Any]) -> None:
    record(table, WRONG)
    record(table, OTHER, by="Boris")
    organiser = table["users"]["Organiser"]
    with pytest.raises(NotAllowed, match="tournament"):
        correct_deal(table["pulka"].pk, organiser, 1, RIGHT, arbiter_reason="Judges' panel")
    Pulka.objects.filter(pk=table["pulka"].pk).update(
        tournament=make_tournament(table["club"]), round_number=1
    )
    with pytest.raises(NotAllowed, match="reason"):
        correct_deal(table["pulka"].pk, organiser, 1, RIGHT, arbiter_reason=" ")
    with pytest.raises(NotAllowed):
        correct_deal(table["pulka"].pk, table["users"]["Vera"], 1, RIGHT, arbiter_reason="x")
    done = correct_deal(
        table["pulka"].pk,
        organiser,
        1,
        RIGHT,
        arbiter_reason="Judges' panel",
        arbiter_penalty=False,
    )
    assert done.correction.kind == Correction.Kind.ARBITER
    assert done.correction.reason == "Judges' panel" and not done.correction.penalise


def test_a_forgotten_deal_is_added_when_everyone_agrees(table: dict[str, Any]) -> None:
    record(table, WRONG)
    users = table["users"]
    proposal = propose_forgotten(table["pulka"].pk, users["Boris"], OTHER)
    assert proposal.status == ForgottenDeal.Status.PENDING
    answer_forgotten(proposal.pk, users["Anna"], 0, True)
    proposal = answer_forgotten(proposal.pk, users["Vera"], 2, True)
    assert proposal.status == ForgottenDeal.Status.ADDED
    assert Deal.objects.filter(pulka=table["pulka"], number=2).exists()


def test_one_refusal_drops_a_forgotten_deal(table: dict[str, Any]) -> None:
    record(table, WRONG)
    users = table["users"]
    proposal = propose_forgotten(table["pulka"].pk, users["Boris"], OTHER)
    proposal = answer_forgotten(proposal.pk, users["Vera"], 2, False)
    assert proposal.status == ForgottenDeal.Status.REFUSED
    with pytest.raises(NotAllowed):
        answer_forgotten(proposal.pk, users["Anna"], 0, True)
    assert Deal.objects.filter(pulka=table["pulka"]).count() == 1


def test_a_player_answers_only_for_himself(table: dict[str, Any]) -> None:
    users = table["users"]
    proposal = propose_forgotten(table["pulka"].pk, users["Boris"], OTHER)
    with pytest.raises(NotAllowed, match="himself"):
        answer_forgotten(proposal.pk, users["Boris"], 2, True)
    with pytest.raises(NotAllowed):
        answer_forgotten(proposal.pk, users["Outsider"], 2, True)


def test_a_forgotten_deal_lapses_when_the_next_deal_is_recorded(table: dict[str, Any]) -> None:
    users = table["users"]
    proposal = propose_forgotten(table["pulka"].pk, users["Boris"], OTHER)
    record(table, WRONG)
    proposal.refresh_from_db()
    assert proposal.status == ForgottenDeal.Status.LAPSED
    with pytest.raises(NotAllowed):
        answer_forgotten(proposal.pk, users["Anna"], 0, True)


def test_the_audit_trail_holds_every_record_correction_penalty_and_consent(
    table: dict[str, Any],
) -> None:
    users = table["users"]
    record(table, WRONG)
    correct_deal(table["pulka"].pk, users["Vera"], 1, RIGHT)
    proposal = propose_forgotten(table["pulka"].pk, users["Boris"], OTHER)
    answer_forgotten(proposal.pk, users["Vera"], 2, False)
    actions = list(
        AuditEvent.objects.filter(pulka=table["pulka"]).values_list("action", "user__username")
    )
    assert actions == [
        ("recorded", "anna"),
        ("corrected", "vera"),
        ("warned", "vera"),
        ("proposed", "boris"),
        ("consented", "boris"),
        ("refused", "vera"),
    ]


def test_the_pencil_no_longer_applies_to_a_corrected_deal(table: dict[str, Any]) -> None:
    record(table, WRONG)
    Correction.objects.create(
        pulka=table["pulka"], deal_number=1, after_deal=1, facts=RIGHT, kind="correction"
    )
    with pytest.raises(NotAllowed, match="corrected"):
        pencil_change(table["pulka"].pk, table["users"]["Anna"], 1, None)
    assert Deal.objects.current().filter(pulka=table["pulka"]).count() == 1


def test_a_deal_corrected_twice_before_the_next_deal_takes_the_second_correction(
    table: dict[str, Any],
) -> None:
    """The second correction's unsaved draft was sorted against saved ones by
    its empty creation time, and the POST failed with a TypeError (500)."""
    record(table, OTHER)
    record(table, WRONG)
    correct_deal(table["pulka"].pk, table["users"]["Vera"], 2, OTHER)

    again = correct_deal(table["pulka"].pk, table["users"]["Vera"], 2, RIGHT)

    assert again.correction.deal_number == 2
    assert Correction.objects.filter(pulka=table["pulka"]).count() == 2
    assert sheet(table).whists[1][0] == 6  # the second correction stands


def test_a_second_arbiters_decision_on_a_deal_stands(table: dict[str, Any]) -> None:
    record(table, WRONG)
    record(table, OTHER, by="Boris")
    Pulka.objects.filter(pk=table["pulka"].pk).update(
        tournament=make_tournament(table["club"]), round_number=1
    )
    organiser = table["users"]["Organiser"]
    correct_deal(table["pulka"].pk, organiser, 1, OTHER, arbiter_reason="First look")

    second = correct_deal(table["pulka"].pk, organiser, 1, RIGHT, arbiter_reason="Appeal")

    assert second.correction.reason == "Appeal"
    assert sheet(table).whists[1][0] == 6
