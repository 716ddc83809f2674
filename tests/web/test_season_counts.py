"""A season saved, its pulkas marked or its divisions set: the request asks for the
table's count and answers at once; the worker counts it (seasons/counts.py, docs/tasks.md
§4). Its pages say "updating…" (the CSV and JSON answer 503) until the count lands, and
"the count failed" once its task failed its last try, until a later save asks again.
"""

from __future__ import annotations

import pytest
from django.urls import reverse
from django_tasks import TaskResultStatus
from django_tasks_db.models import DBTaskResult

from prefscore.deferred.worker import run_due
from prefscore.seasons import counts, standings
from prefscore.seasons.models import PendingCount, PolicyChange, Season, SeasonLine
from prefscore.stats import recounts
from prefscore.stats.models import PendingRecount
from scoring.engine import season as engine
from tests.web.fixtures_table import EN, HTMX
from tests.web.season_fixtures import play_series
from tests.web.test_seasons import FORM, HAND_WORKED, make_season, shown_table, table_url

pytestmark = pytest.mark.django_db

RU = {"accept-language": "ru"}
POLL = 'hx-trigger="every 2s"'
# The hand-worked season's settings (test_seasons.make_season) as the form posts them.
SPRING = {
    **FORM,
    "name": "Spring series",
    "slug": "spring",
    "starts_on": "2026-05-04",
    "ends_on": "2026-07-03",
    "best_n": "4",
    "minimum": "3",
    "first_tie_break": "best_result",
    "second_tie_break": "attended",
}


def export_urls(season: Season) -> list[str]:
    args = [season.club.slug, season.slug]
    return [reverse("seasons:csv", args=args), reverse("seasons:json", args=args)]


@pytest.fixture
def played(access_world):
    """The six evenings played and recounted, the season not counted yet."""
    play_series(access_world.club)
    run_due()
    assert not PendingRecount.objects.exists()
    return access_world


def test_saving_a_season_asks_for_its_count_and_the_worker_counts_it(played, client_as):
    organiser = client_as("organiser")
    saved = organiser.post(reverse("seasons:create", args=["home"]), SPRING)

    assert saved.status_code == 302
    season = Season.objects.get(slug="spring")
    assert not SeasonLine.objects.filter(season=season).exists()  # not counted in the request
    assert PendingCount.objects.filter(season=season).count() == 1
    [task] = DBTaskResult.objects.filter(task_path=counts.count_season.module_path)
    assert task.args_kwargs == {"args": [season.pk], "kwargs": {}}
    season.refresh_from_db()
    assert season.policy_frozen_at is not None  # it has events: frozen as the count would

    assert run_due() == 1
    assert not PendingCount.objects.exists()
    shown = client_as("member").get(table_url(season), headers=RU)
    assert shown_table(shown) == HAND_WORKED


@pytest.mark.parametrize("page", ["seasons:table", "seasons:projector"])
def test_the_pages_say_updating_in_both_languages_until_the_count_lands(played, client_as, page):
    season = make_season(played.club)
    client_as("organiser").post(reverse("seasons:edit", args=["home", "spring"]), SPRING)
    member = client_as("member")
    address = reverse(page, args=["home", "spring"])

    whole = member.get(address, headers=EN).content.decode()
    assert "updating…" in whole and "The season's table is being counted again" in whole
    assert POLL in whole
    russian = member.get(address, headers=RU).content.decode()
    assert "обновляется…" in russian and "Таблица сезона пересчитывается" in russian
    assert "updating…" not in russian
    for url in export_urls(season):
        for headers, words in ((EN, "updating…"), (RU, "обновляется…")):
            waiting = member.get(url, headers=headers)
            assert waiting.status_code == 503 and waiting["Retry-After"] == "2"
            assert words in waiting.content.decode()

    run_due()
    region = member.get(address, headers=HTMX).content.decode()
    assert "updating…" not in region and POLL not in region and "Bella" in region
    for url in export_urls(season):
        answered = member.get(url, headers=EN)
        assert answered.status_code == 200 and "Bella" in answered.content.decode()


