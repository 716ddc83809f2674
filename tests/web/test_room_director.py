"""The room a director can trust (docs/tournaments.md §4.11): the dashboard gives each
table's last deal and flags a stalled one, counts no no-show, and shows a table of an
earlier round playing again; the projector marks provisional scores, the finalists'
divider, dropped and disqualified players, never cuts a name, and its clock stops when
the round or the tournament ends."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from prefscore.clubs.models import Player
from prefscore.games.models import Deal, Pulka
from prefscore.tournaments import tables
from prefscore.tournaments.models import Tournament, TournamentEntry
from prefscore.tournaments.presenters import room
from tests.web.fixtures_tournaments import (
    HTMX,
    client_as,
    close_round,
    draw,
    play_round_deals,
    url,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def drawn(tournament_world, cup) -> Tournament:
    assert draw(tournament_world, cup).status_code == 302
    return cup


def first_table(cup, number=1):
    return Pulka.objects.filter(tournament=cup, round_number=number).order_by("pk").first()


@pytest.mark.parametrize("htmx", [False, True])
def test_each_tables_last_deal_is_shown_and_a_quiet_table_flagged(tournament_world, drawn, htmx):
    play_round_deals(drawn, 1)
    quiet = first_table(drawn)
    long_ago = timezone.now() - timedelta(minutes=room.STALLED_MINUTES + 5)
    Deal.objects.filter(pulka=quiet).update(entered_at=long_ago)

    client = client_as(tournament_world, "organiser")
    body = client.get(url("room", drawn), headers=HTMX if htmx else {}).content.decode()

    assert body.count("data-last-deal") == 3
    assert body.count("data-stalled") == 1
    board = room.dashboard(drawn)
    stalled = [t for t in board.current.tables if t.stalled]
    assert [t.pulka_id for t in stalled] == [quiet.pk]
    assert stalled[0].last_deal == long_ago
    assert f"no deal for {room.STALLED_MINUTES} minutes" in body


def test_a_table_without_a_deal_since_the_start_is_stalled_too(drawn):
    Pulka.objects.filter(tournament=drawn).update(
        created_at=timezone.now() - timedelta(minutes=room.STALLED_MINUTES + 1)
    )
    board = room.dashboard(drawn)
    assert all(t.stalled and t.last_deal is None for t in board.current.tables)


def test_no_shows_are_not_counted_as_players(tournament_world, cup):
    organiser = client_as(tournament_world, "organiser")
    for entry in cup.entries.order_by("pk")[:6]:
        organiser.post(url("entry_state", cup, entry=entry.pk), {"action": "check_in"})
    draw(tournament_world, cup)
    assert cup.entries.filter(state=TournamentEntry.State.ABSENT).count() == 3
    assert room.dashboard(cup).players_in_play == 6
    assert "<dd>6</dd>" in organiser.get(url("room", cup)).content.decode()


def test_a_reopened_table_of_an_earlier_round_is_visible(tournament_world, drawn):
    play_round_deals(drawn, 1)
    close_round(drawn, 1)
    draw(tournament_world, drawn)
    reopened = first_table(drawn, 1)
    Pulka.objects.filter(pk=reopened.pk).update(status=Pulka.Status.RUNNING)

    board = room.dashboard(drawn)

    assert board.current.round.number == 2
    assert [t.pulka_id for t in board.current.earlier] == [reopened.pk]
    body = client_as(tournament_world, "organiser").get(url("room", drawn)).content.decode()
    assert "Round 1, table 1" in body and 'data-room="earlier"' in body


def test_the_room_asks_the_same_number_of_queries_however_many_tables(tournament_world, drawn):
    def count():
        with CaptureQueriesContext(connection) as queries:
            room.dashboard(drawn)
        return len(queries)

    before = count()
    play_round_deals(drawn, 1)
    assert count() == before


# --- the projector ---


def wall(world, cup, **query):
    client = client_as(world, "organiser")
    return client.get(url("projector", cup), query, headers=HTMX).content.decode()


def test_scores_of_running_tables_are_provisional_and_the_clock_runs(tournament_world, drawn):
    play_round_deals(drawn, 1)
    done = first_table(drawn)
    tables.close_table(done.pk, drawn, "time", None)

    view = room.projector(drawn, "standings", 0)

    provisional = {line.name for line in view.standings if line.provisional}
    at_done = set(done.player_names)
    assert len(provisional) == 6 and not provisional & at_done
    assert not view.current.clock.stopped
    body = wall(tournament_world, drawn, show="standings")
    assert body.count("projector__line--provisional") == 6
    assert "provisional: the table is still playing" in body


def test_the_clock_stops_when_the_round_ends_and_shows_what_it_took(tournament_world, drawn):
    play_round_deals(drawn, 1)
    close_round(drawn, 1)

    first = room.projector(drawn, None, 0).current.clock
    later = room.projector(drawn, None, 0, now=timezone.now() + timedelta(hours=2)).current.clock

    assert first.stopped and later.stopped and first.elapsed == later.elapsed
    assert not first.overtime
    body = wall(tournament_world, drawn)
    assert 'data-clock="took"' in body and 'data-clock="elapsed"' not in body
    assert not any(line.provisional for line in room.projector(drawn, "standings", 0).standings)


def test_dropped_and_disqualified_are_marked_and_the_finalists_divided(tournament_world, drawn):
    play_round_deals(drawn, 1)
    close_round(drawn, 1)
    organiser = client_as(tournament_world, "organiser")
    boris = drawn.entries.get(player__name="Boris")
    vera = drawn.entries.get(player__name="Vera")
    organiser.post(
        url("entry_state", drawn, entry=boris.pk), {"action": "drop", "reason": "went home"}
    )
    organiser.post(
        url("entry_state", drawn, entry=vera.pk),
        {"action": "disqualify", "reason": "showed his cards"},
    )
    response = organiser.post(url("cut", drawn), {"size": "3", "stage": "final"})
    assert response.status_code == 302
    draft = drawn.rounds.get(number=2)
    organiser.post(url("publish_round", drawn, number=draft.number))

    view = room.projector(drawn, "standings", 0)

    lines = list(view.standings)
    assert [line.divider for line in lines].count(True) == 1
    assert lines[3].divider  # the first line below the three finalists
    by_name = {line.name: line for line in lines}
    assert by_name["Vera"].disqualified and by_name["Vera"].out == "disqualified"
    assert by_name["Boris"].out == "dropped" and not by_name["Boris"].disqualified
    body = wall(tournament_world, drawn, show="standings")
    assert "projector__line--below-cut" in body and "tag--red-card" in body


def test_a_long_name_is_set_smaller_and_never_cut_off(tournament_world, cup):
    long = "Константин Константинопольский-Рождественский"
    Player.objects.filter(pk=tournament_world.players[0].pk).update(name=long)
    draw(tournament_world, cup)
    body = wall(tournament_world, cup, show="standings")
    assert "projector__name--long" in body and long in body
    seating = wall(tournament_world, cup, show="seating")
    assert long in seating


def test_the_wall_shows_the_check_in_code_until_round_1_is_published(tournament_world, cup):
    body = wall(tournament_world, cup)
    assert "qr__code" in body and "Check in with your phone" in body
    draw(tournament_world, cup)
    assert "qr__code" not in wall(tournament_world, cup)
