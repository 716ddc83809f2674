"""The tournament file keeps the director's settings and decisions (docs/tournaments.md
§6.4): cards, fines and disqualifications with who, when and why, home clubs, pairs kept
apart, the discipline and time-control options and each round's scheduled start. Exported,
imported elsewhere and exported again, the file is the same."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from django.utils import timezone

from prefscore.games.models import Pulka
from prefscore.tournaments import checks, constraints, discipline, exports, imports
from prefscore.tournaments.models import Tournament, TournamentEvent
from tests.web.fixtures_tournaments import draw
from tests.web.test_tournament_round_trip import without

pytestmark = pytest.mark.django_db

Action = TournamentEvent.Action


@pytest.fixture
def directed(tournament_world, cup):
    """Round 1 in play, after the director set every option and gave every decision."""
    organiser = tournament_world.users["organiser"]
    Tournament.objects.filter(pk=cup.pk).update(
        yellow_cards_limit=3, round_floor=-500, at_time=Tournament.AtTime.CLOSE
    )
    cup.refresh_from_db()
    anna, boris, vera, gleb = tournament_world.players[:4]
    entry = {e.player.name: e for e in cup.entries.select_related("player")}
    clubs = {entry["Anna"].pk: "Neva", entry["Boris"].pk: "Neva", entry["Vera"].pk: "Volga"}
    constraints.set_home_clubs(cup, clubs)
    constraints.forbid(cup, gleb.pk, anna.pk)
    constraints.forbid(cup, boris.pk, vera.pk)
    cup.refresh_from_db()
    draw(tournament_world, cup)
    start = timezone.now().replace(microsecond=0) - timedelta(minutes=5)
    cup.rounds.filter(number=1).update(starts_at=start)
    table = Pulka.objects.get(tournament=cup, seats__player=anna, status=Pulka.Status.RUNNING)
    discipline.give_card(cup, entry["Anna"].pk, Action.YELLOW_CARD, "late", organiser)
    discipline.give_card(
        cup, entry["Anna"].pk, Action.YELLOW_CARD, "below the floor", None, floor_pulka=table.pk
    )
    discipline.fine(cup, entry["Boris"].pk, 20, "phone at the table", organiser)
    discipline.give_card(cup, entry["Gleb"].pk, Action.RED_CARD, "marked cards", organiser)
    return cup


def copy_of(world, tournament):
    """Imported into the club again (its members are who gave the decisions)."""
    file = imports.read_file(exports.export_text(tournament))
    return imports.import_tournament(world.club, file, world.users["admin"])


def test_the_file_holds_every_setting_and_decision(tournament_world, directed):
    data = exports.export_data(directed)

    head = data["tournament"]
    assert (head["yellow_cards_limit"], head["round_floor"], head["at_time"]) == (3, -500, "close")
    assert head["forbidden_pairs"] == [["Anna", "Gleb"], ["Boris", "Vera"]]
    clubs = {p["name"]: p["home_club"] for p in data["players"]}
    assert (clubs["Anna"], clubs["Vera"], clubs["Kira"]) == ("Neva", "Volga", "")
    assert data["rounds"][0]["starts_at"]
    actions = [(e["action"], e["player"]) for e in data["discipline"]]
    assert actions == [
        ("yellow_card", "Anna"),
        ("yellow_card", "Anna"),
        ("fine", "Boris"),
        ("red_card", "Gleb"),
        ("disqualified", "Gleb"),
    ]
    floor = data["discipline"][1]["details"]["floor_pulka"]
    assert floor["round"] == 1 and 1 <= floor["table"] <= 3
    fine = data["discipline"][2]
    assert fine["details"]["points"] == 20 and fine["by"] == "t-organiser"
    assert fine["details"]["pulka"]["round"] == 1


def test_an_export_imports_elsewhere_exactly(tournament_world, directed):
    first = exports.export_data(directed)

    copy_ = copy_of(tournament_world, directed)

    assert without(exports.export_data(copy_)) == without(first)
    assert copy_.pk != directed.pk
    assert copy_.rounds.get(number=1).starts_at == directed.rounds.get(number=1).starts_at
    given = list(directed.events.filter(action__in=exports.file_extras.DISCIPLINE))
    kept = list(copy_.events.filter(action__in=exports.file_extras.DISCIPLINE))
    assert [e.at for e in kept] == [e.at for e in given]
    floor = kept[1].details["floor_pulka"]
    assert Pulka.objects.get(pk=floor).tournament == copy_


def test_a_file_from_before_these_fields_imports_with_the_defaults(tournament_world, directed):
    data = exports.export_data(directed)
    for key in (
        "yellow_cards_limit",
        "round_floor",
        "at_time",
        "forfeit_whists",
        "forbidden_pairs",
    ):
        data["tournament"].pop(key)
    data.pop("discipline")
    data.pop("decisions")
    data["rounds"][0].pop("starts_at")
    for player in data["players"]:
        player.pop("home_club")
        player.pop("forfeited_round")

    copy_ = imports.import_tournament(
        tournament_world.club, imports.read_file(json.dumps(data)), None
    )

    assert (copy_.yellow_cards_limit, copy_.round_floor, copy_.at_time) == (2, -1000, "flag")
    assert copy_.forfeit_whists is None and copy_.forbidden_pairs == []
    # No decision travelled: the states' records are rebuilt, and say so (§4.15).
    assert copy_.events.exists()
    assert not copy_.events.exclude(details__reconstructed=True).exists()
    assert checks.check(copy_) == []


@pytest.mark.parametrize(
    ("change", "place"),
    [
        (lambda d: d["tournament"].update(at_time="never"), "at_time"),
        (lambda d: d["tournament"].update(yellow_cards_limit="two"), "yellow_cards_limit"),
        (lambda d: d["tournament"].update(round_floor=5), "round_floor"),
        (lambda d: d["tournament"].update(forfeit_whists=10), "forfeit_whists"),
        (lambda d: d["players"][0].update(forfeited_round="1"), "forfeited_round"),
        (lambda d: d["tournament"].update(forbidden_pairs=[["Anna", "Nobody"]]), "forbidden"),
        (lambda d: d["tournament"].update(forbidden_pairs=[["Anna", "Anna"]]), "forbidden"),
        (lambda d: d["players"][0].update(home_club=7), "home_club"),
        (lambda d: d["rounds"][0].update(starts_at="soon"), "starts_at"),
        (lambda d: d["discipline"][0].update(action="reopened"), "action"),
        (lambda d: d["discipline"][0].update(player="Nobody"), "Nobody"),
        (lambda d: d["discipline"][0].update(at="yesterday"), "at"),
        (lambda d: d["discipline"][0].update(details=[1]), "details"),
        (lambda d: d["discipline"][0]["details"].update(points=[1]), "points"),
        (lambda d: d["discipline"][1]["details"].update(floor_pulka={"round": 0}), "round"),
    ],
)
def test_a_bad_setting_or_decision_is_refused_by_place(tournament_world, directed, change, place):
    data = exports.export_data(directed)
    change(data)

    with pytest.raises(imports.ImportRefused, match=place):
        imports.read_file(json.dumps(data))
