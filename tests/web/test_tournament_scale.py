"""Tournaments at scale: stored table results, constant queries, the bulk import, the tools.

The standings rank from each table's stored result (``tournaments.results``), written
after every change of its sheet; these tests check that the row follows the sheet,
that a stale or corrupted row is caught (read again, reported by ``check_tournament``,
rebuilt by ``rebuild_results``), that the pages' queries do not grow with the field,
and that the random tournament of ``random_tournament`` imports sound.
"""

from __future__ import annotations

import json
import re
from io import StringIO
from typing import Any

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import DatabaseError, connection
from django.test.utils import CaptureQueriesContext
from django.utils import translation

from prefscore.games.io import create_pulka
from prefscore.games.models import AuditEvent, Deal, Pulka, PulkaSeat
from prefscore.games.services import pencil_change, record_deal
from prefscore.stats.models import PulkaSummary
from prefscore.tournaments import exports, generator, imports, results, rounds, services
from prefscore.tournaments.checks import check
from prefscore.tournaments.models import TableResult, Tournament
from scoring.engine.conventions import preset
from tests.web.fixtures_tournaments import (
    HTMX,
    TournamentWorld,
    client_as,
    table_deals,
    url,
)

pytestmark = pytest.mark.django_db


def _published(cup: Tournament) -> list[Pulka]:
    rounds.draw_next_round(cup.pk)
    rounds.publish_round(cup.pk, 1)
    return list(Pulka.objects.filter(tournament=cup).order_by("pk"))


def _recount(pulka: Pulka) -> TableResult:
    return results.recount([Pulka.objects.get(pk=pulka.pk)])[0]


def test_each_change_of_a_sheet_writes_its_table_result(
    cup: Tournament, tournament_world: TournamentWorld, django_capture_on_commit_callbacks: Any
) -> None:
    pulka = _published(cup)[0]
    user = tournament_world.users["organiser"]
    first, second = table_deals(pulka)[:2]
    with django_capture_on_commit_callbacks(execute=True):
        record_deal(pulka.pk, first, user, 1)
    row = TableResult.objects.get(pulka=pulka)
    fresh = _recount(pulka)
    assert (row.version, row.deals, row.whists) == (fresh.version, 1, fresh.whists)
    assert any(row.whists), "a made 6♠ with a whister moves the whists"
    with django_capture_on_commit_callbacks(execute=True):
        record_deal(pulka.pk, second, user, 2)
    with django_capture_on_commit_callbacks(execute=True):
        pencil_change(pulka.pk, user, 2, None)  # the pencil holder undoes deal 2
    row.refresh_from_db()
    assert (row.deals, row.whists, row.version) == (
        1,
        fresh.whists,
        Pulka.objects.get(pk=pulka.pk).version,
    )


def test_a_club_game_keeps_no_table_result(
    tournament_world: TournamentWorld, django_capture_on_commit_callbacks: Any
) -> None:
    pulka = create_pulka(
        tournament_world.club,
        convention_name="sochi",
        convention=preset("sochi"),
        players=tournament_world.players[:3],
        target=10,
        stake=None,
        first_dealer=0,
        user=None,
    )
    with django_capture_on_commit_callbacks(execute=True):
        record_deal(pulka.pk, table_deals(pulka)[0], None, 1)
    assert not TableResult.objects.exists()


def test_a_stale_row_is_counted_again_on_read(cup: Tournament, tournament_world: Any) -> None:
    pulkas = _published(cup)
    for pulka in pulkas:
        for number, facts in enumerate(table_deals(pulka), start=1):
            record_deal(pulka.pk, facts, None, number)
    before = services.standings(cup).lines  # writes every row (no commit in the test)
    assert TableResult.objects.filter(tournament=cup).count() == len(pulkas)
    # A row left behind by a change it missed: an older version and wrong figures.
    row = TableResult.objects.get(pulka=pulkas[0])
    TableResult.objects.filter(pk=row.pk).update(version=row.version - 1, whists=[999, -999, 0])
    assert services.standings(cup).lines == before
    assert TableResult.objects.get(pk=row.pk).whists == row.whists


