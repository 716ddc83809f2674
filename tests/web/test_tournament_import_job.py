"""A large tournament file is imported after the request (``tournaments.jobs``).

The request keeps the file, queues the job's task and answers with the job's page at
once; the worker validates and stores it all or nothing (``run_due`` runs the queue
here as the worker does; one test starts a real worker); the page follows it and leads
to the tournament, or says why the file was refused, in the organiser's language. Only
the organiser who sent it sees the job.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from django_tasks import TaskResultStatus
from django_tasks_db.models import DBTaskResult

from prefscore.deferred.worker import run_due
from prefscore.games.models import Pulka
from prefscore.tournaments import generator, jobs
from prefscore.tournaments.models import ImportJob, Tournament
from tests.real_worker import real_worker, wait_for
from tests.web.fixtures_tournaments import HTMX, TournamentWorld, client_as

pytestmark = pytest.mark.django_db


def _file(players: int = 24, rounds: int = 2) -> bytes:
    return json.dumps(generator.tournament_file(players, rounds, 6, seed=3)).encode()


@pytest.fixture
def small_inline(monkeypatch: Any) -> None:
    """Files over 10 kB go to a job."""
    monkeypatch.setattr(jobs, "INLINE_BYTES", 10_000)


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
    tournament_world: TournamentWorld, small_inline: None
) -> None:
    body = _file()
    assert len(body) > jobs.INLINE_BYTES
    client, response = _post(tournament_world, body)
    job = ImportJob.objects.get()
    assert response.status_code == 302 and response["Location"] == _job_url(tournament_world, job)
    assert job.status == ImportJob.Status.QUEUED and not Tournament.objects.exists()
    assert DBTaskResult.objects.get(id=job.task_id).status == TaskResultStatus.READY
    assert run_due() == 1
    job.refresh_from_db()
    assert job.status == ImportJob.Status.DONE and job.text == ""
    assert (job.done, job.total) == (2, 2)  # both rounds checked
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
    tournament_world: TournamentWorld, small_inline: None
) -> None:
    client, response = _post(tournament_world, _file(), headers=HTMX)  # no worker yet
    job = ImportJob.objects.get()
    assert response["HX-Redirect"] == _job_url(tournament_world, job)
    page = client.get(_job_url(tournament_world, job), headers=HTMX).content.decode()
    assert 'hx-trigger="every 1s"' in page and "Waiting to begin" in page
    assert "<html" not in page  # htmx gets the region alone
    assert not Tournament.objects.exists()
    ImportJob.objects.filter(pk=job.pk).update(status=ImportJob.Status.CHECKING, done=1, total=2)
    page = client.get(_job_url(tournament_world, job), headers=HTMX).content.decode()
    assert 'value="1" max="2"' in page and "round 1 of 2" in page
    ru = client_as(tournament_world, "organiser", "ru")
    page = ru.get(_job_url(tournament_world, job)).content.decode()
    assert "раунд 1 из 2" in page and "<html" in page  # the whole page without htmx


def test_the_task_run_twice_imports_once(
    tournament_world: TournamentWorld, small_inline: None
) -> None:
    _post(tournament_world, _file())
    job = ImportJob.objects.get()
    jobs.run(job.pk)
    jobs.run(job.pk)  # again, as after a worker killed once the import had committed
    assert Tournament.objects.count() == 1


def test_a_refused_large_file_says_why_in_the_organisers_language(
    tournament_world: TournamentWorld, small_inline: None
) -> None:
    data = json.loads(_file())
    data["rounds"][1]["tables"][0]["pulka"]["players"][0] = "Nobody at all"
    client, _response = _post(tournament_world, json.dumps(data).encode(), "ru")
    run_due()
    job = ImportJob.objects.get()
    assert job.status == ImportJob.Status.FAILED
    assert job.message.startswith("rounds → 2 → tables → 1 → pulka: Файл не принят")
    page = client.get(_job_url(tournament_world, job)).content.decode()
    assert "Файл не принят" in page and 'role="alert"' in page
    assert not Tournament.objects.exists()


def test_a_job_whose_task_failed_for_good_is_reported_interrupted(
    tournament_world: TournamentWorld, small_inline: None
) -> None:
    client, _response = _post(tournament_world, _file())
    job = ImportJob.objects.get()
    ImportJob.objects.filter(pk=job.pk).update(status=ImportJob.Status.STORING)
    page = client.get(_job_url(tournament_world, job)).content.decode()
    assert "hx-trigger" in page  # under way while its task may still run
    DBTaskResult.objects.filter(id=job.task_id).update(status=TaskResultStatus.FAILED)
    page = client.get(_job_url(tournament_world, job)).content.decode()
    assert "interrupted and nothing was saved" in page and "hx-trigger" not in page


@pytest.mark.parametrize(
    ("role", "status"), [("member", 403), ("outsider", 403), ("admin", 404), ("anonymous", 302)]
)
def test_only_the_organiser_who_sent_it_sees_the_job(
    tournament_world: TournamentWorld, small_inline: None, role: str, status: int
) -> None:
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
def test_the_job_runs_in_the_worker_process_after_the_request(
    tournament_world: TournamentWorld, monkeypatch: Any
) -> None:
    monkeypatch.setattr(jobs, "INLINE_BYTES", 10_000)
    client, response = _post(tournament_world, _file(16, 2))
    assert response.status_code == 302
    job = ImportJob.objects.get()
    assert job.status == ImportJob.Status.QUEUED  # the request only queued it
    with real_worker() as worker:
        assert wait_for(lambda: jobs.finished(ImportJob.objects.get(pk=job.pk)), 120), (
            worker.stderr.read1().decode() if worker.stderr else ""
        )
    job.refresh_from_db()
    assert job.status == ImportJob.Status.DONE, job.message
    assert job.tournament is not None and job.tournament.entries.count() == 16
    assert DBTaskResult.objects.get(id=job.task_id).status == TaskResultStatus.SUCCESSFUL
