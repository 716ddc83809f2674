"""One truth for a tournament's results: the season (docs/seasons.md §1, §2) counts a
tournament as its standings rank it (docs/tournaments.md §4.9–§4.11).

A table of 4 that played on as three after a drop is one table, ranked as a whole; the
forfeit's cap, the arbiter's closing and the fines count in the season as they count in
the standings; a player who never sat is never ranked.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest
from django.test import TestCase

from prefscore.clubs.models import Player
from prefscore.games.models import Pulka
from prefscore.games.services import record_deal
from prefscore.seasons import standings as season_standings
from prefscore.seasons.models import Season
from prefscore.tournaments import results, services, stages, tables
from prefscore.tournaments.models import Tournament
from scoring.engine.normalise import place_points
from tests.web.fixtures_tournaments import (
    client_as,
    close_round,
    draw,
    enter,
    make_tournament,
    table_deals,
    url,
)
from tests.web.season_fixtures import open_season

pytestmark = pytest.mark.django_db


def _play(pulka: Pulka, user: Any) -> None:
    first = pulka.deals.filter(withdrawn_at__isnull=True).count() + 1  # after a fine's lines
    for number, facts in enumerate(table_deals(pulka), start=first):
        with TestCase.captureOnCommitCallbacks(execute=True):
            record_deal(pulka.pk, facts, user, number)


def _ten(world: Any, **fields: Any) -> Tournament:
    """Ten players at a table of 4 and two of 3, places, round 1 published."""
    lev = Player.objects.create(club=world.club, name="Lev")
    cup = make_tournament(
        world.club, "Ten", slug="ten", table_size=4, normalisation="places", **fields
    )
    enter(cup, [*world.players, lev])
    draw(world, cup)
    return cup


def _four(cup: Tournament) -> Pulka:
    return next(p for p in Pulka.objects.filter(tournament=cup) if len(p.player_names) == 4)


def _drop(world: Any, cup: Tournament, player_id: int) -> None:
    entry = cup.entries.get(player_id=player_id)
    client_as(world, "organiser").post(
        url("entry_state", cup, entry=entry.pk), {"action": "drop", "reason": "went home"}
    )


def _finish(world: Any, cup: Tournament) -> None:
    organiser = world.users["organiser"]
    for pulka in Pulka.objects.filter(tournament=cup, status=Pulka.Status.RUNNING):
        _play(pulka, organiser)
    close_round(cup, 1, organiser)
    stages.finish_by_hand(cup.pk, organiser)


def _season_points(world: Any, cup: Tournament) -> dict[str, Fraction]:
    season = open_season(world.club)
    season.tournaments.add(cup)
    season_standings.refresh(season)
    return {
        str(line.player_id): Fraction(line.points[0][1])
        for line in Season.objects.get(pk=season.pk).lines.all()
    }


def _tournament_points(cup: Tournament) -> dict[str, Fraction]:
    return {line.player: Fraction(line.points) for line in services.standings(cup).lines}


def test_a_table_of_4_played_on_as_three_is_one_table_in_the_season(tournament_world):
    cup = _ten(tournament_world, after_drop=Tournament.AfterDrop.PLAY_ON)
    four = _four(cup)
    _play(four, tournament_world.users["organiser"])
    _drop(tournament_world, cup, four.seats.order_by("seat").first().player_id)

    _finish(tournament_world, cup)

    season = _season_points(tournament_world, cup)
    assert season == _tournament_points(cup)
    # Ten players, tables of 4, 3 and 3: 6 + 4.5 + 4.5 place points in all, once each.
    assert sum(season.values()) == 15


def test_the_forfeit_cap_counts_in_the_season(tournament_world):
    cup = _ten(tournament_world, forfeit_whists=0)
    four = _four(cup)
    _play(four, tournament_world.users["organiser"])
    whists = results.recount([four])[0].whists
    seats = list(four.seats.order_by("seat").values_list("player_id", flat=True))
    best = seats[whists.index(max(whists))]
    _drop(tournament_world, cup, best)  # the table's best walks out: she forfeits

    _finish(tournament_world, cup)

    season = _season_points(tournament_world, cup)
    assert season == _tournament_points(cup)
    capped = [min(w, 0) if key == best else w for key, w in zip(seats, whists, strict=True)]
    assert season[str(best)] == place_points(capped)[seats.index(best)]
    assert season[str(best)] < 3


def test_the_season_counts_the_arbiters_figures_and_a_fine(tournament_world, cup):
    from prefscore.tournaments import discipline

    organiser = tournament_world.users["organiser"]
    cup.normalisation = "places"
    cup.save()
    draw(tournament_world, cup)
    first, second, _third = Pulka.objects.filter(tournament=cup).order_by("pk")
    tables.close_table(first.pk, cup, "arbiter", organiser, [-6, 2, 4])
    fined = cup.entries.get(player_id=second.seats.order_by("seat").first().player_id)
    discipline.fine(cup, fined.pk, 50, "late back from the break", organiser)

    _finish(tournament_world, cup)

    assert _season_points(tournament_world, cup) == _tournament_points(cup)


def test_a_player_who_never_sat_is_never_ranked(tournament_world, cup):
    late = Player.objects.create(club=tournament_world.club, name="Late")
    draw(tournament_world, cup)
    enter(cup, [late])  # registered after the last round: never seated

    _finish(tournament_world, cup)

    ranked = {line.player for line in services.standings(cup).lines}
    assert str(late.pk) not in ranked
    assert len(ranked) == 9


def test_an_imported_player_who_never_sat_is_never_ranked(tournament_world, cup):
    """A file from an older prefscore lists a player who never sat (no state): he is
    entered, and not ranked above players who played and scored 0 or less."""
    import json

    from prefscore.tournaments import exports, imports

    draw(tournament_world, cup)
    _finish(tournament_world, cup)
    data = exports.export_data(cup)
    data["players"].append({"name": "Never sat", "dropped": False})

    copy_ = imports.import_tournament(
        tournament_world.club, imports.read_file(json.dumps(data, ensure_ascii=False)), None
    )

    table = services.standings(copy_)
    assert copy_.entries.filter(player__name="Never sat").exists()
    assert "Never sat" not in [table.players[line.player].name for line in table.lines]
    assert len(table.lines) == 9