def test_marking_pulkas_and_setting_divisions_are_counted_by_the_worker(played, client_as):
    season = make_season(played.club)
    organiser = client_as("organiser")
    url = reverse("seasons:divisions", args=["home", season.slug])
    text = "Masters = Alla, Bella, Xenia\nAmateurs = Cyril, Dima, Egor"
    assert organiser.post(url, {"action": "set", "text": text}).status_code == 302
    assert not SeasonLine.objects.filter(season=season).exists()
    assert PendingCount.objects.filter(season=season).exists()
    assert run_due() == 1
    assert SeasonLine.objects.filter(season=season).count() == 6


def test_a_count_that_failed_its_last_try_says_so_and_a_later_save_counts_again(
    played, client_as, monkeypatch, settings
):
    settings.TASK_ATTEMPTS = 1
    season = make_season(played.club)
    organiser = client_as("organiser")
    edit = reverse("seasons:edit", args=["home", "spring"])

    def broken(season: Season) -> None:
        raise RuntimeError("the disk is full")

    monkeypatch.setattr(standings, "refresh", broken)
    organiser.post(edit, SPRING)
    assert run_due() == 1
    [task] = DBTaskResult.objects.filter(task_path=counts.count_season.module_path)
    assert task.status == TaskResultStatus.FAILED and "the disk is full" in task.traceback
    assert counts.state(season) == recounts.FAILED

    member = client_as("member")
    page = member.get(table_url(season), headers=EN).content.decode()
    assert "The count failed." in page and "updating…" not in page and POLL not in page
    russian = member.get(table_url(season), headers=RU).content.decode()
    assert "Подсчёт не удался." in russian and "The count failed" not in russian
    for url in export_urls(season):
        failed = member.get(url, headers=RU)
        assert failed.status_code == 503 and "Retry-After" not in failed
        assert "Подсчёт таблицы сезона не удался" in failed.content.decode()

    monkeypatch.undo()
    recounts.ask(played.club.pk)  # a settle: its recount counts the club's seasons
    assert run_due() == 1
    assert counts.state(season) == "" and not PendingCount.objects.exists()
    assert "The count failed." not in member.get(table_url(season), headers=EN).content.decode()

    monkeypatch.setattr(standings, "refresh", broken)
    organiser.post(edit, SPRING)
    assert run_due() == 1 and counts.state(season) == recounts.FAILED
    monkeypatch.undo()
    organiser.post(edit, {**SPRING, "best_n": "5"})  # a later save asks again
    assert counts.state(season) == counts.COUNTING
    assert "updating…" in member.get(table_url(season), headers=EN).content.decode()
    assert run_due() == 1
    assert counts.state(season) == "" and not PendingCount.objects.exists()
    page = member.get(table_url(season), headers=EN).content.decode()
    assert "The count failed." not in page and "Bella" in page
    assert PolicyChange.objects.get(season=season).field == "best_n"  # the audit as before


def test_a_club_recount_that_failed_its_last_try_says_so_on_its_pages(
    played, client_as, monkeypatch, settings
):
    """The settle's recount (stats/recounts.py): not "updating…" for ever either."""
    settings.TASK_ATTEMPTS = 1
    season = make_season(played.club)
    standings.refresh(season)

    def broken(club_id: int) -> None:
        raise RuntimeError("the database went away")

    monkeypatch.setattr(recounts, "recompute_club", broken)
    recounts.ask(played.club.pk)
    assert run_due() == 1
    assert recounts.state(played.club.pk) == recounts.FAILED
    member = client_as("member")
    for address in (reverse("stats:leaderboard", args=["home"]), table_url(season)):
        page = member.get(address, headers=EN).content.decode()
        assert "The count failed." in page and "updating…" not in page, address

    monkeypatch.undo()
    recounts.ask(played.club.pk)  # the next settle asks again
    assert recounts.state(played.club.pk) == recounts.UPDATING
    assert run_due() == 1
    assert recounts.state(played.club.pk) == "" and counts.state(season) == ""


