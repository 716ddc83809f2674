"""An arbiter's final sheet can be corrected, with a reason, audited and shown
(Кодекс 4.2.16; docs/tournaments.md §4.9); figures come in ASCII digits only
(``web.integers.request_int``'s rule), on the arbiter's sheet and the cut form alike."""

from __future__ import annotations

import pytest

from prefscore.games.models import Pulka
from prefscore.tournaments import tables
from prefscore.tournaments.models import TableClosure, Tournament, TournamentEvent
from prefscore.tournaments.services import standings
from tests.web.fixtures_tournaments import HTMX, client_as, close_round, draw, url

pytestmark = pytest.mark.django_db


@pytest.fixture
def arbitrated(tournament_world, cup):
    draw(tournament_world, cup)
    pulka = Pulka.objects.filter(tournament=cup).order_by("pk").first()
    tables.close_table(pulka.pk, cup, TableClosure.Reason.ARBITER, None, [6, -2, -4])
    return pulka


def correct_url(cup, pulka):
    return url("correct_closure", cup, pulka=pulka.pk)


def form(whists, reason="Typo: Anna's figure"):
    data = {f"whists_{seat}": str(value) for seat, value in enumerate(whists)}
    return {**data, "reason": reason}


@pytest.mark.parametrize("htmx", [False, True])
def test_the_organiser_corrects_an_arbiters_final_sheet_once(
    tournament_world, cup, arbitrated, htmx
):
    client = client_as(tournament_world, "organiser")
    page = client.get(url("detail", cup)).content.decode()
    assert correct_url(cup, arbitrated) in page
    assert 'value="6"' in client.get(correct_url(cup, arbitrated)).content.decode()

    headers = HTMX if htmx else {}
    response = client.post(correct_url(cup, arbitrated), form([8, -2, -6]), headers=headers)

    assert response.status_code in (200, 302)
    closure = TableClosure.objects.get(pulka=arbitrated)
    assert closure.whists == [8, -2, -6]
    event = TournamentEvent.objects.get(tournament=cup, action="closure_corrected")
    assert event.details["before"] == [6, -2, -4] and event.details["after"] == [8, -2, -6]
    assert event.user == tournament_world.users["organiser"]
    keys = [str(seat.player_id) for seat in arbitrated.seats.order_by("seat")]
    whists = {line.player: line.whists for line in standings(cup).lines}
    assert [whists[key] for key in keys] == [8, -2, -6]
    page = client.get(url("detail", cup)).content.decode()
    assert "Typo: Anna&#x27;s figure" in page and "+6 → +8" in page


def test_a_correction_is_refused_without_a_reason_off_zero_or_after_the_finish(
    tournament_world, cup, arbitrated
):
    client = client_as(tournament_world, "organiser")

    no_reason = client.post(correct_url(cup, arbitrated), form([8, -2, -6], reason=""))
    off_zero = client.post(correct_url(cup, arbitrated), form([8, -2, -4]))
    assert no_reason.status_code == 200 and "This field is required" in no_reason.content.decode()
    assert "add up to 2" in off_zero.content.decode()

    Tournament.objects.filter(pk=cup.pk).update(status=Tournament.Status.FINISHED)
    finished = client.post(correct_url(cup, arbitrated), form([8, -2, -6]))
    assert "Reopen it to change them" in finished.content.decode()
    assert TableClosure.objects.get(pulka=arbitrated).whists == [6, -2, -4]
    assert not TournamentEvent.objects.filter(action="closure_corrected").exists()


def test_correcting_a_closing_is_the_organisers_and_only_an_arbiters_sheet(
    tournament_world, cup, arbitrated
):
    member = client_as(tournament_world, "member")
    assert member.get(correct_url(cup, arbitrated)).status_code == 403
    assert member.post(correct_url(cup, arbitrated), form([8, -2, -6])).status_code == 403
    organiser = client_as(tournament_world, "organiser")
    assert organiser.put(correct_url(cup, arbitrated)).status_code == 405
    csrf = client_as(tournament_world, "organiser", enforce_csrf_checks=True)
    assert csrf.post(correct_url(cup, arbitrated), form([8, -2, -6])).status_code == 403
    close_round(cup, 1)
    by_time = Pulka.objects.filter(tournament=cup).exclude(pk=arbitrated.pk).first()
    assert organiser.get(correct_url(cup, by_time)).status_code == 404
    assert TableClosure.objects.get(pulka=arbitrated).whists == [6, -2, -4]


def test_the_admin_corrects_an_arbiters_closing_and_the_change_is_audited(
    tournament_world, cup, arbitrated
):
    from django.contrib.auth import get_user_model

    superuser = get_user_model().objects.create_superuser("root", password="pw-root-12345")
    client = client_as(tournament_world, "anonymous")
    client.force_login(superuser)
    closure = TableClosure.objects.get(pulka=arbitrated)
    change = f"/admin/tournaments/tableclosure/{closure.pk}/change/"
    page = client.get(change)
    assert page.status_code == 200
    assert "whists" in page.content.decode()

    response = client.post(
        change,
        {"reason": "arbiter", "whists": "[7, -3, -4]", "note": "", "decision_reason": "typo"},
    )

    assert response.status_code == 302, response.content.decode()[:3000]
    assert TableClosure.objects.get(pk=closure.pk).whists == [7, -3, -4]
    event = TournamentEvent.objects.get(tournament=cup, action="closure_corrected")
    assert event.details["before"] == [6, -2, -4] and event.reason == "typo"
    decisions = client.get("/admin/tournaments/tournamentevent/")
    assert decisions.status_code == 200
    page = client.get(f"/admin/tournaments/tournamentevent/{event.pk}/change/")
    assert page.status_code == 200 and "typo" in page.content.decode()
    assert client.post(change, {"whists": "[7, -3, -4]"}).status_code == 200  # no reason


@pytest.mark.parametrize("typed", ["١٠", "٤", "１０", "²"])
def test_foreign_digits_are_refused_on_the_arbiters_sheet_and_the_cut(tournament_world, cup, typed):
    draw(tournament_world, cup)
    client = client_as(tournament_world, "organiser")
    pulka = Pulka.objects.filter(tournament=cup).order_by("pk").first()
    data = {"reason": "arbiter", "whists_0": typed, "whists_1": "-4", "whists_2": "-6"}

    closing = client.post(url("close_table", cup, pulka=pulka.pk), data)
    assert closing.status_code == 200
    assert closing.context["form"].errors["whists_0"]
    assert not TableClosure.objects.exists()

    close_round(cup, 1)
    cut = client.post(url("cut", cup), {"size": typed, "stage": "final"})
    assert cut.context["cut_form"].errors["size"]
    assert cup.rounds.count() == 1