def test_check_tournament_names_a_stored_result_that_differs_and_rebuild_mends_it(
    cup: Tournament,
) -> None:
    pulkas = _published(cup)
    for pulka in pulkas:
        for number, facts in enumerate(table_deals(pulka), start=1):
            record_deal(pulka.pk, facts, None, number)
    results.rebuild(cup)
    assert check(cup) == []
    bad = TableResult.objects.get(pulka=pulkas[1])
    TableResult.objects.filter(pk=bad.pk).update(whists=[5, -5, 0])  # same version: not stale
    with translation.override("en"):  # the checker's lines in the active language
        problems = check(cup)
    number = services.table_numbers(cup.rounds.get(number=1), pulkas)[pulkas[1].pk]
    assert any(f"round 1, table {number}: the stored result differs" in p for p in problems), (
        problems
    )
    out = StringIO()
    call_command("rebuild_results", f"{cup.club.slug}/{cup.slug}", stdout=out)
    assert f"{len(pulkas)} tables counted" in out.getvalue()
    assert check(cup) == []


def _imported(world: TournamentWorld, players: int, rounds_: int, deals: int) -> Tournament:
    data = generator.tournament_file(players, rounds_, deals, seed=players)
    data["tournament"]["public"] = True
    file = imports.read_file(json.dumps(data, ensure_ascii=False))
    return imports.import_tournament(world.club, file, world.users["organiser"])


PAGES = ["standings", "projector", "detail", "room", "print_standings", "bracket", "export_json"]


@pytest.mark.parametrize("name", PAGES)
def test_the_pages_queries_do_not_grow_with_players_tables_or_deals(
    tournament_world: TournamentWorld, django_assert_num_queries: Any, name: str
) -> None:
    small = _imported(tournament_world, 12, 2, 4)
    large = _imported(tournament_world, 40, 4, 10)
    assert (
        Deal.objects.filter(pulka__tournament=large).count()
        > 3 * Deal.objects.filter(pulka__tournament=small).count()
    )
    client = client_as(tournament_world, "organiser")
    counts = []
    for tournament in (small, large):
        client.get(url(name, tournament))  # sessions, caches: the second read is the steady one
        with CaptureQueriesContext(connection) as queries:
            response = client.get(url(name, tournament), headers=HTMX)
        assert response.status_code == 200
        counts.append(len(queries.captured_queries))
    assert counts[0] == counts[1]
    with django_assert_num_queries(counts[0]):
        client.get(url(name, large), headers=HTMX)


def _queries(run: Any) -> int:
    with CaptureQueriesContext(connection) as queries:
        run()
    return len(queries.captured_queries)


def test_the_draw_and_the_checker_read_as_many_queries_for_a_larger_field(
    tournament_world: TournamentWorld,
) -> None:
    """Drawing the next round and ``check_tournament`` read the tables, seats and
    results in a fixed number of queries (bench/tournament_results.py times them):
    a field over three times larger, with more rounds and deals, asks no more."""
    small = _imported(tournament_world, 12, 2, 4)
    large = _imported(tournament_world, 40, 4, 10)
    drawn = []
    checked = []
    for tournament in (small, large):
        number = tournament.rounds.count() + 1
        drawn.append(_queries(lambda t=tournament: rounds.draw_next_round(t.pk)))
        assert tournament.rounds.get(number=number).tables
        rounds.discard_draft(tournament.pk, number)
        checked.append(_queries(lambda t=tournament: check(t)))
    assert drawn[0] == drawn[1], drawn
    assert checked[0] == checked[1], checked


def test_publishing_a_round_asks_as_many_queries_for_more_tables(
    tournament_world: TournamentWorld,
) -> None:
    """Publishing starts every table's pulka with its seats in a fixed number of queries
    (docs/benchmarks.md, "Publishing a round in bulk"): a round of 10 tables
    asks no more than one of 3, and each table still gets its pulka, seated as drawn,
    named on the draw, with the tournament's rules."""
    client = client_as(tournament_world, "organiser")
    counts = []
    for tournament in (
        _imported(tournament_world, 12, 1, 2),
        _imported(tournament_world, 40, 1, 2),
    ):
        Pulka.objects.filter(tournament=tournament).update(status=Pulka.Status.FINISHED)
        draft = rounds.draw_next_round(tournament.pk)
        with CaptureQueriesContext(connection) as queries:
            response = client.post(url("publish_round", tournament, number=2), headers=HTMX)
        assert response.status_code == 200 and response["HX-Redirect"]
        counts.append(len(queries.captured_queries))
        published = tournament.rounds.get(number=2)
        assert published.status == published.Status.PUBLISHED
        started = Pulka.objects.filter(tournament=tournament, round_number=2)
        assert started.count() == len(draft.tables) == len(published.tables)
        names = dict(tournament.entries.values_list("player_id", "player__name"))
        for number, table in enumerate(published.tables, start=1):
            pulka = started.get(pk=table["pulka"])
            seats = list(pulka.seats.order_by("seat").values_list("player_id", flat=True))
            assert [str(key) for key in seats] == table["players"]
            assert pulka.player_names == [names[key] for key in seats]
            assert pulka.first_dealer == table["first_dealer"] % len(seats)
            assert pulka.status == Pulka.Status.RUNNING and pulka.version == 0
            assert pulka.convention_options == tournament.convention.to_options()
            assert pulka.created_by == tournament_world.users["organiser"]
            assert (pulka.title_parts["round"], pulka.title_parts["table"]) == (2, number)
    assert len(published.tables) >= 3 * 3, "the larger round has three times the tables"
    assert counts[0] == counts[1], counts


