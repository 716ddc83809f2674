"""A player's statistics, the club rating and the exports, through the views."""

from __future__ import annotations

import csv
import io
import json
import re

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from prefscore.clubs.models import Membership, Player, Role
from prefscore.deferred.worker import run_due
from prefscore.games.models import Pulka
from prefscore.games.services import pencil_change, record_deal
from prefscore.stats import ratings, recounts
from prefscore.stats.models import PlayerRating, PulkaSummary
from prefscore.stats.summaries import summarise
from tests.engine.test_stats import THREE
from tests.web.fixtures_table import EN, HTMX, TABLE_PASSWORD

pytestmark = pytest.mark.django_db

NINE = {"contract": "9S", "declarer": "Anna", "whists": {"Boris": "pass", "Vera": "pass"}}
NINE_GLEB = {"contract": "9S", "declarer": "Anna", "whists": {"Boris": "pass", "Gleb": "pass"}}


def finished(make_table_pulka, deals=THREE["deals"], names=("Anna", "Boris", "Vera"), **kw):
    """A pulka whose deals are ``deals``, marked finished and summarised."""
    pulka = make_table_pulka(names, deals=deals, bulk=True, target=20, **kw)
    Pulka.objects.filter(pk=pulka.pk).update(status=Pulka.Status.FINISHED)
    summarise(pulka.pk)
    ratings.recompute_club(pulka.club_id)
    return pulka


def player_url(world, name: str) -> str:
    player = Player.objects.get(club=world.club, name=name)
    return reverse("stats:player", args=[world.club.slug, player.pk])


def figures(response) -> dict[str, str]:
    page = response.context["page"]
    groups = (page.totals, page.misere, page.defence, page.records)
    return {figure.label: figure.value for group in groups for figure in group}


def test_a_pulka_that_finishes_is_summarised_and_leaves_when_undone(
    table_world, make_table_pulka, django_capture_on_commit_callbacks
):
    """The recount waits for the worker (stats/recounts.py): the settle only queues it."""
    pulka = make_table_pulka(target=2)
    anna = table_world.users["anna"]
    with django_capture_on_commit_callbacks(execute=True):
        record_deal(pulka.pk, NINE, anna, 1)  # closes every pulya
    assert not PulkaSummary.objects.filter(pulka=pulka).exists()
    assert recounts.updating(table_world.club.pk)
    assert run_due() == 1
    assert not recounts.updating(table_world.club.pk)
    assert PulkaSummary.objects.filter(pulka=pulka).count() == 3
    assert PlayerRating.objects.filter(club=table_world.club).count() == 3

    with django_capture_on_commit_callbacks(execute=True):
        pencil_change(pulka.pk, anna, 1, None)  # undone under the pencil rule
    assert PulkaSummary.objects.filter(pulka=pulka).count() == 3  # until the worker runs
    assert run_due() == 1

    assert not PulkaSummary.objects.filter(pulka=pulka).exists()
    assert not PlayerRating.objects.exists()


def test_the_player_page_shows_the_hand_counted_figures(
    table_world, make_table_pulka, table_client
):
    finished(make_table_pulka)

    response = table_client("anna").get(player_url(table_world, "Anna"), headers=EN)

    assert response.status_code == 200
    shown = figures(response)
    assert shown["Pulkas played"] == "1"
    assert shown["Deals defended"] == "3" and shown["Whists declared"] == "2"
    assert shown["Whister's shortfalls (недовист)"] == "1"
    assert shown["All-pass deals"] == "1" and shown["Tricks per all-pass deal"] == "2"
    levels = {row.label: row for row in response.context["page"].by_level}
    assert (levels["6"].declared, levels["6"].made) == (1, 1)
    assert (levels["8"].declared, levels["8"].made) == (1, 1)
    html = response.content.decode()
    assert "<svg" in html and 'role="img"' in html and "The figures as a table" in html


def test_boris_misere_and_vera_down_one(table_world, make_table_pulka, table_client):
    finished(make_table_pulka)
    client = table_client("anna")

    boris = figures(client.get(player_url(table_world, "Boris"), headers=EN))
    vera = client.get(player_url(table_world, "Vera"), headers=EN).context["page"]

    assert boris["Misères declared"] == "1" and boris["Misères caught"] == "1"
    seven = {row.label: row for row in vera.by_level}["7"]
    assert (seven.declared, seven.down, seven.undertricks) == (1, 1, "1")


def test_rivals_records_and_totals_over_two_pulkas(table_world, make_table_pulka, table_client):
    finished(make_table_pulka)
    finished(make_table_pulka, deals=[NINE_GLEB], names=("Anna", "Boris", "Gleb"))

    response = table_client("anna").get(player_url(table_world, "Anna"), headers=EN)

    page = response.context["page"]
    assert figures(response)["Pulkas played"] == "2"
    rivals = {r.name: r.pulkas for r in page.rivals}
    assert rivals == {"Boris": 2, "Vera": 1, "Gleb": 1}
    assert len(page.results_rows) == 2


