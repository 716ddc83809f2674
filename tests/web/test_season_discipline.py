"""Cards given at a season's tournaments count across its events (docs/seasons.md §13):
two yellow cards in two tournaments take the player out of the season's ranking, and his
line and the table show them."""

from __future__ import annotations

import pytest
from django.urls import reverse

from prefscore.seasons.models import Season, SeasonLine
from prefscore.tournaments import discipline, stages
from prefscore.tournaments.models import TournamentEntry
from tests.web.fixtures_tournaments import client_as, close_round, draw, enter, make_tournament
from tests.web.season_fixtures import open_season

pytestmark = pytest.mark.django_db

RU = {"accept-language": "ru"}


def played_with_a_yellow(world, tournament, name):
    """Round 1 drawn, a yellow card for ``name`` while it plays, then finished."""
    organiser = world.users["organiser"]
    draw(world, tournament)
    entry = TournamentEntry.objects.get(tournament=tournament, player__name=name)
    discipline.give_card(tournament, entry.pk, "yellow_card", "Talking at the table", organiser)
    close_round(tournament, 1, organiser)
    stages.finish_by_hand(tournament.pk, organiser)


@pytest.fixture
def season(tournament_world):
    return open_season(tournament_world.club, public=True)


def test_two_yellows_in_two_tournaments_take_the_player_out(tournament_world, cup, season):
    second = make_tournament(tournament_world.club, name="Autumn cup", slug="autumn-cup")
    enter(second, tournament_world.players)
    season.tournaments.add(cup, second)

    played_with_a_yellow(tournament_world, cup, "Anna")
    anna = SeasonLine.objects.get(season=season, player__name="Anna")
    assert (anna.rank is not None, anna.excluded) == (True, False)
    assert [row[1:] for row in anna.cards] == [[1, 0]]

    played_with_a_yellow(tournament_world, second, "Anna")
    anna = SeasonLine.objects.get(season=season, player__name="Anna")
    assert (anna.rank, anna.excluded) == (None, True)
    assert [row[1:] for row in anna.cards] == [[1, 0], [1, 0]]
    ranked = SeasonLine.objects.filter(season=season, rank__isnull=False)
    assert ranked.count() == 8 and "Anna" not in ranked.values_list("player__name", flat=True)

    client = client_as(tournament_world, "member", language="ru")
    table = client.get(reverse("seasons:table", args=["cup", "spring"]), headers=RU)
    page = table.content.decode()
    assert "2 жёлтые карточки" in page and "вне зачёта из-за карточек" in page
    line = client.get(reverse("seasons:player", args=["cup", "spring", anna.player_id]))
    events = line.context["row"].events
    assert [event.cards for event in events] == ["1 жёлтая карточка", "1 жёлтая карточка"]
    exported = client.get(reverse("seasons:json", args=["cup", "spring"])).json()
    [anna_exported] = [row for row in exported["lines"] if row["player"] == "Anna"]
    assert anna_exported["excluded"] is True
    assert [(c["yellow"], c["red"]) for c in anna_exported["cards"]] == [(1, 0), (1, 0)]


def test_without_a_yellow_limit_the_cards_are_shown_and_the_player_ranks(
    tournament_world, cup, season
):
    Season.objects.filter(pk=season.pk).update(yellow_cards_limit=None)
    season.tournaments.add(cup)
    entry = TournamentEntry.objects.get(tournament=cup, player__name="Anna")
    draw(tournament_world, cup)
    organiser = tournament_world.users["organiser"]
    for _ in range(2):  # the tournament's own limit is 2 too: he is out of the cup
        discipline.give_card(cup, entry.pk, "yellow_card", "Late", organiser)
    close_round(cup, 1, organiser)
    stages.finish_by_hand(cup.pk, organiser)

    anna = SeasonLine.objects.get(season=season, player__name="Anna")
    assert anna.cards[0][1:] == [2, 0] and not anna.excluded and anna.rank is not None
