"""A tournament's page gives its times on the club's clock (settings.TIME_ZONE, the
machine's own zone by default; tests/test_time_zone.py), as the sheet's pencil and the
audit trail do: when it finished, and when a frozen regulation changed (docs/tournaments.md
§4.1, §4.10). Not in UTC, which the database holds. And it names the director by his name
at the table everywhere on it, as the finish line does."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from django.test import override_settings

from prefscore.tournaments.decisions import decision_rows
from prefscore.tournaments.models import RegulationChange, TournamentEvent
from prefscore.tournaments.presenters.control import change_rows, finished_line
from tests.web.fixtures_tournaments import make_tournament

pytestmark = pytest.mark.django_db

# 17:08 in UTC is 03:08 the next morning in Vladivostok (UTC+10, no summer time).
MOMENT = datetime(2026, 12, 7, 17, 8, tzinfo=UTC)


@override_settings(TIME_ZONE="Asia/Vladivostok")
def test_the_finish_is_told_on_the_clubs_clock(tournament_world):
    cup = make_tournament(tournament_world.club)
    cup.finished_at = MOMENT
    cup.finished_by_hand = True
    cup.finished_by = tournament_world.users["organiser"]

    line = finished_line(cup)

    assert "2026-12-08 03:08" in line
    assert "17:08" not in line

    cup.finished_by_hand = False
    assert "2026-12-08 03:08" in finished_line(cup)


@override_settings(TIME_ZONE="Asia/Vladivostok")
def test_a_change_of_the_regulations_is_dated_on_the_clubs_clock(tournament_world):
    cup = make_tournament(tournament_world.club)
    change = RegulationChange(tournament=cup, field="carry", before="kept", after="halved")
    change.changed_at = MOMENT

    (row,) = change_rows([change])

    assert row.at == "2026-12-08 03:08"


def test_the_decisions_and_changes_name_the_director_as_the_page_does(tournament_world):
    """The finish line names who finished by his name at the table; the decisions and the
    regulation changes beside it name him the same way, not by his username."""
    director = tournament_world.users["organiser"]
    director.first_name = "Анна"
    director.save(update_fields=["first_name"])
    cup = make_tournament(tournament_world.club)
    TournamentEvent.objects.create(
        tournament=cup,
        action=TournamentEvent.Action.REOPENED,
        reason="the arbiter's decision",
        user=director,
    )
    change = RegulationChange(tournament=cup, field="carry", changed_by=director)
    change.changed_at = MOMENT

    (decision,) = decision_rows(cup)
    (row,) = change_rows([change])

    assert decision.by == "Анна"
    assert row.by == "Анна"
