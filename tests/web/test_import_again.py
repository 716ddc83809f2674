"""What an export says of itself, and importing the same file twice."""

from __future__ import annotations

import json

import pytest
from django.urls import reverse
from django.utils import timezone

from prefscore.games.models import AuditEvent, Pulka
from scoring.engine.errors import ProtocolError
from scoring.engine.protocol import read
from tests.web.fixtures_club import club_pulka, example_input, three_deals

pytestmark = pytest.mark.django_db

HX = {"HX-Request": "true"}
EN = {"accept-language": "en"}
RU = {"accept-language": "ru"}


def import_url() -> str:
    return reverse("games:import", args=["friday"])


def paste(client, text: str, **extra: str):
    return client.post(import_url(), {"text": text, **extra}, headers=EN)


def test_an_export_carries_its_title_date_and_club(club_world, club_client):
    names = ("olga", "ivan", "Guest Gena")
    pulka = club_pulka(club_world.club, names, three_deals(names), title="Thursday night")

    data = json.loads(club_client("ivan").get(reverse("games:export", args=[pulka.pk])).content)

    assert data["title"] == "Thursday night"
    assert data["club"] == club_world.club.name
    assert data["date"] == timezone.localtime(pulka.created_at).date().isoformat()


def test_an_imported_export_keeps_its_title_and_the_trail_names_its_source(club_world, club_client):
    names = ("olga", "ivan", "Guest Gena")
    pulka = club_pulka(club_world.club, names, three_deals(names), title="Thursday night")
    text = club_client("ivan").get(reverse("games:export", args=[pulka.pk])).content.decode()

    paste(club_client("ivan"), text)

    imported = Pulka.objects.exclude(pk=pulka.pk).get()
    assert imported.title == "Thursday night"
    details = imported.audit_events.get(action=AuditEvent.Action.IMPORTED).details
    assert (
        details["file_club"] == club_world.club.name and details["file_title"] == "Thursday night"
    )


@pytest.mark.parametrize(
    "value", [5, "x" * 201, "two\nlines", ["list"]], ids=["number", "long", "newline", "list"]
)
def test_a_descriptive_field_that_is_not_one_short_line_is_refused(value):
    data = {**example_input("001-protocol-example.json"), "title": value}

    with pytest.raises(ProtocolError) as caught:
        read(data)

    assert caught.value.code == "file.description"


def test_the_same_file_imported_twice_asks_first(club_world, club_client):
    text = json.dumps(example_input("001-protocol-example.json"))
    ivan = club_client("ivan")
    first = paste(ivan, text)
    assert first.status_code == 302

    again = paste(ivan, text)

    html = again.content.decode()
    assert again.status_code == 200
    assert Pulka.objects.count() == 1  # nothing made yet
    assert "This file was imported before" in html
    earlier = Pulka.objects.get()
    assert reverse("games:sheet", args=[earlier.pk]) in html
    assert 'name="import_again"' in html


def test_confirming_imports_the_duplicate(club_world, club_client):
    text = json.dumps(example_input("001-protocol-example.json"))
    ivan = club_client("ivan")
    paste(ivan, text)
    question = paste(ivan, text, **{})
    sha = question.context["duplicate"]["sha256"]

    confirmed = ivan.post(import_url(), {"text": text, "import_again": sha}, headers=HX)

    assert confirmed.status_code == 200 and "HX-Redirect" in confirmed
    assert Pulka.objects.count() == 2


def test_a_wrong_confirmation_asks_again(club_world, club_client):
    text = json.dumps(example_input("001-protocol-example.json"))
    ivan = club_client("ivan")
    paste(ivan, text)

    response = paste(ivan, text, import_again="0" * 64)

    assert response.status_code == 200 and Pulka.objects.count() == 1


def test_a_file_imported_in_another_club_is_no_duplicate_here(club_world, club_client):
    text = json.dumps(example_input("001-protocol-example.json"))
    other = club_pulka(club_world.other_club, ("x", "y", "z"))
    AuditEvent.objects.create(
        pulka=other, action=AuditEvent.Action.IMPORTED, details={"sha256": "irrelevant"}
    )
    paste(club_client("ivan"), text)

    assert Pulka.objects.filter(club=club_world.club).count() == 1


def test_the_question_is_in_russian(club_world, club_client):
    text = json.dumps(example_input("001-protocol-example.json"))
    ivan = club_client("ivan")
    paste(ivan, text)

    html = ivan.post(import_url(), {"text": text}, headers=RU).content.decode()

    assert "Этот файл уже импортировали" in html and "Импортировать ещё раз" in html