def test_the_count_run_again_gives_the_same_table(played, client_as):
    """Idempotent: a task run again after its worker died stores the same lines once."""
    season = make_season(played.club)
    counts.ask(season)
    assert run_due() == 1
    first = standings.stored_as_compared(season)
    PendingCount.objects.create(season=season)  # as if its worker died before the delete
    assert counts.count_season.call(season.pk) == 1
    assert counts.count_season.call(season.pk) == 0  # nothing waits: nothing done
    assert standings.stored_as_compared(season) == first
    assert SeasonLine.objects.filter(season=season).count() == len(HAND_WORKED)


def test_a_deleted_season_leaves_its_task_nothing_to_do(played):
    season = make_season(played.club)
    counts.ask(season)
    season.delete()
    assert run_due() == 1
    assert not DBTaskResult.objects.exclude(status=TaskResultStatus.SUCCESSFUL).exists()


def two_divisions(season: Season, organiser) -> str:
    """Masters and Amateurs set through the page (docs/seasons.md §10); its address."""
    url = reverse("seasons:divisions", args=["home", season.slug])
    text = "Masters = Alla, Bella, Xenia\nAmateurs = Cyril, Dima, Egor"
    assert organiser.post(url, {"action": "set", "text": text}).status_code == 302
    return url


def test_the_divisions_preview_reads_the_stored_table_and_counts_nothing(
    played, client_as, monkeypatch
):
    """The preview's moves come from the lines the worker stored, ranked within each
    division as the engine ranks them; the page counts no table itself."""
    season = make_season(played.club)
    organiser = client_as("organiser")
    url = two_divisions(season, organiser)
    run_due()

    def counted_in_the_request(*args, **kwargs):
        raise AssertionError("the divisions page counted the table")

    monkeypatch.setattr(standings, "compute", counted_in_the_request)
    shown = organiser.get(url, {"count": "1"}, headers=EN)
    assert [(m.player, m.from_division, m.to_division) for m in shown.context["preview"]] == [
        ("Xenia", "Masters", "Amateurs"),
        ("Cyril", "Amateurs", "Masters"),
    ]
    monkeypatch.undo()
    # The stored lines read back are the engine's own division tables.
    division_of = {p.pk: d.order for d in season.divisions.all() for p in d.players.all()}
    expected = engine.divided(standings.compute(season), division_of, season.policy)
    assert standings.stored_divided(season) == expected
    assert [standings.as_line(row) for row in season.lines.order_by("position")] == [
        line for rows in expected.values() for line in rows
    ]


def test_while_the_divisions_count_waits_the_page_says_so_and_confirming_is_refused(
    played, client_as
):
    season = make_season(played.club)
    autumn = make_season(played.club, slug="autumn", name="Autumn")
    organiser = client_as("organiser")
    url = two_divisions(season, organiser)  # its count is queued, not run

    page = organiser.get(url, headers=EN).content.decode()
    assert "updating…" in page and POLL in page and "Nobody moves." not in page
    russian = organiser.get(url, headers=RU).content.decode()
    assert "обновляется…" in russian and "updating…" not in russian
    region = organiser.get(url, headers=HTMX).content.decode()
    assert "<html" not in region and 'id="division-moves"' in region and POLL in region
    confirm = {"action": "confirm", "count": "1", "next_season": autumn.pk}
    for headers, words in ((EN, "confirm the moves once it is"), (RU, "подтвердите переходы")):
        refused = organiser.post(url, confirm, headers=headers)
        assert refused.status_code == 200 and words in refused.content.decode()
    assert not autumn.divisions.exists() and not season.moves.exists()  # nothing written

    run_due()
    region = organiser.get(url, headers=HTMX).content.decode()
    assert "updating…" not in region and POLL not in region and "Xenia" in region
    assert organiser.post(url, confirm).status_code == 302
    assert season.moves.count() == 2
