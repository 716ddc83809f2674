"""What a director is told (docs/tournaments.md §4.9, §4.10, §6.4): a correction after the
cut that changes who would have qualified, with the cut redone while the stage has no
deal; a locked table's sheet; a drop asked first, saying what it does at the table; fine
lines that are no deals; a sheet of three that plays the deals the round has left; an
import of a tournament the club already has, asked first; the decisions kept by the
tournament file."""

from __future__ import annotations

import json

import pytest
from django.test import TestCase
from django.urls import reverse

from prefscore.clubs.models import Player
from prefscore.deferred.worker import run_due
from prefscore.games.models import Pulka
from prefscore.games.services import record_deal
from prefscore.tournaments import checks, discipline, exports, imports, tables
from prefscore.tournaments.models import ImportJob, Round, Tournament, TournamentEvent
from prefscore.tournaments.presenters import room
from tests.web.fixtures_tournaments import (
    HTMX,
    client_as,
    close_round,
    draw,
    enter,
    make_tournament,
    play_round_deals,
    table_deals,
    url,
)

pytestmark = pytest.mark.django_db


# --- a correction after the cut -----------------------------------------------------------


@pytest.fixture
def cut_cup(tournament_world, cup):
    """One qualifying round, its tables on the arbiter's sheets, then a cut to three."""
    organiser = tournament_world.users["organiser"]
    draw(tournament_world, cup)
    sheets = ([30, 0, -30], [20, 0, -20], [10, 0, -10])
    for pulka, whists in zip(
        Pulka.objects.filter(tournament=cup).order_by("pk"), sheets, strict=True
    ):
        tables.close_table(pulka.pk, cup, "arbiter", organiser, whists)
    client_as(tournament_world, "organiser").post(url("cut", cup), {"size": "3"})
    return cup


def _finalists(cup) -> set[str]:
    stage = cup.rounds.get(stage=Round.Stage.FINAL)
    return {
        cup.entries.get(player_id=int(k)).player.name for t in stage.tables for k in t["players"]
    }


def test_a_correction_that_changes_the_cut_warns_and_the_cut_is_redone(tournament_world, cut_cup):
    from prefscore.tournaments import decisions

    organiser = tournament_world.users["organiser"]
    before = _finalists(cut_cup)
    third = Pulka.objects.filter(tournament=cut_cup, round_number=1).order_by("pk").last()
    last = third.player_names[2]  # −10: out of the final
    decisions.correct_closure(third.pk, cut_cup, organiser, [0, -50, 50], "misread sheet")

    page = client_as(tournament_world, "organiser").get(url("detail", cut_cup))

    body = page.content.decode()
    assert "A correction since the cut changes who goes through to the final" in body
    assert last in body.split('id="cut-changed"')[1].split("</div>")[0]
    assert 'id="redo-cut"' in body
    response = client_as(tournament_world, "organiser").post(
        url("redo_cut", cut_cup), {"reason": "the arbiter corrected table 3"}
    )
    assert response.status_code == 302
    after = _finalists(cut_cup)
    assert last in after and after != before
    record = TournamentEvent.objects.filter(tournament=cut_cup, action="cut").last()
    assert record.reason == "the arbiter corrected table 3" and record.user == organiser
    assert (
        "cut-changed"
        not in client_as(tournament_world, "organiser").get(url("detail", cut_cup)).content.decode()
    )
    assert checks.check(cut_cup) == []


def test_once_the_final_has_a_deal_the_cut_stays(tournament_world, cut_cup):
    from prefscore.tournaments import decisions

    organiser = tournament_world.users["organiser"]
    client_as(tournament_world, "organiser").post(url("publish_round", cut_cup, number=2))
    final = Pulka.objects.get(tournament=cut_cup, round_number=2)
    record_deal(final.pk, table_deals(final)[0], None, 1)
    third = Pulka.objects.filter(tournament=cut_cup, round_number=1).order_by("pk").last()
    decisions.correct_closure(third.pk, cut_cup, organiser, [0, -50, 50], "misread sheet")

    body = client_as(tournament_world, "organiser").get(url("detail", cut_cup)).content.decode()
    refused = client_as(tournament_world, "organiser").post(
        url("redo_cut", cut_cup), {"reason": "try"}, headers=HTMX
    )

    assert "the cut stands" in body and 'id="redo-cut"' not in body
    assert "has begun" in refused.content.decode()
    assert Pulka.objects.filter(pk=final.pk).exists()


# --- a locked table's sheet ---------------------------------------------------------------


def test_a_locked_tournament_tables_sheet_says_only_the_arbiter_changes_it(tournament_world, cup):
    draw(tournament_world, cup)
    play_round_deals(cup, 1)
    close_round(cup, 1)
    pulka = Pulka.objects.filter(tournament=cup).order_by("pk").first()
    seated = pulka.seats.order_by("seat").first().player
    seated.user = tournament_world.users["member"]  # a player at the table reads his sheet
    seated.save(update_fields=["user"])
    sheet = reverse("games:sheet", args=[pulka.pk])

    body = client_as(tournament_world, "member").get(sheet).content.decode()
    ru = client_as(tournament_world, "member", "ru").get(sheet).content.decode()

    assert "can still be corrected by a player" not in body
    assert "only the tournament&#x27;s arbiter changes it" in body
    assert "изменить его может только арбитр турнира" in ru


