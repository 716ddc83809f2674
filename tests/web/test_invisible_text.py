"""Texts cleaned in one place (prefscore/clubs/names.py) and files read strictly: a
guest's name of invisible characters, a reason of zero-width characters, a pulka file
with a key given twice or two names alike but for case, are refused beside their field,
never a 500, nothing saved."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from prefscore.clubs.models import Membership, Role
from prefscore.games.models import Deal, Pulka
from scoring.engine import protocol
from scoring.engine.errors import ProtocolError
from tests.web.fixtures_club import example_input
from tests.web.fixtures_corrections import SEATED_PASSWORD
from tests.web.fixtures_table import EN

pytestmark = pytest.mark.django_db

INVISIBLE = ["\u200b", "\u200e", "\u202e", "\u2060", "\ufeff", "\u200b\u2060 \ufeff"]


@pytest.mark.parametrize("name", INVISIBLE)
def test_a_seat_1_guest_of_invisible_characters_is_the_forms_error(club_world, club_client, name):
    data = {
        "convention": "sochi",
        "guest_1": name,
        "player_2": club_world.players["ivan"].pk,
        "player_3": club_world.players["Guest Gena"].pk,
        "target": 20,
        "first_dealer": 1,
    }
    client = club_client("ivan")
    client.raise_request_exception = False

    response = client.post(reverse("games:new", args=["friday"]), data, headers=EN)

    assert response.status_code == 200
    assert "Seat 1 is empty" in response.content.decode()
    assert not Pulka.objects.exists()


@pytest.fixture
def admin(seated_world: Any) -> Any:
    user = get_user_model().objects.create_user("ada", password=SEATED_PASSWORD)
    Membership.objects.create(club=seated_world.club, user=user, role=Role.ADMIN)
    seated_world.users["ada"] = user
    return user


def manual(seated_client, pulka, reason):
    data = {"number": "1", "player": "0", "section": "gora", "points": "6", "reason": reason}
    return seated_client("ada").post(reverse("games:manual", args=[pulka.pk]), data, headers=EN)


@pytest.mark.parametrize("reason", INVISIBLE)
def test_a_manual_entrys_reason_of_invisible_characters_is_refused(
    seated_world, seated_client, admin, reason
):
    response = manual(seated_client, seated_world.pulka, reason)

    assert response.status_code == 200
    assert not Deal.objects.filter(pulka=seated_world.pulka).exists()


def test_a_manual_entrys_reason_loses_its_direction_overrides(seated_world, seated_client, admin):
    response = manual(seated_client, seated_world.pulka, "\u202eShowed\u2066 a card\u202c")

    assert response.status_code == 302
    assert Deal.objects.get().facts["manual"]["reason"] == "Showed a card"


def test_the_engine_refuses_a_key_given_twice_with_its_code():
    with pytest.raises(ProtocolError) as refused:
        protocol.decode('{"players": ["A", "B", "C"], "target": 10, "target": 20}')

    assert refused.value.code == "file.duplicate_key"
    assert refused.value.params == {"name": "target"}


def test_the_engine_refuses_a_key_given_twice_inside_a_deal():
    with pytest.raises(ProtocolError) as refused:
        protocol.decode('{"deals": [{"contract": "6S", "contract": "7S"}]}')

    assert refused.value.code == "file.duplicate_key"


def paste(client, text):
    return client.post(reverse("games:import", args=["friday"]), {"text": text}, headers=EN)


def test_an_imported_file_with_a_key_given_twice_is_refused(club_world, club_client):
    text = json.dumps(example_input("001-protocol-example.json"))
    text = text.replace('"target": 10', '"target": 10, "target": 20')
    assert text.count('"target"') == 2

    response = paste(club_client("ivan"), text)

    assert response.status_code == 200
    assert "given twice" in response.content.decode()
    assert not Pulka.objects.exists()


@pytest.mark.parametrize(
    ("names", "message"),
    [
        (["anna", "Anna", "C"], "differ only in case"),
        (["A\u200b", "B", "C"], "invisible characters"),
        (["A", "B\u202e", "C"], "invisible characters"),
    ],
)
def test_the_importer_applies_the_forms_rules_to_names(club_world, club_client, names, message):
    data = {"convention": "sochi", "players": names, "target": 10, "deals": []}

    response = paste(club_client("ivan"), json.dumps(data))

    assert response.status_code == 200
    assert message in response.content.decode()
    assert not Pulka.objects.exists()
