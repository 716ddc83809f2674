"""Time control (docs/tournaments.md §4.9): a round's scheduled start (the clock runs
from then), and at time, by the regulations, tables closed as they stand after the deal
in play, or only flagged."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from prefscore.games.models import Pulka
from prefscore.games.services import record_deal
from prefscore.tournaments import timecontrol
from prefscore.tournaments.models import Round, TableClosure, Tournament
from prefscore.tournaments.presenters import room
from tests.web.fixtures_tournaments import HTMX, client_as, draw, draw_draft, table_deals, url

pytestmark = pytest.mark.django_db


def local(moment):
    return timezone.localtime(moment).strftime("%Y-%m-%dT%H:%M")


@pytest.mark.parametrize("htmx", [False, True])
def test_a_scheduled_start_starts_the_rounds_clock(tournament_world, cup, htmx):
    Tournament.objects.filter(pk=cup.pk).update(round_minutes=60)
    cup.refresh_from_db()
    client = client_as(tournament_world, "organiser")
    draw_draft(tournament_world, cup)
    assert url("schedule_round", cup, number=1) in client.get(url("detail", cup)).content.decode()
    start = (timezone.now() + timedelta(minutes=30)).replace(second=0, microsecond=0)

    response = client.post(
        url("schedule_round", cup, number=1),
        {"starts_at": local(start)},
        headers=HTMX if htmx else {},
    )

    assert response.status_code in (200, 302)
    assert cup.rounds.get(number=1).starts_at == start
    client.post(url("publish_round", cup, number=1))
    before = room.room_round(cup).clock
    assert before.waiting and before.started == start
    assert 'data-clock="starts"' in client.get(url("room", cup)).content.decode()
    later = room.room_round(cup, now=start + timedelta(minutes=45)).clock
    assert not later.waiting and later.elapsed == "0:45" and later.remaining == "0:15"


def test_a_start_in_foreign_digits_or_by_a_member_is_refused(tournament_world, cup):
    draw_draft(tournament_world, cup)
    client = client_as(tournament_world, "organiser")
    foreign = client.post(url("schedule_round", cup, number=1), {"starts_at": "٢٠٢٦-12-04T20:00"})
    assert foreign.context["schedule_form"].errors["starts_at"]
    member = client_as(tournament_world, "member")
    assert (
        member.post(
            url("schedule_round", cup, number=1), {"starts_at": "2026-12-04T20:00"}
        ).status_code
        == 403
    )
    assert client.get(url("schedule_round", cup, number=1)).status_code == 405
    csrf = client_as(tournament_world, "organiser", enforce_csrf_checks=True)
    assert (
        csrf.post(
            url("schedule_round", cup, number=1), {"starts_at": "2026-12-04T20:00"}
        ).status_code
        == 403
    )
    missing = client.post(url("schedule_round", cup, number=9), {"starts_at": "2026-12-04T20:00"})
    assert "no such round" in missing.content.decode()
    assert cup.rounds.get(number=1).starts_at is None


def started_long_ago(cup):
    Round.objects.filter(tournament=cup, number=1).update(
        starts_at=timezone.now() - timedelta(minutes=61)
    )


def test_at_time_a_table_closes_after_the_deal_in_play_when_the_regulations_say(
    tournament_world, cup, django_capture_on_commit_callbacks
):
    Tournament.objects.filter(pk=cup.pk).update(round_minutes=60, at_time=Tournament.AtTime.CLOSE)
    draw(tournament_world, cup)
    started_long_ago(cup)
    pulka = Pulka.objects.filter(tournament=cup).order_by("pk").first()

    with django_capture_on_commit_callbacks(execute=True):  # the sheet is settled on commit
        record_deal(pulka.pk, table_deals(pulka)[0], None, 1)

    pulka.refresh_from_db()
    assert pulka.status == Pulka.Status.FINISHED
    closure = TableClosure.objects.get(pulka=pulka)
    assert closure.reason == TableClosure.Reason.TIME
    others = Pulka.objects.filter(tournament=cup).exclude(pk=pulka.pk)
    assert all(p.status == Pulka.Status.RUNNING for p in others)  # no deal yet: flagged


def test_by_default_the_tables_are_only_flagged(
    tournament_world, cup, django_capture_on_commit_callbacks
):
    Tournament.objects.filter(pk=cup.pk).update(round_minutes=60)
    cup.refresh_from_db()
    draw(tournament_world, cup)
    started_long_ago(cup)
    pulka = Pulka.objects.filter(tournament=cup).order_by("pk").first()

    with django_capture_on_commit_callbacks(execute=True):
        record_deal(pulka.pk, table_deals(pulka)[0], None, 1)

    pulka.refresh_from_db()
    assert pulka.status == Pulka.Status.RUNNING
    assert not TableClosure.objects.exists()
    assert room.room_round(cup).clock.overtime
    cup.refresh_from_db()
    assert not timecontrol.close_if_time_is_up(pulka.pk)
