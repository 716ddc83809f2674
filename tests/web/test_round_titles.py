"""A stage of several rounds numbers them ("Final, round 2") wherever a round's title
shows: the tournament page, the draft, the room and projector, the printables, the
sheet's title and the export (docs/tournaments.md §7.5); and draft rounds travel in the
JSON export and import back (docs/tournaments.md §4.5, §6.4)."""

from __future__ import annotations

import json

import pytest
from django.utils import translation

from prefscore.games.models import Pulka
from prefscore.tournaments import exports, imports
from prefscore.tournaments.models import Round, Tournament
from prefscore.tournaments.titles import titles_of
from tests.web.fixtures_tournaments import (
    client_as,
    close_round,
    draw,
    draw_draft,
    enter,
    make_tournament,
    play_round_deals,
    url,
)

pytestmark = pytest.mark.django_db

Q, F, S = Round.Stage.QUALIFYING, Round.Stage.FINAL, Round.Stage.SEMIFINAL


def test_qualifying_rounds_are_numbered_through_and_a_final_of_one_round_is_final():
    with translation.override("en"):
        assert titles_of([(1, Q), (2, Q), (3, F)], 1) == {
            1: "Round 1",
            2: "Round 2",
            3: "Final",
        }


def test_a_stage_of_several_rounds_numbers_them_within_the_stage():
    rounds = [(1, Q), (2, S), (3, S), (4, F), (5, F)]

    with translation.override("en"):
        english = titles_of(rounds, 2)
    with translation.override("ru"):
        russian = titles_of(rounds, 2)

    assert english == {
        1: "Round 1",
        2: "Semi-final, round 1",
        3: "Semi-final, round 2",
        4: "Final, round 1",
        5: "Final, round 2",
    }
    assert russian[1] == "Тур 1" and russian[3] == "Полуфинал, тур 2"
    assert russian[5] == "Финал, тур 2"


def test_the_first_round_of_a_stage_of_two_is_numbered_before_the_second_is_drawn():
    with translation.override("en"):
        assert titles_of([(1, Q), (2, F)], 2)[2] == "Final, round 1"
        # More rounds drawn than the regulations say (changed since): still numbered.
        assert titles_of([(1, F), (2, F)], 1)[2] == "Final, round 2"


@pytest.fixture
def final_of_two(tournament_world) -> Tournament:
    """Nine players, a qualifying round, a final table of 3 over 2 rounds: round 1 of
    the final played, round 2 of it drawn as a draft."""
    cup = make_tournament(tournament_world.club, stage_rounds=2, deals_per_round=3)
    enter(cup, tournament_world.players)
    draw(tournament_world, cup)
    play_round_deals(cup, 1)
    close_round(cup, 1)
    organiser = client_as(tournament_world, "organiser")
    organiser.post(url("cut", cup), {"size": "3", "stage": "final"})
    organiser.post(url("publish_round", cup, number=2))
    play_round_deals(cup, 2)
    close_round(cup, 2)
    draw_draft(tournament_world, cup)
    assert cup.rounds.get(number=3).status == Round.Status.DRAFT
    cup.refresh_from_db()
    return cup


def test_the_pages_number_the_final_rounds_in_both_languages(tournament_world, final_of_two):
    for language, first, second in (
        ("en", "Final, round 1", "Final, round 2"),
        ("ru", "Финал, тур 1", "Финал, тур 2"),
    ):
        client = client_as(tournament_world, "organiser", language)
        detail = client.get(url("detail", final_of_two)).content.decode()
        assert f">{first}<" in detail.replace("\n", "").replace("  ", "")
        assert second in detail  # the draft's heading
        for page in ("room", "projector", "print_seating", "print_cards", "print_protocol"):
            body = client.get(url(page, final_of_two)).content.decode()
            assert first in body, (language, page)


def test_the_sheet_of_a_final_round_is_titled_by_the_stage(tournament_world, final_of_two):
    (table,) = Pulka.objects.filter(tournament=final_of_two, round_number=2)

    assert table.title == "Spring cup · Final, round 1 · table 1"


def test_the_export_gives_each_round_its_title(tournament_world, final_of_two):
    with translation.override("en"):
        data = exports.export_data(final_of_two)

    assert [r["title"] for r in data["rounds"]] == ["Round 1", "Final, round 1", "Final, round 2"]


# --- draft rounds in the export ---


def test_a_draft_round_is_exported_with_its_draw_by_name(tournament_world, final_of_two):
    data = exports.export_data(final_of_two)

    draft = data["rounds"][2]
    assert (draft["status"], draft["stage"], draft["tables"]) == ("draft", "final", [])
    (table,) = draft["draw"]
    stored = final_of_two.rounds.get(number=3).tables[0]
    names = {str(p.pk): p.name for p in tournament_world.players}
    assert table == {
        "players": [names[key] for key in stored["players"]],
        "first_dealer": stored["first_dealer"],
    }
    assert all(r["draw"] == [] for r in data["rounds"][:2])


def test_a_draft_round_imports_back_and_exports_the_same(tournament_world, final_of_two):
    first = exports.export_data(final_of_two)

    copy_ = imports.import_tournament(
        tournament_world.other_club, imports.read_file(json.dumps(first)), None
    )

    draft = copy_.rounds.get(number=3)
    assert draft.status == Round.Status.DRAFT and draft.published_at is None
    seated = {str(p.pk): p.name for p in tournament_world.other_club.players.all()}
    assert [seated[key] for key in draft.tables[0]["players"]] == first["rounds"][2]["draw"][0][
        "players"
    ]
    again = exports.export_data(copy_)
    for data in (first, again):
        data.pop("exported_at")
        data["tournament"].pop("slug")
        for round_ in data["rounds"]:
            round_.pop("drawn_at")
            for table in round_["tables"]:
                table.get("closure", {}).pop("closed_at", None)  # the import's own time
        for decision in data["decisions"]:
            # Accounts belong to the exporting server: the import ties no decision to a
            # local account that merely shares the name.
            decision.pop("by")
    assert again == first
    # A draft has no pulkas: none was made for it on import.
    assert not Pulka.objects.filter(tournament=copy_, round_number=3).exists()


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (
            lambda r: r[0].update(draw=[{"players": ["Anna", "Boris", "Vera"], "first_dealer": 0}]),
            "only a draft round has a draw",
        ),
        (
            lambda r: r[2]["draw"][0].update(players=["Anna", "Boris", "Nobody"]),
            "Nobody is not among the players",
        ),
        (
            lambda r: r[2]["draw"][0].update(players=["Anna", "Anna", "Boris"]),
            "Anna sits at two tables",
        ),
        (lambda r: r[2]["draw"][0].update(players=["Anna", "Boris"]), "3 or 4 player names"),
        (lambda r: r[2]["draw"][0].update(first_dealer=3), "first_dealer: must be a whole number"),
        (lambda r: r[2].update(tables=r[1]["tables"]), "a draft round has no tables in play yet"),
    ],
    ids=["published", "stranger", "twice", "two", "dealer", "pulkas"],
)
def test_a_bad_draw_is_refused_naming_the_place(tournament_world, final_of_two, change, message):
    data = exports.export_data(final_of_two)
    change(data["rounds"])

    with translation.override("en"), pytest.raises(imports.ImportRefused) as refused:
        imports.read_file(json.dumps(data))

    assert message in str(refused.value) and "rounds → " in str(refused.value)
