"""Correcting a recorded deal at the table (Кодекс 4.2.7, 4.2.9): who sees "Correct",
and the correction form. Warnings, penalties and the deadline are in
test_corrections_penalties.py; the arbiter's decision (4.2.16) and the pulka file in
test_corrections_arbiter.py."""

import re

import pytest
from django.urls import reverse

from prefscore.games.models import Correction
from tests.web.fixtures_corrections import (
    ALLPASS,
    RIGHT,
    VERA_WRONG,
    WRONG,
    correct_url,
    correction_form,
    post,
    recorded,
    sheet,
)
from tests.web.fixtures_table import EN, HTMX, region

pytestmark = pytest.mark.django_db


# --- who sees "Correct" -------------------------------------------------------------------


def test_every_deal_line_offers_correct_to_a_player_at_the_table(seated_world, seated_client):
    pulka = recorded(seated_world, WRONG, ALLPASS)

    protocol = region(sheet(seated_client("vera"), pulka), "protocol")

    assert f'href="{correct_url(pulka, 1)}"' in protocol
    assert f'href="{correct_url(pulka, 2)}"' in protocol
    assert f'hx-get="{correct_url(pulka, 1)}"' in protocol
    assert "Arbiter" not in protocol  # not a tournament pulka


@pytest.mark.parametrize("who", ["gleb", "oksana"])
def test_a_member_not_at_the_table_sees_no_correct_button(who, seated_world, seated_client):
    pulka = recorded(seated_world, WRONG)

    protocol = region(sheet(seated_client(who), pulka), "protocol")

    assert correct_url(pulka, 1) not in protocol
    assert ">Correct<" not in protocol


@pytest.mark.parametrize("who", ["gleb", "oksana"])
def test_a_member_not_at_the_table_cannot_post_a_correction(who, seated_world, seated_client):
    pulka = recorded(seated_world, WRONG)

    for htmx in (False, True):
        response = post(seated_client(who), correct_url(pulka, 1), correction_form(RIGHT, 1), htmx)
        assert response.status_code == 403
        assert "Only the players at this table may correct its deals." in response.content.decode()
        assert seated_client(who).get(correct_url(pulka, 1), headers=EN).status_code == 403
    assert not Correction.objects.exists()


def test_an_outsider_is_refused_and_an_unknown_pulka_or_deal_is_not_found(
    seated_world, seated_client
):
    pulka = recorded(seated_world, WRONG)

    assert (
        post(seated_client("olaf"), correct_url(pulka, 1), correction_form(RIGHT, 1)).status_code
        == 403
    )
    assert seated_client("olaf").get(correct_url(pulka, 1), headers=HTMX).status_code == 403
    assert seated_client("vera").get(reverse("games:correct", args=[999999, 1])).status_code == 404
    assert seated_client("vera").get(correct_url(pulka, 2)).status_code == 404
    assert not Correction.objects.exists()


def test_an_anonymous_visitor_is_sent_to_sign_in(seated_world, seated_client):
    pulka = recorded(seated_world, WRONG)

    response = seated_client("anonymous").get(correct_url(pulka, 1))

    assert response.status_code == 302 and response["Location"].startswith(reverse("login"))


def test_the_correction_view_answers_405_to_other_methods(seated_world, seated_client):
    pulka = recorded(seated_world, WRONG)

    assert seated_client("vera").put(correct_url(pulka, 1)).status_code == 405
    assert seated_client("vera").delete(correct_url(pulka, 1)).status_code == 405


def test_a_correction_without_the_csrf_token_is_refused(seated_world, seated_client):
    pulka = recorded(seated_world, WRONG)

    response = seated_client("vera", csrf=True).post(
        correct_url(pulka, 1), correction_form(RIGHT, 1)
    )

    assert response.status_code == 403
    assert not Correction.objects.exists()


def test_while_the_recorder_holds_the_pencil_nobody_else_corrects(seated_world, seated_client):
    pulka = recorded(seated_world, WRONG, pencil_down=False)

    anna = region(sheet(seated_client("anna"), pulka), "protocol")
    vera = region(sheet(seated_client("vera"), pulka), "protocol")
    response = post(seated_client("vera"), correct_url(pulka, 1), correction_form(RIGHT, 1))

    assert "?change=1" in anna and correct_url(pulka, 1) not in anna
    assert correct_url(pulka, 1) not in vera
    assert "anna holds the pencil on this deal until" in vera
    assert response.status_code == 409
    assert "anna still holds the pencil" in response.content.decode()
    assert not Correction.objects.exists()


# --- the form -------------------------------------------------------------------------------


def test_the_correction_form_holds_the_deal_as_it_stands_in_the_state_it_was_dealt(
    seated_world, seated_client
):
    pulka = recorded(seated_world, ALLPASS, VERA_WRONG)

    page = seated_client("anna").get(correct_url(pulka, 2), headers=EN).content.decode()

    entry = region(page, "entry")
    assert "Correct deal 2" in entry
    assert "<strong>Boris</strong> deals" in entry  # the dealer of deal 2, not of deal 3
    assert f'action="{correct_url(pulka, 2)}"' in entry
    assert 'id="contract-6" value="6" checked' in entry
    assert re.search(r'id="declarer-2"\s+value="2" checked', entry)
    assert re.search(r'name="tricks_1" id="tricks_1" value="4"', entry)
    assert (
        "As it stands: 6♠ Vera · Anna pass, Boris whist · tricks: Anna 0, Boris 4, Vera 6" in entry
    )


def test_with_htmx_the_correction_form_replaces_the_entry_form(seated_world, seated_client):
    pulka = recorded(seated_world, WRONG)

    response = seated_client("vera").get(correct_url(pulka, 1), headers=HTMX)

    html = response.content.decode()
    assert response.status_code == 200
    assert re.search(r'id="entry"[^>]*hx-swap-oob="true"', html)
    assert "<html" not in html and "Correct deal 1" in html


def test_the_correction_form_shows_the_facts_after_earlier_corrections(seated_world, seated_client):
    pulka = recorded(seated_world, WRONG)
    post(seated_client("vera"), correct_url(pulka, 1), correction_form(RIGHT, 1))

    entry = region(
        seated_client("vera").get(correct_url(pulka, 1), headers=EN).content.decode(), "entry"
    )

    assert re.search(r'name="tricks_1" id="tricks_1" value="3"', entry)
    assert re.search(r'name="tricks_0" id="tricks_0" value="7"', entry)


def test_a_wrong_correction_is_shown_beside_the_field_and_nothing_is_saved(
    seated_world, seated_client
):
    pulka = recorded(seated_world, WRONG)
    bad = correction_form(RIGHT, 1, tricks_0="8")  # 8 + 3 + 0 = 11

    for htmx, status in ((False, 200), (True, 422)):
        response = post(seated_client("vera"), correct_url(pulka, 1), bad, htmx)
        html = response.content.decode()
        assert response.status_code == status
        errors = region(html, "entry-tricks-errors")
        assert "The tricks add up to 11; they must add up to 10." in errors
        assert re.search(r'name="tricks_0" id="tricks_0" value="8"', html)  # kept
    assert not Correction.objects.exists()


def test_a_correction_that_changes_nothing_is_refused(seated_world, seated_client):
    pulka = recorded(seated_world, WRONG)

    response = post(seated_client("vera"), correct_url(pulka, 1), correction_form(WRONG, 1))

    assert "These are the facts that stand" in response.content.decode()
    assert not Correction.objects.exists()
