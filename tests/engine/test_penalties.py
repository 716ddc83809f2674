"""Corrections and their penalties (scoring/engine/penalties.py; Кодекс 4.2.7).

The first correction that favours a player is a warning; after that the penalty
equals the over-entry: whists over-written on j are written by j on the offender,
pulya over-written and gora under-written go into the offender's gora (docs/protocol.md,
"Corrections").
"""

from __future__ import annotations

from typing import Any

import pytest

from scoring.engine.deals import GORA, PULYA, WHISTS, Entry
from scoring.engine.errors import ScoringError
from scoring.engine.penalties import Favour, favours, judge_correction, penalty_entries

from .support import allpass, figures, played, score, unplayed, whists_on

B_WHISTS = {"B": "whist", "C": "pass"}


def six(a: int, b: int, c: int) -> dict[str, Any]:
    """A 6 by A, B whisting and C passing, with these tricks."""
    return played("6S", "A", B_WHISTS, {"A": a, "B": b, "C": c})


def correct(number: int, deal: dict[str, Any]) -> dict[str, Any]:
    return {"correct": number, "deal": deal}


def judged(output: dict[str, Any]) -> list[dict[str, Any]]:
    """The corrections of an output, by the fields docs/protocol.md names."""
    keys = ("correct", "after_deal", "warned", "penalties")
    return [{key: c[key] for key in keys} for c in output["corrections"]]


def both_whist(a: int, b: int, c: int) -> dict[str, Any]:
    """A 6 by A with both defenders whisting: each writes his own tricks."""
    return played("6", "A", {"B": "whist", "C": "whist"}, {"A": a, "B": b, "C": c})


def test_the_first_over_written_whists_are_a_warning() -> None:
    out = score([six(6, 3, 1), correct(1, six(7, 2, 1))])
    assert judged(out) == [{"correct": 1, "after_deal": 1, "warned": ["B"], "penalties": []}]
    assert whists_on(out) == {("B", "A"): 6}


def test_the_second_over_written_whists_let_the_partner_write_as_many() -> None:
    log = [
        both_whist(6, 3, 1),
        allpass({"A": 3, "B": 3, "C": 4}),
        correct(1, both_whist(6, 2, 2)),
        correct(1, both_whist(6, 1, 3)),
    ]
    out = score(log)
    assert judged(out) == [
        {"correct": 1, "after_deal": 2, "warned": ["B"], "penalties": []},
        {
            "correct": 1,
            "after_deal": 2,
            "warned": [],
            "penalties": [{"player": "A", "section": "whists", "on": "B", "points": 2}],
        },
    ]
    assert whists_on(out) == {("B", "A"): 2, ("C", "A"): 6, ("A", "B"): 2}


def test_a_shortfall_left_out_of_the_gora_is_charged_as_well() -> None:
    log = [six(6, 3, 1), correct(1, six(7, 2, 1)), correct(1, six(8, 2, 0))]
    last = judged(score(log))[-1]
    assert last["penalties"] == [
        {"player": "A", "section": "whists", "on": "B", "points": 2},
        {"player": "B", "section": "gora", "points": 2},
    ]


def test_over_written_pulya_goes_into_the_offenders_gora() -> None:
    log = [
        unplayed("8", "B", "CA"),
        correct(1, unplayed("7", "B", "CA")),
        correct(1, unplayed("6", "B", "CA")),
    ]
    out = score(log)
    assert [c["warned"] for c in out["corrections"]] == [["B"], []]
    assert out["corrections"][1]["penalties"] == [{"player": "B", "section": "gora", "points": 2}]
    assert figures(out, "pulya")["B"] == 2
    assert figures(out, "gora")["B"] == 2


def test_under_written_gora_goes_into_the_offenders_gora() -> None:
    log = [
        six(6, 3, 1),  # recorded as made: pulya 2
        correct(1, six(5, 4, 1)),  # one down: more pulya and less gora than due, a warning
        allpass({"A": 3, "B": 3, "C": 4}),
    ]
    out = score(log)
    assert [c["warned"] for c in out["corrections"]] == [["A"]]
    log.append(correct(1, six(4, 5, 1)))  # two down, not one: 2 gora left out, A pays
    last = judged(score(log))[-1]
    assert last == {
        "correct": 1,
        "after_deal": 2,
        "warned": [],
        "penalties": [{"player": "A", "section": "gora", "points": 2}],
    }


