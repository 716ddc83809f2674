"""The end rule "to the target or N deals, whichever comes first" (docs/rules.md §3.5):
chosen in the regulations, kept in the tournament's convention, shown in its summary,
and a table of such a tournament ends at the first of the two."""

from __future__ import annotations

import pytest

from prefscore.games.models import Pulka
from prefscore.games.services import record_deal
from prefscore.tournaments.models import Tournament
from tests.web.fixtures_tournaments import client_as, create_data, draw, enter, url

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("rule, end", [("first", "all_closed"), ("deals", "deals")])
def test_the_end_rule_is_chosen_in_the_regulations(tournament_world, rule, end):
    client = client_as(tournament_world, "organiser")
    response = client.post(
        f"/tournaments/{tournament_world.club.slug}/new/",
        create_data(deals_per_round="2", target="20", end_rule=rule),
    )
    assert response.status_code == 302
    tournament = Tournament.objects.get(name="Autumn cup")
    assert tournament.convention_options["deal_limit"] == 2
    assert tournament.convention_options["end"] == end
    page = client.get(url("regulations", tournament)).content.decode()
    assert f'value="{rule}" selected' in page or f'value="{rule}" checked' in page
    detail = client.get(url("detail", tournament)).content.decode()
    assert ("or the target if it comes first" in detail) == (rule == "first")


def test_a_table_ends_at_the_target_before_the_deal_limit(tournament_world):
    client = client_as(tournament_world, "organiser")
    client.post(
        f"/tournaments/{tournament_world.club.slug}/new/",
        create_data(deals_per_round="18", target="2", end_rule="first"),
    )
    tournament = Tournament.objects.get(name="Autumn cup")
    enter(tournament, tournament_world.players[:3])
    draw(tournament_world, tournament)
    pulka = Pulka.objects.get(tournament=tournament)
    names = list(pulka.player_names)
    played = 0
    while pulka.status == Pulka.Status.RUNNING and played < 18:
        declarer = names[played % 3]
        others = [n for n in names if n != declarer]
        facts = {
            "contract": "7S",
            "declarer": declarer,
            "whists": {others[0]: "pass", others[1]: "pass"},
        }
        played += 1
        record_deal(pulka.pk, facts, None, played)
        pulka.refresh_from_db()
    assert pulka.status == Pulka.Status.FINISHED
    assert played < 18  # the target came first
