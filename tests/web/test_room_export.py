"""A tournament's export and import (docs/tournaments.md §6): the CSV's columns as
documented, the JSON's round trip, the import screen, and a fuzz of the import: a
bad file gives a message naming the place, never a 500, and saves nothing."""

from __future__ import annotations

import copy
import csv
import io
import json
import re
from pathlib import Path
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from prefscore.clubs.models import Player
from prefscore.games.models import Pulka
from prefscore.tournaments import exports, imports, services, tables
from prefscore.tournaments.models import Round, Tournament, TournamentEntry
from tests.web.fixtures_tournaments import (
    HTMX,
    client_as,
    draw,
    draw_draft,
    enter,
    make_tournament,
    play_round_deals,
    url,
)

pytestmark = pytest.mark.django_db

DOCS = Path(__file__).resolve().parents[2] / "docs" / "tournaments.md"
# Output and information: rewritten by every export, never read back.
VOLATILE = ("exported_at",)


def drop(entry: TournamentEntry) -> None:
    """Out of the draws: the entry's state where the model has one, else its flag."""
    if hasattr(TournamentEntry, "State"):
        entry.state = "dropped"
    else:
        entry.dropped = True
    entry.save()


def cut_to(world, tournament: Tournament, size: int) -> None:
    """The cut as the organiser makes it; where rounds are drafts, the final published."""
    client = client_as(world, "organiser")
    assert client.post(url("cut", tournament), {"size": size}).status_code in (200, 302)
    final = Round.objects.filter(tournament=tournament).order_by("-number").first()
    if getattr(final, "status", "published") == "draft":
        client.post(url("publish_round", tournament, number=final.number))


def finish_round(tournament: Tournament, number: int) -> None:
    play_round_deals(tournament, number)
    Pulka.objects.filter(tournament=tournament, round_number=number).update(
        status=Pulka.Status.FINISHED
    )


@pytest.fixture
def played(tournament_world, cup) -> Tournament:
    """Two qualifying rounds, a drop, a final table of three: a whole small event."""
    draw(tournament_world, cup)
    finish_round(cup, 1)
    draw(tournament_world, cup)
    finish_round(cup, 2)
    kira = TournamentEntry.objects.get(tournament=cup, player__name="Kira")
    drop(kira)
    cut_to(tournament_world, cup, 3)
    play_round_deals(cup, 3)
    cup.refresh_from_db()
    return cup


def without(data: dict[str, Any]) -> dict[str, Any]:
    """The file minus what changes at every export (and the slug, which may)."""
    data = copy.deepcopy(data)
    for key in VOLATILE:
        data.pop(key)
    data["tournament"].pop("slug")
    for round_ in data["rounds"]:
        round_.pop("drawn_at")
    return data


# --- the CSV ---


def documented_csv_columns() -> list[str]:
    """The fixed columns as docs/tournaments.md §6.3 lists them, in order."""
    text = DOCS.read_text()
    section = text[text.index("### 6.3") :]
    return re.findall(r"^\| `([a-z_<>0-9-]+)` \|", section, re.M)


def test_the_csv_has_the_documented_columns_in_order(tournament_world, played):
    response = client_as(tournament_world, "organiser").get(url("export_csv", played))

    rows = list(csv.reader(io.StringIO(response.content.decode("utf-8-sig"))))
    documented = documented_csv_columns()
    tie_breaks = [name for name in played.tie_breaks if name != "whists"]
    rounds = ["round_1", "round_2", "round_3"]
    # ``played`` went through a cut: the qualifying, carried and stage columns follow.
    expected = [*documented[:5], *tie_breaks, *rounds, *documented[-5:]]
    assert documented[-5:-2] == ["qualifying", "carried", "stage_points"]
    assert documented[5:7] == ["<tie-break>", "round_<n>"]
    assert rows[0] == expected
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    assert 'filename="spring-cup-standings.csv"' in response["Content-Disposition"]


