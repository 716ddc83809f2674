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

``--baseline COMMIT``: that commit's standings code (``BEFORE_MODULES`` and the page's
template) loaded from git beside today's; each request then runs before and now in
turns, in this one process, with the mean CPU the garbage collector took in each.
``--freeze``: first freeze what the process holds, as ``prefscore.heap`` does when a
server starts (the collector then no longer walks it).
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
import subprocess
import sys
import tempfile
import time
import types
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


class Collections:
    """The CPU seconds the garbage collector spent, through ``gc.callbacks``."""

    def __init__(self) -> None:
        self.spent = 0.0
        self._started = 0.0
        gc.callbacks.append(self)

    def __call__(self, phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            self._started = time.process_time()
        else:
            self.spent += time.process_time() - self._started


COLLECTIONS: Collections | None = None


def timed(call: Callable[[], Any]) -> tuple[float, float]:
    wall, cpu = time.perf_counter(), time.process_time()
    call()
    return time.perf_counter() - wall, time.process_time() - cpu


def timed_gc(call: Callable[[], Any]) -> tuple[float, float, float]:
    """Wall and CPU seconds of ``call()``, and the collector's share of the CPU."""
    assert COLLECTIONS is not None
    before = COLLECTIONS.spent
    wall, cpu = timed(call)
    return wall, cpu, COLLECTIONS.spent - before


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
    if options.baseline:
        in_turns(options, get, requests)
        return
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


# --- the code before, beside today's (--baseline) ------------------------------------------

# What the standings page and its CSV ran at the baseline, each file loaded from git into
# a module of its own beside today's: the stored results' reading, the CSV's cells, the
# page's presenter and its template.
BEFORE_MODULES = {
    "prefscore.tournaments.results": "prefscore/tournaments/results.py",
    "prefscore.spreadsheet": "prefscore/spreadsheet.py",
    "prefscore.tournaments.presenters.tournament": "prefscore/tournaments/presenters/tournament.py",
}
BEFORE_TEMPLATE = "tournaments/standings.html"


def git_show(commit: str, path: str) -> str:
    root = Path(__file__).resolve().parent.parent
    found = subprocess.run(
        ["git", "show", f"{commit}:{path}"], cwd=root, capture_output=True, text=True, check=True
    )
    return found.stdout


def before_module(commit: str, name: str, path: str) -> types.ModuleType:
    package, _, leaf = name.rpartition(".")
    module = types.ModuleType(f"{package}._before_{leaf}")
    module.__package__ = package
    module.__file__ = f"{commit}:{path}"
    sys.modules[module.__name__] = module  # dataclasses look their module up
    exec(compile(git_show(commit, path), module.__file__, "exec"), module.__dict__)
    return module


def switches(commit: str, folder: str) -> dict[str, Callable[[], None]]:
    """Two calls that put the code before (``before``) or today's (``now``) in place."""
    from django.template import engines

    from prefscore.tournaments import exports, results
    from prefscore.tournaments.views import tournament as view

    old = {name: before_module(commit, name, path) for name, path in BEFORE_MODULES.items()}
    old_results = old["prefscore.tournaments.results"]
    old_cells = old["prefscore.spreadsheet"]
    old_presenter = old["prefscore.tournaments.presenters.tournament"]
    # The template before, under a name of its own in a folder the engine reads too.
    named = Path(folder, "bench-before", BEFORE_TEMPLATE)
    named.parent.mkdir(parents=True)
    named.write_text(git_show(commit, f"templates/{BEFORE_TEMPLATE}"), encoding="utf-8")
    engines["django"].engine.dirs = [*engines["django"].engine.dirs, Path(folder)]
    today = (results.counted_tables, exports.figure_cell, view.standings_table, view.render_page)
    render_page = view.render_page

    def render_before(request: Any, template: str, *args: Any, **kwargs: Any) -> Any:
        name = f"bench-before/{template}" if template == BEFORE_TEMPLATE else template
        return render_page(request, name, *args, **kwargs)

    def before() -> None:
        results.counted_tables = old_results.counted_tables
        exports.figure_cell = old_cells.figure_cell
        view.standings_table = old_presenter.standings_table
        view.render_page = render_before

    def now() -> None:
        (results.counted_tables, exports.figure_cell, view.standings_table, view.render_page) = (
            today
        )

    return {"before": before, "now": now}


def in_turns(
    options: argparse.Namespace, get: Callable[[str], Any], requests: dict[str, str]
) -> None:
    """Each request before and now in turns, ``--repeat`` times, in this process; the
    bodies compared once (the page's whitespace between tags aside)."""
    global COLLECTIONS
    with tempfile.TemporaryDirectory() as folder:
        turn = switches(options.baseline, folder)
        bodies = {}
        for side in ("before", "now"):
            turn[side]()
            bodies[side] = {name: get(url).content for name, url in requests.items()}
        turn["now"]()
        if options.freeze:  # what prefscore.heap.freeze_startup does when a server starts
            gc.collect()
            gc.freeze()
        COLLECTIONS = Collections()
        same_csv = bodies["before"]["csv"] == bodies["now"]["csv"]
        print(f"  the CSV byte for byte the same before and now: {same_csv}")
        sizes = {side: len(bodies[side]["page"]) for side in bodies}
        print(f"  the page's bytes: {sizes['before']:,} before, {sizes['now']:,} now")
        times: dict[tuple[str, str], list[tuple[float, float, float]]] = {}
        for _ in range(options.repeat):
            for name, url in requests.items():
                for side in ("before", "now"):
                    turn[side]()
                    times.setdefault((name, side), []).append(timed_gc(lambda url=url: get(url)))
        turn["now"]()
    frozen = f", {gc.get_freeze_count():,} objects frozen" if options.freeze else ""
    print(f"  the start-up's objects frozen: {options.freeze}{frozen}")
    print(
        f"  {'request':<14}{'wall ms':>10}{'CPU ms':>10}{'best wall':>11}{'best CPU':>10}"
        f"{'GC ms':>8}{'CPU now/before':>16}"
    )
    for name in requests:
        medians = {}
        for side in ("before", "now"):
            walls = [wall for wall, _cpu, _gc in times[(name, side)]]
            cpus = [cpu for _wall, cpu, _gc in times[(name, side)]]
            collected = [spent for _wall, _cpu, spent in times[(name, side)]]
            medians[side] = statistics.median(cpus)
            ratio = f"{medians['now'] / medians['before']:16.2f}" if side == "now" else ""
            print(
                f"  {name + ' ' + side:<14}{statistics.median(walls) * 1000:10.1f}"
                f"{medians[side] * 1000:10.1f}{min(walls) * 1000:11.1f}{min(cpus) * 1000:10.1f}"
                f"{statistics.mean(collected) * 1000:8.1f}{ratio}"
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
    parser.add_argument(
        "--freeze",
        action="store_true",
        help="freeze the objects made so far, as prefscore.heap does when a server starts",
    )
    parser.add_argument(
        "--baseline",
        help="a commit: its standings code beside today's, in turns in this process",
    )
    options = parser.parse_args()
    print(f"load average before: {os.getloadavg()[0]:.2f}")
    with tempfile.TemporaryDirectory() as folder:
        setup(Path(options.root).resolve(), folder)
        run(options)
    print(f"load average after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
