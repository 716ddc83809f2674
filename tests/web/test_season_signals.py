"""The season table follows every result and correction (docs/seasons.md §1, §8).

A pulka that finishes, or is corrected, settles through ``games.events.sheet_settled``;
the statistics rewrite its summary rows and the seasons' receiver, connected after theirs,
counts the table again. Hypothesis plays any sequence of results and corrections and
checks the stored table against the engine's count of the events kept aside.
"""

from __future__ import annotations

import datetime
from fractions import Fraction

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from prefscore.deferred.worker import run_due
from prefscore.games.models import Deal, Pulka
from prefscore.games.services import pencil_change, record_deal
from prefscore.seasons import standings
from prefscore.seasons.models import Season, SeasonLine
from prefscore.stats.models import PulkaSummary
from scoring.engine import season as engine
from tests.web.season_fixtures import DAY, evening, open_season

pytestmark = pytest.mark.django_db

NINE = {"contract": "9S", "declarer": "Anna", "whists": {"Boris": "pass", "Vera": "pass"}}


def spring(club) -> Season:
    return open_season(club)


def totals(season: Season) -> dict[str, str]:
    return dict(SeasonLine.objects.filter(season=season).values_list("player__name", "total"))


def test_a_finished_pulka_enters_the_table_and_leaves_when_undone(
    table_world, make_table_pulka, django_capture_on_commit_callbacks
):
    season = spring(table_world.club)
    pulka = make_table_pulka(target=2)
    anna = table_world.users["anna"]

    with django_capture_on_commit_callbacks(execute=True):
        record_deal(pulka.pk, NINE, anna, 1)  # closes every pulya: the pulka finishes
    assert totals(season) == {}  # counted by the worker, after the request
    run_due()

    assert totals(season) == {"Anna": "3", "Boris": "3/4", "Vera": "3/4"}
    season.refresh_from_db()
    assert season.policy_frozen_at is not None

    with django_capture_on_commit_callbacks(execute=True):
        pencil_change(pulka.pk, anna, 1, None)  # undone: no longer finished
    run_due()

    assert totals(season) == {}


NAMES = (("Alla", "Bella", "Cyril"), ("Bella", "Dima", "Egor", "Alla"), ("Cyril", "Egor", "Xenia"))
operations = st.lists(
    st.tuples(
        st.integers(0, len(NAMES) - 1),
        st.integers(0, 3),
        st.lists(st.integers(-40, 40), min_size=4, max_size=4),
        st.booleans(),
    ),
    min_size=1,
    max_size=8,
)