# --- a drop is asked first ----------------------------------------------------------------


def _ten(world, after_drop: str = "close") -> Tournament:
    lev = Player.objects.create(club=world.club, name="Lev")
    cup = make_tournament(world.club, "Ten", slug="ten", table_size=4, after_drop=after_drop)
    enter(cup, [*world.players, lev])
    draw(world, cup)
    return cup


def _four(cup) -> Pulka:
    return next(p for p in Pulka.objects.filter(tournament=cup) if len(p.player_names) == 4)


@pytest.mark.parametrize("language", ["en", "ru"])
def test_a_drop_asks_first_and_says_it_closes_the_table(tournament_world, language):
    cup = _ten(tournament_world)
    four = _four(cup)
    record_deal(four.pk, table_deals(four)[0], None, 1)
    entry = cup.entries.get(player_id=four.seats.get(seat=0).player_id)
    client = client_as(tournament_world, "organiser", language)

    asked = client.post(url("entry_state", cup, entry=entry.pk), {"action": "drop"})
    page = client.get(asked["Location"])

    entry.refresh_from_db()
    assert entry.state != "dropped"  # nothing done before the answer
    body = page.content.decode()
    words = {
        "en": ("is closed as it stands", "Drop and close the table", "is a forfeit"),
        "ru": ("закрывается как есть", "Снять и закрыть стол", "как покинутый"),
    }[language]
    assert all(word in body for word in words)

    refused = client.post(url("leave", cup, entry=entry.pk), {"action": "drop"}, headers=HTMX)
    assert refused.context["form"].errors["reason"]
    done = client.post(url("leave", cup, entry=entry.pk), {"action": "drop", "reason": "ill"})

    assert done.status_code == 302
    entry.refresh_from_db()
    assert entry.state == "dropped"
    record = TournamentEvent.objects.get(entry=entry, action="dropped")
    assert record.reason == "ill" and record.user == tournament_world.users["organiser"]
    four.refresh_from_db()
    assert four.status == Pulka.Status.FINISHED


def test_the_confirmation_says_the_three_play_on_for_the_deals_left(tournament_world):
    cup = _ten(tournament_world, "play_on")
    four = _four(cup)
    record_deal(four.pk, table_deals(four)[0], None, 1)
    entry = cup.entries.get(player_id=four.seats.get(seat=0).player_id)

    body = (
        client_as(tournament_world, "organiser")
        .get(url("leave", cup, entry=entry.pk) + "?action=disqualify")
        .content.decode()
    )

    assert "Disqualify and close the table" in body
    assert "the deals the round has left" in body


# --- fine lines are no deals; a sheet of three plays the deals left -----------------------


def test_fine_lines_are_not_counted_as_deals(tournament_world, cup):
    organiser = tournament_world.users["organiser"]
    cup.deals_per_round = 4
    cup.save()
    draw(tournament_world, cup)
    pulka = Pulka.objects.filter(tournament=cup).order_by("pk").first()
    record_deal(pulka.pk, table_deals(pulka)[0], organiser, 1)
    fined = cup.entries.get(player_id=pulka.seats.get(seat=1).player_id)
    discipline.fine(cup, fined.pk, 10, "late", organiser)

    board = room.dashboard(cup)
    table = next(t for t in board.current.tables if t.pulka_id == pulka.pk)
    page = client_as(tournament_world, "organiser").get(url("detail", cup))
    shown = next(t for t in page.context["rounds"][0].tables if t.pulka.pk == pulka.pk)

    assert table.deals_text == "1 of 4 deals"
    assert shown.deals == 1


def test_a_sheet_of_three_plays_the_deals_the_round_has_left(tournament_world):
    cup = _ten(tournament_world, "play_on")
    cup.deals_per_round = 4
    cup.save()
    four = _four(cup)
    for number in (1, 2):  # each deal's first dealer sits out in turn: dealt afresh
        four.refresh_from_db()
        with TestCase.captureOnCommitCallbacks(execute=True):
            record_deal(four.pk, _deal_at(four, number), None, number)
    entry = cup.entries.get(player_id=four.seats.get(seat=0).player_id)
    client_as(tournament_world, "organiser").post(
        url("entry_state", cup, entry=entry.pk), {"action": "drop", "reason": "ill"}
    )

    three = Pulka.objects.get(pk=cup.rounds.get(number=1).tables[0]["pulka"])
    assert three.convention.deal_limit == 4 - 2
    assert three.pk != four.pk and len(three.player_names) == 3


def _deal_at(pulka: Pulka, number: int) -> dict:
    """A made 6♠ by the first of the three who play deal ``number`` at a table of 4."""
    names = list(pulka.player_names)
    names.pop((pulka.first_dealer + number - 1) % 4)  # the dealer sits out
    x, y, z = names
    return {
        "contract": "6S",
        "declarer": x,
        "whists": {y: "whist", z: "pass"},
        "tricks": {x: 6, y: 3, z: 1},
    }


