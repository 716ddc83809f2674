"""The standings page and its CSV of a big field, as production serves them.

    .venv/bin/python bench/standings_requests.py [--players 1000] [--rounds 5] [--repeat 9]
                                                [--root TREE] [--profile page|csv]
                                                [--sort tottime] [--save FOLDER]

A tournament of ``--players`` over ``--rounds`` rounds (what ``manage.py
random_tournament`` makes, 12 deals a table) imported into a temporary SQLite database
with the bench settings (DEBUG off, the cached template loader: bench/cpu.py's), then
the two requests an organiser or a player makes of it through Django's test client and
the whole middleware: the standings page and ``export.csv``. Each is asked once to warm
it, then ``--repeat`` times taking turns; the medians and the best of the wall and CPU
seconds of the process are printed, with each request's queries (which must not grow
with the field). On a shared machine the CPU time of one request varies by half from
one try to the next (other processes share the cores and their caches): compare two
trees by runs taken in turns, and by the best as well as the median.
The goal (docs/benchmarks.md, "Large exports and imports"): under 200 ms of CPU each.

The script reads nothing of prefscore but the import and the URLs, so that it runs on an
older tree too (``--root``): a copy of main before a change (``git archive``) measured
in turns with the tree after it, on the same machine, is the A/B of docs/benchmarks.md.
``--save`` writes both responses' bodies into a folder, to compare two trees' bytes.
"""

from __future__ import annotations

import argparse
import cProfile
import gc
import json
import os
import pstats
import secrets
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

GOAL_CPU = 0.2


def setup(root: Path, folder: str) -> None:
    os.environ.update(
        DEBUG="0",
        SECRET_KEY="bench-" + secrets.token_hex(24),
        ALLOWED_HOSTS="testserver",
        SECURE_SSL_REDIRECT="0",
        DATABASE_URL=f"sqlite:///{folder}/standings.sqlite3",
        DJANGO_SETTINGS_MODULE="bench.webapp.settings",
        LOG_LEVEL="WARNING",
    )
    sys.path.insert(0, str(root))
    os.chdir(root)
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)


def timed(call: Callable[[], Any]) -> tuple[float, float]:
    wall, cpu = time.perf_counter(), time.process_time()
    call()
    return time.perf_counter() - wall, time.process_time() - cpu


def run(options: argparse.Namespace) -> None:
    from django.contrib.auth import get_user_model
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    from prefscore.clubs.models import Club, Membership, Role
    from prefscore.tournaments import generator, imports

    user = get_user_model().objects.create_user("bench-organiser", password=None)
    club = Club.objects.create(name="Bench club", slug="bench")
    Membership.objects.create(club=club, user=user, role=Role.ORGANISER)
    data = generator.tournament_file(options.players, options.rounds, 12)
    text = json.dumps(data, ensure_ascii=False)
    tournament = imports.import_tournament(club, imports.read_file(text), user)
    # A server's process holds no tournament file: the file's objects, kept, would make
    # every collection of the garbage collector during a request walk them.
    del data, text
    gc.collect()
    client = Client()
    client.force_login(user)
    base = f"/tournaments/{club.slug}/{tournament.slug}/"
    requests = {"page": base + "standings/", "csv": base + "export.csv"}

    def get(url: str) -> Any:
        response = client.get(url)
        assert response.status_code == 200, (url, response.status_code)
        return response

    print(f"{options.players} players × {options.rounds} rounds, tree {options.root}")
    for name, url in requests.items():  # warmed: imports, URLs, templates, caches
        response = get(url)
        if options.save:
            Path(options.save, f"{name}.out").write_bytes(response.content)
    if options.profile:
        profiler = cProfile.Profile()
        profiler.runcall(get, requests[options.profile])
        pstats.Stats(profiler).sort_stats(options.sort).print_stats(35)
        return
    queries = {}
    for name, url in requests.items():
        with CaptureQueriesContext(connection) as captured:
            get(url)
        queries[name] = len(captured)
    walls: dict[str, list[float]] = {name: [] for name in requests}
    cpus: dict[str, list[float]] = {name: [] for name in requests}
    for _ in range(options.repeat):
        for name, url in requests.items():
            wall, cpu = timed(lambda url=url: get(url))
            walls[name].append(wall)
            cpus[name].append(cpu)
    print(
        f"  {'request':<10}{'wall ms':>10}{'CPU ms':>10}{'best wall':>11}{'best CPU':>10}"
        f"{'queries':>9}   goal (median CPU)"
    )
    for name in requests:
        cpu = statistics.median(cpus[name])
        met = "met" if cpu < GOAL_CPU else "NOT met"
        print(
            f"  {name:<10}{statistics.median(walls[name]) * 1000:10.1f}{cpu * 1000:10.1f}"
            f"{min(walls[name]) * 1000:11.1f}{min(cpus[name]) * 1000:10.1f}"
            f"{queries[name]:9d}   {met}"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--players", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--repeat", type=int, default=9)
    parser.add_argument("--root", default=str(Path(__file__).resolve().parent.parent))
    parser.add_argument("--profile", choices=["page", "csv"])
    parser.add_argument("--sort", default="cumulative", help="cProfile's order (tottime)")
    parser.add_argument("--save", help="a folder for the two responses' bodies")
    options = parser.parse_args()
    print(f"load average before: {os.getloadavg()[0]:.2f}")
    with tempfile.TemporaryDirectory() as folder:
        setup(Path(options.root).resolve(), folder)
        run(options)
    print(f"load average after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
