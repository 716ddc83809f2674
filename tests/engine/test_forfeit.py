"""Forfeit scores (docs/tournaments.md §4.9), known answers: the player who left his
table counts at most the regulations' figure for that round; his opponents, as played."""

from __future__ import annotations

from scoring.engine.forfeit import forfeited
from scoring.engine.ranking import TableResult

TABLE = TableResult(2, ("a", "b", "c"), (40, -10, -30))


def test_no_cap_counts_the_sheet_as_it_stands():
    assert forfeited(TABLE, {("a", 2)}, None) == TABLE


def test_a_cap_of_zero_records_no_gain():
    assert forfeited(TABLE, {("a", 2)}, 0).whists == (0, -10, -30)


def test_a_negative_cap_is_a_penalty_on_the_leaver_only():
    assert forfeited(TABLE, {("b", 2)}, -100).whists == (40, -100, -30)


def test_a_loss_below_the_cap_stands():
    assert forfeited(TABLE, {("c", 2)}, -20).whists == (40, -10, -30)


def test_a_forfeit_of_another_round_changes_nothing():
    assert forfeited(TABLE, {("a", 1), ("a", 3)}, 0) == TABLE
