"""A tournament as a director runs it (docs/tournaments.md §7): drafts, the guard, closing tables,
player states, the cut, the regulations, and ``manage.py check_tournament``."""

from __future__ import annotations

import pytest
from django.core.management import call_command

from prefscore.clubs.models import Player
from prefscore.games.models import Pulka
from prefscore.games.services import record_deal
from prefscore.tournaments.models import (
    RegulationChange,
    Round,
    TableClosure,
    Tournament,
    TournamentEntry,
)
from tests.web.fixtures_tournaments import (
    HTMX,
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


def running(tournament, number):
    return list(
        Pulka.objects.filter(
            tournament=tournament, round_number=number, status=Pulka.Status.RUNNING
        ).order_by("pk")
    )


# --- drafts ---


def test_a_drawn_round_is_a_draft_without_pulkas_until_published(tournament_world, cup):
    draw_draft(tournament_world, cup)

    round_ = cup.rounds.get()
    assert round_.status == Round.Status.DRAFT
    assert not Pulka.objects.filter(tournament=cup).exists()
    assert sorted(k for t in round_.tables for k in t["players"]) == sorted(
        str(p.pk) for p in tournament_world.players
    )
    html = client_as(tournament_world, "organiser").get(url("detail", cup)).content.decode()
    assert 'id="draft-1"' in html and "Publish and start the tables" in html


def test_the_organiser_swaps_two_players_of_a_draft(tournament_world, cup):
    draw_draft(tournament_world, cup)
    tables = cup.rounds.get().tables
    a, b = tables[0]["players"][0], tables[1]["players"][0]

    response = client_as(tournament_world, "organiser").post(
        url("swap", cup, number=1), {"first": a, "second": b}
    )

    assert response.status_code == 302
    swapped = cup.rounds.get().tables
    assert b in swapped[0]["players"] and a in swapped[1]["players"]


def test_a_swap_of_a_player_with_himself_is_refused_next_to_the_field(tournament_world, cup):
    draw_draft(tournament_world, cup)
    a = cup.rounds.get().tables[0]["players"][0]

    response = client_as(tournament_world, "organiser").post(
        url("swap", cup, number=1), {"first": a, "second": a}, headers=HTMX
    )

    assert response.status_code == 200
    assert "Pick two different players." in response.content.decode()


def test_a_redraw_uses_a_new_seed_and_discarding_leaves_nothing(tournament_world, cup):
    draw_draft(tournament_world, cup)
    client = client_as(tournament_world, "organiser")
    first = cup.rounds.get().seed

    client.post(url("redraw", cup, number=1))
    assert cup.rounds.get().seed != first

    client.post(url("discard_round", cup, number=1))
    assert not cup.rounds.exists()


def test_a_published_round_cannot_be_swapped_or_discarded(tournament_world, cup):
    draw(tournament_world, cup)
    client = client_as(tournament_world, "organiser")

    response = client.post(url("discard_round", cup, number=1))

    assert "its tables are locked" in response.content.decode()
    assert cup.rounds.get().status == Round.Status.PUBLISHED


# --- the guard and closing tables ---


def test_no_round_and_no_cut_while_a_table_is_playing(tournament_world, cup):
    draw(tournament_world, cup)
    client = client_as(tournament_world, "organiser")

    again = client.post(url("draw", cup))
    cut = client.post(url("cut", cup), {"size": "3"})

    assert "3 tables are still playing" in again.content.decode()
    assert "3 tables are still playing" in str(cut.context["cut_form"].errors["size"])
    assert cup.rounds.count() == 1


def test_the_organiser_closes_a_table_by_time_and_the_standings_stop_waiting(tournament_world, cup):
    draw(tournament_world, cup)
    client = client_as(tournament_world, "organiser")
    tables = running(cup, 1)

    for table in tables:
        response = client.post(url("close_table", cup, pulka=table.pk), {"reason": "time"})
        assert response.status_code == 302

    assert not running(cup, 1)
    closure = TableClosure.objects.get(pulka=tables[0])
    assert (closure.reason, closure.closed_by) == ("time", tournament_world.users["organiser"])
    page = client.get(url("standings", cup)).content.decode()
    assert "still playing" not in page
    sheet = client.get(f"/pulkas/{tables[0].pk}/").content.decode()
    assert "The organiser closed this table" in sheet


def test_an_arbiters_sheet_must_add_up_to_zero_and_then_counts(tournament_world, cup):
    draw(tournament_world, cup)
    table = running(cup, 1)[0]
    client = client_as(tournament_world, "organiser")
    close = url("close_table", cup, pulka=table.pk)

    refused = client.post(
        close, {"reason": "arbiter", "whists_0": "10", "whists_1": "5", "whists_2": "-3"}
    )
    assert "add up to 12" in refused.content.decode()
    assert not TableClosure.objects.exists()

    client.post(
        close, {"reason": "arbiter", "whists_0": "30", "whists_1": "-10", "whists_2": "-20"}
    )
    rows = client.get(url("standings", cup)).context["table"].rows
    first = table.player_names[0]
    assert next(row for row in rows if row.name == first).whists == "30"
    assert rows[0].name == first


def test_a_table_ended_by_the_deal_limit_says_so(tournament_world, cup):
    # Defect 7: it said "every pulya is closed".
    draw(tournament_world, cup)
    table = running(cup, 1)[0]
    tricks = dict(zip(table.player_names, (2, 4, 4), strict=True))
    facts = {"contract": "allpass", "tricks": tricks}
    for number in range(1, 5):
        record_deal(table.pk, facts, None, number)

    sheet = client_as(tournament_world, "member").get(f"/pulkas/{table.pk}/").content.decode()
    assert "The deal limit is reached" in sheet
    assert "Every pulya is closed" not in sheet


# --- player states ---


def test_check_in_seats_only_the_players_who_arrived(tournament_world, cup):
    client = client_as(tournament_world, "organiser")
    arrived = list(cup.entries.order_by("pk")[:6])
    for entry in arrived:
        client.post(url("entry_state", cup, entry=entry.pk), {"action": "check_in"})

    draw_draft(tournament_world, cup)

    seated = {k for t in cup.rounds.get().tables for k in t["players"]}
    assert seated == {str(entry.player_id) for entry in arrived}


def test_a_state_change_that_does_not_apply_is_refused(tournament_world, cup):
    entry = cup.entries.first()

    response = client_as(tournament_world, "organiser").post(
        url("entry_state", cup, entry=entry.pk), {"action": "reinstate"}
    )

    assert "cannot be done to a player in this state" in response.content.decode()


def test_a_drop_at_a_table_with_deals_closes_it_as_it_stands(tournament_world, cup):
    draw(tournament_world, cup)
    play_round_deals(cup, 1)
    table = running(cup, 1)[0]
    entry = cup.entries.get(player__name=table.player_names[0])

    client_as(tournament_world, "organiser").post(
        url("entry_state", cup, entry=entry.pk),
        {"action": "disqualify", "reason": "showed his cards"},
    )

    table.refresh_from_db()
    entry.refresh_from_db()
    assert table.status == Pulka.Status.FINISHED
    assert TableClosure.objects.get(pulka=table).reason == "drop"
    assert (entry.state, entry.left_after_round) == (TournamentEntry.State.DISQUALIFIED, 1)
    rows = client_as(tournament_world, "member").get(url("standings", cup)).context["table"].rows
    assert rows[-1].name == entry.player.name and rows[-1].dropped


def test_the_standings_say_why_a_player_out_stands_below_lower_scores(tournament_world, cup):
    """A dropped player with 0 whists stands below players at −42: the page says why."""
    note = "Выбывшие из турнира стоят ниже"
    member = client_as(tournament_world, "member")
    draw(tournament_world, cup)
    play_round_deals(cup, 1)
    before = member.get(url("standings", cup), headers={"accept-language": "ru"})
    entry = cup.entries.get(player__name=running(cup, 1)[0].player_names[0])
    client_as(tournament_world, "organiser").post(
        url("entry_state", cup, entry=entry.pk), {"action": "drop", "reason": "went home"}
    )

    after = member.get(url("standings", cup), headers={"accept-language": "ru"})

    assert note not in before.content.decode()
    assert note in after.content.decode()


def test_a_dropped_player_taken_back_plays_again(tournament_world, cup):
    draw(tournament_world, cup)
    close_round(cup, 1)
    entry = cup.entries.first()
    client = client_as(tournament_world, "organiser")
    client.post(url("entry_state", cup, entry=entry.pk), {"action": "drop", "reason": "went home"})

    client.post(url("entry_state", cup, entry=entry.pk), {"action": "reinstate"})

    entry.refresh_from_db()
    assert entry.state == TournamentEntry.State.PLAYING and entry.left_after_round is None


# --- the regulations ---


def test_the_regulations_are_editable_until_round_1_is_published_then_logged(tournament_world, cup):
    organiser = client_as(tournament_world, "organiser")
    form = organiser.get(url("regulations", cup)).context["form"]
    data = {name: form[name].value() or "" for name in form.fields}
    data.update({"target": "12", "normalisation": "raw"})
    assert organiser.post(url("regulations", cup), data).status_code == 302
    cup.refresh_from_db()
    assert cup.target == 12 and not RegulationChange.objects.exists()

    draw(tournament_world, cup)
    assert organiser.get(url("regulations", cup)).status_code == 403

    admin = client_as(tournament_world, "admin")
    frozen = admin.get(url("regulations", cup)).context["form"]
    assert "target" not in frozen.fields
    data = {name: frozen[name].value() or "" for name in frozen.fields}
    data["normalisation"] = "places"
    assert admin.post(url("regulations", cup), data).status_code == 302
    change = RegulationChange.objects.get()
    assert (change.field, change.before, change.after) == ("normalisation", "raw", "places")
    html = organiser.get(url("detail", cup)).content.decode()
    assert "Changes after the freeze" in html


# --- a whole tournament of 13 players ---


def thirteen(world) -> Tournament:
    players = list(world.players) + [
        Player.objects.create(club=world.club, name=name)
        for name in ("Lev", "Mila", "Nina", "Oleg", "Pavel")
    ]
    tournament = make_tournament(world.club, "Thirteen", slug="thirteen", table_size=4)
    enter(tournament, players[:13])
    return tournament


def test_a_whole_tournament_of_13_players(tournament_world, capsys):
    cup = thirteen(tournament_world)
    organiser = client_as(tournament_world, "organiser")

    # Round 1: 13 = 4 + 3 + 3 + 3, drafted, published, played, closed by time.
    draw(tournament_world, cup)
    assert sorted(len(p.player_names) for p in running(cup, 1)) == [3, 3, 3, 4]
    play_round_deals(cup, 1)
    close_round(cup, 1)

    # A late entry joins from round 2.
    late = Player.objects.get(name="Pavel")
    organiser.post(url("register", cup), {"players": [late.pk]})
    entry = cup.entries.get(player=late)
    assert (entry.state, entry.joined_round) == (TournamentEntry.State.CHECKED_IN, 2)

    # Round 2: 14 = 4 + 4 + 3 + 3; a player at a table of 4 drops before its first deal:
    # only that table is re-seated, short, at 3.
    draw(tournament_world, cup)
    assert late.name in {n for p in running(cup, 2) for n in p.player_names}
    four = next(p for p in running(cup, 2) if len(p.player_names) == 4)
    gone = cup.entries.get(player__name=four.player_names[0])
    others = {p.pk for p in running(cup, 2)} - {four.pk}
    organiser.post(
        url("entry_state", cup, entry=gone.pk), {"action": "drop", "reason": "went home"}
    )
    four.refresh_from_db()
    assert four.status == Pulka.Status.ARCHIVED
    assert others < {p.pk for p in running(cup, 2)}
    assert sorted(len(p.player_names) for p in running(cup, 2)) == [3, 3, 3, 4]
    play_round_deals(cup, 2)
    arbiter = running(cup, 2)[0]
    whists = {
        f"whists_{i}": str(v) for i, v in enumerate([15, -5, -10, 0][: len(arbiter.player_names)])
    }
    if len(arbiter.player_names) == 3:
        whists = {"whists_0": "15", "whists_1": "-5", "whists_2": "-10"}
    organiser.post(url("close_table", cup, pulka=arbiter.pk), {"reason": "arbiter", **whists})
    close_round(cup, 2)

    # The cut to a final table of 4, seated by standing.
    before = organiser.get(url("standings", cup)).context["table"].rows
    assert before[-1].name == gone.player.name and before[-1].dropped
    top = [row.name for row in before[:4]]
    organiser.post(url("cut", cup), {"size": "4", "stage": "final"})
    organiser.post(url("publish_round", cup, number=3))
    final = running(cup, 3)
    assert len(final) == 1 and set(final[0].player_names) == set(top)
    play_round_deals(cup, 3)
    close_round(cup, 3)

    table = organiser.get(url("standings", cup)).context["table"]
    assert table.cut and not table.live
    assert [row.finalist for row in table.rows] == [True] * 4 + [False] * 10
    places = [row.place for row in table.rows]
    assert places[:4] == [1, 2, 3, 4] and places == sorted(places)
    # Places run on below the cut: only players tied on every criterion share one.
    assert all(
        place == index + 1 or place == places[index - 1] for index, place in enumerate(places)
    )
    assert table.rows[-1].name == gone.player.name
    assert all(row.qualifying and row.carried and row.stage_points for row in table.rows[:4])
    bracket = organiser.get(url("bracket", cup)).content.decode()
    qualifying = bracket.split("<h2>")[1]
    assert "Went on:" in qualifying and all(name in qualifying for name in top)
    assert "<h2>Final</h2>" in bracket

    call_command("check_tournament", "thirteen")
    assert "sound" in capsys.readouterr().out


def test_check_tournament_exits_non_zero_on_a_violation(tournament_world, cup, capsys):
    draw(tournament_world, cup)
    table = running(cup, 1)[0]
    TableClosure.objects.create(pulka=table, reason="arbiter", whists=[10, 0, 0])
    Round.objects.filter(tournament=cup).update(repeats=5)

    with pytest.raises(SystemExit) as exit_:
        call_command("check_tournament", "cup/spring-cup")

    out = capsys.readouterr().out
    assert exit_.value.code == 1
    assert "whists add up to 10" in out
    assert "5 repeats reported, 0 counted" in out


def test_check_tournament_refuses_an_unknown_tournament():
    from django.core.management.base import CommandError

    with pytest.raises(CommandError):
        call_command("check_tournament", "nowhere")


def test_the_django_admins_changes_to_frozen_regulations_are_logged(tournament_world, cup):
    from prefscore.tournaments.regulations import log_admin_change

    draw(tournament_world, cup)
    cup.refresh_from_db()
    before = Tournament.objects.get(pk=cup.pk)
    cup.carry = Tournament.Carry.HALVED

    log_admin_change(cup, before, tournament_world.users["admin"])

    change = RegulationChange.objects.get()
    assert (change.field, change.before, change.after) == ("carry", "kept", "halved")
