"""How fast a big season table is read and counted again (docs/seasons.md), against a baseline.

    .venv/bin/python bench/season_table.py [--players 200] [--evenings 40] [--repeat 15]

A club of ``--players`` players who all play every one of ``--evenings`` club evenings
at tables of 4 (random whists adding up to zero, half the evenings under a convention
with a coefficient), a season counting the best half of the evenings with a minimum of a
quarter of them. Measured in the same run, wall milliseconds (median of ``--repeat``):

- the club's leaderboard page (``stats:leaderboard``): the baseline, a page of the same
  players read from stored rows;
- the season table page (``seasons:table``), full request through the middleware;
- counting the table again (``standings.refresh``): what every settled sheet costs;
- the same under the rating measure (docs/seasons.md §2), against what the statistics
  already spend on every settled sheet, the club rating recomputed
  (``stats.ratings.recompute_club``);
- a whole settle under the rating measure, the statistics' recompute and then the season
  counted again, alternating round by round: sharing the statistics' rating pass (what a
  settled sheet does) and not sharing it (the pass forgotten in between, as before the
  season read the statistics' pass: the club rated twice).

Goal: the season table of 200 players over 40 evenings renders in under 200 ms.
"""

from __future__ import annotations

import argparse
import datetime
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import cpu  # noqa: E402  (bench/cpu.py: the bench settings on a fresh database)

GOAL_MS = 200.0
FIRST = datetime.date(2026, 1, 5)


