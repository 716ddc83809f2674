"""Tournament screens (docs/tournaments.md §4): the club's list, creating a tournament,
registration.

Drawing rounds, standings and publishing, the cut and the final are in the
test_tournament_*.py modules beside this one."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.shortcuts import resolve_url
from django.urls import reverse

from prefscore.games.models import Pulka
from prefscore.tournaments.models import Tournament
from tests.web.fixtures_tournaments import (
    HTMX,
    client_as,
    create_data,
    draw,
    enter,
    make_tournament,
    url,
)

pytestmark = pytest.mark.django_db


# --- the club's list ---


def test_members_see_the_clubs_tournaments(tournament_world, cup):
    response = client_as(tournament_world, "member").get(reverse("tournaments:list", args=["cup"]))

    assert response.status_code == 200
    assert "Spring cup" in response.content.decode()
    assert reverse("tournaments:create", args=["cup"]) not in response.content.decode()


def test_organisers_get_the_new_tournament_button(tournament_world):
    response = client_as(tournament_world, "organiser").get(
        reverse("tournaments:list", args=["cup"])
    )

    assert reverse("tournaments:create", args=["cup"]) in response.content.decode()


def test_the_club_page_links_to_its_tournaments(tournament_world):
    response = client_as(tournament_world, "member").get(reverse("clubs:club", args=["cup"]))

    assert reverse("tournaments:list", args=["cup"]) in response.content.decode()


@pytest.mark.parametrize("headers", [{}, HTMX], ids=["page", "htmx"])
def test_outsiders_are_refused_the_list(tournament_world, headers):
    client = client_as(tournament_world, "outsider")

    assert client.get(reverse("tournaments:list", args=["cup"]), headers=headers).status_code == 403
    assert (
        client.get(reverse("tournaments:list", args=["nope"]), headers=headers).status_code == 404
    )


def test_the_list_answers_only_get(tournament_world):
    response = client_as(tournament_world, "member").post(reverse("tournaments:list", args=["cup"]))

    assert response.status_code == 405


def test_an_anonymous_visitor_is_sent_to_sign_in_for_the_list(tournament_world):
    response = client_as(tournament_world, "anonymous").get(
        reverse("tournaments:list", args=["cup"])
    )

    assert response.status_code == 302
    assert response["Location"].startswith(resolve_url(settings.LOGIN_URL))


# --- creating a tournament ---


def test_an_organiser_creates_a_tournament_with_its_regulations(tournament_world):
    response = client_as(tournament_world, "organiser").post(
        reverse("tournaments:create", args=["cup"]), create_data()
    )

    tournament = Tournament.objects.get(name="Autumn cup")
    assert response.status_code == 302
    assert response["Location"] == url("detail", tournament)
    assert tournament.slug == "autumn-cup"
    assert tournament.table_size == 3
    assert tournament.tie_breaks == ["allpass_won", "remizes"]
    # Round length goes into the convention snapshot every table plays under.
    assert tournament.convention_options["end"] == "deals"
    assert tournament.convention_options["deal_limit"] == 6
    assert tournament.convention_source.slug == "sochi"
    assert not tournament.public


def test_under_htmx_creating_redirects_with_hx_redirect(tournament_world):
    response = client_as(tournament_world, "organiser").post(
        reverse("tournaments:create", args=["cup"]), create_data(), headers=HTMX
    )

    assert response.status_code == 200
    assert response["HX-Redirect"].endswith("/autumn-cup/")


def test_the_form_alone_is_sent_under_htmx(tournament_world):
    response = client_as(tournament_world, "organiser").get(
        reverse("tournaments:create", args=["cup"]), headers=HTMX
    )

    html = response.content.decode()
    assert 'id="new-tournament-form"' in html
    assert "<html" not in html


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("name", ""),
        ("convention", "no-such-convention"),
        ("table_size", "5"),
        ("target", "0"),
        ("deals_per_round", "-1"),
        ("tie_break_2", "allpass_won"),
        ("normalisation", "elo"),
    ],
)
def test_bad_input_is_refused_next_to_its_field_and_nothing_is_saved(
    tournament_world, field, value
):
    response = client_as(tournament_world, "organiser").post(
        reverse("tournaments:create", args=["cup"]), create_data(**{field: value})
    )

    assert response.status_code == 200
    assert response.context["form"].errors[field]
    assert not Tournament.objects.exists()


def test_a_russian_name_gets_a_latin_link_and_names_never_clash(tournament_world):
    client = client_as(tournament_world, "organiser")
    for _ in range(2):
        client.post(reverse("tournaments:create", args=["cup"]), create_data(name="Кубок"))
    client.post(reverse("tournaments:create", args=["cup"]), create_data(name="New"))

    assert sorted(Tournament.objects.values_list("slug", flat=True)) == [
        "kubok",
        "kubok-2",
        "new-2",
    ]


def test_a_hostile_name_is_shown_escaped(tournament_world):
    client = client_as(tournament_world, "organiser")
    client.post(
        reverse("tournaments:create", args=["cup"]),
        create_data(name='<script>alert("x")</script> ‮ 🂡'),
    )
    tournament = Tournament.objects.get()

    html = client.get(url("detail", tournament)).content.decode()

    assert "<script>alert" not in html
    assert "&lt;script&gt;" in html


def test_members_may_not_create_tournaments(tournament_world):
    client = client_as(tournament_world, "member")

    assert client.get(reverse("tournaments:create", args=["cup"])).status_code == 403
    assert (
        client.post(reverse("tournaments:create", args=["cup"]), create_data()).status_code == 403
    )
    assert not Tournament.objects.exists()


# --- registration ---


def test_an_organiser_registers_players(tournament_world):
    tournament = make_tournament(tournament_world.club)
    chosen = tournament_world.players[:4]

    response = client_as(tournament_world, "organiser").post(
        url("register", tournament), {"players": [p.pk for p in chosen]}
    )

    assert response.status_code == 302
    assert set(tournament.entries.values_list("player_id", flat=True)) == {p.pk for p in chosen}


def test_registering_under_htmx_reloads_the_page_at_the_entries(tournament_world):
    tournament = make_tournament(tournament_world.club)
    player = tournament_world.players[0]

    response = client_as(tournament_world, "organiser").post(
        url("register", tournament), {"players": [player.pk]}, headers=HTMX
    )

    assert response["HX-Redirect"].endswith("#entries")
    assert tournament.entries.get().player == player


def test_a_refused_registration_under_htmx_returns_the_entries_region(tournament_world):
    tournament = make_tournament(tournament_world.club)

    response = client_as(tournament_world, "organiser").post(
        url("register", tournament), {"players": []}, headers=HTMX
    )

    html = response.content.decode()
    assert html.lstrip().startswith('<section id="entries"')
    assert "Pick at least one player." in html


def test_another_clubs_player_cannot_be_registered(tournament_world):
    tournament = make_tournament(tournament_world.club)
    from prefscore.clubs.models import Player

    stranger = Player.objects.create(club=tournament_world.other_club, name="Stranger")

    response = client_as(tournament_world, "organiser").post(
        url("register", tournament), {"players": [stranger.pk, "x"]}
    )

    assert response.status_code == 200
    assert response.context["entry_form"].errors["players"]
    assert not tournament.entries.exists()


def test_dropping_a_player_keeps_him_out_of_the_next_draw(tournament_world, cup):
    client = client_as(tournament_world, "organiser")
    entries = list(cup.entries.all()[:3])
    for entry in entries:
        client.post(
            url("entry_state", cup, entry=entry.pk), {"action": "drop", "reason": "went home"}
        )

    draw(tournament_world, cup)

    seated = set(Pulka.objects.filter(tournament=cup).values_list("seats__player", flat=True))
    assert seated.isdisjoint({entry.player_id for entry in entries})
    assert len(seated) == 6


def test_an_entry_of_another_tournament_is_not_found(tournament_world, cup):
    other = make_tournament(tournament_world.club, "Other", slug="other")
    enter(other, tournament_world.players[:1])
    foreign = other.entries.get()

    response = client_as(tournament_world, "organiser").post(
        url("entry_state", cup, entry=foreign.pk), {"action": "drop", "reason": "went home"}
    )

    assert response.status_code == 404


def test_members_may_not_register_or_drop(tournament_world, cup):
    client = client_as(tournament_world, "member")
    entry = cup.entries.first()

    assert client.post(url("register", cup), {"players": []}).status_code == 403
    assert client.post(url("entry_state", cup, entry=entry.pk)).status_code == 403
