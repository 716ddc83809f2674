"""Discipline (docs/tournaments.md §4.9): yellow and red cards with a reason, whist fines
written as manual lines on the player's sheet, the regulations' threshold (two yellow
cards, a red card, a round below −1000), all audited and shown."""

from __future__ import annotations

import pytest

from prefscore.games.manual_entries import is_manual_row
from prefscore.games.models import Pulka
from prefscore.games.services import standing_deals
from prefscore.tournaments import discipline, tables
from prefscore.tournaments.models import TableClosure, Tournament, TournamentEntry, TournamentEvent
from prefscore.tournaments.services import standings
from tests.web.fixtures_tournaments import HTMX, client_as, draw, url

pytestmark = pytest.mark.django_db

Action = TournamentEvent.Action


@pytest.fixture
def playing(tournament_world, cup):
    draw(tournament_world, cup)
    return cup


def entry_of(cup, name):
    return TournamentEntry.objects.get(tournament=cup, player__name=name)


def table_of(cup, entry):
    return Pulka.objects.get(
        tournament=cup, status=Pulka.Status.RUNNING, seats__player_id=entry.player_id
    )


@pytest.mark.parametrize("htmx", [False, True])
def test_a_yellow_card_with_its_reason_is_audited_and_shown_on_the_line(
    tournament_world, playing, htmx
):
    anna = entry_of(playing, "Anna")
    client = client_as(tournament_world, "organiser")
    link = url("discipline", playing, entry=anna.pk)
    assert link in client.get(url("detail", playing)).content.decode()
    assert "Whists each opponent writes on him" in client.get(link).content.decode()

    headers = HTMX if htmx else {}
    data = {"action": "yellow_card", "reason": "Talked during the deal"}
    response = client.post(link, data, headers=headers)

    assert response.status_code in (200, 302)
    if htmx:
        assert "#decisions" in response.headers["HX-Redirect"]
    event = TournamentEvent.objects.get(tournament=playing, action=Action.YELLOW_CARD)
    assert event.entry == anna and event.reason == "Talked during the deal"
    assert event.user == tournament_world.users["organiser"]
    page = client.get(url("detail", playing)).content.decode()
    assert "1 yellow card" in page and "Talked during the deal" in page
    anna.refresh_from_db()
    assert anna.state == TournamentEntry.State.PLAYING


def test_the_second_yellow_card_disqualifies_by_the_regulations(tournament_world, playing):
    boris = entry_of(playing, "Boris")
    organiser = tournament_world.users["organiser"]
    discipline.give_card(playing, boris.pk, Action.YELLOW_CARD, "Late", organiser)
    boris.refresh_from_db()
    assert boris.state == TournamentEntry.State.PLAYING

    discipline.give_card(playing, boris.pk, Action.YELLOW_CARD, "Showed a card", organiser)

    boris.refresh_from_db()
    assert boris.state == TournamentEntry.State.DISQUALIFIED
    event = TournamentEvent.objects.get(action=Action.DISQUALIFIED)
    assert event.entry == boris and event.reason == "2 yellow cards"
    assert str(boris.player_id) in standings(playing).disqualified


def test_a_red_card_disqualifies_at_once_and_a_limit_of_none_never(tournament_world, playing):
    vera, gleb = entry_of(playing, "Vera"), entry_of(playing, "Gleb")
    discipline.give_card(playing, vera.pk, Action.RED_CARD, "Cheating", None)
    vera.refresh_from_db()
    assert vera.state == TournamentEntry.State.DISQUALIFIED

    Tournament.objects.filter(pk=playing.pk).update(yellow_cards_limit=None)
    playing.refresh_from_db()
    for reason in ("one", "two", "three"):
        discipline.give_card(playing, gleb.pk, Action.YELLOW_CARD, reason, None)
    gleb.refresh_from_db()
    assert gleb.state == TournamentEntry.State.PLAYING


def test_a_fine_is_written_as_manual_lines_on_the_players_sheet(tournament_world, playing):
    dina = entry_of(playing, "Dina")
    pulka = table_of(playing, dina)
    client = client_as(tournament_world, "organiser", language="ru")
    before = {line.player: line.whists for line in standings(playing).lines}

    response = client.post(
        url("discipline", playing, entry=dina.pk),
        {"action": "fine", "points": "10", "reason": "Phone at the table"},
    )

    assert response.status_code == 302
    deals = standing_deals(pulka)
    assert len(deals) == 2 and all(is_manual_row(deal) for deal in deals)
    lines = [deal.facts["manual"] for deal in deals]
    assert {line["on"] for line in lines} == {"Dina"}
    assert {line["reason"] for line in lines} == {"Phone at the table"}
    after = {line.player: line.whists for line in standings(playing).lines}
    key = str(dina.player_id)
    assert after[key] < before[key] and sum(after.values()) == sum(before.values())
    event = TournamentEvent.objects.get(action=Action.FINE)
    assert event.details["points"] == 10 and event.details["pulka"] == pulka.pk
    page = client.get(url("detail", playing)).content.decode()
    assert "Phone at the table" in page and "штраф 10 вистов" in page


