"""``check_tournament`` names every corruption made behind the audit and never prints a
traceback (docs/tournaments.md §4.13, §7.12): a deal edited, a stored result changed, a
seat deleted, a round's status flipped, a closing deleted, a table archived, a player at
two tables, a player put out or a stage seated with no decision in the record; tables
by round and number, players by name, in the shell's language. A sound tournament with
a sheet of three that played on gets no false line."""

from __future__ import annotations

import zoneinfo

import pytest
from django.core.management import call_command

from prefscore.games.models import Deal, Pulka, PulkaSeat
from prefscore.tournaments import checks, services, tables
from prefscore.tournaments.models import (
    Round,
    TableClosure,
    TableResult,
    TournamentEntry,
    TournamentEvent,
)
from tests.web.fixtures_tournaments import close_round, draw, play_round_deals

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def english_shell(monkeypatch):
    monkeypatch.setenv("LC_ALL", "en_GB.UTF-8")


@pytest.fixture
def played(tournament_world, cup):
    """Two qualifying rounds played and closed; table 1 of round 2 on the arbiter's sheet."""
    draw(tournament_world, cup)
    play_round_deals(cup, 1)
    close_round(cup, 1)
    draw(tournament_world, cup)
    first = _table(cup, 2, 1)
    organiser = tournament_world.users["organiser"]
    tables.close_table(first.pk, cup, TableClosure.Reason.ARBITER, organiser, [6, -2, -4])
    play_round_deals(cup, 2)
    close_round(cup, 2)
    assert checks.check(cup) == []
    return cup


def _table(cup, round_number: int, number: int) -> Pulka:
    """The table of that number in the round, as every screen numbers it."""
    round_ = cup.rounds.get(number=round_number)
    live = list(services.live_pulkas(cup).filter(round_number=round_number))
    numbers = services.table_numbers(round_, live)
    return next(p for p in live if numbers[p.pk] == number)


def run(cup, capsys, address: str = "cup/spring-cup") -> str:
    with pytest.raises(SystemExit) as exited:
        call_command("check_tournament", address)
    out, err = capsys.readouterr()
    assert exited.value.code == 1
    assert "Traceback" not in out + err and "could not finish" not in out
    return out


def test_a_sound_tournament_is_sound_in_the_shells_language(played, capsys, monkeypatch):
    call_command("check_tournament", "cup/spring-cup")
    assert "cup/spring-cup: sound (2 rounds checked)" in capsys.readouterr().out

    monkeypatch.setenv("LC_ALL", "ru_RU.UTF-8")
    call_command("check_tournament", "spring-cup")
    assert "проверено туров: 2" in capsys.readouterr().out


def test_a_deal_edited_behind_the_audit_is_named(played, capsys):
    table = _table(played, 1, 2)
    deal = Deal.objects.filter(pulka=table, number=1).get()
    facts = dict(deal.facts)
    declarer, whister = facts["declarer"], next(iter(facts["whists"]))
    tricks = dict(facts["tricks"])
    tricks[declarer] -= 1  # the 6♠ goes down one: another sheet
    tricks[whister] += 1
    Deal.objects.filter(pk=deal.pk).update(facts={**facts, "tricks": tricks})

    out = run(played, capsys)

    assert "round 1, table 2: the stored result differs from the sheet" in out


def test_a_stored_result_changed_behind_the_audit_is_named(played, capsys):
    table = _table(played, 2, 3)
    TableResult.objects.filter(pulka=table).update(whists=[50, -25, -25])

    out = run(played, capsys)

    assert "round 2, table 3: the stored result differs from the sheet" in out
    assert "standings: " in out  # the standings read the row, the recount the sheet


def test_a_seat_deleted_is_named_without_a_traceback(played, capsys):
    pulka = _table(played, 1, 1)
    PulkaSeat.objects.filter(pulka=pulka, seat=2).delete()

    assert "round 1, table 1: its seats [0, 1] do not match the 3 players" in run(played, capsys)


def test_a_rounds_status_flipped_is_named(played, capsys):
    Round.objects.filter(tournament=played, number=2).update(status=Round.Status.DRAFT)

    out = run(played, capsys)

    assert "round 2, table 1 is in round 2, which is not published" in out


def test_a_draft_flipped_to_published_is_named(tournament_world, cup, capsys):
    from tests.web.fixtures_tournaments import draw_draft

    draw_draft(tournament_world, cup)
    Round.objects.filter(tournament=cup, number=1).update(status=Round.Status.PUBLISHED)

    assert "round 1: 3 tables drawn, 0 in play" in run(cup, capsys)


