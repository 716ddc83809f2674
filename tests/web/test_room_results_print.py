"""The printed results and the CSV a director hands out (docs/tournaments.md §6.2–6.3).

After a cut the print and the CSV carry the qualifying, carried and final-stage
columns; the printed standings carry the date, the regulations in short and the chief
arbiter's signature line; the blank protocol has each player's whists on each opponent;
the CSV opens in a spreadsheet set to Russian (a BOM, ``;`` on request) and keeps a
name that looks like a formula a name.
"""

from __future__ import annotations

import csv
import io
import re

import pytest
from django.utils import timezone

from prefscore.clubs.models import Player
from prefscore.tournaments import services
from prefscore.tournaments.models import Tournament, TournamentEntry
from prefscore.tournaments.presenters import printables
from tests.web.fixtures_tournaments import (
    client_as,
    draw,
    enter,
    make_tournament,
    url,
)
from tests.web.test_room_export import cut_to, finish_round

pytestmark = pytest.mark.django_db


@pytest.fixture
def cut_cup(tournament_world, cup) -> Tournament:
    """Two qualifying rounds and a final table of three, its deals played."""
    draw(tournament_world, cup)
    finish_round(cup, 1)
    draw(tournament_world, cup)
    finish_round(cup, 2)
    cut_to(tournament_world, cup, 3)
    finish_round(cup, 3)
    cup.refresh_from_db()
    return cup


def _csv(world, tournament: Tournament, query: str = "") -> tuple[bytes, list[list[str]], str]:
    response = client_as(world, "organiser").get(url("export_csv", tournament) + query)
    assert response.status_code == 200
    body = response.content
    delimiter = ";" if "semicolon" in query else ","
    rows = list(csv.reader(io.StringIO(body.decode("utf-8-sig")), delimiter=delimiter))
    return body, rows, response["Content-Type"]


def test_the_csv_starts_with_a_byte_order_mark(tournament_world, cut_cup):
    body, rows, content_type = _csv(tournament_world, cut_cup)
    assert body.startswith("\ufeff".encode())
    assert rows[0][0] == "place" and content_type == "text/csv; charset=utf-8"


def test_the_csv_after_a_cut_has_the_qualifying_carried_and_stage_columns(
    tournament_world, cut_cup
):
    _body, rows, _type = _csv(tournament_world, cut_cup)
    header = rows[0]
    assert header[-5:] == ["qualifying", "carried", "stage_points", "finalist", "dropped"]
    lines = services.standings(cut_cup).lines
    by_column = [dict(zip(header, row, strict=True)) for row in rows[1:]]
    finalists = [row for row in by_column if row["finalist"] == "1"]
    assert len(finalists) == 3
    for row, line in zip(by_column, lines, strict=True):
        assert row["qualifying"] == str(line.qualifying)
        assert row["stage_points"] == ("" if line.stage_points is None else str(line.stage_points))


def test_the_csv_before_a_cut_has_no_stage_columns(tournament_world, cup):
    draw(tournament_world, cup)
    finish_round(cup, 1)
    _body, rows, _type = _csv(tournament_world, cup)
    assert "qualifying" not in rows[0] and rows[0][-2:] == ["finalist", "dropped"]


def test_the_csv_for_a_russian_spreadsheet_uses_semicolons_and_a_decimal_comma(
    tournament_world,
):
    tournament = make_tournament(
        tournament_world.club, slug="halves", normalisation=Tournament.Normalisation.PLACES
    )
    enter(tournament, tournament_world.players)
    draw(tournament_world, tournament)
    finish_round(tournament, 1)
    body, rows, _type = _csv(tournament_world, tournament, "?sep=semicolon")
    text = body.decode("utf-8-sig")
    assert text.splitlines()[0].startswith("place;player;points;")
    assert len(rows[0]) == len(rows[1]) > 5
    points = [row[2] for row in rows[1:]]
    # Place points at a table of 3 are 3, 1½, 0: a half is written 1,50, never 1.50.
    assert all("." not in value for value in points)
    comma_separated = [value for value in points if "," in value]
    plain = _csv(tournament_world, tournament)[1]
    assert [row[2].replace(".", ",") for row in plain[1:]] == points
    assert comma_separated, "the second at a table of 3 has 1½ place points"


@pytest.mark.parametrize("name", ['=HYPERLINK("http://x")', "+7 SUM", "-1+2", "@cmd"])
def test_the_csv_keeps_a_name_that_looks_like_a_formula_text(tournament_world, name):
    tournament = make_tournament(tournament_world.club, slug="formula")
    crafty = Player.objects.create(club=tournament_world.club, name=name)
    enter(tournament, [crafty, *tournament_world.players[:2]])
    draw(tournament_world, tournament)  # only a player who sat at a table ranks
    _body, rows, _type = _csv(tournament_world, tournament)
    assert "'" + name in [row[1] for row in rows[1:]]
    assert name not in [row[1] for row in rows[1:]]


def _print(world, tournament: Tournament, name: str, language: str = "en") -> str:
    response = client_as(world, "organiser", language).get(url(name, tournament))
    assert response.status_code == 200
    return response.content.decode()


