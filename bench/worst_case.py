"""The heaviest requests an ordinary member can make, at the pulka's limits.

    .venv/bin/python bench/worst_case.py [--deals 1999] [--corrections 1000] [--profile]

A temporary SQLite database with one pulka at the documented limits: ``--deals`` deals
(the limit is 2,000; the next one is recorded during the run) and ``--corrections``
corrections, each of one of the last eight deals when it was made. Through Django's
test client, signed in as a seated member, it times the sheet page, the poll that
answers 200, the settlement, the export, recording the last allowed deal, a correction,
and the deal the limit refuses. The goal: none holds a worker for more than 2 s. A
bare request through the same client is the baseline. The sheet page is timed first
with an empty cache (what the first device after a change pays), then again (what the
others get from prefscore/games/render_cache.py). ``--profile`` prints where an
uncached sheet page spends its time (cProfile), instead of the table.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

GOAL_SECONDS = 2.0


def setup(folder: str) -> None:
    os.environ["DEBUG"] = "1"
    os.environ["DATABASE_URL"] = f"sqlite:///{folder}/worst.sqlite3"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "prefscore.settings")
    import django

    django.setup()
    from django.conf import settings

    settings.ALLOWED_HOSTS = ["testserver"]
    from django.core.management import call_command

    call_command("migrate", verbosity=0)


def world(deals: int, corrections: int) -> tuple[Any, Any]:
    from django.contrib.auth import get_user_model
    from harness.deals import NAMES, cycle_deal
    from harness.seed import running_pulka

    from prefscore.clubs.models import Club, Membership, Player, Role
    from prefscore.games.models import Correction

    user = get_user_model().objects.create_user("worst")
    club = Club.objects.create(name="Worst case", slug="worst")
    Membership.objects.create(club=club, user=user, role=Role.MEMBER)
    players = [Player.objects.create(club=club, name=name) for name in NAMES]
    players[0].user = user
    players[0].save()
    pulka = running_pulka(club, players, deals, user)
    pulka.target = 10_000  # never closes within the limits
    rng = random.Random(4)
    after = sorted(rng.randrange(1, deals + 1) for _ in range(corrections))
    Correction.objects.bulk_create(
        Correction(
            pulka=pulka,
            deal_number=(k := rng.randint(max(1, n - 7), n)),
            after_deal=n,
            facts=cycle_deal(k),
            asked_by=user,
        )
        for n in after
    )
    pulka.version = deals + corrections
    pulka.save()
    return pulka, user


def timed(call: Any) -> tuple[float, float, int]:
    """Wall seconds, CPU seconds of this process (what the request costs on an idle
    core, whatever the machine's load), and the status."""
    started, cpu = time.perf_counter(), time.process_time()
    response = call()
    return time.perf_counter() - started, time.process_time() - cpu, response.status_code


def profile(client: Any, url: str) -> int:
    """Where one uncached sheet page spends its time, the 30 costliest calls."""
    import cProfile
    import pstats

    from django.core.cache import cache

    client.get(url)  # templates compiled, then the cache emptied
    cache.clear()
    profiler = cProfile.Profile()
    profiler.enable()
    client.get(url)
    profiler.disable()
    pstats.Stats(profiler).sort_stats("cumulative").print_stats(30)
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=1999)
    parser.add_argument("--corrections", type=int, default=1000)
    parser.add_argument("--profile", action="store_true", help="cProfile one uncached sheet page")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="prefscore-worst-") as folder:
        setup(folder)
        from django.test import Client
        from django.urls import reverse
        from harness.deals import cycle_form

        pulka, user = world(args.deals, args.corrections)
        client = Client()
        client.force_login(user)
        hx = {"HX-Request": "true"}
        n = args.deals
        correction = {**cycle_form(n), "number": str(n)}
        rows = [
            ("baseline: the home page", lambda: client.get(reverse("clubs:home"))),
            ("sheet page", lambda: client.get(reverse("games:sheet", args=[pulka.pk]))),
            ("sheet page, from the cache", lambda: client.get(
                reverse("games:sheet", args=[pulka.pk]))),
            ("poll answering 200", lambda: client.get(
                reverse("games:poll", args=[pulka.pk]), {"v": "0"}, headers=hx)),
            ("settlement", lambda: client.get(reverse("games:settlement", args=[pulka.pk]))),
            ("export", lambda: client.get(reverse("games:export", args=[pulka.pk]))),
            ("record the last deal", lambda: client.post(
                reverse("games:record", args=[pulka.pk]), cycle_form(n + 1), headers=hx)),
            ("correct a deal", lambda: client.post(
                reverse("games:correct", args=[pulka.pk, n]), correction, headers=hx)),
            ("the deal past the limit", lambda: client.post(
                reverse("games:record", args=[pulka.pk]), cycle_form(n + 2), headers=hx)),
        ]  # fmt: skip
        if args.profile:
            return profile(client, reverse("games:sheet", args=[pulka.pk]))
        one, five, _fifteen = os.getloadavg()
        print(f"pulka: {args.deals} deals, {args.corrections} corrections, SQLite; "
              f"load average {one:.2f}, {five:.2f} on {os.cpu_count()} cores")  # fmt: skip
        worst = worst_cpu = 0.0
        base = 0.0
        client.get(reverse("clubs:home"))  # imports and templates, before the baseline
        for name, call in rows:
            seconds, cpu, status = timed(call)
            base = base or seconds
            if not name.startswith("baseline"):
                worst, worst_cpu = max(worst, seconds), max(worst_cpu, cpu)
            print(
                f"{name:26} {seconds * 1000:8.0f} ms  CPU {cpu * 1000:7.0f} ms  "
                f"× baseline {seconds / base:6.0f}  HTTP {status}"
            )
        verdict = "meets" if worst < GOAL_SECONDS else "misses"
        print(f"goal: every request under {GOAL_SECONDS:.0f} s: {verdict} it ({worst:.2f} s wall, "
              f"{worst_cpu:.2f} s CPU)")  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