def test_the_csv_gives_the_standings_figures(tournament_world, played):
    body = client_as(tournament_world, "organiser").get(url("export_csv", played)).content
    rows = list(csv.DictReader(io.StringIO(body.decode("utf-8-sig"))))

    lines = services.standings(played).lines
    assert [row["player"] for row in rows] == [
        Player.objects.get(pk=int(line.player)).name for line in lines
    ]
    assert [int(row["whists"]) for row in rows] == [line.whists for line in lines]
    assert sum(int(row["finalist"]) for row in rows) == 3
    assert [row["player"] for row in rows if row["dropped"] == "1"] == ["Kira"]
    assert [row["round_2"] for row in rows] == [
        "" if line.by_round.get(2) is None else str(line.by_round[2]) for line in lines
    ]


# --- the JSON: export, then import ---


def test_the_json_holds_players_rounds_tables_and_results(tournament_world, played):
    response = client_as(tournament_world, "organiser").get(url("export_json", played))

    data = json.loads(response.content)
    assert (data["format"], data["version"]) == ("prefscore-tournament", 1)
    kira = next(p for p in data["players"] if p["name"] == "Kira")
    assert len(data["players"]) == 9 and kira["dropped"] and kira["state"] == "dropped"
    assert [r["number"] for r in data["rounds"]] == [1, 2, 3]
    assert data["rounds"][2]["is_final"] and len(data["rounds"][2]["tables"]) == 1
    table = data["rounds"][0]["tables"][0]
    assert table["status"] == "finished"
    assert sum(table["pulka"]["result_whole"].values()) == 0
    assert len(data["standings"]) == 9


def test_an_export_imports_again_as_the_same_tournament(tournament_world, played):
    first = exports.export_data(played)

    copy_ = imports.import_tournament(
        tournament_world.other_club,
        imports.read_file(json.dumps(first)),
        tournament_world.users["outsider"],
    )

    again = exports.export_data(copy_)
    # Who decided is kept where he is a member of the importing club (§6.4): not here.
    assert [d.pop("by") for d in first["decisions"]] == ["t-organiser"]
    assert [d.pop("by") for d in again["decisions"]] == [None]
    assert without(again) == without(first)
    assert copy_.club == tournament_world.other_club and copy_.slug == played.slug
    assert ranked(copy_) == ranked(played)


def ranked(tournament: Tournament) -> list[tuple[Any, ...]]:
    """The standings; players tied on every criterion share a place, in no order."""
    table = services.standings(tournament)
    return sorted(
        (line.place, table.players[line.player].name, line.points, line.whists, line.finalist)
        for line in table.lines
    )


def test_an_import_into_the_same_club_gets_a_free_short_name(tournament_world, played):
    file = imports.read_file(exports.export_text(played))

    copy_ = imports.import_tournament(tournament_world.club, file, None)

    assert copy_.slug != played.slug and copy_.slug.startswith("spring-cup")
    assert Round.objects.filter(tournament=copy_).count() == 3


def test_the_export_costs_the_same_queries_for_any_number_of_tables(tournament_world):
    def count(size: int, slug: str) -> int:
        names = [f"{slug}-{i}" for i in range(size)]
        players = [Player.objects.create(club=tournament_world.club, name=n) for n in names]
        tournament = make_tournament(tournament_world.club, slug=slug)
        enter(tournament, players)
        draw(tournament_world, tournament)
        play_round_deals(tournament, 1)
        with CaptureQueriesContext(connection) as captured:
            exports.export_data(tournament)
        return len(captured.captured_queries)

    assert count(6, "six") == count(18, "eighteen")


# --- the import screen ---


def import_url(world) -> str:
    return reverse("tournaments:import", args=[world.club.slug])


