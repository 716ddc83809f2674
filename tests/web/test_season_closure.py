"""An arbiter's corrected closing of a season's tournament reaches the table at once
(docs/seasons.md §1): no other save is needed for the stored table to equal the recount."""

from __future__ import annotations

import datetime

import pytest

from prefscore.games.models import Pulka
from prefscore.seasons import standings
from prefscore.seasons.models import Season
from prefscore.tournaments import decisions, stages, tables
from prefscore.tournaments.models import TableClosure
from tests.web.fixtures_tournaments import close_round, draw

pytestmark = pytest.mark.django_db


def test_an_arbiters_corrected_closing_reaches_the_season_at_once(tournament_world, cup):
    organiser = tournament_world.users["organiser"]
    season = Season.objects.create(
        club=tournament_world.club,
        name="Spring",
        slug="spring",
        starts_on=datetime.date(2000, 1, 1),
        ends_on=datetime.date(2100, 1, 1),
        measure=Season.Measure.WHISTS,
    )
    season.tournaments.add(cup)
    draw(tournament_world, cup)
    first = Pulka.objects.filter(tournament=cup).order_by("pk").first()
    tables.close_table(first.pk, cup, TableClosure.Reason.ARBITER, organiser, [6, -2, -4])
    close_round(cup, 1, organiser)
    stages.finish_by_hand(cup.pk, organiser)
    decisions.reopen(cup.pk, organiser, "Anna's figure was misread")

    decisions.correct_closure(first.pk, cup, organiser, [9, -3, -6], "Anna's figure")
    stages.finish_by_hand(cup.pk, organiser)

    recount = standings.compared(standings.as_rows(season, standings.compute(season)))
    assert standings.stored_as_compared(season) == recount
    seated = list(first.seats.order_by("seat").values_list("player_id", flat=True))
    totals = dict(season.lines.values_list("player_id", "total"))
    assert [totals[player] for player in seated] == ["9", "-3", "-6"]
