"""The season (docs/seasons.md §1, §2) counts any finished tournament as the tournament
ranks it (docs/tournaments.md §4.7, §4.9–§4.11).

Hypothesis draws finished tournaments: qualifying rounds of tables of 3 and 4, players
who leave a table after its first deal (the table closed as it stands, or a table of 4
played on as three), forfeit caps, arbiter's final sheets, cards, and now and then a
final after a cut. Under place points the season's points for the tournament equal the
tournament's own normalised points per table, player by player.

The tournaments are written straight into the database (each table's stored result at
its pulka's version, as ``results.refresh`` writes it), without deals: what is compared
is how the two sides read a table, not the engine's fold of a sheet, which its own
tests cover. A few hundred examples run in about a minute.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import pytest
from django.db import transaction
from django.utils import timezone
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from prefscore.clubs.models import Player
from prefscore.games.models import Pulka, PulkaSeat
from prefscore.seasons import standings as season_standings
from prefscore.seasons.models import Season
from prefscore.tournaments import services
from prefscore.tournaments.models import (
    Round,
    TableClosure,
    TableResult,
    Tournament,
    TournamentEntry,
    TournamentEvent,
)
from tests.web.fixtures_tournaments import make_tournament

pytestmark = pytest.mark.django_db

EXAMPLES = 200
NO_COUNTS = [0, 0, 0, 0]


@dataclass
class TablePlan:
    players: list[int]  # indexes of the field, seat order
    whists: list[int]
    arbiter: list[int] | None = None  # the arbiter's final sheet, if he closed it
    leaver: int | None = None  # the seat that left after the first deal
    short: list[int] | None = None  # the sheet of three's whists, if the three played on


@dataclass
class Plan:
    size: int
    cap: int | None
    rounds: list[list[TablePlan]]
    final: list[TablePlan] = field(default_factory=list)
    cards: list[tuple[int, str]] = field(default_factory=list)
    disqualified: set[int] = field(default_factory=set)


def _zero_sum(draw: Any, seats: int) -> list[int]:
    whists = draw(st.lists(st.integers(-25, 25), min_size=seats - 1, max_size=seats - 1))
    return [*whists, -sum(whists)]


def _sizes(draw: Any, count: int) -> list[int]:
    """Tables of 4 and 3 for ``count`` players (never 5, never fewer than 3)."""
    fours = [a for a in range(count // 4 + 1) if (count - 4 * a) % 3 == 0]
    four = draw(st.sampled_from(fours))
    return [4] * four + [3] * ((count - 4 * four) // 3)


def _table(draw: Any, players: list[int], leave: bool) -> TablePlan:
    plan = TablePlan(players, _zero_sum(draw, len(players)))
    if draw(st.integers(0, 4)) == 0:
        plan.arbiter = _zero_sum(draw, len(players))
    if leave:
        plan.leaver = draw(st.integers(0, len(players) - 1))
        if len(players) == 4 and draw(st.booleans()):
            plan.short = _zero_sum(draw, 3)
            plan.arbiter = None  # a sheet closed by the drop: it counts as it stands
    return plan


@st.composite
def plans(draw: Any) -> Plan:
    size = draw(st.integers(6, 13).filter(lambda n: n != 5))
    plan = Plan(size, draw(st.sampled_from([None, 0, -10])), [])
    active = list(range(size))
    for _number in range(draw(st.integers(1, 3))):
        if len(active) < 3 or len(active) == 5:
            break
        order = draw(st.permutations(active))
        tables, start = [], 0
        for seats in _sizes(draw, len(order)):
            players = list(order[start : start + seats])
            start += seats
            # A drop keeps a field that can still be seated (never 5, never under 3).
            left = len(active) - 1
            leave = left >= 3 and left != 5 and draw(st.integers(0, 5)) == 0
            table = _table(draw, players, leave)
            if table.leaver is not None:
                active.remove(players[table.leaver])
            tables.append(table)
        plan.rounds.append(tables)
    if len(active) in (3, 4) or (len(active) >= 6 and draw(st.booleans())):
        finalists = draw(st.permutations(active))[: draw(st.sampled_from([3, 4]))]
        plan.final = [_table(draw, list(finalists), leave=draw(st.integers(0, 4)) == 0)]
    for player in draw(st.lists(st.integers(0, size - 1), max_size=3)):
        plan.cards.append((player, draw(st.sampled_from(["yellow_card", "red_card"]))))
    plan.disqualified = {p for p, card in plan.cards if card == "red_card"}
    return plan


def _store(world: Any, plan: Plan, serial: int) -> Tournament:
    cup = make_tournament(
        world.club,
        f"Cup {serial}",
        slug=f"cup-{serial}",
        table_size=4,
        normalisation="places",
        carry="kept",
        forfeit_whists=plan.cap,
        status=Tournament.Status.RUNNING,
    )
    players = Player.objects.bulk_create(
        Player(club=world.club, name=f"P{serial}-{n}") for n in range(plan.size)
    )
    left = {
        table.players[table.leaver]: number
        for number, tables in enumerate([*plan.rounds, plan.final], start=1)
        for table in tables
        if table.leaver is not None
    }
    TournamentEntry.objects.bulk_create(
        TournamentEntry(
            tournament=cup,
            player=player,
            state=_state(index, left, plan.disqualified),
            forfeited_round=left.get(index),
        )
        for index, player in enumerate(players)
    )
    stages = [(Round.Stage.QUALIFYING, tables) for tables in plan.rounds]
    if plan.final:
        stages.append((Round.Stage.FINAL, plan.final))
    for number, (stage, tables) in enumerate(stages, start=1):
        _round(cup, number, stage, tables, players)
    TournamentEvent.objects.bulk_create(
        TournamentEvent(tournament=cup, entry=cup.entries.get(player=players[p]), action=card)
        for p, card in plan.cards
    )
    cup.status, cup.finished_at = Tournament.Status.FINISHED, timezone.now()
    cup.save(update_fields=["status", "finished_at"])
    return cup


def _state(index: int, left: dict[int, int], disqualified: set[int]) -> str:
    if index in disqualified:
        return TournamentEntry.State.DISQUALIFIED
    return TournamentEntry.State.DROPPED if index in left else TournamentEntry.State.PLAYING


def _round(
    cup: Tournament, number: int, stage: str, tables: list[TablePlan], players: list[Player]
) -> None:
    drawn = []
    for table in tables:
        seated = [players[p] for p in table.players]
        first = _sheet(cup, number, seated, table.whists)
        entry: dict[str, Any] = {
            "players": [str(p.pk) for p in seated],
            "first_dealer": 0,
            "pulka": first.pk,
        }
        if table.arbiter is not None:
            TableClosure.objects.create(pulka=first, reason="arbiter", whists=table.arbiter)
        elif table.leaver is not None:
            TableClosure.objects.create(pulka=first, reason="drop")
        if table.short is not None:
            three = [p for seat, p in enumerate(seated) if seat != table.leaver]
            later = _sheet(cup, number, three, table.short)
            entry.update(pulka=later.pk, continues=first.pk)
        drawn.append(entry)
    Round.objects.create(
        tournament=cup,
        number=number,
        seed=1,
        status=Round.Status.PUBLISHED,
        stage=stage,
        is_final=stage != Round.Stage.QUALIFYING,
        method="standing" if stage != Round.Stage.QUALIFYING else "random",
        tables=drawn,
    )


def _sheet(cup: Tournament, number: int, seated: list[Player], whists: list[int]) -> Pulka:
    pulka = Pulka.objects.create(
        club=cup.club,
        convention_name=cup.convention_name,
        convention_options=cup.convention_options,
        player_names=[p.name for p in seated],
        target=cup.target,
        status=Pulka.Status.FINISHED,
        tournament=cup,
        round_number=number,
        version=1,
    )
    PulkaSeat.objects.bulk_create(
        PulkaSeat(pulka=pulka, seat=seat, player=player) for seat, player in enumerate(seated)
    )
    TableResult.objects.create(
        pulka=pulka,
        tournament=cup,
        version=1,
        deals=1,
        whists=whists,
        stats=[NO_COUNTS] * len(seated),
    )
    return pulka


SERIAL = iter(range(1, 10**6))


@settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(plans())
def test_the_season_counts_a_tournament_as_its_own_place_points(tournament_world, plan):
    # Each example in a savepoint rolled back at its end: the test's database is not
    # rolled back between Hypothesis's examples, and a club holding every earlier
    # example's tournaments made each count slower than the last (on PostgreSQL most).
    with transaction.atomic():
        _compare(tournament_world, plan)
        transaction.set_rollback(True)


def _compare(tournament_world: Any, plan: Plan) -> None:
    cup = _store(tournament_world, plan, next(SERIAL))
    season = Season.objects.create(
        club=tournament_world.club,
        name=cup.name,
        slug=cup.slug,
        starts_on=datetime.date(2000, 1, 1),
        ends_on=datetime.date(2100, 1, 1),
        evenings=Season.Evenings.MARKED,  # the tournament alone
    )
    season.tournaments.add(cup)

    season_standings.refresh(season)

    tournament = {line.player: Fraction(line.points) for line in services.standings(cup).lines}
    counted = {
        str(line.player_id): Fraction(line.points[0][1]) if line.points else Fraction(0)
        for line in season.lines.all()
    }
    assert counted == tournament
