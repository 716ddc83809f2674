"""The club's public results page with its minute's cache and without, against a bare
view, in one run (docs/design.md, "Sharing a result"; prefscore/public/presenters.py).

    .venv/bin/python bench/public_page.py [--players 200] [--evenings 40] [--rounds 6]

bench/season_table.py's club (``--players`` players, ``--evenings`` evenings of tables
of four, its club rating computed) made public: the leaderboard public, two public
seasons and ten finished public tournaments. Requested signed out, as the page's
readers are. Three scenarios take turns, ``--rounds`` times, each for ``--slice`` seconds:

- the bare view (no middleware: the yardstick of bench/sheet_page.py);
- the page as shipped: its values kept a minute per club and language
  (``presenters.SECONDS``), so every request but the first of a minute reads nothing;
- the page without the cache: ``SECONDS = 0``, every request reads the club's
  tournaments, seasons and the stored rating of every player (the leaderboard's top ten
  is ranked from all of them).

The cache stays only if the page without it costs clearly more (CONTRIBUTING.md: a cache
stays only with an A/B figure that shows it pays).
"""

from __future__ import annotations

import argparse
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

TOURNAMENTS = 10


def public_club(players: int, evenings: int) -> str:
    """The season bench's club, its results made public; its slug."""
    from season_table import season_world

    from prefscore.seasons.models import Season
    from prefscore.stats.models import ClubStatsSettings
    from prefscore.tournaments.models import Tournament
    from scoring.engine.conventions import preset

    club = season_world(players, evenings)["club"]
    club.public_page = True
    club.save(update_fields=["public_page"])
    ClubStatsSettings.objects.update_or_create(club=club, defaults={"rating_public": True})
    Season.objects.filter(club=club).update(public=True)
    for number in range(TOURNAMENTS):
        Tournament.objects.create(
            club=club,
            name=f"Cup {number + 1}",
            slug=f"cup-{number + 1}",
            public=True,
            status=Tournament.Status.FINISHED,
            target=20,
            convention_name="sochi",
            convention_options=preset("sochi").to_options(),
        )
    return str(club.slug)


def turn(call: Callable[[], Any], seconds: float) -> tuple[float, float]:
    """Requests per second over ``seconds`` of wall time, and CPU ms per request."""
    count, cpu_began, began = 0, time.process_time(), time.perf_counter()
    while True:
        response = call()
        if response.status_code != 200:
            raise SystemExit(f"HTTP {response.status_code}")
        count += 1
        elapsed = time.perf_counter() - began
        if elapsed >= seconds:
            return count / elapsed, (time.process_time() - cpu_began) / count * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=200)
    parser.add_argument("--evenings", type=int, default=40)
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--slice", type=float, default=1.0, help="seconds per turn")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        cpu.setup(folder)
        import os

        from django.test import Client, override_settings

        from prefscore.public import presenters

        slug = public_club(args.players, args.evenings)
        reader, bare = Client(), Client()
        with override_settings(MIDDLEWARE=[]):  # the handler loads its middleware once
            bare.get("/bench/bare/")
        kept = presenters.SECONDS

        def page(seconds: int) -> Callable[[], Any]:
            def call() -> Any:
                presenters.SECONDS = seconds
                try:
                    return reader.get(f"/clubs/{slug}/results/")
                finally:
                    presenters.SECONDS = kept

            return call

        calls = {
            "bare view": lambda: bare.get("/bench/bare/"),
            "page, as shipped (kept a minute)": page(kept),
            "page, without the cache": page(0),
        }
        for call in calls.values():
            call()
        print(f"load average before: {os.getloadavg()[0]:.1f}")
        rps: dict[str, list[float]] = {name: [] for name in calls}
        ms: dict[str, list[float]] = {name: [] for name in calls}
        ratios: list[float] = []
        names = list(calls)
        for number in range(args.rounds):
            found = {}
            for name in names[number % 3 :] + names[: number % 3]:
                per_second, cpu_ms = turn(calls[name], args.slice)
                found[name] = per_second
                rps[name].append(per_second)
                ms[name].append(cpu_ms)
            ratios.append(
                found["page, without the cache"] / found["page, as shipped (kept a minute)"]
            )
        print(f"load average after: {os.getloadavg()[0]:.1f}")
        base = statistics.median(rps["bare view"])
        print(f"\n{args.players} players, {args.evenings} evenings; median of {args.rounds} turns")
        print("| | req/s | CPU ms a request | × bare view (req/s) |\n|---|---:|---:|---:|")
        for name in names:
            print(
                f"| {name} | {statistics.median(rps[name]):,.0f} | "
                f"{statistics.median(ms[name]):.2f} | {statistics.median(rps[name]) / base:.3f} |"
            )
        print(
            f"\nwithout the cache / with it, per round: {', '.join(f'{r:.3f}' for r in ratios)}; "
            f"median {statistics.median(ratios):.3f}"
        )


if __name__ == "__main__":
    main()