def test_a_correction_that_does_not_favour_a_player_keeps_his_warning() -> None:
    log = [six(7, 2, 1), correct(1, six(6, 3, 1))]  # B under-wrote his own whists
    out = score(log)
    assert out["corrections"][0]["warned"] == []
    log.append(correct(1, six(7, 2, 1)))  # now B's record favoured him: a warning
    out = score(log)
    assert judged(out)[-1] == {"correct": 1, "after_deal": 1, "warned": ["B"], "penalties": []}


def test_one_correction_can_warn_several_players() -> None:
    wrong = played("6", "A", {"B": "whist", "C": "whist"}, {"A": 4, "B": 3, "C": 3})
    right = played("6", "A", {"B": "whist", "C": "whist"}, {"A": 5, "B": 3, "C": 2})
    out = score([wrong, correct(1, right)])
    assert out["corrections"][0]["warned"] == ["B", "C"]


def test_penalties_touch_neither_the_pulya_nor_the_end() -> None:
    log = [
        unplayed("8", "B", "CA"),
        correct(1, unplayed("7", "B", "CA")),
        correct(1, unplayed("6", "B", "CA")),
    ]
    out = score(log, target=2)
    assert figures(out, "pulya") == {"A": 0, "B": 2, "C": 0}
    assert not out["closed"]


def test_it_refuses_the_correction_of_a_deal_that_does_not_exist() -> None:
    with pytest.raises(ScoringError) as error:
        score([six(6, 3, 1), correct(3, six(6, 3, 1))])
    assert str(error.value) == "correction of deal 3: there is no such deal yet"


def test_it_refuses_the_correction_of_a_deal_not_played_yet() -> None:
    with pytest.raises(ScoringError, match="^correction of deal 2: there is no such deal yet$"):
        score([six(6, 3, 1), correct(2, six(6, 3, 1)), allpass({"A": 3, "B": 3, "C": 4})])


def test_a_correction_that_breaks_a_later_deal_names_both() -> None:
    log = [
        unplayed("6", "A", "BC"),
        unplayed("6", "B", "CA"),
        correct(1, allpass({"A": 3, "B": 3, "C": 4})),
    ]
    with pytest.raises(ScoringError) as error:
        score(log, convention="leningrad")
    assert str(error.value) == (
        "correction of deal 1: deal 2: after the all-passes the lowest contract allowed is 7, not 6"
    )


def test_a_correction_counts_deals_only() -> None:
    log = [
        six(6, 3, 1),
        correct(1, six(7, 2, 1)),
        allpass({"A": 3, "B": 3, "C": 4}),
        correct(2, allpass({"A": 2, "B": 4, "C": 4})),
    ]
    out = score(log)
    assert [c["correct"] for c in out["corrections"]] == [1, 2]
    assert [d["number"] for d in out["deals"]] == [1, 2]


# --- the module's functions ----------------------------------------------------------------


def test_favours_compare_what_each_record_wrote_for_each_player() -> None:
    wrong = [Entry(0, PULYA, 4), Entry(1, WHISTS, 8, 0), Entry(2, GORA, 2)]
    right = [Entry(0, PULYA, 2), Entry(1, WHISTS, 6, 0), Entry(2, GORA, 6), Entry(0, GORA, 1)]
    assert favours(wrong, right, 3) == (
        Favour(0, 2, 1, ()),
        Favour(1, 0, 0, ((0, 2),)),
        Favour(2, 0, 4, ()),
    )


def test_penalty_entries_equal_the_over_entry() -> None:
    assert penalty_entries(Favour(1, 0, 0, ((0, 2), (2, 5)))) == (
        Entry(0, WHISTS, 2, 1, "penalty"),
        Entry(2, WHISTS, 5, 1, "penalty"),
    )
    assert penalty_entries(Favour(0, 2, 1, ())) == (Entry(0, GORA, 3, reason="penalty"),)


def test_judge_correction_warns_first_and_charges_after() -> None:
    wrong, right = [Entry(1, WHISTS, 8, 0)], [Entry(1, WHISTS, 6, 0)]
    first = judge_correction(1, 1, wrong, right, 3, frozenset())
    assert (first.warned, first.penalties) == ((1,), ())
    second = judge_correction(1, 1, wrong, right, 3, frozenset({1}))
    assert (second.warned, second.penalties) == ((), (Entry(0, WHISTS, 2, 1, "penalty"),))


def test_an_identical_record_favours_nobody() -> None:
    entries = [Entry(0, PULYA, 2), Entry(1, WHISTS, 8, 0)]
    assert favours(entries, entries, 3) == ()
    assert judge_correction(1, 1, entries, entries, 3, frozenset()).warned == ()
