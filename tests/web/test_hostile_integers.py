"""Integers from a request: Unicode digits and endless digit strings
in every place that reads one give the page or a message, never a 500.

``"²".isdigit()`` is true but ``int("²")`` fails; ``int("٣")`` is 3; 5,000 digits exceed
what ``int`` converts. Every place reads its integers through ``prefscore.web.integers.request_int``.
"""

from __future__ import annotations

import pytest
from django.urls import reverse

from prefscore.games.models import Deal, ForgottenDeal
from prefscore.web.integers import request_int
from tests.web.fixtures_corrections import ALLPASS, correction_form, seated_record
from tests.web.fixtures_table import EN, HTMX

HOSTILE = ["²", "٣", "１", "9" * 5000, "-1", "1e3", " 1", "0x1", ""]


@pytest.mark.parametrize("value", HOSTILE)
def test_request_int_takes_ascii_digits_only_and_bounded(value):
    assert request_int(value) is None


def test_request_int_reads_what_is_fine():
    assert request_int("0") == 0
    assert request_int("123456789") == 123456789
    assert request_int("1234567890") is None  # more than 9 digits
    assert request_int(None) is None


@pytest.mark.parametrize("value", HOSTILE)
def test_the_settlement_seat_the_sheet_change_and_the_poll_version(
    seated_world, seated_client, value
):
    pulka = seated_world.pulka
    seated_record(pulka, ALLPASS, seated_world.users["anna"])
    client = seated_client("anna")

    settlement = client.get(reverse("games:settlement", args=[pulka.pk]), {"first_seat": value})
    sheet = client.get(reverse("games:sheet", args=[pulka.pk]), {"change": value})
    poll = client.get(reverse("games:poll", args=[pulka.pk]), {"v": value}, headers=HTMX)

    assert settlement.status_code == 200
    assert sheet.status_code == 200
    assert poll.status_code == 200  # not the version shown: the regions come back


@pytest.mark.parametrize("value", HOSTILE)
def test_the_deal_forms_declarer_tricks_and_talon(seated_world, seated_client, value):
    pulka = seated_world.pulka
    six = {
        "contract": "6S",
        "declarer": "Anna",
        "whists": {"Boris": "whist", "Vera": "pass"},
        "tricks": {"Anna": 6, "Boris": 3, "Vera": 1},
    }
    url = reverse("games:record", args=[pulka.pk])
    for field in ("declarer", "tricks_0", "tricks_1", "prikup"):
        form = {**correction_form(six, 1), field: value}
        response = seated_client("anna").post(url, form, headers=EN)
        assert response.status_code in (200, 302, 422), field
    assert Deal.objects.filter(pulka=pulka).count() <= 1  # only the form left intact saves


@pytest.mark.parametrize("value", HOSTILE)
def test_the_forgotten_deal_answer_seat(seated_world, seated_client, value):
    pulka = seated_world.pulka
    client = seated_client("anna")
    client.post(reverse("games:propose", args=[pulka.pk]), correction_form(ALLPASS, 1), headers=EN)
    proposal = ForgottenDeal.objects.get(pulka=pulka)

    response = client.post(
        reverse("games:answer", args=[pulka.pk, proposal.pk]),
        {"seat": value, "answer": "agree"},
        headers=EN,
    )

    assert response.status_code == 400
    assert "Choose Agree or Refuse." in response.content.decode()


HUGE = "9" * 5000


def test_huge_numbers_in_a_tournament_are_form_errors(tournament_world, cup):
    from tests.web.fixtures_tournaments import client_as, create_data, draw, url

    organiser = client_as(tournament_world, "organiser")
    created = organiser.post(
        reverse("tournaments:create", args=["cup"]),
        create_data(target=HUGE, deals_per_round=HUGE),
    )
    draw(tournament_world, cup)
    cut = organiser.post(url("cut", cup), {"size": HUGE})

    assert created.status_code == 200 and created.context["form"].errors["target"]
    assert cut.status_code == 200 and cut.context["cut_form"].errors["size"]


def test_huge_numbers_in_the_conventions_admin_are_form_errors(
    conventions_client, conventions_world
):
    from tests.web.fixtures_conventions import ADD, new_data

    data = new_data(conventions_world, price_6=HUGE, deal_limit="1" + "0" * 30)

    response = conventions_client("ada").post(ADD, data)

    assert response.status_code == 200
    errors = response.context["adminform"].form.errors
    assert "price_6" in errors and "deal_limit" in errors