def test_a_closing_deleted_behind_the_audit_is_named(played, capsys, settings):
    settings.TIME_ZONE = "Asia/Vladivostok"  # UTC+10: a UTC time would read otherwise
    table = _table(played, 2, 1)
    closed_at = TournamentEvent.objects.get(action="table_closed", details__pulka=table.pk).at
    before = {line.player: line.points for line in services.standings(played).lines}
    TableClosure.objects.filter(pulka=table).delete()
    after = {line.player: line.points for line in services.standings(played).lines}
    assert before != after  # the arbiter's figures are gone from the standings

    out = run(played, capsys)

    local = closed_at.astimezone(zoneinfo.ZoneInfo("Asia/Vladivostok"))
    said = f"closed it on {local:%Y-%m-%d %H:%M}, but the closing is gone"
    assert f"round 2, table 1: the record says t-organiser {said}" in out


def test_a_closing_of_a_table_not_over_deleted_is_named_by_the_sheet_too(played, capsys):
    table = _table(played, 1, 3)  # closed by time after two deals of four
    TableClosure.objects.filter(pulka=table).delete()
    TournamentEvent.objects.filter(action="table_closed", details__pulka=table.pk).delete()

    out = run(played, capsys)

    assert "round 1, table 3: over before its sheet is finished, and no closing explains it" in out


def test_the_arbiters_figures_changed_behind_the_audit_are_named(played, capsys):
    TableClosure.objects.filter(pulka=_table(played, 2, 1)).update(whists=[60, -20, -40])

    out = run(played, capsys)

    assert (
        "round 2, table 1: the arbiter's figures are 60, -20, -40, the record says 6, -2, -4" in out
    )


def test_a_table_archived_behind_the_audit_is_named(played, capsys):
    gone = _table(played, 1, 3)
    names = ", ".join(gone.player_names)
    Pulka.objects.filter(pk=gone.pk).update(status=Pulka.Status.ARCHIVED)

    out = run(played, capsys)

    assert "round 1: table 3 of the draw is not in play" in out
    assert f"round 1, the archived sheet of {names}: archived, and no drop's closing" in out


def test_a_player_at_two_tables_is_named_by_name_without_a_crash(played, capsys):
    one, two = _table(played, 1, 1), _table(played, 1, 2)
    anna = one.seats.get(seat=0)
    PulkaSeat.objects.filter(pulka=two, seat=0).update(player=anna.player)

    out = run(played, capsys)

    name = anna.player.name
    assert f"round 1: {name} sits at round 1, table 1; round 1, table 2" in out


def test_a_player_at_two_tables_with_his_name_on_the_sheet_is_named(played, capsys):
    one, two = _table(played, 1, 1), _table(played, 1, 2)
    anna = one.seats.get(seat=0)
    names = list(two.player_names)
    names[0] = anna.player.name
    PulkaSeat.objects.filter(pulka=two, seat=0).update(player=anna.player)
    Pulka.objects.filter(pk=two.pk).update(player_names=names)

    out = run(played, capsys)

    assert "round 1, table 2: its sheet cannot be scored" in out
    assert f"round 1: {anna.player.name} sits at" in out


def test_a_player_put_out_behind_the_audit_is_named(played, capsys):
    entry = played.entries.select_related("player").first()
    TournamentEntry.objects.filter(pk=entry.pk).update(state=TournamentEntry.State.DROPPED)

    out = run(played, capsys)

    assert f"{entry.player.name} is dropped with no decision in the record" in out


def test_a_qualifying_round_relabelled_final_is_named(played, capsys):
    Round.objects.filter(tournament=played, number=2).update(stage=Round.Stage.FINAL)

    out = run(played, capsys)
    assert "round 2: a final round not marked as after a cut" in out
    assert "round 2: a final round not seated by standing" in out
    assert "round 2: the final has no cut in the record" in out


@pytest.mark.parametrize(
    ("whists", "said"),
    [([6, -6], "the closing has 2 whists for 3 players"), (["6", "-2", "-4"], "not whole")],
)
def test_a_closing_with_bad_whists_is_named_without_a_traceback(played, capsys, whists, said):
    closure = TableClosure.objects.get(pulka__tournament=played, reason="arbiter")
    TableClosure.objects.filter(pk=closure.pk).update(whists=whists)

    assert said in run(played, capsys)


def test_a_round_gone_is_named_and_the_standings_still_read(played, capsys):
    Round.objects.filter(tournament=played, number=2).delete()

    out = run(played, capsys)

    assert "is in round 2, which is not published" in out
