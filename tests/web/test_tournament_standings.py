"""Tournament screens (docs/tournaments.md §4): the standings, and publishing them."""

from __future__ import annotations

from collections import Counter

import pytest
from django.conf import settings
from django.db import connection
from django.shortcuts import resolve_url
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from prefscore.games import services as games_services
from prefscore.games.models import Pulka
from prefscore.tournaments.models import Tournament
from scoring.engine.settlement import whole_result
from tests.web.fixtures_tournaments import (
    HTMX,
    client_as,
    close_round,
    draw,
    play_round_deals,
    url,
)

pytestmark = pytest.mark.django_db


# --- standings ---


def engine_totals(tournament: Tournament) -> dict[str, int]:
    """Each player's whists summed over his tables, straight from the engine."""
    totals: Counter[str] = Counter()
    for pulka in Pulka.objects.filter(tournament=tournament):
        scored = games_services.score(pulka)
        whole = whole_result(scored.totals, pulka.convention).result
        for name, whists in zip(pulka.player_names, whole, strict=True):
            totals[name] += whists
    return totals


def test_the_standings_are_the_sum_of_the_engines_results(tournament_world, cup):
    for number in (1, 2):
        draw(tournament_world, cup)
        play_round_deals(cup, number)
        close_round(cup, number)

    response = client_as(tournament_world, "member").get(url("standings", cup))

    rows = response.context["table"].rows
    expected = engine_totals(cup)
    assert any(expected.values())
    assert {row.name: row.whists.replace("−", "-") for row in rows} == {
        name: str(total) for name, total in expected.items()
    }
    whists = [expected[row.name] for row in rows]
    assert whists == sorted(whists, reverse=True)
    assert [row.rounds for row in rows] == [2] * 9


def test_the_standings_show_every_tie_break_as_a_column(tournament_world, cup):
    draw(tournament_world, cup)
    play_round_deals(cup, 1)

    html = client_as(tournament_world, "member").get(url("standings", cup)).content.decode()

    assert "most all-pass deals won" in html
    assert "fewest misère tricks" in html


def test_the_standings_poll_while_tables_are_playing_and_htmx_gets_the_region(
    tournament_world, cup
):
    draw(tournament_world, cup)
    client = client_as(tournament_world, "member")

    page = client.get(url("standings", cup)).content.decode()
    region = client.get(url("standings", cup), headers=HTMX).content.decode()

    assert 'hx-trigger="every 15s"' in page
    assert region.lstrip().startswith('<section id="standings"')
    assert "<html" not in region


def test_the_standings_poll_even_when_no_table_was_playing_at_load(tournament_world, cup):
    # Loaded between rounds, the page never refreshed again.
    client = client_as(tournament_world, "member")
    before_any_round = client.get(url("standings", cup)).content.decode()
    draw(tournament_world, cup)
    close_round(cup, 1)
    between_rounds = client.get(url("standings", cup)).content.decode()

    assert 'hx-trigger="every 15s"' in before_any_round
    assert 'hx-trigger="every 15s"' in between_rounds


def test_the_standings_stop_polling_once_the_final_is_over(tournament_world, cup):
    draw(tournament_world, cup)
    close_round(cup, 1)
    organiser = client_as(tournament_world, "organiser")
    organiser.post(url("cut", cup), {"size": "3"})
    organiser.post(url("publish_round", cup, number=2))
    close_round(cup, 2)

    page = client_as(tournament_world, "member").get(url("standings", cup)).content.decode()

    assert 'hx-trigger="every 15s"' not in page


def test_private_standings_send_an_anonymous_visitor_to_sign_in(tournament_world, cup):
    response = client_as(tournament_world, "anonymous").get(url("standings", cup))

    assert response.status_code == 302
    assert response["Location"].startswith(resolve_url(settings.LOGIN_URL))


def test_private_standings_are_refused_to_outsiders(tournament_world, cup):
    response = client_as(tournament_world, "outsider").get(url("standings", cup))

    assert response.status_code == 403


@pytest.mark.parametrize("headers", [{}, HTMX], ids=["page", "htmx"])
@pytest.mark.parametrize("role", ["anonymous", "outsider", "member"])
def test_public_standings_are_readable_by_anyone(tournament_world, cup, role, headers):
    cup.public = True
    cup.save()
    draw(tournament_world, cup)  # a player ranks once he has sat at a table

    response = client_as(tournament_world, role).get(url("standings", cup), headers=headers)

    assert response.status_code == 200
    assert "Anna" in response.content.decode()


def test_public_standings_do_not_open_the_rest_of_the_tournament(tournament_world, cup):
    cup.public = True
    cup.save()

    assert client_as(tournament_world, "anonymous").get(url("detail", cup)).status_code == 302
    assert client_as(tournament_world, "outsider").get(url("detail", cup)).status_code == 403


def test_the_standings_speak_russian_by_default(tournament_world, cup):
    html = client_as(tournament_world, "member", language="ru").get(url("standings", cup))

    assert "Турнирная таблица" in html.content.decode()


def test_unknown_standings_are_not_found_and_only_get_is_allowed(tournament_world, cup):
    client = client_as(tournament_world, "member")
    missing = reverse("tournaments:standings", kwargs={"club": "cup", "slug": "nope"})

    assert client.get(missing).status_code == 404
    assert client_as(tournament_world, "anonymous").get(missing).status_code == 404
    assert client.post(url("standings", cup)).status_code == 405


def standings_queries(world, tournament) -> int:
    client = client_as(world, "member")
    with CaptureQueriesContext(connection) as queries:
        assert client.get(url("standings", tournament)).status_code == 200
    return len(queries)


def test_the_standings_take_as_many_queries_for_3_rounds_as_for_1(tournament_world, cup):
    draw(tournament_world, cup)
    play_round_deals(cup, 1)
    close_round(cup, 1)
    one = standings_queries(tournament_world, cup)
    for number in (2, 3):
        draw(tournament_world, cup)
        play_round_deals(cup, number)
        close_round(cup, number)

    three = standings_queries(tournament_world, cup)

    assert Pulka.objects.filter(tournament=cup).count() == 9
    assert three == one


# --- publishing ---


def test_an_organiser_makes_the_standings_public_and_private_again(tournament_world, cup):
    client = client_as(tournament_world, "organiser")

    client.post(url("publish", cup), {"public": "on"})
    assert client_as(tournament_world, "anonymous").get(url("standings", cup)).status_code == 200

    response = client.post(url("publish", cup), {}, headers=HTMX)
    assert response.content.decode().lstrip().startswith('<section id="publish"')
    assert client_as(tournament_world, "anonymous").get(url("standings", cup)).status_code == 302


def test_members_may_not_publish(tournament_world, cup):
    response = client_as(tournament_world, "member").post(url("publish", cup), {"public": "on"})

    assert response.status_code == 403
    cup.refresh_from_db()
    assert not cup.public
