"""A large tournament file is imported after the request (``tournaments.jobs``).

The request keeps the file and answers with the job's page at once; the job validates
and stores it all or nothing; the page follows it and leads to the tournament, or says
why the file was refused, in the organiser's language. Only the organiser who sent it
sees the job.
"""

from __future__ import annotations

import json
import time
from datetime import timedelta
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from django.utils import timezone

from prefscore.games.models import Pulka
from prefscore.tournaments import generator, jobs
from prefscore.tournaments.models import ImportJob, Tournament
from tests.web.fixtures_tournaments import HTMX, TournamentWorld, client_as

pytestmark = pytest.mark.django_db


def _file(players: int = 24, rounds: int = 2) -> bytes:
    return json.dumps(generator.tournament_file(players, rounds, 6, seed=3)).encode()


@pytest.fixture
def small_inline(monkeypatch: Any) -> None:
    """Files over 10 kB go to a job, run at once when its transaction commits."""
    monkeypatch.setattr(jobs, "INLINE_BYTES", 10_000)
    monkeypatch.setattr(jobs, "start", jobs.run)


def _post(
    world: TournamentWorld, body: bytes, language: str = "en", headers: dict[str, str] | None = None
) -> Any:
    client = client_as(world, "organiser", language)
    upload = SimpleUploadedFile("big.json", body, content_type="application/json")
    url = reverse("tournaments:import", args=[world.club.slug])
    return client, client.post(url, {"file": upload}, headers=headers or {})


def _job_url(world: TournamentWorld, job: ImportJob) -> str:
    return reverse("tournaments:import_job", args=[world.club.slug, job.pk])


def test_a_large_file_becomes_a_job_and_the_page_leads_to_the_tournament(
    tournament_world: TournamentWorld, small_inline: None, django_capture_on_commit_callbacks: Any
) -> None:
    body = _file()
    assert len(body) > jobs.INLINE_BYTES
    with django_capture_on_commit_callbacks(execute=True):
        client, response = _post(tournament_world, body)
    job = ImportJob.objects.get()
    assert response.status_code == 302 and response["Location"] == _job_url(tournament_world, job)
    assert job.status == ImportJob.Status.DONE and job.text == ""
    tournament = Tournament.objects.get(club=tournament_world.club)
    assert job.tournament == tournament and tournament.entries.count() == 24
    assert Pulka.objects.filter(tournament=tournament).count() == 12
    page = client.get(_job_url(tournament_world, job)).content.decode()
    assert "The tournament is imported." in page and "hx-trigger" not in page
    follow = client.get(_job_url(tournament_world, job), headers=HTMX)
    assert follow["HX-Redirect"] == reverse(
        "tournaments:detail", args=[tournament_world.club.slug, tournament.slug]
    )


def test_the_job_page_follows_a_job_under_way(
    tournament_world: TournamentWorld, small_inline: None, monkeypatch: Any
) -> None:
    monkeypatch.setattr(jobs, "start", lambda job_id: None)  # the worker has not begun
    client, response = _post(tournament_world, _file(), headers=HTMX)
    job = ImportJob.objects.get()
    assert response["HX-Redirect"] == _job_url(tournament_world, job)
    page = client.get(_job_url(tournament_world, job), headers=HTMX).content.decode()
    assert 'hx-trigger="every 1s"' in page and "Waiting to begin" in page
    assert "<html" not in page  # htmx gets the region alone
    assert not Tournament.objects.exists()


def test_a_refused_large_file_says_why_in_the_organisers_language(
    tournament_world: TournamentWorld, small_inline: None, django_capture_on_commit_callbacks: Any
) -> None:
    data = json.loads(_file())
    data["rounds"][1]["tables"][0]["pulka"]["players"][0] = "Nobody at all"
    with django_capture_on_commit_callbacks(execute=True):
        client, _response = _post(tournament_world, json.dumps(data).encode(), "ru")
    job = ImportJob.objects.get()
    assert job.status == ImportJob.Status.FAILED
    assert job.message.startswith("rounds → 2 → tables → 1 → pulka: Файл не принят")
    page = client.get(_job_url(tournament_world, job)).content.decode()
    assert "Файл не принят" in page and 'role="alert"' in page
    assert not Tournament.objects.exists()


def test_a_job_that_stopped_moving_is_reported_interrupted(
    tournament_world: TournamentWorld, small_inline: None, monkeypatch: Any
) -> None:
    monkeypatch.setattr(jobs, "start", lambda job_id: None)
    client, _response = _post(tournament_world, _file())
    job = ImportJob.objects.get()
    old = timezone.now() - timedelta(seconds=jobs.STALE_SECONDS + 1)
    ImportJob.objects.filter(pk=job.pk).update(status=ImportJob.Status.STORING, updated_at=old)
    page = client.get(_job_url(tournament_world, job)).content.decode()
    assert "interrupted and nothing was saved" in page and "hx-trigger" not in page


@pytest.mark.parametrize(
    ("role", "status"), [("member", 403), ("outsider", 403), ("admin", 404), ("anonymous", 302)]
)
def test_only_the_organiser_who_sent_it_sees_the_job(
    tournament_world: TournamentWorld, small_inline: None, monkeypatch: Any, role: str, status: int
) -> None:
    monkeypatch.setattr(jobs, "start", lambda job_id: None)
    _post(tournament_world, _file())
    job = ImportJob.objects.get()
    response = client_as(tournament_world, role).get(_job_url(tournament_world, job))
    assert response.status_code == status


def test_the_job_page_refuses_a_post_and_a_huge_id(tournament_world: TournamentWorld) -> None:
    client = client_as(tournament_world, "organiser")
    url = reverse("tournaments:import_job", args=[tournament_world.club.slug, 1])
    assert client.post(url).status_code == 405
    huge = url.replace("/1/", f"/{2**63}/")
    assert client.get(huge).status_code == 404
    assert client.get(url.replace("/1/", "/" + "9" * 30 + "/")).status_code == 404


def test_a_small_file_is_still_imported_within_the_request(
    tournament_world: TournamentWorld,
) -> None:
    body = json.dumps(generator.tournament_file(9, 1, 2, table_size=3, seed=1)).encode()
    assert len(body) < jobs.INLINE_BYTES
    _client, response = _post(tournament_world, body)
    tournament = Tournament.objects.get()
    assert response["Location"] == reverse(
        "tournaments:detail", args=[tournament_world.club.slug, tournament.slug]
    )
    assert not ImportJob.objects.exists()


@pytest.mark.django_db(transaction=True)
def test_the_job_runs_in_a_thread_of_the_worker(
    tournament_world: TournamentWorld, monkeypatch: Any
) -> None:
    monkeypatch.setattr(jobs, "INLINE_BYTES", 10_000)
    client, response = _post(tournament_world, _file(16, 2))
    assert response.status_code == 302
    job = ImportJob.objects.get()
    for _ in range(600):
        job.refresh_from_db()
        if jobs.finished(job):
            break
        time.sleep(0.1)
    assert job.status == ImportJob.Status.DONE, job.message
    assert job.tournament is not None and job.tournament.entries.count() == 16