def _with_a_final(world: TournamentWorld, tournament: Tournament) -> Tournament:
    """Every table over, the field cut to a final of 8, and the final published."""
    Pulka.objects.filter(tournament=tournament, status=Pulka.Status.RUNNING).update(
        status=Pulka.Status.FINISHED
    )
    final = rounds.draw_stage(tournament.pk, 8)
    rounds.publish_round(tournament.pk, final.number, world.users["organiser"])
    return tournament


def test_the_bracket_after_a_cut_reads_as_many_queries_for_a_larger_field(
    tournament_world: TournamentWorld,
) -> None:
    """The bracket reads the final's tables, never the qualifying's (docs/tournaments.md
    §4.10): its queries and the tables it shows do not grow with the field."""
    small = _with_a_final(tournament_world, _imported(tournament_world, 12, 2, 4))
    large = _with_a_final(tournament_world, _imported(tournament_world, 40, 4, 10))
    client = client_as(tournament_world, "organiser")
    counts = []
    for tournament in (small, large):
        client.get(url("bracket", tournament))
        with CaptureQueriesContext(connection) as queries:
            response = client.get(url("bracket", tournament), headers=HTMX)
        assert response.status_code == 200
        stages = response.context["stages"]
        assert [len(stage.tables) for stage in stages] == [0, 2]
        finalists = {name for table in stages[1].tables for name, _on in table.seats}
        assert set(stages[0].advanced) == finalists and len(finalists) == 8
        assert stages[0].rounds == tournament.rounds.filter(stage="qualifying").count()
        counts.append(len(queries.captured_queries))
    assert counts[0] == counts[1]


def test_the_bulk_import_writes_what_a_pulka_import_writes(
    tournament_world: TournamentWorld,
) -> None:
    tournament = _imported(tournament_world, 12, 2, 5)
    pulkas = list(Pulka.objects.filter(tournament=tournament).order_by("pk"))
    assert len(pulkas) == 6
    for pulka in pulkas:
        assert PulkaSeat.objects.filter(pulka=pulka).count() == 4
        assert pulka.version == Deal.objects.filter(pulka=pulka).count() == 5
        event = AuditEvent.objects.get(pulka=pulka, action=AuditEvent.Action.IMPORTED)
        assert event.details["deals"] == 5 and event.user == tournament_world.users["organiser"]
    # Every stored result equals a fold of its sheet, and the tournament checks sound.
    assert results.differences(tournament) == []
    assert check(tournament) == []