def test_filters_by_table_size_convention_and_period(table_world, make_table_pulka, table_client):
    finished(make_table_pulka)
    finished(
        make_table_pulka, names=("Anna", "Boris", "Vera", "Gleb"), deals=[], convention="leningrad"
    )
    client = table_client("anna")
    url = player_url(table_world, "Anna")

    by_size = figures(client.get(url, {"table_size": "4"}, headers=EN))
    by_convention = figures(client.get(url, {"convention": "sochi"}, headers=EN))
    future = client.get(url, {"since": "2999-01-01"}, headers=EN).context["page"]

    assert by_size["Pulkas played"] == "1"
    assert by_convention["Pulkas played"] == "1"
    assert future.empty


@pytest.mark.parametrize(
    "query", [{"since": "not a date"}, {"table_size": "²"}, {"convention": "x" * 5000},
              {"since": "2026-02-01", "until": "2026-01-01"}],
)  # fmt: skip
def test_bad_filters_are_told_next_to_the_field(table_world, make_table_pulka, table_client, query):
    finished(make_table_pulka)

    response = table_client("anna").get(player_url(table_world, "Anna"), query, headers=EN)

    assert response.status_code == 200
    assert response.context["form"].errors
    assert 'class="field-error"' in response.content.decode()


def test_the_player_page_under_htmx_is_its_figures_only(
    table_world, make_table_pulka, table_client
):
    finished(make_table_pulka)

    html = table_client("anna").get(player_url(table_world, "Anna"), headers=HTMX).content.decode()

    assert html.lstrip().startswith('<div id="figures"') and "<html" not in html


def test_the_player_page_costs_the_same_queries_for_one_pulka_or_many(
    table_world, make_table_pulka, table_client, django_assert_num_queries
):
    client = table_client("anna")
    finished(make_table_pulka)
    url = player_url(table_world, "Anna")
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as one:
        client.get(url)
    for _ in range(4):
        finished(make_table_pulka, names=("Anna", "Boris", "Gleb"), deals=[NINE_GLEB])
    with django_assert_num_queries(len(one.captured_queries)):
        client.get(url)
    leaderboard = reverse("stats:leaderboard", args=[table_world.club.slug])
    with CaptureQueriesContext(connection) as board:
        client.get(leaderboard)
    finished(make_table_pulka, names=("Anna", "Zoya", "Gleb"), deals=[])
    with django_assert_num_queries(len(board.captured_queries)):
        client.get(leaderboard)


def test_outsiders_are_refused_and_strangers_sent_to_sign_in(
    table_world, make_table_pulka, table_client
):
    finished(make_table_pulka)
    url = player_url(table_world, "Anna")

    assert table_client("olaf").get(url).status_code == 403
    assert table_client("anonymous").get(url).status_code == 302
    assert table_client("anna").post(url).status_code == 405
    other = Player.objects.create(club=table_world.other_club, name="Zed")
    wrong_club = reverse("stats:player", args=[table_world.club.slug, other.pk])
    assert table_client("anna").get(wrong_club).status_code == 404


def test_the_leaderboard_orders_by_conservative_rating(table_world, make_table_pulka, table_client):
    finished(make_table_pulka)

    response = table_client("anna").get(
        reverse("stats:leaderboard", args=[table_world.club.slug]), headers=EN
    )

    rows = response.context["rows"]
    assert [row.place for row in rows] == [1, 2, 3]
    assert all(row.provisional for row in rows)
    assert ratings.stored(table_world.club.pk) == ratings.computed(table_world.club.pk)
    assert "provisional" in response.content.decode()


def test_a_club_admin_makes_the_leaderboard_public(table_world, make_table_pulka, table_client):
    finished(make_table_pulka)
    url = reverse("stats:leaderboard", args=[table_world.club.slug])
    toggle = reverse("stats:leaderboard_settings", args=[table_world.club.slug])
    assert table_client("anonymous").get(url).status_code == 302
    assert table_client("olaf").get(url).status_code == 403
    assert table_client("anna").post(toggle, {"public": "1"}).status_code == 403  # a member

    Membership.objects.filter(user=table_world.users["boris"]).update(role=Role.ADMIN)
    assert table_client("boris").post(toggle, {"public": "1"}).status_code == 302

    public = table_client("anonymous").get(url, headers=EN)
    assert public.status_code == 200 and len(public.context["rows"]) == 3
    assert reverse("stats:club_csv", args=[table_world.club.slug]) not in public.content.decode()
    assert table_client("boris", csrf=True).post(toggle, {"public": "0"}).status_code == 403