def test_an_organiser_imports_a_file_and_is_sent_to_the_new_tournament(tournament_world, played):
    data = exports.export_data(played)
    data["tournament"].update(name="Copy cup", slug="copy")  # not a tournament of the club
    text = json.dumps(data, ensure_ascii=False)
    client = client_as(tournament_world, "organiser")

    response = client.post(import_url(tournament_world), {"text": text, "slug": "copy-cup"})

    assert response.status_code == 302
    assert response["Location"] == reverse("tournaments:detail", args=["cup", "copy-cup"])
    assert Tournament.objects.get(slug="copy-cup").pulkas.count() == played.pulkas.count()


def test_an_uploaded_file_imports_and_htmx_is_sent_on(tournament_world, played):
    upload = SimpleUploadedFile("cup.json", exports.export_text(played).encode(), "text/json")
    client = client_as(tournament_world, "organiser")

    response = client.post(import_url(tournament_world), {"file": upload}, headers=HTMX)

    assert response.status_code == 200 and response["HX-Redirect"].startswith("/tournaments/cup/")


BAD_FILES = [
    ("", "Paste a tournament file or choose one to upload."),
    ("not json", "JSON"),
    ("[]", "the file: must be an object"),
    ('{"format": "other"}', "This is not a prefscore tournament file."),
    ('{"format": "prefscore-tournament", "version": 7}', "it reads version 1"),
]


@pytest.mark.parametrize(("text", "message"), BAD_FILES)
def test_a_bad_file_is_refused_next_to_its_field(tournament_world, text, message):
    client = client_as(tournament_world, "organiser")

    page = client.post(import_url(tournament_world), {"text": text})
    region = client.post(import_url(tournament_world), {"text": text}, headers=HTMX)

    assert page.status_code == 200 and region.status_code == 422
    assert message in page.content.decode()
    assert region.content.decode().lstrip().startswith('<div id="import"')
    assert Tournament.objects.count() == 0


def mutated(data: dict[str, Any], path: tuple[Any, ...], value: Any) -> str:
    data = copy.deepcopy(data)
    target = data
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    return json.dumps(data)


@pytest.mark.parametrize(
    ("path", "value", "message"),
    [
        (("tournament", "table_size"), 5, "tournament → table_size: must be one of: 3, 4."),
        (("tournament", "name"), "", "tournament → name: must be text"),
        (("tournament", "tie_breaks"), ["luck"], "tournament:"),
        (("players", 0, "name"), 7, "players → 1 → name: must be text"),
        (("rounds", 0, "number"), 2, "rounds: the rounds must be numbered"),
        (("rounds", 1, "tables", 0, "pulka", "target"), -3, "rounds → 2 → tables → 1 → pulka:"),
        (("rounds", 0, "tables", 0, "status"), "lost", "rounds → 1 → tables → 1 → status"),
        # read alone, the deal is well formed; scored, nobody of that name plays
        (
            ("rounds", 0, "tables", 0, "pulka", "deals", 0, "declarer"),
            "",
            "rounds → 1 → tables → 1 → pulka: The file was not accepted",
        ),
    ],
)
def test_a_file_with_a_bad_field_names_the_place(tournament_world, played, path, value, message):
    text = mutated(exports.export_data(played), path, value)
    before = Tournament.objects.count()

    response = client_as(tournament_world, "organiser").post(
        import_url(tournament_world), {"text": text}
    )

    assert response.status_code == 200
    assert message in response.content.decode()
    assert Tournament.objects.count() == before


def test_a_player_at_two_tables_of_a_round_is_refused(tournament_world, played):
    data = exports.export_data(played)
    tables = data["rounds"][0]["tables"]
    tables[1]["pulka"]["players"][0] = tables[0]["pulka"]["players"][0]
    tables[1]["pulka"]["first_dealer"] = tables[1]["pulka"]["players"][1]
    tables[1]["pulka"]["deals"] = []

    with pytest.raises(imports.ImportRefused, match="sits at two tables"):
        imports.read_file(json.dumps(data))


