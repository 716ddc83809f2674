"""Forfeit scores in the standings (docs/tournaments.md §4.9): a player who leaves his
table after its first deal forfeits that round, counted at most the regulations'
``forfeit_whists``; his opponents keep the round as played, and check_tournament agrees."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.test import TestCase

from prefscore.games.models import Pulka
from prefscore.games.services import record_deal
from prefscore.tournaments import checks, exports, imports
from prefscore.tournaments.forms.regulations import RegulationsForm
from prefscore.tournaments.models import Tournament
from prefscore.tournaments.services import standings
from tests.web.fixtures_tournaments import client_as, draw, table_deals, url

pytestmark = pytest.mark.django_db


def whists_of(cup):
    return {line.player: line.whists for line in standings(cup).lines}


@pytest.fixture
def left(tournament_world, cup):
    """Round 1 with a deal at one table; its leader then drops: the table closes as it
    stands. Returns the tournament, the leaver's key and what the sheet gave each."""
    draw(tournament_world, cup)
    table = Pulka.objects.filter(tournament=cup, round_number=1).order_by("pk").first()
    with TestCase.captureOnCommitCallbacks(execute=True):
        record_deal(table.pk, table_deals(table)[0], tournament_world.users["organiser"], 1)
    sheet = whists_of(cup)
    keys = [str(seat.player_id) for seat in table.seats.all()]
    leader = max(keys, key=lambda key: sheet[key])
    assert sheet[leader] > 0
    leaving = cup.entries.get(player_id=int(leader))
    client = client_as(tournament_world, "organiser")
    client.post(
        url("entry_state", cup, entry=leaving.pk), {"action": "drop", "reason": "went home"}
    )
    leaving.refresh_from_db()
    assert leaving.forfeited_round == 1
    return cup, leader, sheet


def test_without_a_forfeit_score_the_sheet_counts_as_it_stands(left):
    cup, leader, sheet = left

    assert whists_of(cup) == sheet


@pytest.mark.parametrize("cap", [0, -50])
def test_a_forfeit_counts_at_most_the_regulations_figure(left, cap):
    cup, leader, sheet = left
    Tournament.objects.filter(pk=cup.pk).update(forfeit_whists=cap)
    cup.refresh_from_db()

    counted = whists_of(cup)

    assert counted[leader] == cap
    assert {k: v for k, v in counted.items() if k != leader} == {
        k: v for k, v in sheet.items() if k != leader
    }
    assert checks.check(cup) == []


def test_a_drop_before_the_first_deal_is_no_forfeit(tournament_world, cup):
    draw(tournament_world, cup)
    table = Pulka.objects.filter(tournament=cup, round_number=1).order_by("pk").first()
    leaving = cup.entries.get(player_id=table.seats.first().player_id)

    client_as(tournament_world, "organiser").post(
        url("entry_state", cup, entry=leaving.pk), {"action": "drop", "reason": "went home"}
    )

    leaving.refresh_from_db()
    assert leaving.state == "dropped" and leaving.forfeited_round is None


def test_the_forfeit_and_its_score_make_the_round_trip(tournament_world, left):
    cup, leader, _sheet = left
    Tournament.objects.filter(pk=cup.pk).update(forfeit_whists=0)
    cup.refresh_from_db()
    data = exports.export_data(cup)

    copy_ = imports.import_tournament(
        tournament_world.club, imports.read_file(exports.export_text(cup)), None
    )

    assert data["tournament"]["forfeit_whists"] == 0
    assert copy_.forfeit_whists == 0
    left_copy = copy_.entries.get(forfeited_round=1)
    assert str(left_copy.player_id) == leader
    assert exports.export_data(copy_)["standings"] == data["standings"]


def test_the_regulations_form_sets_the_forfeit_score(tournament_world, cup):
    client = client_as(tournament_world, "organiser")
    page = client.get(url("regulations", cup))
    assert 'name="forfeit_whists"' in page.content.decode()
    foreign = client.post(url("regulations", cup), {**_form(cup), "forfeit_whists": "٥"})
    assert foreign.status_code in (200, 422)
    cup.refresh_from_db()
    assert cup.forfeit_whists is None
    positive = client.post(url("regulations", cup), {**_form(cup), "forfeit_whists": "5"})
    assert positive.status_code in (200, 422)
    client.post(url("regulations", cup), {**_form(cup), "forfeit_whists": "-20"})
    cup.refresh_from_db()
    assert cup.forfeit_whists == -20
    assert "−20" in client.get(url("detail", cup)).content.decode()  # a true minus


def _form(cup):
    form = RegulationsForm(tournament=cup)
    data = {}
    for name, field in form.fields.items():
        value = form.initial.get(name, field.initial)
        if value is not None and value != "":
            data[name] = value
    data.pop("public", None)
    return data


def test_the_admin_shows_the_forfeited_round_without_letting_it_be_typed(tournament_world, left):
    cup, leader, _sheet = left
    superuser = get_user_model().objects.create_superuser("root", password="pw-root-12345")
    client = client_as(tournament_world, "anonymous")
    client.force_login(superuser)

    page = client.get(f"/admin/tournaments/tournament/{cup.pk}/change/")

    assert page.status_code == 200
    body = page.content.decode()
    assert "forfeited round" in body.lower()
    assert 'name="entries-0-state"' in body
    assert 'name="entries-0-forfeited_round"' not in body
