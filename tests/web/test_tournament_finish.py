"""Stages of several rounds, the end of a tournament, the round's clock counting down,
closed tables in the export, and a 13-player tournament run to its end through the views
(docs/tournaments.md §7)."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from django.core.management import call_command
from django.utils import timezone

from prefscore.clubs.models import Player
from prefscore.games.models import Pulka
from prefscore.tournaments import exports, imports, services, stages
from prefscore.tournaments.models import Round, TableClosure, Tournament, TournamentEntry
from prefscore.tournaments.presenters import room
from tests.web.fixtures_tournaments import (
    HTMX,
    client_as,
    close_round,
    draw,
    enter,
    make_tournament,
    play_round_deals,
    url,
)

pytestmark = pytest.mark.django_db


def running(tournament, number):
    return list(
        Pulka.objects.filter(
            tournament=tournament, round_number=number, status=Pulka.Status.RUNNING
        ).order_by("pk")
    )


def thirteen(world, **fields) -> Tournament:
    players = list(world.players) + [
        Player.objects.create(club=world.club, name=name)
        for name in ("Lev", "Mila", "Nina", "Oleg", "Pavel")
    ]
    tournament = make_tournament(world.club, "Thirteen", slug="thirteen", table_size=4, **fields)
    enter(tournament, players[:13])
    return tournament


def ranked(tournament):
    table = services.standings(tournament)
    return sorted(
        (line.place, table.players[line.player].name, line.points, line.whists, line.finalist)
        for line in table.lines
    )


def test_the_13_player_tournament_runs_to_a_final_of_2_rounds_and_finishes(
    tournament_world, capsys
):
    cup = thirteen(tournament_world, stage_rounds=2, round_minutes=90)
    organiser = client_as(tournament_world, "organiser")

    # Two qualifying rounds: a late entry before round 2, a drop during it.
    draw(tournament_world, cup)
    play_round_deals(cup, 1)
    close_round(cup, 1)
    late = Player.objects.get(name="Pavel")
    organiser.post(url("register", cup), {"players": [late.pk]})
    draw(tournament_world, cup)
    assert late.name in {n for p in running(cup, 2) for n in p.player_names}
    four = next(p for p in running(cup, 2) if len(p.player_names) == 4)
    gone = cup.entries.get(player__name=four.player_names[0])
    organiser.post(
        url("entry_state", cup, entry=gone.pk), {"action": "drop", "reason": "went home"}
    )
    play_round_deals(cup, 2)
    arbiter = running(cup, 2)[0]
    figures = [15, -5, -10, 0][: len(arbiter.player_names)]
    if len(figures) == 3:
        figures = [15, -5, -10]
    organiser.post(
        url("close_table", cup, pulka=arbiter.pk),
        {"reason": "arbiter", **{f"whists_{i}": str(v) for i, v in enumerate(figures)}},
    )
    close_round(cup, 2)

    # The cut to a final table of 4, seated by standing; the final plays 2 rounds.
    top = [row.name for row in organiser.get(url("standings", cup)).context["table"].rows[:4]]
    organiser.post(url("cut", cup), {"size": "4", "stage": "final"})
    organiser.post(url("publish_round", cup, number=3))
    assert set(running(cup, 3)[0].player_names) == set(top)
    play_round_deals(cup, 3)
    close_round(cup, 3)
    cup.refresh_from_db()
    assert cup.status == Tournament.Status.FINAL  # one final round of 2 played: not over
    page = organiser.get(url("detail", cup)).content.decode()
    assert "This stage has 1 more round to play" in page

    # Round 2 of the final: drawn by standing after round 1 of it, the same four.
    order = [
        line.player
        for line in services.standings(cup).lines
        if line.player in {str(s.player_id) for s in running_or_any(cup, 3)[0].seats.all()}
    ]
    response = organiser.post(url("draw", cup), headers=HTMX)
    assert response.status_code == 200 and "HX-Redirect" in response.headers
    final_two = cup.rounds.get(number=4)
    assert (final_two.stage, final_two.status) == (Round.Stage.FINAL, Round.Status.DRAFT)
    assert final_two.tables[0]["players"] == order or set(final_two.tables[0]["players"]) == set(
        order
    )
    organiser.post(url("publish_round", cup, number=4))
    play_round_deals(cup, 4)
    close_round(cup, 4)

    # The last table of the final closed: the tournament is finished, and frozen.
    cup.refresh_from_db()
    assert cup.status == Tournament.Status.FINISHED
    assert (cup.finished_by_hand, cup.finished_at is not None) == (False, True)
    page = organiser.get(url("detail", cup)).content.decode()
    assert "when the last table of the final was over" in page
    assert 'id="finish"' not in page and "Draw the next round" not in page
    refused = organiser.post(url("draw", cup), headers=HTMX).content.decode()
    assert "The tournament is finished" in refused
    assert cup.rounds.count() == 4
    standings_page = organiser.get(url("standings", cup))
    assert standings_page.context["table"].finished and not standings_page.context["table"].live
    assert "these standings are final" in standings_page.content.decode()
    bracket = organiser.get(url("bracket", cup)).content.decode()
    assert "2 rounds" in bracket.split("<h2>Final</h2>")[1]

    call_command("check_tournament", "thirteen")
    assert "sound" in capsys.readouterr().out

    # Export and import again: the closed tables come back, the standings are the same.
    data = exports.export_data(cup)
    closures = [t["closure"] for r in data["rounds"] for t in r["tables"] if "closure" in t]
    assert {c["reason"] for c in closures} >= {"arbiter", "time", "drop"} - {"drop"}
    assert any(c["whists"] == figures for c in closures)
    copy_ = imports.import_tournament(
        tournament_world.other_club, imports.read_file(json.dumps(data)), None
    )
    assert TableClosure.objects.filter(pulka__tournament=copy_).count() == len(closures)
    assert ranked(copy_) == ranked(cup)
    assert (copy_.stage_rounds, copy_.round_minutes) == (2, 90)


def running_or_any(tournament, number):
    return list(
        Pulka.objects.filter(tournament=tournament, round_number=number)
        .exclude(status=Pulka.Status.ARCHIVED)
        .order_by("pk")
    )


def test_a_cut_out_of_a_semi_final_waits_for_its_rounds(tournament_world):
    cup = thirteen(tournament_world, stage_rounds=2)
    draw(tournament_world, cup)
    close_round(cup, 1)
    organiser = client_as(tournament_world, "organiser")
    organiser.post(url("cut", cup), {"size": "8", "stage": "semifinal"})
    organiser.post(url("publish_round", cup, number=2))
    close_round(cup, 2)

    response = organiser.post(url("cut", cup), {"size": "4", "stage": "final"}, headers=HTMX)

    assert "This stage plays 2 rounds" in response.content.decode()
    assert cup.rounds.count() == 2
    organiser.post(url("draw", cup))
    second = cup.rounds.get(number=3)
    assert second.stage == Round.Stage.SEMIFINAL
    assert sorted(len(t["players"]) for t in second.tables) == [4, 4]


def test_the_organiser_finishes_by_hand_and_it_is_audited(tournament_world, cup):
    draw(tournament_world, cup)
    organiser = client_as(tournament_world, "organiser")

    refused = organiser.post(url("finish", cup), headers=HTMX)
    assert "still playing" in refused.content.decode()
    cup.refresh_from_db()
    assert cup.status != Tournament.Status.FINISHED

    close_round(cup, 1)
    response = organiser.post(url("finish", cup))

    assert response.status_code == 302
    cup.refresh_from_db()
    assert cup.status == Tournament.Status.FINISHED and cup.finished_by_hand
    assert cup.finished_by == tournament_world.users["organiser"]
    page = organiser.get(url("detail", cup)).content.decode()
    assert "Finished by \u2068t-organiser\u2069" in page  # a name with a hyphen, isolated
    again = organiser.post(url("finish", cup), headers=HTMX).content.decode()
    assert "already finished" in again
    entry = cup.entries.first()
    organiser.post(
        url("entry_state", cup, entry=entry.pk), {"action": "drop", "reason": "went home"}
    )
    entry.refresh_from_db()
    assert entry.state != TournamentEntry.State.DROPPED


@pytest.mark.parametrize(("role", "status"), [("member", 403), ("outsider", 403)])
def test_only_organisers_finish(tournament_world, cup, role, status):
    draw(tournament_world, cup)
    close_round(cup, 1)

    assert client_as(tournament_world, role).post(url("finish", cup)).status_code == status
    cup.refresh_from_db()
    assert cup.status != Tournament.Status.FINISHED


def test_finishing_answers_only_post(tournament_world, cup):
    assert client_as(tournament_world, "organiser").get(url("finish", cup)).status_code == 405


def test_a_finished_tournament_refuses_to_close_a_table(tournament_world, cup):
    draw(tournament_world, cup)
    table = running(cup, 1)[0]
    Tournament.objects.filter(pk=cup.pk).update(status=Tournament.Status.FINISHED)
    organiser = client_as(tournament_world, "organiser")

    response = organiser.post(url("close_table", cup, pulka=table.pk), {"reason": "time"})

    assert "its results are final" in response.content.decode()
    assert not TableClosure.objects.filter(pulka=table).exists()


# --- the round's clock ---


def test_the_clock_counts_the_round_length_down_and_says_when_time_is_up(tournament_world, cup):
    cup.round_minutes = 90
    cup.save(update_fields=["round_minutes"])
    draw(tournament_world, cup)
    started = cup.rounds.get().published_at

    half = room.clock(cup, started, started + timedelta(minutes=30, seconds=20))
    assert (half.elapsed, half.remaining, half.overtime) == ("0:30", "1:00", False)
    over = room.clock(cup, started, started + timedelta(minutes=91))
    assert (over.remaining, over.overtime) == ("0:00", True)

    Round.objects.filter(pk=cup.rounds.get().pk).update(
        published_at=timezone.now() - timedelta(minutes=95)
    )
    for name in ("room", "projector"):
        page = client_as(tournament_world, "organiser").get(url(name, cup)).content.decode()
        assert "time is up" in page and "room-clock--over" in page
    russian = client_as(tournament_world, "organiser", "ru").get(url("room", cup))
    assert "время вышло" in russian.content.decode()


def test_the_round_length_is_part_of_the_regulations(tournament_world, cup):
    organiser = client_as(tournament_world, "organiser")
    page = organiser.get(url("regulations", cup)).content.decode()
    assert 'name="round_minutes"' in page and 'name="stage_rounds"' in page

    cup.round_minutes = 0
    assert room.round_length(cup) is None
    cup.round_minutes = 45
    assert room.round_length(cup) == timedelta(minutes=45)


# --- closed tables in the file ---


def test_an_arbiters_closing_that_does_not_add_up_is_refused_on_import(tournament_world, cup):
    draw(tournament_world, cup)
    play_round_deals(cup, 1)
    close_round(cup, 1)
    data = exports.export_data(cup)
    closure = data["rounds"][0]["tables"][0]["closure"]
    closure.update({"reason": "arbiter", "whists": [5, 0, 0]})

    with pytest.raises(imports.ImportRefused, match="adding up to zero"):
        imports.read_file(json.dumps(data))
    closure.update({"reason": "time", "whists": [5, -5, 0]})
    with pytest.raises(imports.ImportRefused, match="only the arbiter"):
        imports.read_file(json.dumps(data))


def test_stages_rounds_left_counts_the_stage_after_a_cut(tournament_world):
    cup = thirteen(tournament_world, stage_rounds=3)
    assert stages.rounds_left(cup) == 0
    draw(tournament_world, cup)
    close_round(cup, 1)
    client_as(tournament_world, "organiser").post(url("cut", cup), {"size": "4"})
    assert stages.rounds_left(cup) == 2