def test_a_stranger_at_a_table_is_refused(tournament_world, played):
    data = exports.export_data(played)
    data["players"] = data["players"][1:]

    with pytest.raises(imports.ImportRefused, match="is not among the players"):
        imports.read_file(json.dumps(data))


def test_the_messages_are_in_the_readers_language(tournament_world):
    client = client_as(tournament_world, "organiser", language="ru")

    body = client.post(import_url(tournament_world), {"text": "[]"}).content.decode()

    assert "должен быть объектом" in body


@pytest.mark.parametrize(("role", "status"), [("member", 403), ("outsider", 403)])
def test_only_organisers_export_and_import(tournament_world, cup, role, status):
    client = client_as(tournament_world, role)

    for path in (url("export_csv", cup), url("export_json", cup), import_url(tournament_world)):
        assert client.get(path).status_code == status
    assert client.post(import_url(tournament_world), {"text": "{}"}).status_code == status


def test_the_import_needs_the_csrf_token(tournament_world, played):
    client = Client(enforce_csrf_checks=True)
    client.force_login(tournament_world.users["organiser"])

    response = client.post(import_url(tournament_world), {"text": exports.export_text(played)})

    assert response.status_code == 403
    assert Tournament.objects.count() == 1


def test_the_exports_answer_only_get(tournament_world, cup):
    client = client_as(tournament_world, "organiser")

    assert client.post(url("export_csv", cup)).status_code == 405
    assert client.post(url("export_json", cup)).status_code == 405


# --- fuzz: whatever the file, a message or a tournament, never an exception ---

JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**70), 2**70) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner),
    max_leaves=12,
)


def paths(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    found = [prefix] if prefix else []
    if isinstance(value, dict):
        for key, item in value.items():
            found += paths(item, (*prefix, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            found += paths(item, (*prefix, index))
    return found


@pytest.fixture
def small_export(tournament_world) -> dict[str, Any]:
    tournament = make_tournament(tournament_world.club, slug="fuzz", deals_per_round=3)
    enter(tournament, tournament_world.players[:3])
    draw(tournament_world, tournament)
    play_round_deals(tournament, 1)
    # The arbiter's closing travels in the file too (docs/tournaments.md §7): fuzzed with the rest.
    table = tournament.pulkas.get()
    tables.close_table(table.pk, tournament, "arbiter", None, [5, -2, -3], "by the clock")
    # And a draft round's draw (its tables by name), fuzzed with the rest.
    draw_draft(tournament_world, tournament)
    data = exports.export_data(tournament)
    assert data["rounds"][0]["tables"][0]["closure"]["whists"] == [5, -2, -3]
    assert data["rounds"][1]["status"] == "draft" and len(data["rounds"][1]["draw"]) == 1
    return data


FUZZ = settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


@FUZZ
@given(data=st.data())
def test_a_mangled_export_is_refused_with_a_message_or_imported(
    tournament_world, small_export, data
):
    every = paths(small_export)
    path = data.draw(st.sampled_from(every))
    text = mutated(small_export, path, data.draw(JSON_VALUES))

    try:
        file = imports.read_file(text)
    except imports.ImportRefused as refused:
        assert str(refused)
        return
    tournament = imports.import_tournament(tournament_world.other_club, file, None)
    # What was imported exports again into a file that reads.
    assert imports.read_file(exports.export_text(tournament)).players == file.players


@FUZZ
@given(value=JSON_VALUES)
def test_any_json_is_refused_with_a_message(value):
    with pytest.raises(imports.ImportRefused):
        imports.read_file(json.dumps(value))


@settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))
@given(text=st.text(max_size=200))
def test_any_text_through_the_screen_is_never_a_500(tournament_world, text):
    client = client_as(tournament_world, "organiser")

    response = client.post(import_url(tournament_world), {"text": text}, headers=HTMX)

    assert response.status_code in (200, 422)
