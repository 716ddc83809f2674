"""A Swiss round is seated by the standings (docs/tournaments.md §3, §4.3): the draw
reads their order by ``services.standing_order``, which must rank exactly as
``services.standings`` does (§4.8–§4.10), with the players read as keys.

The tournaments are Hypothesis's of tests/web/test_one_result_property.py: tables of
3 and 4, players who leave a table, forfeit caps, arbiter's sheets, cards and
disqualifications, now and then a final after a cut.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.db import transaction
from hypothesis import HealthCheck, given, settings

from prefscore.tournaments import services
from prefscore.tournaments.models import TournamentEntry
from tests.web.test_one_result_property import Plan, _store, plans

pytestmark = pytest.mark.django_db

SERIAL = iter(range(10**6, 2 * 10**6))


def _order(cup: Any) -> list[str]:
    return [line.player for line in services.standings(cup).lines]


@settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(plans())
def test_the_draw_reads_the_players_in_the_order_of_the_standings(tournament_world, plan: Plan):
    with transaction.atomic():
        cup = _store(tournament_world, plan, next(SERIAL))
        assert services.standing_order(cup) == _order(cup)
        transaction.set_rollback(True)


@given(plans())
@settings(
    max_examples=20,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
def test_a_player_seated_without_an_entry_is_ranked_in_both(tournament_world, plan: Plan):
    """Never in a sound tournament, but a table's seat ranks its player (§4.2)."""
    with transaction.atomic():
        cup = _store(tournament_world, plan, next(SERIAL))
        entry = TournamentEntry.objects.filter(tournament=cup).order_by("pk").first()
        assert entry is not None
        key = str(entry.player_id)
        entry.delete()
        order = services.standing_order(cup)
        assert order == _order(cup)
        assert key in order
        transaction.set_rollback(True)
