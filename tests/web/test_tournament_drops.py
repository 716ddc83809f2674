"""Who plays and who is ranked (docs/tournaments.md §4.2, §4.5, §4.9, §4.10): no-shows are
withdrawn at round 1 and never ranked nor cut through; a drop in a final follows the
regulations; a disqualified player is marked so and ranked below all who finished; the
draft shows the first dealer, moves a player, recounts its repeats after a drop, names
the players in a refusal, and replaces a finalist who drops from it."""

from __future__ import annotations

import pytest

from prefscore.games.models import Pulka
from prefscore.games.services import record_deal
from prefscore.tournaments import rounds
from prefscore.tournaments.models import Round, TournamentEntry, TournamentEvent
from prefscore.tournaments.services import history, live_pulkas, standings
from tests.web.fixtures_tournaments import (
    HTMX,
    client_as,
    close_round,
    draw,
    draw_draft,
    enter,
    make_tournament,
    play_round_deals,
    table_deals,
    url,
)

pytestmark = pytest.mark.django_db
State = TournamentEntry.State


def entry(cup, name):
    return cup.entries.get(player__name=name)


def act(world, cup, name, action):
    return client_as(world, "organiser").post(
        url("entry_state", cup, entry=entry(cup, name).pk), {"action": action, "reason": "the test"}
    )


def ranked_names(cup):
    table = standings(cup)
    return [table.players[line.player].name for line in table.lines]


# --- no-shows ---


@pytest.fixture
def fours(tournament_world):
    """Nine players at tables of 4: seven check in, Igor and Kira do not."""
    cup = make_tournament(tournament_world.club, "Fours", slug="fours", table_size=4)
    enter(cup, tournament_world.players)
    for player in tournament_world.players[:7]:
        act(tournament_world, cup, player.name, "check_in")
    return cup


def test_a_no_show_is_withdrawn_at_round_one_unless_the_organiser_seats_her(
    tournament_world, fours
):
    organiser = client_as(tournament_world, "organiser")
    draw_draft(tournament_world, fours)
    draft = fours.rounds.get()
    short = next(n for n, t in enumerate(draft.tables, start=1) if len(t["players"]) == 3)
    igor = entry(fours, "Igor")
    moved = organiser.post(
        url("move", fours, number=1), {"player": igor.player_id, "table": short}, headers=HTMX
    )
    assert moved.status_code == 200 and "HX-Redirect" in moved
    organiser.post(url("publish_round", fours, number=1))

    assert entry(fours, "Igor").state == State.PLAYING
    kira = entry(fours, "Kira")
    assert kira.state == State.ABSENT
    assert TournamentEvent.objects.get(tournament=fours).details == {"player": "Kira"}
    assert "Kira" not in ranked_names(fours) and "Igor" in ranked_names(fours)
    page = organiser.get(url("detail", fours)).content.decode()
    assert "absent" in page
    board = organiser.get(url("room", fours)).content.decode()
    assert (
        "Kira"
        not in client_as(tournament_world, "organiser")
        .get(url("standings", fours))
        .content.decode()
    )
    assert board.count("data-table=") == 2

    play_round_deals(fours, 1)
    close_round(fours, 1)
    refused = organiser.post(url("cut", fours), {"size": "9", "stage": "final"})
    assert "Only 8 players are still in the tournament" in refused.content.decode()
    organiser.post(url("cut", fours), {"size": "8", "stage": "final"})
    finalists = {k for t in fours.rounds.get(number=2).tables for k in t["players"]}
    assert str(kira.player_id) not in finalists


def test_a_no_show_who_arrives_late_is_taken_back_from_the_next_round(tournament_world, fours):
    draw(tournament_world, fours)
    assert entry(fours, "Kira").state == State.ABSENT

    act(tournament_world, fours, "Kira", "reinstate")

    kira = entry(fours, "Kira")
    assert (kira.state, kira.joined_round) == (State.CHECKED_IN, 2)


# --- a drop in the final ---