# --- the tournament file ------------------------------------------------------------------


def test_an_import_of_a_tournament_the_club_has_is_asked_first(tournament_world, cup):
    draw(tournament_world, cup)
    play_round_deals(cup, 1)
    close_round(cup, 1)
    client = client_as(tournament_world, "organiser")
    sent = client.post(
        reverse("tournaments:import", args=["cup"]), {"text": exports.export_text(cup)}
    )

    job = ImportJob.objects.get()
    assert job.status == ImportJob.Status.ASKING and job.already == cup
    page = client.get(sent["Location"]).content.decode()
    assert "The club already has this tournament" in page and "Spring cup" in page
    assert Tournament.objects.filter(club=tournament_world.club).count() == 1

    with TestCase.captureOnCommitCallbacks(execute=True):
        client.post(url_answer(job), {"answer": "import"})
    run_due()  # the worker's turn: the import is a task

    job.refresh_from_db()
    assert job.status == ImportJob.Status.DONE
    assert Tournament.objects.filter(club=tournament_world.club).count() == 2


def test_answering_no_imports_nothing(tournament_world, cup):
    client = client_as(tournament_world, "organiser")
    client.post(reverse("tournaments:import", args=["cup"]), {"text": exports.export_text(cup)})
    job = ImportJob.objects.get()

    client.post(url_answer(job), {"answer": "keep"})

    job.refresh_from_db()
    assert job.status == ImportJob.Status.FAILED and job.text == ""
    assert Tournament.objects.filter(club=tournament_world.club).count() == 1


def url_answer(job: ImportJob) -> str:
    return reverse("tournaments:import_answer", args=[job.club.slug, job.pk])


def test_the_file_keeps_the_decisions_and_an_import_keeps_the_history(tournament_world):
    cup = _ten(tournament_world, "play_on")
    four = _four(cup)
    record_deal(four.pk, table_deals(four)[0], None, 1)
    entry = cup.entries.get(player_id=four.seats.get(seat=0).player_id)
    client_as(tournament_world, "organiser").post(
        url("entry_state", cup, entry=entry.pk), {"action": "drop", "reason": "ill"}
    )
    data = exports.export_data(cup)

    actions = [item["action"] for item in data["decisions"]]
    assert actions == ["table_closed", "dropped"]
    assert data["decisions"][1]["reason"] == "ill" and data["decisions"][1]["by"] == "t-organiser"

    copy_ = imports.import_tournament(
        tournament_world.club, imports.read_file(json.dumps(data)), None
    )

    kept = list(copy_.events.order_by("at", "pk").values_list("action", "reason"))
    assert kept == [("table_closed", ""), ("dropped", "ill")]
    assert checks.check(copy_) == []


# --- the decisions the tournament page lists ------------------------------------------


def _decisions(world, cup, language: str = "en") -> list[str]:
    response = client_as(world, "organiser", language).get(url("detail", cup))
    assert response.status_code == 200
    return [" ".join(row.detail.split()) for row in response.context["decisions"]]


@pytest.mark.parametrize(
    ("language", "said"),
    [
        ("en", ("round 1", "final sheet entered by the arbiter", "the final: 3 players")),
        ("ru", ("тур 1", "итоговая запись внесена судьёй", "финал: 3 игрока")),
    ],
)
def test_the_decisions_list_says_which_table_was_closed_how_and_what_the_cut_took(
    tournament_world, cut_cup, language, said
):
    """Each closing names its round, its players and how it was closed, with the
    arbiter's figures; the cut names its stage and how many went through (§4.15)."""
    closing, figures, cut = said
    rows = _decisions(tournament_world, cut_cup, language)
    closings = [row for row in rows if closing in row and figures in row]
    assert len(closings) == 3, rows
    first = Pulka.objects.filter(tournament=cut_cup, round_number=1).order_by("pk").first()
    names = list(first.player_names)
    shown = next(row for row in closings if all(name in row for name in names))
    for name, whists in zip(names, (30, 0, -30), strict=True):
        figure = f"{whists:+d}".replace("-", "\u2212") if whists else "0"
        assert f"{name} {figure}" in shown, shown
    assert any(cut in row for row in rows), rows


def test_a_corrected_final_sheet_is_listed_with_true_minus_signs(tournament_world, cut_cup):
    """The arbiter's correction reads as the closings beside it do: "Vera −10 → +50"."""
    from prefscore.tournaments import decisions

    organiser = tournament_world.users["organiser"]
    third = Pulka.objects.filter(tournament=cut_cup, round_number=1).order_by("pk").last()
    decisions.correct_closure(third.pk, cut_cup, organiser, [0, -50, 50], "misread sheet")
    names = list(third.player_names)
    rows = _decisions(tournament_world, cut_cup)
    expected = f"{names[0]} +10 → 0, {names[1]} 0 → \u221250, {names[2]} \u221210 → +50"
    assert any(expected in row for row in rows), rows
