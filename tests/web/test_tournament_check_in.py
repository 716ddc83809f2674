"""Check-in (docs/tournaments.md §4.2): the organiser ticks several players in one submit;
a player checks in himself with the tournament's QR code (a signed link), his own entry
only, and only until round 1 is published."""

from __future__ import annotations

import pytest

from prefscore.tournaments import checkin
from prefscore.tournaments.models import Round, TournamentEntry, TournamentEvent
from tests.web.fixtures_tournaments import HTMX, client_as, draw, url

pytestmark = pytest.mark.django_db

State = TournamentEntry.State


def states(cup):
    return dict(cup.entries.values_list("player__name", "state"))


@pytest.mark.parametrize("htmx", [False, True])
def test_the_organiser_checks_in_the_ticked_players_in_one_submit(tournament_world, cup, htmx):
    client = client_as(tournament_world, "organiser")
    page = client.get(url("detail", cup)).content.decode()
    assert url("bulk_check_in", cup) in page and 'name="entries"' in page
    ticked = [cup.entries.get(player__name=name).pk for name in ("Anna", "Boris", "Vera")]

    response = client.post(
        url("bulk_check_in", cup), {"entries": ticked}, headers=HTMX if htmx else {}
    )

    assert response.status_code in (200, 302)
    assert "#entries" in (response.headers.get("HX-Redirect") or response.headers["Location"])
    by_name = states(cup)
    assert [by_name[name] for name in ("Anna", "Boris", "Vera")] == [State.CHECKED_IN] * 3
    assert by_name["Gleb"] == State.REGISTERED


def test_a_bulk_check_in_refuses_what_is_not_offered_and_saves_nothing(tournament_world, cup):
    client = client_as(tournament_world, "organiser")
    nothing = client.post(url("bulk_check_in", cup), {})
    other = client.post(url("bulk_check_in", cup), {"entries": ["999999"]}, headers=HTMX)
    garbage = client.post(url("bulk_check_in", cup), {"entries": ["١"]})
    assert nothing.context["checkin_form"].errors["entries"]
    assert other.status_code == 200 and other.context["checkin_form"].errors["entries"]
    assert garbage.context["checkin_form"].errors["entries"]
    assert set(states(cup).values()) == {State.REGISTERED}


def test_bulk_check_in_is_the_organisers_and_closes_with_round_1(tournament_world, cup):
    anna = cup.entries.get(player__name="Anna")
    data = {"entries": [anna.pk]}
    assert (
        client_as(tournament_world, "member").post(url("bulk_check_in", cup), data).status_code
        == 403
    )
    organiser = client_as(tournament_world, "organiser")
    assert organiser.get(url("bulk_check_in", cup)).status_code == 405
    csrf = client_as(tournament_world, "organiser", enforce_csrf_checks=True)
    assert csrf.post(url("bulk_check_in", cup), data).status_code == 403
    assert states(cup)["Anna"] == State.REGISTERED

    for entry in cup.entries.all():  # everyone is here; round 1 starts
        organiser.post(url("entry_state", cup, entry=entry.pk), {"action": "check_in"})
    draw(tournament_world, cup)
    assert cup.rounds.filter(status=Round.Status.PUBLISHED).exists()
    assert not checkin.is_open(cup)
    assert url("bulk_check_in", cup) not in organiser.get(url("detail", cup)).content.decode()


@pytest.fixture
def anna_member(tournament_world, cup):
    """Anna is the member's own player in the club."""
    anna = tournament_world.players[0]
    anna.user = tournament_world.users["member"]
    anna.save(update_fields=["user"])
    return cup.entries.get(player=anna)


def self_url(cup, token=None):
    return url("check_in_self", cup, token=token or checkin.token(cup))


@pytest.mark.parametrize("language", ["en", "ru"])
def test_a_player_checks_in_himself_with_the_qr_code(tournament_world, cup, anna_member, language):
    member = client_as(tournament_world, "member", language=language)
    page = member.get(url("detail", cup)).content.decode()
    assert "qr__code" in page and self_url(cup) in page

    confirm = member.get(self_url(cup)).content.decode()
    assert 'method="post"' in confirm and "Anna" in confirm
    response = member.post(self_url(cup))

    assert response.status_code == 302
    anna_member.refresh_from_db()
    assert anna_member.state == State.CHECKED_IN
    event = TournamentEvent.objects.get(action=TournamentEvent.Action.CHECKED_IN)
    assert event.entry == anna_member and event.user == tournament_world.users["member"]
    done = member.get(self_url(cup)).content.decode()
    wanted = "вы отметились" if language == "ru" else "you are checked in"
    assert wanted in done
    assert set(states(cup).values()) == {State.REGISTERED, State.CHECKED_IN}
    assert list(states(cup).values()).count(State.CHECKED_IN) == 1


def test_own_check_in_only_with_this_tournaments_link_and_own_entry(
    tournament_world, cup, anna_member
):
    member = client_as(tournament_world, "member")
    assert member.get(self_url(cup, "forged:token")).status_code == 404
    assert member.post(self_url(cup, checkin.token(cup) + "x")).status_code == 404
    organiser = client_as(tournament_world, "organiser")  # no player of his own
    refused = organiser.post(self_url(cup), headers=HTMX)
    assert "not registered in this tournament" in refused.content.decode()
    assert client_as(tournament_world, "outsider").post(self_url(cup)).status_code == 403
    assert member.put(self_url(cup)).status_code == 405
    csrf = client_as(tournament_world, "member", enforce_csrf_checks=True)
    assert csrf.post(self_url(cup)).status_code == 403
    assert set(states(cup).values()) == {State.REGISTERED}


def test_own_check_in_is_refused_once_round_1_is_published(tournament_world, cup, anna_member):
    organiser = client_as(tournament_world, "organiser")
    for entry in cup.entries.exclude(pk=anna_member.pk).order_by("pk")[:6]:  # two tables
        organiser.post(url("entry_state", cup, entry=entry.pk), {"action": "check_in"})
    draw(tournament_world, cup)
    assert not checkin.is_open(cup)

    member = client_as(tournament_world, "member")
    response = member.post(self_url(cup))

    assert "Check-in is closed" in response.content.decode()
    anna_member.refresh_from_db()
    assert anna_member.state == State.ABSENT
