"""A settled sheet rates the club once, under the rating measure too (docs/seasons.md §2).

The statistics recompute the club rating on every settled sheet; a season measured by
the rating change reads each pulka's change from that same pass
(``stats.ratings.rating_pass``), given again only for pulkas equal to the ones it rated.
``check_season`` rates them in a pass of its own.
"""

from __future__ import annotations

from fractions import Fraction

import pytest
from django.core.management import call_command

from prefscore.deferred.worker import run_due
from prefscore.games.services import record_deal
from prefscore.seasons import standings
from prefscore.seasons.models import Season
from prefscore.stats import ratings
from scoring.engine import rating
from tests.web.season_fixtures import open_season

pytestmark = pytest.mark.django_db

NINE = {"contract": "9S", "declarer": "Anna", "whists": {"Boris": "pass", "Vera": "pass"}}


@pytest.fixture
def tables_rated(monkeypatch):
    """How many tables the engine has rated since the test began."""
    counted = {"tables": 0}
    rate_table = rating._rate_table

    def counting(*args, **kwargs):
        counted["tables"] += 1
        return rate_table(*args, **kwargs)

    monkeypatch.setattr(rating, "_rate_table", counting)
    monkeypatch.setattr(ratings, "_last_pass", None)
    return counted


def by_rating(club) -> Season:
    return open_season(club, measure=Season.Measure.RATING)


def finish(pulka, user, capture) -> None:
    with capture(execute=True):
        record_deal(pulka.pk, NINE, user, 1)  # closes every pulya: the pulka finishes
    run_due()  # the recount, by the worker (stats/recounts.py)


def test_a_settled_sheet_rates_each_club_pulka_once_under_the_rating_measure(
    table_world, make_table_pulka, django_capture_on_commit_callbacks, tables_rated
):
    season = by_rating(table_world.club)
    anna = table_world.users["anna"]
    finish(make_table_pulka(target=2), anna, django_capture_on_commit_callbacks)
    assert tables_rated["tables"] == 1

    finish(make_table_pulka(target=2), anna, django_capture_on_commit_callbacks)
    # The club rated again from scratch: its two pulkas, once each (not four).
    assert tables_rated["tables"] == 1 + 2
    assert season.lines.count() == 3
    assert standings.stored_as_compared(season) == standings.compared(
        standings.as_rows(season, standings.compute(season, fresh=True))
    )


def test_check_season_rates_the_club_in_a_pass_of_its_own(
    table_world, make_table_pulka, django_capture_on_commit_callbacks, tables_rated, capsys
):
    by_rating(table_world.club)
    finish(
        make_table_pulka(target=2), table_world.users["anna"], django_capture_on_commit_callbacks
    )
    before = tables_rated["tables"]

    call_command("check_season", "spring")

    assert tables_rated["tables"] == before + 1
    assert "Spring" in capsys.readouterr().out  # agrees: no exit status 1


def test_the_pass_is_given_again_only_for_equal_pulkas(tables_rated):
    first = [
        rating.FinishedPulka(1, {"1": Fraction(3), "2": Fraction(-3)}, 10),
        rating.FinishedPulka(2, {"1": Fraction(-1), "3": Fraction(1)}, 11),
    ]
    passed = ratings.rating_pass(first)
    read_again = [rating.FinishedPulka(p.finished, dict(p.results), p.pulka) for p in first]
    assert ratings.rating_pass(read_again) is passed
    assert tables_rated["tables"] == 2

    corrected = [first[0], rating.FinishedPulka(2, {"1": Fraction(1), "3": Fraction(-1)}, 11)]
    again = ratings.rating_pass(corrected)
    assert again == tuple(rating.rated(corrected))
    assert again != passed
    assert tables_rated["tables"] == 2 + 2 + 2  # the corrected pass and the check's own
