"""A tournament table's result is locked when the table closes (docs/tournaments.md
§4.9, §4.10): its players no longer correct or undo; the arbiter changes it with a
reason, audited and shown on the tournament page; once the tournament is finished even
he is refused until he reopens it; ``check_tournament`` notices a table that played on."""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils import timezone

from prefscore.games.corrections import correct_deal, correction_refusal
from prefscore.games.models import Deal, Pulka
from prefscore.games.services import NotAllowed, pencil_change, record_deal, standing_deals
from prefscore.tournaments import checks, decisions, stages, tables
from prefscore.tournaments.models import TableClosure, Tournament, TournamentEvent
from prefscore.tournaments.services import TournamentError, standings
from tests.web.fixtures_tournaments import HTMX, client_as, draw, table_deals, url

pytestmark = pytest.mark.django_db


def _round_one(world, cup):
    draw(world, cup)
    pulka = Pulka.objects.filter(tournament=cup).order_by("pk").first()
    seated = pulka.seats.order_by("seat").first().player
    seated.user = world.users["member"]
    seated.save(update_fields=["user"])
    return pulka


def _facts(pulka):
    return table_deals(pulka)[0]


def _closed_after_one_deal(world, cup):
    pulka = _round_one(world, cup)
    record_deal(pulka.pk, _facts(pulka), world.users["member"], 1)
    tables.close_table(pulka.pk, cup, TableClosure.Reason.TIME, world.users["organiser"])
    pulka.refresh_from_db()
    return pulka


def _other_facts(pulka):
    """The first deal, with the declarer one trick short: a remiz, a real correction."""
    facts = dict(_facts(pulka))
    declarer = facts["declarer"]
    tricks = dict(facts["tricks"])
    other = next(name for name in tricks if name != declarer)
    tricks[declarer] -= 1
    tricks[other] += 1
    return {**facts, "tricks": tricks}


def test_a_player_can_neither_correct_nor_undo_a_closed_tournament_table(tournament_world, cup):
    member = tournament_world.users["member"]
    pulka = _closed_after_one_deal(tournament_world, cup)
    deals = standing_deals(pulka)

    refusal = correction_refusal(pulka, member, deals, 1)
    assert refusal is not None and "locked" in refusal.message
    with pytest.raises(NotAllowed):
        correct_deal(pulka.pk, member, 1, _other_facts(pulka))
    with pytest.raises(NotAllowed):
        pencil_change(pulka.pk, member, 1, None)

    pulka.refresh_from_db()
    assert pulka.status == Pulka.Status.FINISHED
    assert Deal.objects.filter(pulka=pulka, withdrawn_at__isnull=True).count() == 1


def test_the_arbiters_change_to_a_closed_table_keeps_it_closed_and_is_listed(tournament_world, cup):
    organiser = tournament_world.users["organiser"]
    pulka = _closed_after_one_deal(tournament_world, cup)

    correct_deal(pulka.pk, organiser, 1, _other_facts(pulka), arbiter_reason="Judges: a remiz")

    pulka.refresh_from_db()
    assert pulka.status == Pulka.Status.FINISHED
    html = client_as(tournament_world, "organiser").get(url("detail", cup)).content.decode()
    assert 'id="decisions"' in html and "Judges: a remiz" in html


def test_a_finished_tournament_refuses_the_arbiter_until_he_reopens_it(tournament_world, cup):
    organiser = tournament_world.users["organiser"]
    pulka = _closed_after_one_deal(tournament_world, cup)
    for other in Pulka.objects.filter(tournament=cup, status=Pulka.Status.RUNNING):
        tables.close_table(other.pk, cup, TableClosure.Reason.TIME, organiser)
    stages.finish_by_hand(cup.pk, organiser)
    before = [(line.player, line.points) for line in standings(cup).lines]

    with pytest.raises(NotAllowed, match="finished"):
        correct_deal(pulka.pk, organiser, 1, _other_facts(pulka), arbiter_reason="late")
    assert [(line.player, line.points) for line in standings(cup).lines] == before

    with pytest.raises(TournamentError):
        decisions.reopen(cup.pk, organiser, "  ")
    client = client_as(tournament_world, "organiser")
    page = client.get(url("detail", cup)).content.decode()
    assert 'id="reopen"' in page
    response = client.post(url("reopen", cup), {"reason": "Judges' appeal"}, headers=HTMX)
    assert response.status_code == 200 and "HX-Redirect" in response
    cup.refresh_from_db()
    assert not cup.finished
    event = TournamentEvent.objects.get(tournament=cup, action="reopened")
    assert (event.action, event.reason, event.user) == ("reopened", "Judges' appeal", organiser)

    correct_deal(pulka.pk, organiser, 1, _other_facts(pulka), arbiter_reason="appeal upheld")
    assert [(line.player, line.points) for line in standings(cup).lines] != before


def test_reopening_is_the_organisers_only(tournament_world, cup):
    _closed_after_one_deal(tournament_world, cup)
    cup.status = Tournament.Status.FINISHED
    cup.save(update_fields=["status"])

    member = client_as(tournament_world, "member")
    assert member.post(url("reopen", cup), {"reason": "x"}).status_code == 403
    assert client_as(tournament_world, "organiser").get(url("reopen", cup)).status_code == 405
    csrf = client_as(tournament_world, "organiser", enforce_csrf_checks=True)
    assert csrf.post(url("reopen", cup), {"reason": "x"}).status_code == 403
    refused = client_as(tournament_world, "organiser").post(url("reopen", cup), {"reason": ""})
    assert refused.status_code == 200 and "This field is required" in refused.content.decode()
    cup.refresh_from_db()
    assert cup.finished and not TournamentEvent.objects.filter(action="reopened").exists()


def test_check_tournament_notices_a_table_that_played_on_after_closing(tournament_world, cup):
    pulka = _closed_after_one_deal(tournament_world, cup)
    assert not [p for p in checks.check(cup) if "after" in p]

    Pulka.objects.filter(pk=pulka.pk).update(status=Pulka.Status.RUNNING)
    record_deal(pulka.pk, table_deals(pulka)[1], None, 2)
    Deal.objects.filter(pulka=pulka, number=2).update(
        entered_at=timezone.now() + timezone.timedelta(minutes=5)
    )

    problems = checks.check(cup)
    assert any("closed, yet deals 2 came after the closing" in p for p in problems), problems
    assert any("closed, yet it is still running" in p for p in problems), problems


def test_the_sheet_offers_no_correction_on_a_locked_table_nor_the_arbiter_after_the_finish(
    tournament_world, cup
):
    pulka = _closed_after_one_deal(tournament_world, cup)
    correct = reverse("games:correct", args=[pulka.pk, 1])
    arbiter = reverse("games:arbiter", args=[pulka.pk, 1])
    sheet = reverse("games:sheet", args=[pulka.pk])

    player = client_as(tournament_world, "member").get(sheet).content.decode()
    assert correct not in player
    assert arbiter in client_as(tournament_world, "organiser").get(sheet).content.decode()
    with pytest.raises(NotAllowed, match="locked"):
        pencil_change(pulka.pk, tournament_world.users["member"], 1, None)

    Tournament.objects.filter(pk=cup.pk).update(status=Tournament.Status.FINISHED)
    organiser = client_as(tournament_world, "organiser").get(sheet).content.decode()
    assert arbiter not in organiser