def test_refusals_name_the_field_and_save_nothing(tournament_world, cup):
    kira = entry_of(cup, "Kira")
    client = client_as(tournament_world, "organiser")
    link = url("discipline", cup, entry=kira.pk)

    no_reason = client.post(link, {"action": "yellow_card", "reason": ""})
    no_points = client.post(link, {"action": "fine", "reason": "x"})
    foreign = client.post(link, {"action": "fine", "points": "١٠", "reason": "x"})
    no_table = client.post(link, {"action": "fine", "points": "10", "reason": "x"})
    bad_action = client.post(link, {"action": "green_card", "reason": "x"}, headers=HTMX)

    assert no_reason.context["form"].errors["reason"]
    assert no_points.context["form"].errors["points"]
    assert foreign.context["form"].errors["points"]
    assert "no table in play" in no_table.content.decode()
    assert bad_action.status_code == 200 and bad_action.context["form"].errors["action"]
    assert not TournamentEvent.objects.exists()


def test_discipline_is_the_organisers_of_this_tournament_only(tournament_world, cup):
    kira = entry_of(cup, "Kira")
    link = url("discipline", cup, entry=kira.pk)
    data = {"action": "yellow_card", "reason": "x"}
    member = client_as(tournament_world, "member")
    assert member.get(link).status_code == 403
    assert member.post(link, data).status_code == 403
    assert client_as(tournament_world, "outsider").post(link, data).status_code == 403
    organiser = client_as(tournament_world, "organiser")
    assert organiser.put(link).status_code == 405
    assert organiser.get(url("discipline", cup, entry=999_999)).status_code == 404
    csrf = client_as(tournament_world, "organiser", enforce_csrf_checks=True)
    assert csrf.post(link, data).status_code == 403
    assert not TournamentEvent.objects.exists()


def test_a_finished_tournament_takes_no_card(tournament_world, cup):
    kira = entry_of(cup, "Kira")
    Tournament.objects.filter(pk=cup.pk).update(status=Tournament.Status.FINISHED)
    client = client_as(tournament_world, "organiser")
    response = client.post(
        url("discipline", cup, entry=kira.pk), {"action": "yellow_card", "reason": "x"}
    )
    assert response.status_code == 200
    assert not TournamentEvent.objects.exists()


def test_a_round_below_the_floor_gives_a_yellow_card_once(tournament_world, playing):
    igor = entry_of(playing, "Igor")
    pulka = table_of(playing, igor)
    seats = list(pulka.seats.order_by("seat").values_list("player_id", flat=True))
    at = seats.index(igor.player_id)
    figures = [600, 600, 600]
    figures[at] = -1200
    tables.close_table(pulka.pk, playing, TableClosure.Reason.ARBITER, None, figures)

    cards = TournamentEvent.objects.filter(action=Action.YELLOW_CARD)
    assert [card.entry for card in cards] == [igor]
    assert "below -1000" in cards[0].reason
    assert discipline.check_floor(pulka.pk) == 0  # once per table
    igor.refresh_from_db()
    assert igor.state == TournamentEntry.State.PLAYING


def test_the_threshold_is_set_in_the_regulations_and_logged_after_the_freeze(
    tournament_world, playing
):
    admin = client_as(tournament_world, "admin")
    page = admin.get(url("regulations", playing)).content.decode()
    assert 'name="yellow_cards_limit"' in page and 'value="-1000"' in page
    data = {"normalisation": "raw", "carry": "kept", "tie_break_1": "allpass_won"}

    foreign = admin.post(url("regulations", playing), {**data, "round_floor": "-١٠٠"})
    assert foreign.context["form"].errors["round_floor"]
    response = admin.post(
        url("regulations", playing), {**data, "yellow_cards_limit": "3", "round_floor": ""}
    )

    assert response.status_code == 302
    playing.refresh_from_db()
    assert playing.yellow_cards_limit == 3 and playing.round_floor is None
    assert set(playing.regulation_changes.values_list("field", flat=True)) >= {
        "yellow_cards_limit",
        "round_floor",
    }
    detail = admin.get(url("detail", playing)).content.decode()
    assert "Yellow cards that disqualify" in detail


@pytest.mark.parametrize("htmx", [False, True])
def test_cards_and_fines_are_on_the_players_standings_line(tournament_world, playing, htmx):
    gleb = entry_of(playing, "Gleb")
    organiser = tournament_world.users["organiser"]
    discipline.give_card(playing, gleb.pk, Action.YELLOW_CARD, "Late", organiser)
    discipline.fine(playing, gleb.pk, 5, "Phone", organiser)
    client = client_as(tournament_world, "organiser")

    body = client.get(url("standings", playing), headers=HTMX if htmx else {}).content.decode()

    assert "1 yellow card · fined 5 whists" in body
    assert body.count("tag--yellow-card") == 1


def test_a_reason_longer_than_a_sheets_line_is_refused_next_to_the_field(tournament_world, playing):
    dina = entry_of(playing, "Dina")
    client = client_as(tournament_world, "organiser", language="ru")
    response = client.post(
        url("discipline", playing, entry=dina.pk),
        {"action": "fine", "points": "10", "reason": "x" * 201},
    )
    assert response.context["form"].errors["reason"]
    assert "Ensure" not in response.content.decode()  # Russian, not Django's English
    assert not TournamentEvent.objects.exists()
    assert not standing_deals(table_of(playing, dina))
