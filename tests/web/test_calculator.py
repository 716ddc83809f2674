"""The paper-pulka calculator: settle a pulka file without a club, storing nothing."""

from __future__ import annotations

import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from prefscore.games.models import Pulka
from prefscore.games.presenters import signed
from tests.web.fixtures_club import example_input

pytestmark = pytest.mark.django_db

URL = reverse("games:calculator")
HX = {"HX-Request": "true"}
EN = {"accept-language": "en"}
CODEX_ROUNDING = "004-6.3-sochi-4p-codex-rounding.json"


def settle(client, data, **headers):
    text = data if isinstance(data, str) else json.dumps(data, ensure_ascii=False)
    return client.post(URL, {"text": text}, headers={**EN, **headers})


def rows(response) -> dict[str, dict[str, object]]:
    """Each player's results as the calculator prints them, signed."""
    return {
        row.name: {
            "result": row.exact.signed,
            "whole": row.whole.signed,
            "money": row.money.signed if row.money else None,
        }
        for row in response.context["settlement"].rows
    }


def test_the_calculator_settles_the_codex_rounding_example(club_world, club_client):
    response = settle(club_client("ivan"), example_input(CODEX_ROUNDING))

    assert response.status_code == 200
    whole = {name: row["whole"] for name, row in rows(response).items()}
    assert whole == {"С": "+29", "З": "\u2212103", "В": "\u221213", "Ю": "+87"}
    money = {name: row["money"] for name, row in rows(response).items()}
    assert money == {"С": "+0.29", "З": "\u22121.03", "В": "\u22120.13", "Ю": "+0.87"}
    html = response.content.decode()
    assert 'data-result="whole">29<' in html and 'data-result="whole">\u2212103<' in html
    assert 'data-result="exact">27.50<' in html
    assert not Pulka.objects.exists()


def test_the_calculator_writes_decimals_the_russian_way(club_world, club_client):
    response = club_client("ivan").post(URL, {"text": json.dumps(example_input(CODEX_ROUNDING))})

    assert 'data-result="exact">27,50<' in response.content.decode()


def test_the_calculator_takes_an_upload_too(club_world, club_client):
    upload = SimpleUploadedFile("sheet.json", json.dumps(example_input(CODEX_ROUNDING)).encode())
    response = club_client("ivan").post(URL, {"file": upload}, headers=EN)

    assert rows(response)["Ю"]["whole"] == "+87"


def test_the_calculator_settles_a_file_of_deals_as_if_stopped_now(club_world, club_client):
    response = settle(club_client("ivan"), example_input("001-protocol-example.json"))

    assert rows(response)["A"]["whole"] == "+45"  # B adjusts (docs/protocol.md)
    assert "not over" in response.content.decode()
    assert not Pulka.objects.exists()


def test_the_calculator_under_htmx_returns_its_region(club_world, club_client):
    response = settle(club_client("ivan"), example_input(CODEX_ROUNDING), **HX)

    html = response.content.decode()
    assert html.lstrip().startswith('<div id="calculator">')
    assert 'id="settlement"' in html and "<html" not in html


def test_the_empty_calculator_page_and_its_htmx_region(club_world, club_client):
    page = club_client("ivan").get(URL)
    region = club_client("ivan").get(URL, headers=HX)

    assert page.status_code == 200 and "<html" in page.content.decode()
    assert region.content.decode().lstrip().startswith('<div id="calculator">')
    assert 'id="settlement"' not in page.content.decode()


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("{", "The file is not valid JSON"),
        ("", "Paste a pulka file or choose one to upload."),
        (json.dumps({"players": list("ABCDEF"), "target": 10}), "2 to 5 players, not 6"),
        (
            json.dumps({"players": ["A", "B"], "target": 10, "sheet": {"A": {}}}),
            "sheet must give pulya, gora and whists for every player",
        ),
    ],
)
def test_the_calculator_refuses_a_bad_file_with_a_message(club_world, club_client, text, message):
    for headers in ({}, HX):
        response = settle(club_client("ivan"), text, **headers)
        assert response.status_code == 200
        assert message in " ".join(response.context["form"].errors["text"])
        assert 'id="settlement"' not in response.content.decode()


def test_a_deal_the_engine_refuses_is_shown_as_a_message(club_world, club_client):
    data = example_input("001-protocol-example.json")
    data["deals"][0]["tricks"]["A"] = 9

    response = settle(club_client("ivan"), data)

    assert "deal 1:" in " ".join(response.context["form"].errors["text"])


def test_hostile_names_in_a_settled_sheet_are_escaped(club_world, club_client):
    data = example_input(CODEX_ROUNDING)
    text = json.dumps(data, ensure_ascii=False).replace("С", "<script>С</script>")

    html = settle(club_client("ivan"), text).content.decode()

    assert "<script>С" not in html and "&lt;script&gt;С&lt;/script&gt;" in html


def test_the_calculator_needs_a_signed_in_user_but_no_club(client, django_user_model):
    assert client.get(URL)["Location"].startswith(reverse("login"))

    client.force_login(django_user_model.objects.create_user("loner"))
    assert client.get(URL).status_code == 200


def test_the_calculator_answers_405_to_put(club_world, club_client):
    assert club_client("ivan").put(URL).status_code == 405


def test_the_calculator_needs_the_csrf_token(club_world, club_client):
    response = club_client("ivan", csrf=True).post(URL, {"text": "{}"})

    assert response.status_code == 403


@pytest.mark.parametrize(
    ("value", "text"),
    [(29, "+29"), (-103, "\u2212103"), (0, "0"), (27.5, "+27.5"), (-0.13, "\u22120.13")],
)
def test_figures_are_signed_as_players_write_them(value, text):
    from django.utils import translation

    with translation.override("en"):
        assert signed(value) == text
