"""A finished pulka's recount runs after the request (stats/recounts.py): the request
only leaves a marker and queues the task; the pages that show the recounted figures
(the leaderboard, a player's page, the season table and its projector) say "updating…"
and ask for their region again until the task lands, then show the figures. The task
recounts from the sheets: run twice, it gives the same.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.db import transaction
from django.urls import reverse
from django_tasks_db.models import DBTaskResult

from prefscore.clubs.models import Player
from prefscore.deferred.worker import run_due
from prefscore.games.services import record_deal
from prefscore.seasons.models import SeasonLine
from prefscore.stats import ratings, recounts
from prefscore.stats.models import PendingRecount, PlayerRating, PulkaSummary
from tests.web.fixtures_table import EN, HTMX
from tests.web.season_fixtures import open_season

pytestmark = pytest.mark.django_db

NINE = {"contract": "9S", "declarer": "Anna", "whists": {"Boris": "pass", "Vera": "pass"}}
RU = {"accept-language": "ru"}
POLL = 'hx-trigger="every 2s"'


def finish(make_table_pulka: Any, capture: Any) -> Any:
    """A pulka finished by its last deal, as the finishing request records it."""
    pulka = make_table_pulka(target=2)
    with capture(execute=True):
        record_deal(pulka.pk, NINE, pulka.created_by, 1)  # closes every pulya
    return pulka


def pages(world: Any) -> dict[str, str]:
    slug = world.club.slug
    anna = Player.objects.get(club=world.club, name="Anna")
    return {
        "leaderboard": reverse("stats:leaderboard", args=[slug]),
        "player": reverse("stats:player", args=[slug, anna.pk]),
        "season": reverse("seasons:table", args=[slug, "spring"]),
        "projector": reverse("seasons:projector", args=[slug, "spring"]),
    }


def test_the_finishing_request_leaves_the_recount_to_the_worker(
    table_world: Any, make_table_pulka: Any, django_capture_on_commit_callbacks: Any
) -> None:
    pulka = finish(make_table_pulka, django_capture_on_commit_callbacks)
    assert not PulkaSummary.objects.exists() and not PlayerRating.objects.exists()
    assert list(PendingRecount.objects.values_list("club_id", "pulka_id")) == [
        (table_world.club.pk, pulka.pk)
    ]
    [task] = DBTaskResult.objects.all()
    assert task.task_path == "prefscore.stats.recounts.recount_club"
    assert task.args_kwargs == {"args": [table_world.club.pk], "kwargs": {}}

    assert run_due() == 1
    assert not PendingRecount.objects.exists()
    assert PulkaSummary.objects.filter(pulka=pulka).count() == 3
    assert ratings.stored(table_world.club.pk) == ratings.computed(table_world.club.pk)


@pytest.mark.parametrize("page", ["leaderboard", "player", "season", "projector"])
def test_the_pages_say_updating_until_the_recount_lands(
    table_world: Any,
    make_table_pulka: Any,
    table_client: Any,
    django_capture_on_commit_callbacks: Any,
    page: str,
) -> None:
    open_season(table_world.club, public=True)
    finish(make_table_pulka, django_capture_on_commit_callbacks)
    client = table_client("boris")
    address = pages(table_world)[page]

    whole = client.get(address, headers=EN).content.decode()
    assert "<html" in whole and "updating…" in whole and POLL in whole
    region = client.get(address, headers=HTMX).content.decode()
    assert "<html" not in region and "updating…" in region and POLL in region
    russian = client.get(address, headers=RU).content.decode()
    assert "обновляется…" in russian and "updating…" not in russian

    run_due()
    region = client.get(address, headers=HTMX).content.decode()
    assert "<html" not in region and "updating…" not in region and POLL not in region
    assert ("Pulkas played" if page == "player" else "Anna") in region  # the figures


def test_the_leaderboard_shows_the_figures_once_recounted(
    table_world: Any,
    make_table_pulka: Any,
    table_client: Any,
    django_capture_on_commit_callbacks: Any,
) -> None:
    finish(make_table_pulka, django_capture_on_commit_callbacks)
    address = pages(table_world)["leaderboard"]
    before = table_client("anna").get(address, headers=EN).content.decode()
    assert "Boris" not in before  # no rating yet
    run_due()
    after = table_client("anna").get(address, headers=EN).content.decode()
    assert "Boris" in after and "updating…" not in after


@pytest.mark.parametrize("headers", [EN, HTMX])
def test_the_pages_refuse_outsiders_while_updating(
    table_world: Any,
    make_table_pulka: Any,
    table_client: Any,
    django_capture_on_commit_callbacks: Any,
    headers: dict[str, str],
) -> None:
    open_season(table_world.club)
    finish(make_table_pulka, django_capture_on_commit_callbacks)
    for name, address in pages(table_world).items():
        refused = table_client("olaf").get(address, headers=headers)
        assert refused.status_code == 403, name
        assert "updating" not in refused.content.decode()
        anonymous = table_client("anonymous").get(address, headers=headers)
        assert anonymous.status_code == 302, name


def test_another_clubs_pages_do_not_say_updating(
    table_world: Any,
    make_table_pulka: Any,
    table_client: Any,
    django_capture_on_commit_callbacks: Any,
) -> None:
    finish(make_table_pulka, django_capture_on_commit_callbacks)
    other = reverse("stats:leaderboard", args=[table_world.other_club.slug])
    page = table_client("olaf").get(other, headers=EN).content.decode()
    assert "updating…" not in page


def test_the_recount_run_twice_gives_the_same_and_a_second_run_finds_nothing(
    table_world: Any, make_table_pulka: Any, django_capture_on_commit_callbacks: Any
) -> None:
    season = open_season(table_world.club)
    pulka = finish(make_table_pulka, django_capture_on_commit_callbacks)
    waiting = list(PendingRecount.objects.all())
    assert recounts.recount_club.call(table_world.club.pk) == 1
    rows = list(PulkaSummary.objects.filter(pulka=pulka).values_list("player_id", "result"))
    rated = ratings.stored(table_world.club.pk)
    lines = list(SeasonLine.objects.filter(season=season).values_list("player_id", "total"))
    # A worker killed after the recount, before its rows were deleted: it runs again.
    PendingRecount.objects.bulk_create(waiting)
    assert recounts.recount_club.call(table_world.club.pk) == 1
    assert list(PulkaSummary.objects.filter(pulka=pulka).values_list("player_id", "result")) == rows
    assert ratings.stored(table_world.club.pk) == rated
    assert list(SeasonLine.objects.filter(season=season).values_list("player_id", "total")) == lines
    assert recounts.recount_club.call(table_world.club.pk) == 0  # nothing waits


def test_a_settle_rolled_back_leaves_no_marker_and_no_task(
    table_world: Any, make_table_pulka: Any
) -> None:
    pulka = make_table_pulka(target=2)
    with pytest.raises(RuntimeError), transaction.atomic():
        record_deal(pulka.pk, NINE, pulka.created_by, 1)
        assert PendingRecount.objects.exists()  # written with the settle…
        raise RuntimeError("the request failed after the deal")
    assert not PendingRecount.objects.exists()  # …and gone with it
    assert not DBTaskResult.objects.exists()
