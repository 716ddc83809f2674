"""Tournament screens (docs/tournaments.md §4): drawing rounds, a pulka per table."""

from __future__ import annotations

from collections import Counter

import pytest
from django.urls import reverse

from prefscore.games.models import Pulka
from prefscore.tournaments.models import Round
from scoring.engine.seating import meetings
from tests.web.fixtures_tournaments import (
    HTMX,
    client_as,
    close_round,
    draw,
    enter,
    make_tournament,
    url,
)

pytestmark = pytest.mark.django_db


# --- drawing rounds ---


def test_drawing_a_round_starts_a_pulka_per_table(tournament_world, cup):
    response = draw(tournament_world, cup)

    assert response.status_code == 302
    assert response["Location"] == url("detail", cup) + "#round-1"
    pulkas = list(Pulka.objects.filter(tournament=cup).prefetch_related("seats"))
    assert len(pulkas) == 3
    assert {p.round_number for p in pulkas} == {1}
    seated = Counter(seat.player_id for p in pulkas for seat in p.seats.all())
    assert seated == Counter(p.pk for p in tournament_world.players)
    for pulka in pulkas:
        assert pulka.convention_options == cup.convention_options
        assert pulka.player_names == [seat.player.name for seat in pulka.seats.all()]
        assert 0 <= pulka.first_dealer < 3
        assert pulka.title.startswith("Spring cup")
    round_ = Round.objects.get(tournament=cup)
    assert (round_.number, round_.seed, round_.repeats) == (1, cup.seed, 0)


def test_the_tournament_page_shows_the_tables_with_links_to_their_sheets(tournament_world, cup):
    draw(tournament_world, cup)

    html = client_as(tournament_world, "member").get(url("detail", cup)).content.decode()

    for pulka in Pulka.objects.filter(tournament=cup):
        assert reverse("games:sheet", args=[pulka.pk]) in html
    assert 'id="round-1"' in html


def test_four_rounds_of_nine_players_never_repeat_a_meeting(tournament_world, cup):
    for number in range(1, 5):
        draw(tournament_world, cup)
        close_round(cup, number)

    pulkas = Pulka.objects.filter(tournament=cup).prefetch_related("seats")
    history: dict[int, list[tuple[int, ...]]] = {}
    for pulka in pulkas:
        history.setdefault(pulka.round_number, []).append(
            tuple(seat.player_id for seat in pulka.seats.all())
        )

    assert len(history) == 4
    assert max(meetings(history.values()).values()) == 1


@pytest.mark.parametrize("headers", [{}, HTMX], ids=["page", "htmx"])
def test_a_field_that_cannot_be_seated_is_refused_with_a_message(tournament_world, headers):
    tournament = make_tournament(tournament_world.club)
    enter(tournament, tournament_world.players[:4])

    response = client_as(tournament_world, "organiser").post(
        url("draw", tournament), headers=headers
    )

    assert response.status_code == 200
    assert "cannot sit at tables of 3" in response.content.decode()
    assert not Pulka.objects.filter(tournament=tournament).exists()
    assert not tournament.rounds.exists()


def test_a_draw_under_htmx_reloads_the_page_at_the_draft(tournament_world, cup):
    # HX-Redirect to the same address plus a #fragment did not
    # reload the page, and a second click drew a second round.
    client = client_as(tournament_world, "organiser")
    page = url("detail", cup)

    first = client.post(url("draw", cup), headers=HTMX)["HX-Redirect"]
    again = client.post(url("draw", cup), headers=HTMX)

    assert first.startswith(page + "?at=") and first.endswith("#draft-1")
    assert again.status_code == 200
    assert "Round 1 is a draft" in again.content.decode()
    assert cup.rounds.count() == 1
    # Publishing reloads too, at a new address each time.
    published = client.post(url("publish_round", cup, number=1), headers=HTMX)["HX-Redirect"]
    assert published.startswith(page + "?at=") and published != first


def test_members_may_not_draw_and_get_is_not_allowed(tournament_world, cup):
    assert draw(tournament_world, cup, "member").status_code == 403
    assert draw(tournament_world, cup, "outsider").status_code == 403
    assert client_as(tournament_world, "organiser").get(url("draw", cup)).status_code == 405
    assert not Pulka.objects.filter(tournament=cup).exists()


def test_a_draw_without_the_csrf_token_is_refused(tournament_world, cup):
    client = client_as(tournament_world, "organiser", enforce_csrf_checks=True)

    assert client.post(url("draw", cup)).status_code == 403
    assert not Pulka.objects.filter(tournament=cup).exists()


def test_tournament_pulkas_are_marked_for_the_arbiter_rule(tournament_world, cup):
    """An arbiter's decision (Кодекс 4.2.16) applies where tournament_id is set."""
    draw(tournament_world, cup)

    assert all(p.tournament_id == cup.pk for p in Pulka.objects.filter(round_number=1))