def test_the_club_csv_has_its_columns_and_names_cannot_be_formulas(
    table_world, make_table_pulka, table_client
):
    finished(make_table_pulka, names=("=HYPERLINK(1)", "Boris", "Vera"), deals=[])

    response = table_client("anna").get(reverse("stats:club_csv", args=[table_world.club.slug]))

    rows = list(csv.reader(io.StringIO(response.content.decode())))
    assert rows[0][:3] == ["pulka", "finished", "title"]
    assert len(rows) == 4
    assert {row[6] for row in rows[1:]} == {"'=HYPERLINK(1)", "Boris", "Vera"}
    assert sum(float(eval_fraction(row[7])) for row in rows[1:]) == 0


def eval_fraction(text: str):
    from fractions import Fraction

    return Fraction(text)


def test_a_player_csv_lists_his_pulkas(table_world, make_table_pulka, table_client):
    finished(make_table_pulka)
    anna = Player.objects.get(club=table_world.club, name="Anna")

    response = table_client("boris").get(
        reverse("stats:player_csv", args=[table_world.club.slug, anna.pk])
    )

    header, row = list(csv.reader(io.StringIO(response.content.decode())))
    assert dict(zip(header, row, strict=True))["whister_shortfalls"] == "1"


def test_my_data_holds_my_account_seats_and_results(table_world, make_table_pulka, table_client):
    Player.objects.create(club=table_world.club, name="Anna", user=table_world.users["anna"])
    finished(make_table_pulka)

    response = table_client("anna").get(reverse("stats:my_data"))

    data = json.loads(response.content)
    assert data["account"]["username"] == "anna"
    assert [m["slug"] for m in data["memberships"]] == ["thursday"]
    assert len(data["seats"]) == 1 and len(data["results"]) == 1
    assert table_client("anonymous").get(reverse("stats:my_data")).status_code == 302


def test_a_new_player_shows_an_empty_page(table_world, table_client):
    user = get_user_model().objects.create_user("zoya", password=TABLE_PASSWORD)
    Membership.objects.create(club=table_world.club, user=user)
    player = Player.objects.create(club=table_world.club, name="Zoya", user=user)

    response = table_client("anna").get(
        reverse("stats:player", args=[table_world.club.slug, player.pk]), headers=EN
    )

    assert response.context["page"].empty
    assert "No finished pulka to count yet." in response.content.decode()


def test_merging_two_players_moves_the_summaries_and_rates_again(
    table_world, make_table_pulka, django_capture_on_commit_callbacks
):
    from prefscore.clubs.players import merge

    finished(make_table_pulka)
    finished(make_table_pulka, names=("Anya", "Boris", "Vera"), deals=[])
    anna = Player.objects.get(club=table_world.club, name="Anna")
    anya = Player.objects.get(club=table_world.club, name="Anya")

    with django_capture_on_commit_callbacks(execute=True):
        merge(anna, anya, table_world.users["boris"])
    assert recounts.updating(table_world.club.pk)
    run_due()

    assert PulkaSummary.objects.filter(player=anna).count() == 2
    assert ratings.stored(table_world.club.pk) == ratings.computed(table_world.club.pk)
    assert ratings.stored(table_world.club.pk)[anna.pk].pulkas == 2


@pytest.mark.parametrize(
    ("language", "typed"),
    [("ru", "2999-02-01"), ("ru", "01.02.2999"), ("en", "2999-02-01"), ("en", "02/01/2999")],
)
def test_dates_come_from_the_phones_picker_in_iso_and_typed_as_the_page_writes_them(
    table_world, make_table_pulka, table_client, language, typed
):
    """The field is the phone's own date picker, its value in ISO; a browser without
    one shows a text box, and the date typed there as the page's language writes it
    is read too (stats/forms.py, ``PhoneDateInput``)."""
    finished(make_table_pulka)
    client = table_client("anna")

    response = client.get(
        player_url(table_world, "Anna"), {"since": typed}, headers={"accept-language": language}
    )

    assert response.status_code == 200
    assert response.context["page"].empty  # nothing finished after 1 February 2999
    page = response.content.decode()
    assert re.search(r'<input type="date" name="since" value="2999-02-01"', page)
    assert f'<html lang="{language}"' in page


@pytest.mark.parametrize(
    "typed", ["31.02.2026", "2026-13-01", "99999-01-01", "0000-00-00", "١٢.٠٢.٢٠٢٦"]
)
def test_an_impossible_date_is_told_next_to_the_field_in_russian(
    table_world, make_table_pulka, table_client, typed
):
    finished(make_table_pulka)

    response = table_client("anna").get(
        player_url(table_world, "Anna"), {"since": typed}, headers={"accept-language": "ru"}
    )

    assert response.status_code == 200
    assert "since" in response.context["form"].errors
    assert 'class="field-error"' in response.content.decode()
    assert "Введите правильную дату" in response.content.decode()
