"""A large tournament's JSON file is written after the request (``tournaments.export_jobs``).

The export answers at once with the job's page when the tournament has more deals than
``INLINE_DEALS`` (a small one stays a download within the request); the worker writes
the file (``run_due`` runs the queue here as the worker does), the page counts the
tables written and then offers the file; a failure says why, in the organiser's
language. Only the organiser who asked for it sees the job and its file.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.urls import reverse
from django_tasks import TaskResultStatus
from django_tasks_db.models import DBTaskResult

from prefscore.deferred.worker import run_due
from prefscore.tournaments import export_jobs, exports
from prefscore.tournaments.models import ExportJob, Tournament
from tests.web.fixtures_tournaments import (
    HTMX,
    TournamentWorld,
    client_as,
    draw,
    play_round_deals,
    url,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def played(tournament_world: TournamentWorld, cup: Tournament) -> Tournament:
    """The cup with round 1 drawn and played: three tables, two deals each."""
    draw(tournament_world, cup)
    play_round_deals(cup, 1)
    return cup


@pytest.fixture
def large(monkeypatch: Any) -> None:
    """A tournament of more than 2 deals is large."""
    monkeypatch.setattr(export_jobs, "INLINE_DEALS", 2)


def _job_url(job: ExportJob) -> str:
    return url("export_job", job.tournament, job=job.pk)


def test_a_small_tournament_is_still_a_download_within_the_request(
    tournament_world: TournamentWorld, played: Tournament
) -> None:
    response = client_as(tournament_world, "organiser").get(url("export_json", played))
    assert response.status_code == 200
    assert response["Content-Disposition"] == 'attachment; filename="spring-cup.json"'
    assert json.loads(response.content)["format"] == exports.FORMAT
    assert not ExportJob.objects.exists()


def test_a_large_export_answers_with_its_page_then_offers_the_file(
    tournament_world: TournamentWorld, played: Tournament, large: None
) -> None:
    client = client_as(tournament_world, "organiser")
    response = client.get(url("export_json", played))
    job = ExportJob.objects.get()
    assert response.status_code == 302 and response["Location"] == _job_url(job)
    assert job.status == ExportJob.Status.QUEUED and job.text == ""  # queued, not written
    assert DBTaskResult.objects.get(id=job.task_id).status == TaskResultStatus.READY

    page = client.get(_job_url(job)).content.decode()
    assert "<html" in page and 'hx-trigger="every 1s"' in page and "Waiting to begin" in page
    region = client.get(_job_url(job), headers=HTMX).content.decode()
    assert "<html" not in region and 'id="export-progress"' in region

    assert run_due() == 1
    job.refresh_from_db()
    assert job.status == ExportJob.Status.DONE and (job.done, job.total) == (3, 3)
    region = client.get(_job_url(job), headers=HTMX).content.decode()
    assert "The file is ready." in region and "hx-trigger" not in region
    file_url = url("export_file", played, job=job.pk)
    assert file_url in region
    download = client.get(file_url)
    assert download["Content-Disposition"] == 'attachment; filename="spring-cup.json"'
    data = json.loads(download.content)
    expected = json.loads(exports.export_text(Tournament.objects.get(pk=played.pk)))
    data.pop("exported_at"), expected.pop("exported_at")
    assert data == expected


def test_htmx_is_sent_to_the_job_page_and_asking_again_follows_the_same_job(
    tournament_world: TournamentWorld, played: Tournament, large: None
) -> None:
    client = client_as(tournament_world, "organiser")
    response = client.get(url("export_json", played), headers=HTMX)
    job = ExportJob.objects.get()
    assert response["HX-Redirect"] == _job_url(job)
    client.get(url("export_json", played))  # again while it waits: the same job
    assert ExportJob.objects.get() == job
    run_due()
    client.get(url("export_json", played))  # again once written: a new file
    assert ExportJob.objects.get().pk != job.pk  # the old one gave way


def test_the_page_counts_the_tables_written_in_both_languages(
    tournament_world: TournamentWorld, played: Tournament, large: None
) -> None:
    client_as(tournament_world, "organiser").get(url("export_json", played))
    job = ExportJob.objects.get()
    ExportJob.objects.filter(pk=job.pk).update(status=ExportJob.Status.WRITING, done=2, total=3)
    english = client_as(tournament_world, "organiser").get(_job_url(job), headers=HTMX)
    assert 'value="2" max="3"' in english.content.decode()
    assert "Tables written: 2 of 3" in english.content.decode()
    russian = client_as(tournament_world, "organiser", "ru").get(_job_url(job), headers=HTMX)
    assert "Записано столов: 2 из 3" in russian.content.decode()
    assert "Tables" not in russian.content.decode()


def test_a_failed_export_says_why_in_the_organisers_language(
    tournament_world: TournamentWorld, played: Tournament, large: None, monkeypatch: Any
) -> None:
    def broken(*args: Any, **kwargs: Any) -> str:
        raise RuntimeError("the disk is full")

    monkeypatch.setattr(exports, "export_text", broken)
    client = client_as(tournament_world, "organiser", "ru")
    client.get(url("export_json", played))
    run_due()
    job = ExportJob.objects.get()
    assert job.status == ExportJob.Status.FAILED
    page = client.get(_job_url(job)).content.decode()
    assert "Файл не удалось записать" in page and 'role="alert"' in page
    assert "hx-trigger" not in page
    assert client.get(url("export_file", played, job=job.pk)).status_code == 404


def test_a_job_whose_task_failed_for_good_is_reported_interrupted(
    tournament_world: TournamentWorld, played: Tournament, large: None
) -> None:
    client = client_as(tournament_world, "organiser")
    client.get(url("export_json", played))
    job = ExportJob.objects.get()
    DBTaskResult.objects.filter(id=job.task_id).update(status=TaskResultStatus.FAILED)
    page = client.get(_job_url(job)).content.decode()
    assert "The export was interrupted" in page and "hx-trigger" not in page
    client.get(url("export_json", played))  # asked again: a new job, not the dead one
    assert ExportJob.objects.get().pk != job.pk


def test_the_task_run_twice_writes_the_same_file(
    tournament_world: TournamentWorld, played: Tournament, large: None
) -> None:
    client_as(tournament_world, "organiser").get(url("export_json", played))
    job = ExportJob.objects.get()
    export_jobs.run(job.pk)
    first = ExportJob.objects.get().text
    ExportJob.objects.filter(pk=job.pk).update(status=ExportJob.Status.WRITING)  # killed late
    export_jobs.run(job.pk)
    again = ExportJob.objects.get()
    assert again.status == ExportJob.Status.DONE
    assert json.loads(again.text)["rounds"] == json.loads(first)["rounds"]


@pytest.mark.parametrize(
    ("role", "status"), [("member", 403), ("outsider", 403), ("admin", 404), ("anonymous", 302)]
)
def test_only_the_organiser_who_asked_sees_the_job_and_its_file(
    tournament_world: TournamentWorld, played: Tournament, large: None, role: str, status: int
) -> None:
    client_as(tournament_world, "organiser").get(url("export_json", played))
    run_due()
    job = ExportJob.objects.get()
    client = client_as(tournament_world, role)
    assert client.get(_job_url(job)).status_code == status
    assert client.get(url("export_file", played, job=job.pk)).status_code == status
    # The admin may export too, into a job of his own; the others are refused.
    asked = client.get(url("export_json", played)).status_code
    assert asked == {"member": 403, "outsider": 403, "admin": 302, "anonymous": 302}[role]
    assert ExportJob.objects.filter(created_by=tournament_world.users["organiser"]).count() == 1


def test_the_job_page_refuses_a_post_a_huge_id_and_another_tournaments_job(
    tournament_world: TournamentWorld, played: Tournament, large: None
) -> None:
    client = client_as(tournament_world, "organiser")
    client.get(url("export_json", played))
    job = ExportJob.objects.get()
    assert client.post(_job_url(job)).status_code == 405
    huge = _job_url(job).replace(f"/{job.pk}/", "/" + "9" * 30 + "/")
    assert client.get(huge).status_code == 404
    other = Tournament.objects.create(
        club=played.club,
        name="Other",
        slug="other",
        table_size=3,
        convention_name="sochi",
        convention_options=played.convention_options,
        target=10,
    )
    assert client.get(url("export_job", other, job=job.pk)).status_code == 404
    assert reverse("tournaments:export_job", args=["cup", "spring-cup", job.pk]) == _job_url(job)