def test_the_printed_standings_after_a_cut_carry_the_stage_columns(tournament_world, cut_cup):
    body = _print(tournament_world, cut_cup, "print_standings")
    head = body[body.index("<thead>") : body.index("</thead>")]
    for column in ("Qualifying", "Carried", "Final stage", "Points"):
        assert f">{column}</th>" in head
    first_row = body[body.index("<tbody>") :].split("</tr>")[0]
    line = services.standings(cut_cup).lines[0]
    table = printables.standings_print(cut_cup).table
    assert table.cut
    row = table.rows[0]
    assert (
        f"<td>{row.qualifying}</td><td>{row.carried}</td><td>{row.stage_points}</td>" in first_row
    )
    assert line.qualifying is not None


def test_the_printed_standings_have_the_date_the_regulations_and_the_signature_line(
    tournament_world, cut_cup
):
    cut_cup.status = Tournament.Status.FINISHED
    # Noon: the same day in every time zone the site shows (Europe/Moscow by default).
    cut_cup.finished_at = timezone.now().replace(year=2026, month=5, day=9, hour=12)
    cut_cup.save()
    english = _print(tournament_world, cut_cup, "print_standings")
    assert "Final standings" in english
    assert '<time datetime="2026-05-09">' in english
    assert "Chief arbiter" in english and 'class="print-signature__line"' in english
    regulations = english[english.index('class="print-regulations"') :]
    assert "<dt>Pulya target</dt><dd>10</dd>" in regulations
    assert "<dt>Tie-breaks</dt>" in regulations
    russian = _print(tournament_world, cut_cup, "print_standings", "ru")
    assert "Главный судья" in russian and "Итоговая таблица" in russian
    assert "Chief arbiter" not in russian and "Regulations" not in russian


def test_the_printed_standings_of_a_running_tournament_are_dated_today(tournament_world, cup):
    draw(tournament_world, cup)
    body = _print(tournament_world, cup, "print_standings")
    today = timezone.localdate().isoformat()
    assert f'<time datetime="{today}">' in body and "Final standings" not in body


def test_the_blank_protocol_has_whists_on_each_opponent(tournament_world, cup):
    draw(tournament_world, cup)
    sheet = printables.protocols(cup).sheets[0]
    anna, boris, vera = sheet.names
    assert [p.columns for p in sheet.players][0] == (
        "pulya",
        "gora",
        f"whists on {boris}",
        f"whists on {vera}",
    )
    body = _print(tournament_world, cup, "print_protocol")
    first = body[body.index('class="protocol-sheet"') : body.index("</article>")]
    assert f"whists on {anna}" in first and f"whists on {vera}" in first
    # every deal row has a cell under every header: 2 + 3 players × 4 columns
    row = re.search(r'<tr><th scope="row">1</th>(.*?)</tr>', first).group(1)
    assert row.count("<td></td>") == 2 + 12


def test_the_blank_protocol_of_a_table_of_four_before_any_round_names_seats(tournament_world):
    tournament = make_tournament(tournament_world.club, slug="fours", table_size=4)
    sheet = printables.protocols(tournament).sheets[0]
    assert len(sheet.players) == 4
    assert sheet.players[0].columns[2:] == (
        "whists on seat 2",
        "whists on seat 3",
        "whists on seat 4",
    )
    assert len(sheet.cells_per_row) == 4 * 5
    russian = _print(tournament_world, tournament, "print_protocol", "ru")
    assert "висты на" in russian and "whists on" not in russian


def test_a_dropped_player_stays_marked_in_the_printed_standings(tournament_world, cut_cup):
    entry = TournamentEntry.objects.filter(tournament=cut_cup).first()
    entry.state = TournamentEntry.State.DROPPED
    entry.save()
    body = _print(tournament_world, cut_cup, "print_standings")
    assert "(dropped)" in body


# --- a finalist's line is his whole tournament (docs/tournaments.md §6.3) ---


def _finalist(cut_cup: Tournament):
    return next(line for line in services.standings(cut_cup).lines if line.finalist)


def test_a_finalists_csv_line_has_every_round_and_his_total_whists(tournament_world, cut_cup):
    _body, rows, _type = _csv(tournament_world, cut_cup)
    header = rows[0]
    line = _finalist(cut_cup)
    name = cut_cup.entries.get(player_id=int(line.player)).player.name
    row = dict(zip(header, next(r for r in rows[1:] if r[1] == name), strict=True))

    assert row["rounds"] == "3"
    assert all(row[f"round_{n}"] != "" for n in (1, 2, 3))
    assert int(row["whists"]) == sum(int(row[f"round_{n}"]) for n in (1, 2, 3))  # raw whists


def test_a_finalists_line_on_the_page_and_the_print_has_every_round(tournament_world, cut_cup):
    page = client_as(tournament_world, "organiser").get(url("standings", cut_cup))
    printed = printables.standings_print(cut_cup).table
    for table in (page.context["table"], printed):
        row = next(row for row in table.rows if row.finalist)
        assert row.rounds == 3
        assert all(value != "" for value in row.by_round)