@pytest.fixture
def final(tournament_world, cup):
    """Nine players, one qualifying round, the final: the top six at two tables of 3."""
    draw(tournament_world, cup)
    play_round_deals(cup, 1)
    close_round(cup, 1)
    client_as(tournament_world, "organiser").post(url("cut", cup), {"size": "6"})
    client_as(tournament_world, "organiser").post(url("publish_round", cup, number=2))
    cup.refresh_from_db()
    assert cup.status == "final"
    return cup


def final_tables(cup):
    return list(live_pulkas(cup).filter(round_number=2, status=Pulka.Status.RUNNING).order_by("pk"))


def test_a_finalist_who_drops_before_the_first_deal_gives_his_seat_to_the_next(
    tournament_world, final
):
    seventh = ranked_names(final)[6]
    table = final_tables(final)[0]
    leaving = table.player_names[1]

    act(tournament_world, final, leaving, "drop")

    final.refresh_from_db()
    assert final.status == "final"
    new = final_tables(final)
    assert len(new) == 2
    reseated = next(p for p in new if seventh in p.player_names)
    assert reseated.player_names[1] == seventh and leaving not in reseated.player_names
    assert reseated.title.endswith("table 1")


def test_a_finalist_disqualified_after_a_deal_closes_his_table_of_3(tournament_world, final):
    """Two cannot play on: the table of 3 is closed as it stands, the final goes on."""
    table = final_tables(final)[1]
    record_deal(table.pk, table_deals(table)[0], None, 1)
    cheat = table.player_names[0]

    act(tournament_world, final, cheat, "disqualify")

    final.refresh_from_db()
    table.refresh_from_db()
    assert final.status == "final" and table.status == Pulka.Status.FINISHED
    assert table.closure.reason == "drop"
    assert [p.pk for p in final_tables(final)] != [table.pk]
    assert ranked_names(final)[-1] == cheat
    line = standings(final).lines[-1]
    assert not line.finalist and line.place == 9
    page = client_as(tournament_world, "organiser").get(url("standings", final)).content.decode()
    assert "disqualified</span>" in page
    ru = client_as(tournament_world, "organiser", "ru").get(url("standings", final))
    assert "выбыл" not in ru.content.decode().split(cheat)[1].split("</th>")[0]


# --- drafts ---


def test_the_draft_shows_each_tables_first_dealer(tournament_world, cup):
    draw_draft(tournament_world, cup)
    draft = cup.rounds.get()
    names = dict(cup.entries.values_list("player_id", "player__name"))
    dealer = names[int(draft.tables[0]["players"][draft.tables[0]["first_dealer"]])]

    page = client_as(tournament_world, "organiser").get(url("detail", cup)).content.decode()

    assert f"first dealer: {dealer}" in page.split('id="draft-1"')[1].split("</li>")[0]


def test_moving_a_player_is_the_organisers_and_refused_to_a_full_table(tournament_world, cup):
    draw_draft(tournament_world, cup)
    player = entry(cup, "Anna").player_id
    target = next(
        n for n, t in enumerate(cup.rounds.get().tables, start=1) if str(player) not in t["players"]
    )
    data = {"player": player, "table": target}
    assert (
        client_as(tournament_world, "member").post(url("move", cup, number=1), data).status_code
        == 403
    )
    organiser = client_as(tournament_world, "organiser")
    assert organiser.get(url("move", cup, number=1)).status_code == 405
    csrf = client_as(tournament_world, "organiser", enforce_csrf_checks=True)
    assert csrf.post(url("move", cup, number=1), data).status_code == 403

    full = organiser.post(url("move", cup, number=1), data)
    assert "is full" in full.content.decode()
    foreign = organiser.post(url("move", cup, number=1), {"player": player, "table": "١"})
    assert foreign.context["move_form"].errors["table"]
    tables = cup.rounds.get().tables
    assert str(player) not in tables[target - 1]["players"]