def test_the_statistics_hear_of_an_imported_tournament_at_once(
    tournament_world: TournamentWorld, django_capture_on_commit_callbacks: Any
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        tournament = _imported(tournament_world, 12, 1, 4)
    finished = Pulka.objects.filter(tournament=tournament, status=Pulka.Status.FINISHED)
    assert finished.count() == 3
    assert PulkaSummary.objects.filter(pulka__in=finished).count() == 12


def test_random_tournament_makes_a_sound_tournament_of_the_size_asked(
    tournament_world: TournamentWorld,
) -> None:
    out = StringIO()
    call_command(
        "random_tournament", "cup", "--players", "22", "--rounds", "3", "--deals", "6", stdout=out
    )
    tournament = Tournament.objects.get(club=tournament_world.club, slug="random-22-3-1")
    assert tournament.entries.count() == 22
    assert Pulka.objects.filter(tournament=tournament).count() == 3 * 6  # 4 of 4 and 2 of 3
    assert check(tournament) == []
    out = StringIO()
    call_command("check_tournament", "cup/random-22-3-1", stdout=out)
    assert "sound" in out.getvalue()


def test_random_tournament_refuses_what_cannot_be_seated(tournament_world: Any) -> None:
    with pytest.raises(CommandError) as refused:
        call_command("random_tournament", "cup", "--players", "5")
    assert refused.value.returncode == 2
    with pytest.raises(CommandError):
        call_command("random_tournament", "no-such-club", "--players", "9")


def test_the_same_seed_gives_the_same_file() -> None:
    assert generator.tournament_file(13, 2, 6, seed=7) == generator.tournament_file(
        13, 2, 6, seed=7
    )
    assert generator.tournament_file(13, 2, 6, seed=7) != generator.tournament_file(
        13, 2, 6, seed=8
    )


# --- the tournament page in pages ---------------------------------------------------------


@pytest.fixture
def wide(tournament_world: TournamentWorld) -> Tournament:
    """204 players over 2 rounds: 51 tables a round, 3 pages of players."""
    return _imported(tournament_world, 204, 2, 2)


def _tables_shown(body: str) -> list[str]:
    return re.findall(r'<span class="pulka-card__title">Table (\d+)</span>', body)


def test_the_tournament_page_shows_one_round_and_a_page_of_its_tables(
    tournament_world: TournamentWorld, wide: Tournament
) -> None:
    client = client_as(tournament_world, "organiser")
    body = client.get(url("detail", wide)).content.decode()
    assert 'id="round-2"' in body and 'id="round-1"' not in body
    assert _tables_shown(body) == [str(n) for n in range(1, 51)]
    assert 'href="?round=2&amp;tables=2#rounds"' in body and "Page 1 of 2" in body
    assert 'href="?round=1#rounds"' in body
    second = client.get(url("detail", wide) + "?round=2&tables=2").content.decode()
    assert _tables_shown(second) == ["51"]
    first_round = client.get(url("detail", wide) + "?round=1", headers=HTMX).content.decode()
    assert 'id="round-1"' in first_round and 'id="round-2"' not in first_round
    assert len(_tables_shown(first_round)) == 50
    assert len(body.encode()) < 300_000


def test_the_tournament_page_lists_the_players_a_page_at_a_time(
    tournament_world: TournamentWorld, wide: Tournament
) -> None:
    client = client_as(tournament_world, "organiser")
    names = sorted(wide.entries.values_list("player__name", flat=True))
    body = client.get(url("detail", wide)).content.decode()
    shown = re.findall(r'<span class="entry-list__name"><bdi>([^<]+)</bdi></span>', body)
    assert shown == names[:100]
    assert "204 players in play" in body and 'href="?players=2#entries"' in body
    last = client.get(url("detail", wide) + "?players=3").content.decode()
    assert (
        re.findall(r'<span class="entry-list__name"><bdi>([^<]+)</bdi></span>', last) == names[200:]
    )


@pytest.mark.parametrize(
    "query", ["?round=x", "?tables=%D9%A3", "?players=-1", "?round=99999999999", "?tables=999"]
)
def test_a_strange_page_in_the_address_shows_a_page_never_an_error(
    tournament_world: TournamentWorld, wide: Tournament, query: str
) -> None:
    response = client_as(tournament_world, "organiser").get(url("detail", wide) + query)
    assert response.status_code == 200
    assert _tables_shown(response.content.decode())


def test_a_failed_write_of_a_table_result_leaves_the_deal_and_the_standings_right(
    cup: Tournament, monkeypatch: Any, django_capture_on_commit_callbacks: Any
) -> None:
    pulka = _published(cup)[0]

    def broken(*args: Any, **kwargs: Any) -> None:
        raise DatabaseError("disk full")

    monkeypatch.setattr(results, "store", broken)
    with django_capture_on_commit_callbacks(execute=True):
        record_deal(pulka.pk, table_deals(pulka)[0], None, 1)  # no error reaches the table
    assert Deal.objects.filter(pulka=pulka).count() == 1
    assert not TableResult.objects.filter(pulka=pulka).exists()
    monkeypatch.undo()
    by_player = {line.player: line.whists for line in services.standings(cup).lines}
    fresh = _recount(pulka)
    keys = [str(seat.player_id) for seat in pulka.seats.order_by("seat")]
    assert [by_player[key] for key in keys] == fresh.whists and any(fresh.whists)
    assert TableResult.objects.get(pulka=pulka).whists == fresh.whists


def test_the_export_of_a_large_tournament_imports_again(tournament_world: TournamentWorld) -> None:
    tournament = _imported(tournament_world, 40, 2, 6)
    text = exports.export_text(tournament)
    assert "\n" not in text  # compact: 1,000 players over 5 rounds fit in an import
    again = imports.import_tournament(tournament_world.club, imports.read_file(text), None)
    assert services.standings(again).lines != () and check(again) == []
    assert [line.whists for line in services.standings(again).lines] == [
        line.whists for line in services.standings(tournament).lines
    ]