@settings(
    max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(operations)
def test_after_any_results_and_corrections_the_table_is_the_events_recount(access_world, steps):
    club = access_world.club
    Season.objects.filter(club=club).delete()
    Deal.objects.filter(pulka__club=club, pulka__summaries__isnull=False).delete()
    Pulka.objects.filter(club=club, summaries__isnull=False).delete()
    season = Season.objects.create(
        club=club,
        name="S",
        slug="s",
        starts_on=DAY,
        ends_on=DAY + datetime.timedelta(days=30),
        aggregate="best",
        best_n=2,
        minimum=2,
        coefficients={"rostov": "4/3"},
    )
    kept: dict[int, tuple[int, Pulka, tuple[int, ...]]] = {}
    for table, day, whists, reopened in steps:
        names = NAMES[table]
        result = tuple(whists[: len(names)])
        if table not in kept:
            [pulka] = evening(club, DAY + datetime.timedelta(days=day), [(names, result, "rostov")])
            kept[table] = (day, pulka, result)
        elif reopened:  # undone: the summary rows go, as the statistics remove them
            _, pulka, _ = kept.pop(table)
            PulkaSummary.objects.filter(pulka=pulka).delete()
            Deal.objects.filter(pulka=pulka).delete()
            Pulka.objects.filter(pk=pulka.pk).delete()
        else:  # corrected: new settled results
            first_day, pulka, _ = kept[table]
            for seat, value in enumerate(result):
                PulkaSummary.objects.filter(pulka=pulka, seat=seat).update(result=str(value))
            kept[table] = (first_day, pulka, result)
        if table in kept:
            standings.on_sheet_settled(None, pulka_id=pulka.pk)
        else:  # the pulka is gone: its club is counted again, as on a reopening
            standings.refresh_club(club.pk)

        assert standings.stored_as_compared(season) == standings.compared(
            standings.as_rows(season, standings.compute(season))
        )
        by_day: dict[int, list[engine.Table]] = {}
        for first_day, pulka, result in sorted(
            kept.values(), key=lambda kept_table: kept_table[1].pk
        ):
            players = tuple(pulka.seats.order_by("seat").values_list("player_id", flat=True))
            by_day.setdefault(first_day, []).append(
                engine.Table(players, tuple(map(Fraction, result)), "rostov")
            )
        expected = engine.season_table(
            tuple(engine.Event(str(d), tuple(by_day[d])) for d in sorted(by_day)), season.policy
        )
        stored = list(SeasonLine.objects.filter(season=season).order_by("position"))
        assert [(r.player_id, r.rank, Fraction(r.total)) for r in stored] == [
            (line.player, line.rank, line.total) for line in expected
        ]


def test_a_tournament_counts_once_finished_each_table_by_place_points(tournament_world, cup):
    """docs/seasons.md §1, §2: a tournament is one event; its tables as an evening's."""
    from prefscore.tournaments import stages
    from prefscore.tournaments.models import TableResult
    from scoring.engine.normalise import place_points
    from tests.web.fixtures_tournaments import close_round, draw, play_round_deals

    season = spring(tournament_world.club)
    season.tournaments.add(cup)
    draw(tournament_world, cup)
    play_round_deals(cup, 1)
    close_round(cup, 1, tournament_world.users["organiser"])
    standings.refresh(season)
    assert totals(season) == {}  # results count once they are locked by the finish

    stages.finish_by_hand(cup.pk, tournament_world.users["organiser"])

    expected: dict[int, Fraction] = {}
    for row in TableResult.objects.filter(tournament=cup):
        seated = row.pulka.seats.order_by("seat").values_list("player_id", flat=True)
        for player, points in zip(seated, place_points(row.whists), strict=True):
            expected[player] = expected.get(player, Fraction(0)) + points
    lines = SeasonLine.objects.filter(season=season)
    assert {line.player_id: Fraction(line.total) for line in lines} == expected
    assert len(expected) == 9
    cup.refresh_from_db()
    assert all(line.points[0][0].endswith(cup.name) for line in lines)


def test_a_season_of_marked_pulkas_counts_only_those(access_world):
    """docs/seasons.md §1: "only the pulkas marked for the season"."""
    from tests.web.season_fixtures import SERIES

    season = Season.objects.create(
        club=access_world.club,
        name="Marked",
        slug="marked",
        starts_on=DAY,
        ends_on=DAY + datetime.timedelta(days=30),
        evenings=Season.Evenings.MARKED,
    )
    [first] = evening(access_world.club, DAY, SERIES[0])
    evening(access_world.club, DAY + datetime.timedelta(days=7), SERIES[1])
    season.marked_pulkas.add(first)
    standings.refresh(season)
    assert totals(season) == {"Alla": "3", "Bella": "2", "Cyril": "1", "Dima": "0"}


def test_an_organiser_marks_the_pulkas_and_a_frozen_policy_logs_it(access_world, client_as):
    from django.urls import reverse

    from prefscore.seasons.models import PolicyChange
    from tests.web.season_fixtures import SERIES

    season = Season.objects.create(
        club=access_world.club,
        name="Marked",
        slug="marked",
        starts_on=DAY,
        ends_on=DAY + datetime.timedelta(days=30),
        evenings=Season.Evenings.MARKED,
    )
    [first] = evening(access_world.club, DAY, SERIES[0])
    [second] = evening(access_world.club, DAY + datetime.timedelta(days=7), SERIES[1])
    url = reverse("seasons:marked", args=["home", "marked"])
    organiser = client_as("organiser")
    shown = organiser.get(url, headers={"HX-Request": "true"})
    assert shown.status_code == 200 and b"<html" not in shown.content
    assert set(shown.context["form"].fields["pulkas"].queryset) == {first, second}

    assert organiser.post(url, {"pulkas": [first.pk]}).status_code == 302
    assert totals(season) == {}  # the worker counts it (seasons/counts.py)
    assert run_due() == 1
    assert totals(season) == {"Alla": "3", "Bella": "2", "Cyril": "1", "Dima": "0"}
    assert not PolicyChange.objects.exists()  # froze with the first event, not before

    organiser.post(url, {"pulkas": [first.pk, second.pk]})
    change = PolicyChange.objects.get(season=season)
    assert change.field == "marked_pulkas" and change.after == f"[{first.pk}, {second.pk}]"
    run_due()
    assert totals(season)["Alla"] == "6"
    assert client_as("member").post(url, {"pulkas": [first.pk]}).status_code == 403


@settings(
    max_examples=10, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(operations)
def test_under_the_rating_measure_each_total_is_the_rating_the_board_shows(access_world, steps):
    """docs/seasons.md §2: each event counts the change it made to the player's displayed
    club rating. Summed over a season holding all the club's pulkas, that is his rating
    now (each change to the hundredth of the figures shown); after any sequence of
    results and corrections the stored table is also the events' recount."""
    from prefscore.stats import ratings

    club = access_world.club
    Season.objects.filter(club=club).delete()
    Deal.objects.filter(pulka__club=club, pulka__summaries__isnull=False).delete()
    Pulka.objects.filter(club=club, summaries__isnull=False).delete()
    season = Season.objects.create(
        club=club,
        name="S",
        slug="s",
        starts_on=DAY,
        ends_on=DAY + datetime.timedelta(days=30),
        measure=Season.Measure.RATING,
    )
    kept: dict[int, Pulka] = {}
    for table, day, whists, corrected in steps:
        names = NAMES[table]
        result = whists[: len(names)]
        if table not in kept or not corrected:
            [kept[table]] = evening(club, DAY + datetime.timedelta(days=day), [(names, result, "")])
        else:
            for seat, value in enumerate(result):
                PulkaSummary.objects.filter(pulka=kept[table], seat=seat).update(result=str(value))
        standings.on_sheet_settled(None, pulka_id=kept[table].pk)

        assert standings.stored_as_compared(season) == standings.compared(
            standings.as_rows(season, standings.compute(season))
        )
        shown = {
            player: engine.rating_change(0.0, rating.conservative)
            for player, rating in ratings.computed(club.pk).items()
        }
        stored = SeasonLine.objects.filter(season=season)
        assert {row.player_id: Fraction(row.total) for row in stored} == shown
