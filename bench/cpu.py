"""CPU time of one request of each of bench/web.py's scenarios, in this process.

    .venv/bin/python bench/cpu.py [--repeat 40] [--profile SCENARIO] [--top 35]
                                  [--database-url URL]
                                  [--queries] [--middleware SCENARIO]

The same data as bench/web.py (a club, a member signed in, a pulka of 100 deals and
tables of 10) in a temporary SQLite database, with the bench settings (DEBUG off, the
cached template loader, each worker's local-memory cache), through the whole
middleware stack with Django's test client. Every scenario is requested once to warm
it (imports, templates, the version's cached regions), then ``--repeat`` times; the
median CPU time of this process per request is printed with the queries it made, and
its ratio to the bare view's. CPU time is what a request costs a core, whatever else
the machine runs, so these figures vary less than bench/web.py's throughput on a
shared machine. ``--profile`` prints where one scenario spends its time (cProfile,
sorted by own time, then by cumulative time); ``--middleware`` each middleware's own
CPU time in one scenario; ``--queries`` each scenario's SQL.

Scenarios: ``bare`` (a view that does nothing), ``poll304`` (nothing new), ``sheet``
(the 100-deal sheet page), ``poll200`` (the poll one version behind: the regions every
phone gets right after a deal, from the cache), ``record`` (a deal recorded with htmx
on a table of 10 deals, each repetition on the next table, which nobody has looked at
since it was made), ``record-seen`` (the same, on a table whose phones have seen its
version: a poll before the record, not counted, as at a real table), ``record-played``
(the same, on a table whose last ``PLAYED`` deals were recorded through the app, as an
evening goes).
"""

from __future__ import annotations

import argparse
import os
import secrets
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

BIG_DEALS = 100
TABLE_DEALS = 10
PLAYED = 6  # the harness's cycle of deal kinds: each dealer has dealt each kind before


def setup(folder: str, database_url: str | None = None) -> None:
    """The bench settings, as gunicorn runs them in bench/web.py, on a fresh database
    (a temporary SQLite file, or ``database_url``: an empty database of its own)."""
    os.environ.update(
        DEBUG="0",
        SECRET_KEY="bench-" + secrets.token_hex(24),
        ALLOWED_HOSTS="testserver",
        SECURE_SSL_REDIRECT="0",
        DATABASE_URL=database_url or f"sqlite:///{folder}/cpu.sqlite3",
        DJANGO_SETTINGS_MODULE="bench.webapp.settings",
        LOG_LEVEL="WARNING",
        # Room for every table's regions: the scenarios measure a request's cost with
        # its version in the cache, never the cache's bound (bench/load.py measures it).
        CACHE_MAX_ENTRIES="100000",
    )
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)


def world(tables: int) -> dict[str, Any]:
    from django.contrib.auth import get_user_model
    from harness.deals import NAMES
    from harness.seed import running_pulka, signed_in_session

    from prefscore.clubs.models import Club, Membership, Player, Role

    user = get_user_model().objects.create_user("cpu", password=None)
    club = Club.objects.create(name="Bench", slug="cpu")
    Membership.objects.create(club=club, user=user, role=Role.MEMBER)
    players = [Player.objects.create(club=club, name=name) for name in NAMES]
    big = running_pulka(club, players, BIG_DEALS, user)
    table_pks = [running_pulka(club, players, TABLE_DEALS, user).pk for _ in range(tables)]
    seen = [running_pulka(club, players, TABLE_DEALS, user).pk for _ in range(tables)]
    played = [running_pulka(club, players, TABLE_DEALS - PLAYED, user).pk for _ in range(tables)]
    return {
        "big": big.pk,
        "tables": table_pks,
        "seen": seen,
        "played": played,
        "session": signed_in_session(user),
    }


def scenarios(data: dict[str, Any]) -> dict[str, Callable[[], Any]]:
    from django.conf import settings
    from django.test import Client
    from harness.client import TICKET
    from harness.deals import cycle_form

    client = Client(enforce_csrf_checks=False)
    client.cookies[settings.SESSION_COOKIE_NAME] = data["session"]
    big = data["big"]
    page = client.get(f"/pulkas/{big}/")
    found = TICKET.search(page.content)
    if found is None:
        raise SystemExit("the sheet page shows no poll ticket")
    ticket = found.group(1).decode()
    hx = {"HX-Request": "true"}
    tables = iter(data["tables"])
    seen_tables = iter(data["seen"])
    played_tables = iter(data["played"])

    def record() -> Any:
        pk = next(tables)
        return client.post(f"/pulkas/{pk}/deals/", cycle_form(TABLE_DEALS + 1), headers=hx)

    def record_seen() -> Any:
        pk = next(seen_tables)
        return client.post(f"/pulkas/{pk}/deals/", cycle_form(TABLE_DEALS + 1), headers=hx)

    def record_played() -> Any:
        pk = next(played_tables)
        return client.post(f"/pulkas/{pk}/deals/", cycle_form(TABLE_DEALS + 1), headers=hx)

    for pk in data["seen"]:  # each table's phones have seen its version (not measured)
        client.get(f"/pulkas/{pk}/poll/?v=0", headers=hx)
    for pk in data["played"]:  # the evening so far, through the app (not measured)
        for number in range(TABLE_DEALS - PLAYED + 1, TABLE_DEALS + 1):
            answer = client.post(f"/pulkas/{pk}/deals/", cycle_form(number), headers=hx)
            if answer.status_code != 200:
                raise SystemExit(f"recording deal {number} answered {answer.status_code}")

    return {
        "bare": lambda: client.get("/bench/bare/"),
        "poll304": lambda: client.get(f"/pulkas/{big}/poll/?v={BIG_DEALS}&t={ticket}", headers=hx),
        "sheet": lambda: client.get(f"/pulkas/{big}/"),
        "poll200": lambda: client.get(
            f"/pulkas/{big}/poll/?v={BIG_DEALS - 1}&t={ticket}", headers=hx
        ),
        "record": record,
        "record-seen": record_seen,
        "record-played": record_played,
    }


