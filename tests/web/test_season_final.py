"""The season's final draws its round 1 by the qualifiers' seeds (docs/seasons.md §9;
docs/tournaments.md §4.10), and its registration list shows them."""

from __future__ import annotations

import pytest
from django.urls import reverse

from prefscore.clubs.models import Player
from prefscore.seasons import qualification, standings
from prefscore.tournaments import rounds
from tests.web.fixtures_table import EN
from tests.web.fixtures_tournaments import make_tournament
from tests.web.season_fixtures import play_series
from tests.web.test_seasons import make_season

pytestmark = pytest.mark.django_db


def seeded_final(world):
    """The hand-worked series; its five ranked players and the wildcard Xenia qualify."""
    season = make_season(world.club)
    play_series(world.club)
    season.final = make_tournament(world.club, name="Final", slug="final")
    season.save()
    standings.refresh(season)
    xenia = Player.objects.get(club=world.club, name="Xenia")
    qualification.qualify(season, 5, [xenia], world.users["organiser"])
    return season


def names(keys):
    return [Player.objects.get(pk=int(key)).name for key in keys]


def test_the_finals_draft_seats_the_qualifiers_by_season_seed(access_world):
    season = seeded_final(access_world)

    draft = rounds.draw_next_round(season.final.pk)

    assert draft.method == "seeded"
    tables = [sorted(names(table["players"])) for table in draft.tables]
    # Seeds: Bella 1, Cyril 2, Alla 3 | Dima 4, Egor 5, Xenia 6 (the hand-worked table).
    assert tables == [["Alla", "Bella", "Cyril"], ["Dima", "Egor", "Xenia"]]


def test_a_tournament_without_qualifiers_draws_round_one_as_before(access_world):
    season = seeded_final(access_world)
    other = make_tournament(access_world.club, name="Open", slug="open")
    from tests.web.fixtures_tournaments import enter

    enter(other, list(Player.objects.filter(club=access_world.club)))

    assert rounds.draw_next_round(other.pk).method != "seeded"
    assert season.final.rounds.count() == 0


def test_the_finals_registration_list_shows_each_seed(access_world, client_as):
    season = seeded_final(access_world)
    url = reverse("tournaments:detail", args=["home", season.final.slug])

    rows = client_as("organiser").get(url, headers=EN).context["entries"]

    assert {row.name: row.seed for row in rows} == {
        "Bella": "seed 1",
        "Cyril": "seed 2",
        "Alla": "seed 3",
        "Dima": "seed 4",
        "Egor": "seed 5",
        "Xenia": "seed 6",
    }


@pytest.mark.parametrize("htmx", [False, True])
def test_the_organiser_draws_the_final_and_reads_how_it_was_seated(access_world, client_as, htmx):
    season = seeded_final(access_world)
    organiser = client_as("organiser")
    headers = {**EN, "HX-Request": "true"} if htmx else EN

    organiser.post(reverse("tournaments:draw", args=["home", "final"]), headers=headers)

    page = organiser.get(reverse("tournaments:detail", args=["home", "final"]), headers=EN)
    assert "seated by the players&#x27; seeds" in page.content.decode()
    draft = season.final.rounds.get()
    assert sorted(names(draft.tables[0]["players"])) == ["Alla", "Bella", "Cyril"]
