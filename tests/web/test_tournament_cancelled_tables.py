"""A table a drop re-seated (docs/tournaments.md §4.9, §4.11): its cancelled pulka is off
every screen (projector, dashboard, printables, "my table now"), and the table keeps its
number everywhere: the tournament page, the projector, the sheet's title, the export."""

from __future__ import annotations

import json
import re

import pytest

from prefscore.clubs.models import Player
from prefscore.games.models import Pulka
from prefscore.tournaments.models import TournamentEntry
from prefscore.tournaments.presenters import room
from tests.web.fixtures_tournaments import client_as, draw, enter, make_tournament, url

pytestmark = pytest.mark.django_db


@pytest.fixture
def reseated(tournament_world):
    """Fourteen players at tables of 4, 4, 3, 3; the lower-numbered table of four re-seated
    without its first player before any deal. Returns (tournament, old, new, number)."""
    extra = [Player.objects.create(club=tournament_world.club, name=n) for n in "LMNOP"]
    cup = make_tournament(tournament_world.club, "Fourteen", slug="fourteen", table_size=4)
    enter(cup, [*tournament_world.players, *extra])
    draw(tournament_world, cup)
    pulkas = list(Pulka.objects.filter(tournament=cup).order_by("pk"))
    number, old = next((n, p) for n, p in enumerate(pulkas, start=1) if len(p.player_names) == 4)
    assert number < len(pulkas)  # not the last: an order by creation would renumber it
    leaving = cup.entries.get(player=old.seats.get(seat=0).player)
    client_as(tournament_world, "organiser").post(
        url("entry_state", cup, entry=leaving.pk), {"action": "drop", "reason": "went home"}
    )
    old.refresh_from_db()
    assert old.status == Pulka.Status.ARCHIVED
    new = Pulka.objects.filter(tournament=cup).exclude(status=Pulka.Status.ARCHIVED).latest("pk")
    stayer = new.seats.get(seat=0).player
    stayer.user = tournament_world.users["member"]
    stayer.save(update_fields=["user"])
    return cup, old, new, number


def sheet_link(pulka):
    return f"/pulkas/{pulka.pk}/"


def test_no_screen_shows_the_cancelled_table(tournament_world, reseated):
    cup, old, new, _number = reseated
    organiser = client_as(tournament_world, "organiser")
    screens = {
        "room": organiser.get(url("room", cup)).content.decode(),
        "projector": organiser.get(url("projector", cup) + "?show=seating").content.decode(),
        "seating": organiser.get(url("print_seating", cup)).content.decode(),
        "cards": organiser.get(url("print_cards", cup)).content.decode(),
        "protocol": organiser.get(url("print_protocol", cup)).content.decode(),
    }
    old_names = set(old.player_names) - set(new.player_names)
    for name, body in screens.items():
        assert body.count("Table 4") >= 1, name
        assert "Table 5" not in body, name
        for gone in old_names:  # the dropped player sits at no table
            assert gone not in re.sub(r"<title>.*?</title>", "", body), (name, gone)
    assert sheet_link(old) not in screens["room"]
    assert sheet_link(new) in screens["room"]

    mine = client_as(tournament_world, "member").get(url("my_table", cup)).content.decode()
    assert sheet_link(new) in mine and sheet_link(old) not in mine
    current = room.my_table(cup, tournament_world.users["member"])
    assert current.table is not None and current.table.pulka_id == new.pk


def test_the_reseated_table_keeps_its_number_on_every_screen(tournament_world, reseated):
    cup, _old, new, number = reseated
    organiser = client_as(tournament_world, "organiser")

    assert new.title.endswith(f"table {number}")
    detail = organiser.get(url("detail", cup)).content.decode()
    card = re.search(rf'href="{sheet_link(new)}".*?Table (\d+)', detail, re.S)
    assert card is not None and int(card.group(1)) == number
    projector = room.projector(cup, "seating", 0)
    assert {t.pulka_id: t.number for t in projector.tables}[new.pk] == number
    dashboard = organiser.get(url("room", cup)).content.decode()
    assert re.search(rf'href="{sheet_link(new)}" data-table="{number}"', dashboard)
    exported = json.loads(organiser.get(url("export_json", cup)).content)
    numbers = {tuple(t["pulka"]["players"]): t["number"] for t in exported["rounds"][0]["tables"]}
    assert numbers[tuple(new.player_names)] == number
    assert sorted(numbers.values()) == [1, 2, 3, 4]


def test_a_dropped_player_is_out_and_the_table_plays_on_short(reseated):
    cup, old, new, _number = reseated
    assert len(new.player_names) == 3 and set(new.player_names) < set(old.player_names)
    assert cup.entries.filter(state=TournamentEntry.State.DROPPED).count() == 1
