"""A count that lands while a page is being read (seasons/counts.py, stats/recounts.py).

The worker commits a season's count, or a club's recount, at any moment, and a page reads
with several queries: whatever query the count lands before, the page shows the counted
figures, or it says "updating…" and asks again. It never shows the figures from before the
count as if they were counted. CI once saw that happen: the season table read its rows,
the count landed, the page then read that nothing waited, and it showed an empty season
("no event yet") without asking again, for good.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from django.db import connection, transaction
from django.test import Client
from django.urls import reverse

from prefscore.clubs.models import Player
from prefscore.deferred.worker import run_due
from prefscore.seasons import counts, standings
from prefscore.stats import recounts
from tests.web.fixtures_table import HTMX
from tests.web.season_fixtures import play_series
from tests.web.test_recount_pages import finish
from tests.web.test_seasons import make_season

pytestmark = pytest.mark.django_db

POLL = 'hx-trigger="every 2s"'


@contextmanager
def rolled_back() -> Iterator[None]:
    """Each try from the same start: what it wrote is undone."""
    with transaction.atomic():
        yield
        transaction.set_rollback(True)


class Landing:
    """Runs ``land`` (the worker's count) just before the request's ``before``-th query;
    counts the queries (the test client's request resets Django's own query log)."""

    def __init__(self, land: Callable[[], object], before: int = 0) -> None:
        self.land, self.before, self.seen = land, before, 0

    def __call__(self, execute: Any, sql: str, params: Any, many: bool, context: Any) -> Any:
        self.seen += 1
        if self.seen == self.before:
            self.land()  # its own queries come through here too, counted after this one
        return execute(sql, params, many, context)


def read(client: Client, url: str, landing: Landing) -> str:
    with connection.execute_wrapper(landing):
        return client.get(url, headers=HTMX).content.decode()


def never_stale(
    client: Client, url: str, ask: Callable[[], object], land: Callable[[], object]
) -> int:
    """Ask for a count, then read the page's region with the count landing before each of
    its queries in turn (and after the last): it is the counted region, or it asks again.
    Returns how many queries the read makes."""
    with rolled_back():
        ask()
        land()
        counted = client.get(url, headers=HTMX).content.decode()
    with rolled_back():
        ask()
        counting = Landing(land)  # never lands: counts the queries
        before = read(client, url, counting)
    assert POLL in before and before != counted  # the test's premise: the count changes it
    for query in range(1, counting.seen + 2):
        with rolled_back():
            ask()
            shown = read(client, url, Landing(land, before=query))
        assert POLL in shown or shown == counted, f"the count landed before query {query}"
    return counting.seen


@pytest.fixture
def counted_season(access_world: Any) -> Any:
    """The six evenings played, and the season counted once, over its first two months."""
    play_series(access_world.club)
    run_due()
    season = make_season(access_world.club, aggregate="sum")
    standings.refresh(season)
    return season


def change_and_ask(season: Any) -> Callable[[], None]:
    """The organiser's change (best four events, not all of them), and its count asked."""

    def ask() -> None:
        season.aggregate = "best"
        season.save()
        counts.ask(season)

    return ask


@pytest.mark.parametrize("page", ["table", "line"])
def test_a_season_page_never_shows_the_table_from_before_its_count(
    counted_season: Any, client_as: Any, page: str
) -> None:
    club = counted_season.club
    args = [club.slug, counted_season.slug]
    if page == "line":  # Cyril's line: best four drops one of his five events
        cyril = Player.objects.get(club=club, name="Cyril")
        url = reverse("seasons:player", args=[*args, cyril.pk])
    else:
        url = reverse("seasons:table", args=args)
    land = lambda: counts.count_season.func(counted_season.pk)  # noqa: E731
    assert never_stale(client_as("member"), url, change_and_ask(counted_season), land) >= 3


def test_a_new_season_is_never_shown_empty_once_counted(access_world: Any, client_as: Any) -> None:
    """CI's case: a season saved over evenings already played, its table not yet counted."""
    play_series(access_world.club)
    run_due()
    season = make_season(access_world.club)
    url = reverse("seasons:table", args=[season.club.slug, season.slug])
    land = lambda: counts.count_season.func(season.pk)  # noqa: E731
    assert never_stale(client_as("member"), url, lambda: counts.ask(season), land) >= 3


@pytest.mark.parametrize("page", ["leaderboard", "player"])
def test_the_clubs_figures_are_never_shown_from_before_their_recount(
    table_world: Any,
    make_table_pulka: Any,
    table_client: Any,
    django_capture_on_commit_callbacks: Any,
    page: str,
) -> None:
    finish(make_table_pulka, django_capture_on_commit_callbacks)  # a first pulka, counted
    run_due()
    slug = table_world.club.slug
    anna = Player.objects.get(club=table_world.club, name="Anna")
    url = {
        "leaderboard": reverse("stats:leaderboard", args=[slug]),
        "player": reverse("stats:player", args=[slug, anna.pk]),
    }[page]
    ask = lambda: finish(make_table_pulka, django_capture_on_commit_callbacks)  # noqa: E731
    land = lambda: recounts.recount_club.func(table_world.club.pk)  # noqa: E731
    assert never_stale(table_client("anna"), url, ask, land) >= 3