def test_a_drop_from_a_draft_recounts_its_repeats_and_a_refusal_names_the_players(
    tournament_world, cup
):
    draw(tournament_world, cup)
    first = [tuple(p.player_names) for p in Pulka.objects.filter(tournament=cup)]
    play_round_deals(cup, 1)
    close_round(cup, 1)
    draw_draft(tournament_world, cup)
    draft = cup.rounds.get(number=2)
    ids = dict(cup.entries.values_list("player__name", "player_id"))
    p = draft.tables[0]["players"][0]
    mate = next(
        ids[n] for t in first for n in t if str(ids[n]) != p and any(str(ids[m]) == p for m in t)
    )
    other = draft.tables[0]["players"][1]
    if str(mate) not in draft.tables[0]["players"]:
        rounds.swap_players(cup.pk, 2, int(other), mate)
    draft.refresh_from_db()
    assert draft.repeats >= 1
    leaving = cup.entries.get(player_id=int(p))

    act(tournament_world, cup, leaving.player.name, "drop")

    draft.refresh_from_db()
    past = history(list(live_pulkas(cup).prefetch_related("seats")))
    assert draft.repeats == rounds.repeats_in(past, [tuple(t["players"]) for t in draft.tables])
    refused = client_as(tournament_world, "organiser").post(url("publish_round", cup, number=2))
    body = refused.content.decode()
    names = dict(cup.entries.values_list("player_id", "player__name"))
    assert "Table 1 of the draft has only 2 players" in body
    assert all(names[int(k)] in body for k in draft.tables[0]["players"])
    assert "(—)" not in body


def test_a_finalist_dropped_from_the_finals_draft_is_replaced(tournament_world, cup):
    draw(tournament_world, cup)
    play_round_deals(cup, 1)
    close_round(cup, 1)
    client_as(tournament_world, "organiser").post(url("cut", cup), {"size": "6"})
    seventh = ranked_names(cup)[6]
    draft = cup.rounds.get(number=2)
    leaving = draft.tables[0]["players"][0]
    name = cup.entries.get(player_id=int(leaving)).player.name

    act(tournament_world, cup, name, "drop")

    draft.refresh_from_db()
    seated = [k for t in draft.tables for k in t["players"]]
    assert leaving not in seated and len(seated) == 6
    assert str(entry(cup, seventh).player_id) == draft.tables[0]["players"][0]
    published = client_as(tournament_world, "organiser").post(url("publish_round", cup, number=2))
    assert published.status_code == 302
    assert cup.rounds.get(number=2).status == Round.Status.PUBLISHED


# --- a finalist who leaves after deals leaves her seat (docs/tournaments.md §4.9) ---


@pytest.fixture
def final_of_four(tournament_world):
    """Ten players at tables of 4 and 3, one qualifying round, a final table of 4 with a
    deal played at it."""
    from prefscore.clubs.models import Player

    lev = Player.objects.create(club=tournament_world.club, name="Lev")
    cup = make_tournament(tournament_world.club, "Fours", slug="fours-final", table_size=4)
    enter(cup, [*tournament_world.players, lev])
    draw(tournament_world, cup)
    play_round_deals(cup, 1)
    close_round(cup, 1)
    organiser = client_as(tournament_world, "organiser")
    organiser.post(url("cut", cup), {"size": "4"})
    organiser.post(url("publish_round", cup, number=2))
    table = Pulka.objects.get(tournament=cup, round_number=2)
    record_deal(table.pk, table_deals(table)[0], None, 1)
    return cup


def test_a_finalist_who_leaves_a_table_of_4_after_a_deal_leaves_her_seat(
    tournament_world, final_of_four
):
    four = Pulka.objects.get(tournament=final_of_four, round_number=2)
    leaver = four.player_names[(four.first_dealer + 1) % 4]  # she played the first deal

    act(tournament_world, final_of_four, leaver, "drop")

    four.refresh_from_db()
    assert four.status == Pulka.Status.FINISHED
    running = final_tables(final_of_four)
    assert len(running) == 1
    three = running[0]
    assert leaver not in three.player_names
    assert set(three.player_names) == set(four.player_names) - {leaver}
    sheet = client_as(tournament_world, "organiser").get(f"/pulkas/{three.pk}/")
    assert leaver not in sheet.content.decode()
    assert final_of_four.rounds.get(number=2).tables[0]["continues"] == four.pk
    assert entry(final_of_four, leaver).forfeited_round == 2
