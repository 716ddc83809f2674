"""The room (docs/tournaments.md §4.11): the organiser's dashboard, the projector and
"my table now"; with and without HX-Request, who may see them, and their queries.

The printables and the export/import are in test_room_print.py and test_room_export.py.
"""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from prefscore.clubs.models import Player
from prefscore.games.models import Pulka
from prefscore.tournaments.models import Round, Tournament
from prefscore.tournaments.presenters import room
from tests.web.fixtures_tournaments import (
    HTMX,
    client_as,
    draw,
    enter,
    make_tournament,
    play_round_deals,
    url,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def drawn(tournament_world, cup) -> Tournament:
    """The cup with round 1 drawn: three tables of three."""
    assert draw(tournament_world, cup).status_code == 302
    return cup


def tables_of(tournament: Tournament, number: int = 1) -> list[Pulka]:
    return list(Pulka.objects.filter(tournament=tournament, round_number=number).order_by("pk"))


# --- the dashboard ---


def test_the_dashboard_shows_the_tables_their_deals_and_the_clock(tournament_world, drawn):
    play_round_deals(drawn, 1)
    Pulka.objects.filter(pk=tables_of(drawn)[0].pk).update(status=Pulka.Status.FINISHED)

    body = client_as(tournament_world, "organiser").get(url("room", drawn)).content.decode()

    assert "Round 1" in body
    assert body.count('data-table="') == 3
    assert "2 of 4 deals" in body  # two deals recorded at each table of three
    assert '<dd data-figure="playing">2</dd>' in body
    assert "2 tables of 3 are still playing." in body
    assert 'data-clock="elapsed">0:0' in body
    assert 'hx-trigger="every 15s, prefscore:changed"' in body


def test_the_dashboard_before_any_round_says_so(tournament_world, cup):
    body = client_as(tournament_world, "organiser").get(url("room", cup)).content.decode()

    assert "No round has been drawn yet." in body
    assert "data-clock" not in body


def test_the_dashboards_poll_gets_its_region_only(tournament_world, drawn):
    response = client_as(tournament_world, "organiser").get(url("room", drawn), headers=HTMX)

    body = response.content.decode()
    assert response.status_code == 200
    assert body.lstrip().startswith('<section id="board"')
    assert "<html" not in body
    assert "HX-Request" in response["Vary"]


@pytest.mark.parametrize("headers", [{}, HTMX], ids=["page", "htmx"])
@pytest.mark.parametrize(("role", "status"), [("member", 403), ("outsider", 403)])
def test_only_organisers_see_the_dashboard(tournament_world, drawn, role, status, headers):
    response = client_as(tournament_world, role).get(url("room", drawn), headers=headers)

    assert response.status_code == status


def test_the_dashboard_of_an_unknown_tournament_is_not_found(tournament_world, drawn):
    client = client_as(tournament_world, "organiser")

    assert client.get(url("room", drawn).replace("spring-cup", "nope")).status_code == 404


def test_the_room_pages_answer_only_get(tournament_world, drawn):
    client = client_as(tournament_world, "admin")

    for name in ("room", "projector", "my_table"):
        assert client.post(url(name, drawn)).status_code == 405


def test_the_clock_says_what_is_left_of_the_regulations_round_length(tournament_world, drawn):
    drawn.round_minutes = 90  # the regulations' round length, where the model carries it
    now = timezone.now()
    started = now - timedelta(minutes=75)

    on_time = room.clock(drawn, started, now)
    over = room.clock(drawn, started, now + timedelta(minutes=25))

    assert (on_time.elapsed, on_time.remaining, on_time.overtime) == ("1:15", "0:15", False)
    assert (over.elapsed, over.remaining, over.overtime) == ("1:40", "0:00", True)
    assert not room.clock(make_tournament(tournament_world.club, slug="plain"), started).has_limit


def test_the_clock_runs_from_when_the_rounds_tables_started(tournament_world, drawn):
    start = timezone.now() - timedelta(minutes=42, seconds=10)
    Pulka.objects.filter(tournament=drawn).update(created_at=start)
    if hasattr(Round, "published_at"):  # where rounds are published, the clock starts then
        Round.objects.filter(tournament=drawn).update(published_at=start)

    current = room.room_round(drawn)

    assert current.clock.elapsed == "0:42"


# --- the projector ---


def test_the_projector_shows_the_seating_while_tables_play(tournament_world, drawn):
    body = client_as(tournament_world, "organiser").get(url("projector", drawn)).content.decode()

    names = {seat.player.name for p in tables_of(drawn) for seat in p.seats.all()}
    assert 'class="projector"' in body
    assert "site-header" not in body and "<form" not in body and "<button" not in body
    assert all(name in body for name in names)
    assert body.count('class="projector__table"') == 3
    assert f'hx-trigger="every {room.PROJECTOR_POLL_SECONDS}s, prefscore:changed"' in body
    assert 'data-wall="playing"' in body


def test_the_projector_shows_the_standings_once_every_table_finished(tournament_world, drawn):
    play_round_deals(drawn, 1)
    Pulka.objects.filter(tournament=drawn).update(status=Pulka.Status.FINISHED)

    body = client_as(tournament_world, "organiser").get(url("projector", drawn)).content.decode()

    assert "projector__standings" in body
    assert body.count('class="projector__line"') == 9
    assert "Every table has finished." in body


def test_the_projector_shows_what_it_is_asked_and_keeps_to_it(tournament_world, drawn):
    client = client_as(tournament_world, "organiser")

    body = client.get(url("projector", drawn) + "?show=standings").content.decode()

    assert "projector__standings" in body
    assert "?show=standings&amp;page=0" in body  # one page: the poll asks for it again


def test_a_long_list_goes_round_a_page_at_a_poll(tournament_world, monkeypatch):
    monkeypatch.setattr(room, "PROJECTOR_STANDINGS_PER_PAGE", 4)
    tournament = make_tournament(tournament_world.club, slug="long", public=True)
    enter(tournament, tournament_world.players)
    draw(tournament_world, tournament)  # a player ranks once he has sat at a table
    Pulka.objects.filter(tournament=tournament).update(status=Pulka.Status.FINISHED)
    client = client_as(tournament_world, "anonymous")
    projector = url("projector", tournament) + "?show=standings"

    first = client.get(projector, headers=HTMX).content.decode()
    third = client.get(projector + "&page=2", headers=HTMX).content.decode()
    beyond = client.get(projector + "&page=99999", headers=HTMX).content.decode()

    assert "page 1 of 3" in first and "page=1" in first
    assert "page 3 of 3" in third and "page=0" in third
    assert third.count('class="projector__line"') == 1
    assert "page 1 of 3" in beyond  # any page number is read modulo the pages


@pytest.mark.parametrize("page", ["-1", "x", "٣", "9" * 50, ""])
def test_the_projector_reads_any_page_number_without_failing(tournament_world, drawn, page):
    response = client_as(tournament_world, "organiser").get(url("projector", drawn), {"page": page})

    assert response.status_code == 200


def test_the_projectors_poll_gets_the_wall_only(tournament_world, drawn):
    response = client_as(tournament_world, "organiser").get(url("projector", drawn), headers=HTMX)

    body = response.content.decode()
    assert body.lstrip().startswith('<div id="wall"')
    assert "<html" not in body


@pytest.mark.parametrize(
    ("role", "public", "expected"),
    [
        ("anonymous", True, 200),
        ("outsider", True, 200),
        ("member", True, 200),
        ("anonymous", False, 302),
        ("outsider", False, 403),
        ("member", False, 403),
        ("organiser", False, 200),
        ("admin", False, 200),
    ],
)
def test_the_projector_is_anyones_when_public_else_the_organisers(
    tournament_world, drawn, role, public, expected
):
    Tournament.objects.filter(pk=drawn.pk).update(public=public)

    response = client_as(tournament_world, role).get(url("projector", drawn))

    assert response.status_code == expected
    if expected == 302:
        assert "/accounts/login/" in response["Location"]


# --- my table now ---


def link_member_to_a_player(world, tournament: Tournament) -> tuple[Player, Pulka, int]:
    pulka = tables_of(tournament)[1]
    seat = pulka.seats.order_by("seat")[2]
    Player.objects.filter(pk=seat.player_id).update(user=world.users["member"])
    return seat.player, pulka, seat.seat + 1


def test_a_player_sees_his_table_and_seat_and_a_link_to_the_sheet(tournament_world, drawn):
    player, pulka, seat = link_member_to_a_player(tournament_world, drawn)

    body = client_as(tournament_world, "member").get(url("my_table", drawn)).content.decode()

    assert re.search(r'data-my="table">\s*Table 2\s*<', body)
    assert re.search(rf'data-my="seat">\s*seat {seat}\s*<', body)
    assert f"You play as {player.name}." in body
    assert f'href="/pulkas/{pulka.pk}/"' in body
    others = [s.player.name for s in pulka.seats.all() if s.player_id != player.pk]
    assert all(f'<li class="entry-list__item"><bdi>{name}</bdi></li>' in body for name in others)


def test_my_table_follows_the_latest_round(tournament_world, drawn):
    player, _pulka, _seat = link_member_to_a_player(tournament_world, drawn)
    play_round_deals(drawn, 1)
    Pulka.objects.filter(tournament=drawn).update(status=Pulka.Status.FINISHED)
    draw(tournament_world, drawn)
    mine = next(p for p in tables_of(drawn, 2) if p.seats.filter(player=player).exists())

    body = client_as(tournament_world, "member").get(url("my_table", drawn), headers=HTMX)

    text = body.content.decode()
    assert text.lstrip().startswith('<section id="mine"')
    assert "Round 2" in text and f'href="/pulkas/{mine.pk}/"' in text


def test_someone_not_playing_is_told_so(tournament_world, drawn):
    body = client_as(tournament_world, "organiser").get(url("my_table", drawn)).content.decode()

    assert "You are not registered in this tournament" in body


def test_before_the_first_round_a_player_is_told_none_is_drawn(tournament_world, cup):
    tournament_world.players[0].user = tournament_world.users["member"]
    tournament_world.players[0].save()

    body = client_as(tournament_world, "member").get(url("my_table", cup)).content.decode()

    assert "No round has been drawn yet." in body and "data-my" not in body


@pytest.mark.parametrize(("role", "status"), [("outsider", 403), ("anonymous", 302)])
def test_my_table_is_for_the_clubs_members(tournament_world, drawn, role, status):
    assert client_as(tournament_world, role).get(url("my_table", drawn)).status_code == status


# --- the tournament page links to the room ---


def test_the_tournament_page_links_to_the_room_for_organisers_only(tournament_world, drawn):
    organiser = client_as(tournament_world, "organiser").get(url("detail", drawn)).content.decode()
    member = client_as(tournament_world, "member").get(url("detail", drawn)).content.decode()

    assert url("room", drawn) in organiser and url("my_table", drawn) in organiser
    assert url("room", drawn) not in member and url("my_table", drawn) in member


# --- queries do not grow with the players and tables ---


def queries(client, path: str) -> int:
    with CaptureQueriesContext(connection) as captured:
        assert client.get(path).status_code == 200
    return len(captured.captured_queries)


def grown_tournament(world, size: int, slug: str) -> Tournament:
    """A public tournament of ``size`` players at tables of 3, round 1 drawn and played."""
    players = [Player.objects.create(club=world.club, name=f"{slug}-{i:03}") for i in range(size)]
    tournament = make_tournament(world.club, slug=slug, public=True)
    enter(tournament, players)
    draw(world, tournament)
    play_round_deals(tournament, 1)
    return tournament


@pytest.mark.parametrize(
    "name", ["room", "projector", "my_table", "print_seating", "print_cards", "print_protocol"]
)
def test_room_pages_cost_the_same_queries_for_9_and_27_players(tournament_world, name):
    small = grown_tournament(tournament_world, 9, "small")
    big = grown_tournament(tournament_world, 27, "big")
    client = client_as(tournament_world, "organiser")

    assert queries(client, url(name, small)) == queries(client, url(name, big))


def test_the_projectors_standings_cost_the_same_queries_for_9_and_27(tournament_world):
    small = grown_tournament(tournament_world, 9, "small")
    big = grown_tournament(tournament_world, 27, "big")
    client = client_as(tournament_world, "organiser")
    standings = "?show=standings"

    assert queries(client, url("projector", small) + standings) == queries(
        client, url("projector", big) + standings
    )
