"""The tournament file's round trip is exact (docs/tournaments.md §6.4): closings keep
when and by whom, entries their late-entry and drop rounds; imported tables keep the
tournament's convention, and nobody holds a pencil on an imported deal."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from prefscore.clubs.models import Player
from prefscore.games.models import Pulka
from prefscore.games.pencil import pencil_holder
from prefscore.games.services import record_deal, standing_deals
from prefscore.tournaments import checks, entries, exports, imports, tables
from prefscore.tournaments.models import TableClosure
from tests.web.fixtures_tournaments import (
    client_as,
    close_round,
    draw,
    enter,
    make_tournament,
    table_deals,
    url,
)

pytestmark = pytest.mark.django_db


def without(data: dict[str, Any]) -> dict[str, Any]:
    """The file minus what changes at every export (and the slug, which may)."""
    data = copy.deepcopy(data)
    data.pop("exported_at")
    data["tournament"].pop("slug")
    for round_ in data["rounds"]:
        round_.pop("drawn_at")
    return data


@pytest.fixture
def event(tournament_world, cup):
    """Round 1 closed by the organiser (one table on the arbiter's sheet), a late entry,
    round 2 with a drop and a table still running with a deal just recorded."""
    organiser = tournament_world.users["organiser"]
    draw(tournament_world, cup)
    first = Pulka.objects.filter(tournament=cup, round_number=1).order_by("pk").first()
    tables.close_table(first.pk, cup, TableClosure.Reason.ARBITER, organiser, [5, -1, -4])
    close_round(cup, 1, organiser)
    late = Player.objects.create(club=tournament_world.club, name="Lev")
    client = client_as(tournament_world, "organiser")
    client.post(url("register", cup), {"players": [late.pk]})
    for name in ("Mila", "Nina"):
        other = Player.objects.create(club=tournament_world.club, name=name)
        client.post(url("register", cup), {"players": [other.pk]})
    draw(tournament_world, cup)
    running = Pulka.objects.filter(tournament=cup, round_number=2).order_by("pk")
    name = next(n for p in running for n in p.player_names if n != "Lev")
    leaving = cup.entries.get(player__name=name)
    client.post(
        url("entry_state", cup, entry=leaving.pk), {"action": "drop", "reason": "went home"}
    )
    last = Pulka.objects.filter(tournament=cup, status=Pulka.Status.RUNNING).order_by("pk").last()
    record_deal(last.pk, table_deals(last)[0], organiser, 1)
    cup.refresh_from_db()
    return cup


def test_the_file_keeps_closings_and_entry_rounds(tournament_world, event):
    data = exports.export_data(event)

    lev = next(p for p in data["players"] if p["name"] == "Lev")
    assert lev["joined_round"] == 2 and lev["left_after_round"] is None
    gone = next(p for p in data["players"] if p["dropped"])
    assert gone["left_after_round"] == 2
    closure = data["rounds"][0]["tables"][0]["closure"]
    assert closure["closed_by"] == "t-organiser" and closure["closed_at"]


def test_an_export_imports_again_exactly(tournament_world, event):
    first = exports.export_data(event)

    copy_ = imports.import_tournament(
        tournament_world.club,
        imports.read_file(json.dumps(first)),
        tournament_world.users["admin"],
    )

    assert without(exports.export_data(copy_)) == without(first)


def test_imported_tables_keep_the_convention_and_give_no_pencil(tournament_world, event):
    file = imports.read_file(exports.export_text(event))

    copy_ = imports.import_tournament(tournament_world.club, file, tournament_world.users["admin"])

    pulkas = list(Pulka.objects.filter(tournament=copy_))
    assert {p.convention_name for p in pulkas} == {event.convention_name}
    running = [p for p in pulkas if p.status == Pulka.Status.RUNNING]
    assert running
    for pulka in pulkas:
        assert pencil_holder(pulka, standing_deals(pulka)) is None
    sheet = client_as(tournament_world, "organiser").get(f"/pulkas/{running[0].pk}/")
    assert "own options" not in sheet.content.decode()


def test_a_closing_without_its_moment_or_closer_still_imports(tournament_world, event):
    data = exports.export_data(event)
    for round_ in data["rounds"]:
        for table in round_["tables"]:
            if "closure" in table:
                table["closure"].pop("closed_at")
                table["closure"].pop("closed_by")
    for player in data["players"]:
        player.pop("joined_round")
        player.pop("left_after_round")

    copy_ = imports.import_tournament(
        tournament_world.club, imports.read_file(json.dumps(data)), None
    )

    assert TableClosure.objects.filter(pulka__tournament=copy_).exists()


@pytest.mark.parametrize(
    ("key", "value"), [("closed_at", "yesterday"), ("closed_at", 5), ("closed_by", 7)]
)
def test_a_bad_closing_moment_or_closer_is_refused_by_place(tournament_world, event, key, value):
    data = exports.export_data(event)
    data["rounds"][0]["tables"][0]["closure"][key] = value

    with pytest.raises(imports.ImportRefused, match=key):
        imports.read_file(json.dumps(data))


def test_a_drop_in_an_imported_round_keeps_its_table_number_and_the_checks(tournament_world):
    extra = Player.objects.create(club=tournament_world.club, name="Lev")
    cup = make_tournament(tournament_world.club, "Ten", slug="ten", table_size=4)
    enter(cup, [*tournament_world.players, extra])
    draw(tournament_world, cup)
    copy_ = imports.import_tournament(
        tournament_world.club, imports.read_file(exports.export_text(cup)), None
    )
    pulkas = list(Pulka.objects.filter(tournament=copy_).order_by("pk"))
    number, four = next((n, p) for n, p in enumerate(pulkas, start=1) if len(p.player_names) == 4)
    leaving = copy_.entries.get(player__name=four.player_names[0])

    entries.move(copy_, leaving.pk, "drop", tournament_world.users["organiser"])

    table = exports.export_data(copy_)["rounds"][0]["tables"]
    assert [t["number"] for t in table] == list(range(1, len(pulkas) + 1))
    short = next(t for t in table if len(t["pulka"]["players"]) == 3 and t["number"] == number)
    assert four.player_names[0] not in short["pulka"]["players"]
    assert checks.check(copy_) == []
