"""An imported pulka has its audit trail: the import itself, with the file's SHA-256,
and each correction the file brings."""

from __future__ import annotations

import copy
import hashlib
import json

import pytest
from django.urls import reverse

from prefscore.games.models import AuditEvent, Pulka
from tests.web.fixtures_club import example_input

pytestmark = pytest.mark.django_db

EN = {"accept-language": "en"}


def import_text(client, text: str) -> Pulka:
    before = set(Pulka.objects.values_list("pk", flat=True))
    response = client.post(reverse("games:import", args=["friday"]), {"text": text}, headers=EN)
    assert response.status_code == 302
    return Pulka.objects.exclude(pk__in=before).get()


def file_with_corrections() -> str:
    data = example_input("001-protocol-example.json")
    wrong = copy.deepcopy(data["deals"][0])
    wrong["tricks"] = {"A": 7, "B": 2, "C": 1}
    data["deals"].append({"correct": 1, "deal": wrong})
    data["deals"].append({"correct": 1, "deal": data["deals"][0], "penalty": False})
    return json.dumps(data, ensure_ascii=False)


def test_an_import_writes_who_imported_which_file(club_world, club_client):
    text = file_with_corrections()

    pulka = import_text(club_client("ivan"), text)

    event = pulka.audit_events.get(action=AuditEvent.Action.IMPORTED)
    assert event.user.username == "ivan"
    assert event.details["sha256"] == hashlib.sha256(text.encode()).hexdigest()
    assert event.details["corrections"] == 2
    assert event.details["deals"] == pulka.deals.count() > 0


def test_each_imported_correction_is_in_the_trail_in_log_order(club_world, club_client):
    pulka = import_text(club_client("ivan"), file_with_corrections())

    events = list(pulka.audit_events.filter(action=AuditEvent.Action.CORRECTED))

    assert [(e.deal_number, e.details["kind"]) for e in events] == [
        (1, "imported"),
        (1, "imported-no-penalty"),
    ]
    assert events[0].details["facts"]["tricks"] == {"A": 7, "B": 2, "C": 1}


def test_the_audit_page_shows_the_import_in_both_languages(club_world, club_client):
    client = club_client("ivan")
    text = file_with_corrections()
    pulka = import_text(client, text)
    digest = hashlib.sha256(text.encode()).hexdigest()

    english = client.get(reverse("games:audit", args=[pulka.pk]), headers=EN).content.decode()
    russian = client.get(reverse("games:audit", args=[pulka.pk])).content.decode()

    assert f"Imported the pulka from a file (SHA-256 {digest})" in english
    assert "as the imported file records it" in english
    assert digest in russian
    assert "Imported the pulka" not in russian


def test_a_file_ending_in_two_corrections_of_its_last_deal_imports_and_shows(
    club_world, club_client
):
    """A trailing ``correct`` item was sorted by an empty time (a 500)."""
    client = club_client("ivan")
    pulka = import_text(client, file_with_corrections())

    sheet = client.get(reverse("games:sheet", args=[pulka.pk]), headers=EN)

    assert sheet.status_code == 200
    assert pulka.corrections.count() == 2