def season_world(players: int, evenings: int) -> dict[str, Any]:
    """The club, its evenings as summary rows, a season over them, a signed-in member."""
    from django.contrib.auth import get_user_model
    from django.test import Client
    from django.utils import timezone

    from prefscore.clubs.models import Club, Membership, Player, Role
    from prefscore.games.models import Pulka
    from prefscore.seasons import standings
    from prefscore.seasons.models import Season
    from prefscore.stats import ratings
    from prefscore.stats.models import PulkaSummary
    from scoring.engine.conventions import preset

    rng = random.Random(1)
    club = Club.objects.create(name="Season bench", slug="season-bench")
    user = get_user_model().objects.create_user("season-bench", password=None)
    Membership.objects.create(club=club, user=user, role=Role.MEMBER)
    people = Player.objects.bulk_create(
        Player(club=club, name=f"Player {n:03}") for n in range(players)
    )
    options = preset("sochi").to_options()
    for week in range(evenings):
        convention = "rostov" if week % 2 else "sochi"
        started = timezone.make_aware(
            datetime.datetime.combine(FIRST + datetime.timedelta(days=7 * week), datetime.time(19))
        )
        order = people[:]
        rng.shuffle(order)
        tables = [order[i : i + 4] for i in range(0, players - players % 4, 4)]
        pulkas = Pulka.objects.bulk_create(
            Pulka(
                club=club,
                convention_name=convention,
                convention_options=options,
                player_names=[p.name for p in seats],
                target=20,
                status=Pulka.Status.FINISHED,
            )
            for seats in tables
        )
        Pulka.objects.filter(pk__in=[p.pk for p in pulkas]).update(created_at=started)
        rows = []
        for pulka, seats in zip(pulkas, tables, strict=True):
            whists = [rng.randrange(-120, 121) for _ in range(3)]
            whists.append(-sum(whists))
            for seat, (player, value) in enumerate(zip(seats, whists, strict=True)):
                rows.append(
                    PulkaSummary(
                        pulka=pulka,
                        player=player,
                        club=club,
                        seat=seat,
                        finished_at=started,
                        version=1,
                        table_size=4,
                        convention_name=convention,
                        result=str(value),
                        won=value == max(whists),
                        play={},
                        against={},
                    )
                )
        PulkaSummary.objects.bulk_create(rows)
    ratings.recompute_club(club.pk)
    season = Season.objects.create(
        club=club,
        name="Bench season",
        slug="bench",
        starts_on=FIRST,
        ends_on=FIRST + datetime.timedelta(days=7 * evenings),
        aggregate="best",
        best_n=max(evenings // 2, 1),
        minimum=evenings // 4,
        coefficients={"rostov": "4/3"},
    )
    standings.refresh(season)
    rated = Season.objects.create(
        club=club,
        name="Bench season by rating",
        slug="bench-rating",
        starts_on=season.starts_on,
        ends_on=season.ends_on,
        measure=Season.Measure.RATING,
        aggregate="best",
        best_n=season.best_n,
        minimum=season.minimum,
    )
    client = Client()
    client.force_login(user)
    return {"club": club, "season": season, "rated": rated, "client": client}


def median_ms(call: Callable[[], Any], repeat: int) -> float:
    spent = []
    for _ in range(repeat):
        began = time.perf_counter()
        call()
        spent.append(time.perf_counter() - began)
    return statistics.median(spent) * 1000


def alternating_ms(calls: dict[str, Callable[[], Any]], repeat: int) -> dict[str, float]:
    """Each call's median, the calls taking turns round by round (same machine load)."""
    spent: dict[str, list[float]] = {name: [] for name in calls}
    for _ in range(repeat):
        for name, call in calls.items():
            began = time.perf_counter()
            call()
            spent[name].append(time.perf_counter() - began)
    return {name: statistics.median(times) * 1000 for name, times in spent.items()}


def forgotten(call: Callable[[], Any]) -> Any:
    """The call with no rating pass kept from before (``stats.ratings.rating_pass``)."""
    from prefscore.stats import ratings

    ratings._last_pass = None
    return call()


def settle_ms(world: dict[str, Any], repeat: int) -> dict[str, float]:
    """A settle under the rating measure, the statistics' pass shared with the season or not."""
    from prefscore.seasons import standings
    from prefscore.stats import ratings

    club_id, rated = world["club"].pk, world["rated"]

    def shared() -> None:
        ratings.recompute_club(club_id)
        standings.refresh(rated)

    def twice() -> None:  # the season rates the club again, as it did before
        ratings.recompute_club(club_id)
        forgotten(lambda: standings.refresh(rated))

    return alternating_ms(
        {
            "a settle, rating measure, pass not shared": twice,
            "a settle, rating measure, pass shared": shared,
        },
        repeat,
    )


def measure(world: dict[str, Any], repeat: int) -> dict[str, float]:
    from django.urls import reverse

    from prefscore.seasons import standings
    from prefscore.stats import ratings

    client, season = world["client"], world["season"]
    leaderboard = reverse("stats:leaderboard", args=[world["club"].slug])
    table = reverse("seasons:table", args=[world["club"].slug, season.slug])

    def get(url: str) -> Callable[[], Any]:
        def call() -> Any:
            response = client.get(url)
            assert response.status_code == 200, response.status_code
            return response

        return call

    return {
        "baseline: the club leaderboard page": median_ms(get(leaderboard), repeat),
        "the season table page": median_ms(get(table), repeat),
        "counting the season table again": median_ms(lambda: standings.refresh(season), repeat),
        "the club rating recomputed (statistics)": median_ms(
            lambda: forgotten(lambda: ratings.recompute_club(world["club"].pk)), repeat
        ),
        "counting it again, rating measure, alone": median_ms(
            lambda: forgotten(lambda: standings.refresh(world["rated"])), repeat
        ),
    } | settle_ms(world, repeat)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=200)
    parser.add_argument("--evenings", type=int, default=40)
    parser.add_argument("--repeat", type=int, default=15)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        cpu.setup(folder)
        world = season_world(args.players, args.evenings)
        figures = measure(world, args.repeat)
    baseline = next(iter(figures.values()))
    import os

    print(f"{args.players} players × {args.evenings} evenings; load {os.getloadavg()[0]:.2f}")
    print(f"{'':42} {'ms (median)':>12} {'× baseline':>11}")
    for name, ms in figures.items():
        print(f"{name:42} {ms:12.1f} {ms / baseline:11.2f}")
    shared = figures["a settle, rating measure, pass shared"]
    twice = figures["a settle, rating measure, pass not shared"]
    print(f"a settle under the rating measure, shared / not shared: {shared / twice:.2f}")
    page = figures["the season table page"]
    print(
        f"goal: the season table page under {GOAL_MS:.0f} ms: {'met' if page < GOAL_MS else 'NOT met'}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