EXPECTED = {
    "bare": 200,
    "poll304": 304,
    "sheet": 200,
    "poll200": 200,
    "record": 200,
    "record-seen": 200,
    "record-played": 200,
}


def measure(
    call: Callable[[], Any], repeat: int, expected: int, show: bool = False
) -> tuple[float, float, int]:
    """Median CPU and wall milliseconds per request, and the queries of the last one."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    cpu, wall = [], []
    queries = 0
    for _ in range(repeat):
        with CaptureQueriesContext(connection) as captured:
            started, began = time.process_time(), time.perf_counter()
            response = call()
            cpu.append(time.process_time() - started)
            wall.append(time.perf_counter() - began)
        if response.status_code != expected:
            raise SystemExit(f"HTTP {response.status_code}, expected {expected}")
        queries = len(captured.captured_queries)
    if show:
        for query in captured.captured_queries:
            print("    ", query["sql"][:300])
    return statistics.median(cpu) * 1000, statistics.median(wall) * 1000, queries


def profile(call: Callable[[], Any], top: int) -> None:
    import cProfile
    import pstats

    profiler = cProfile.Profile()
    for _ in range(5):
        profiler.enable()
        call()
        profiler.disable()
    stats = pstats.Stats(profiler)
    stats.sort_stats("tottime").print_stats(top)
    stats.sort_stats("cumulative").print_stats(top)


def middleware_costs(call: Callable[[], Any], repeat: int) -> None:
    """Each middleware's own CPU time per request: the time inside its ``__call__`` less
    the time inside the next one's (the last one's includes the view)."""
    from collections import defaultdict

    from django.conf import settings
    from django.utils.module_loading import import_string

    names = list(settings.MIDDLEWARE)
    inside: dict[str, float] = defaultdict(float)
    patched = []
    for name in names:
        cls = import_string(name)
        original = cls.__dict__.get("__call__")

        def timed(self: Any, request: Any, _call: Any = cls.__call__, _name: str = name) -> Any:
            started = time.process_time()
            try:
                return _call(self, request)
            finally:
                inside[_name] += time.process_time() - started

        cls.__call__ = timed
        patched.append((cls, original))
    try:
        for _ in range(repeat):
            call()
    finally:
        for cls, original in patched:
            if original is None:
                del cls.__call__
            else:
                cls.__call__ = original
    print(f"{'middleware':58} {'own CPU ms':>10}")
    for position, name in enumerate(names):
        after = inside[names[position + 1]] if position + 1 < len(names) else 0.0
        label = name if position + 1 < len(names) else f"{name} (and the view)"
        print(f"{label:58} {(inside[name] - after) / repeat * 1000:10.3f}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=40)
    parser.add_argument("--profile", choices=sorted(EXPECTED), help="cProfile one scenario")
    parser.add_argument("--top", type=int, default=35)
    parser.add_argument("--queries", action="store_true", help="print each scenario's SQL")
    parser.add_argument(
        "--middleware", choices=sorted(EXPECTED), help="each middleware's own CPU in a scenario"
    )
    parser.add_argument(
        "--database-url",
        help="an empty database to use instead of SQLite (e.g. a throwaway PostgreSQL)",
    )
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="prefscore-cpu-") as folder:
        setup(folder, args.database_url)
        data = world(args.repeat + 10)
        calls = scenarios(data)
        for call in calls.values():
            call()  # warm: imports, templates, the version's regions in the cache
        if args.profile:
            profile(calls[args.profile], args.top)
            return 0
        if args.middleware:
            middleware_costs(calls[args.middleware], args.repeat)
            return 0
        one, five, _ = os.getloadavg()
        print(f"load average {one:.2f}, {five:.2f} on {os.cpu_count()} cores; "
              f"median of {args.repeat} requests each, in-process")  # fmt: skip
        print(f"{'scenario':13} {'CPU ms':>7} {'wall ms':>8} {'queries':>7} {'bare/CPU':>9}")
        bare = 0.0
        for name, call in calls.items():
            cpu, wall, queries = measure(call, args.repeat, EXPECTED[name], args.queries)
            bare = bare or cpu
            print(f"{name:13} {cpu:7.2f} {wall:8.2f} {queries:7d} {bare / cpu:9.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
