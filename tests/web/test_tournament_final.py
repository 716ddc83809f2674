"""Tournament screens (docs/tournaments.md §4): the cut and the final; the detail page and
the admin."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from prefscore.games.models import Pulka
from prefscore.tournaments.models import Round, Tournament, TournamentEntry
from tests.web.fixtures_tournaments import (
    HTMX,
    client_as,
    close_round,
    draw,
    play_round_deals,
    url,
)

pytestmark = pytest.mark.django_db


# --- the cut and the final ---


def test_the_cut_seats_the_top_players_at_the_final_table(tournament_world, cup):
    draw(tournament_world, cup)
    play_round_deals(cup, 1)
    close_round(cup, 1)
    client = client_as(tournament_world, "organiser")
    before = client.get(url("standings", cup)).context["table"].rows
    top = {row.name for row in before[:3]}

    response = client.post(url("cut", cup), {"size": "3"})

    assert response.status_code == 302
    assert not Pulka.objects.filter(tournament=cup, round_number=2).exists()  # a draft
    client.post(url("publish_round", cup, number=2))
    final = Pulka.objects.get(tournament=cup, round_number=2)
    assert set(final.player_names) == top
    cup.refresh_from_db()
    assert cup.status == Tournament.Status.FINAL
    assert Round.objects.get(tournament=cup, number=2).is_final
    rows = client.get(url("standings", cup)).context["table"].rows
    assert {row.name for row in rows[:3]} == top
    assert [row.finalist for row in rows] == [True] * 3 + [False] * 6


def test_no_round_is_drawn_after_the_final(tournament_world, cup):
    draw(tournament_world, cup)
    close_round(cup, 1)
    client = client_as(tournament_world, "organiser")
    client.post(url("cut", cup), {"size": "3"})
    client.post(url("publish_round", cup, number=2))

    response = draw(tournament_world, cup)

    assert response.status_code == 200
    assert "final" in response.content.decode()
    assert Pulka.objects.filter(tournament=cup).count() == 4


@pytest.mark.parametrize("headers", [{}, HTMX], ids=["page", "htmx"])
@pytest.mark.parametrize("size", ["12", "4", "x", "2"])
def test_a_cut_that_cannot_be_seated_is_refused_next_to_the_field(
    tournament_world, cup, size, headers
):
    draw(tournament_world, cup)
    close_round(cup, 1)

    response = client_as(tournament_world, "organiser").post(
        url("cut", cup), {"size": size}, headers=headers
    )

    assert response.status_code == 200
    assert response.context["cut_form"].errors["size"]
    assert not Round.objects.filter(tournament=cup, is_final=True).exists()


def test_a_cut_before_any_round_is_refused(tournament_world, cup):
    response = client_as(tournament_world, "organiser").post(url("cut", cup), {"size": "3"})

    assert "at least one round" in str(response.context["cut_form"].errors["size"])


def test_members_may_not_cut(tournament_world, cup):
    draw(tournament_world, cup)

    response = client_as(tournament_world, "member").post(url("cut", cup), {"size": "3"})

    assert response.status_code == 403


def test_the_detail_page_answers_only_get_and_hides_controls_from_members(tournament_world, cup):
    member = client_as(tournament_world, "member")

    html = member.get(url("detail", cup)).content.decode()

    assert url("draw", cup) not in html
    assert member.post(url("detail", cup)).status_code == 405
    assert TournamentEntry.objects.filter(tournament=cup).count() == 9


def test_the_admin_shows_a_tournament_read_only_and_never_deletes_it(tournament_world, cup):
    from django.contrib.auth import get_user_model

    root = get_user_model().objects.create_superuser("t-root", password="pw-root-12345")
    client = Client()
    client.force_login(root)
    draw(tournament_world, cup)

    change = client.get(reverse("admin:tournaments_tournament_change", args=[cup.pk]))
    delete = client.get(reverse("admin:tournaments_tournament_delete", args=[cup.pk]))

    assert change.status_code == 200
    assert "seed" not in change.context["adminform"].form.fields
    assert delete.status_code == 403
