"""How fast the table screen answers under gunicorn, against a bare Django view.

    .venv/bin/python bench/web.py [--seconds 4] [--tables 50] [--workers 2] [--pace 2]
                                  [--sqlite-tuned] [--cookie-sessions]

Prepares a temporary SQLite database (or uses DATABASE_URL when it is set) with a club,
a user, a pulka of 100 deals and ``--tables`` running pulkas; starts gunicorn with two
workers on 127.0.0.1 (DEBUG off, the bench's own settings module adds a bare view to
the URLs); then loads it from threads with keep-alive HTTP connections, each scenario
bounded in time and in requests:

- the bare view (the baseline, measured in the same run);
- the poll while nothing changed (304), the request every device makes every 2 s;
- the sheet page of the 100-deal pulka;
- the poll answering 200 with the new regions, as every phone at a table gets it right
  after a deal (its ``?v=`` one behind): the first phone's answer renders the version's
  shared regions, the others' take them from the cache (prefscore/games/render_cache.py);
- recording a deal with htmx while ``--tables`` tables record at once: each table
  records a deal every ``--pace`` seconds on average (a real table takes a minute or
  more per deal), and again with every table posting at the same instant (a burst).

``--sqlite-tuned`` measures SQLite as it could be configured for several workers
(``BEGIN IMMEDIATE``, write-ahead logging, persistent connections) and
``--cookie-sessions`` signed-cookie sessions (no session query), instead of as
prefscore's settings leave them; see bench/webapp/settings.py.

Goals (docs/load.md, "Benchmarks"; docs/benchmarks.md, the diary's "Web"): the poll at least
half the bare view's throughput; recording a deal under 100 ms at the 95th percentile with
50 tables recording at once; the sheet page and the poll answering 200 each at least 0.2
of the bare view's throughput. The load average (``uptime``) is printed before and after:
the machine is shared. The run stops by itself (a watchdog ends it after three minutes at
most) and removes what it made.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import threading
import time
from collections.abc import Callable
from typing import Any

# Run as a script, so bench/ is on the path: the harness is shared with the other bench
# and the browser tests.
from harness.client import Answer, Client, Series, closed_loop, poll_ticket
from harness.deals import NAMES, cycle_form
from harness.server import BARE, HOST, bounded_run, gunicorn, in_child, server_env

BIG_DEALS = 100
TABLE_DEALS = 10
WATCHDOG_SECONDS = 180
POLL_GOAL = 0.5
SHEET_GOAL = 0.2  # the sheet page and the poll answering 200
RECORD_GOAL_MS = 100.0
NEXT_NUMBER = re.compile(rb'name="number" value="(\d+)"')


# --- preparing the database (runs in a child process with the bench settings) ---------


def prepare(tables: int) -> dict[str, Any]:
    """Migrate, then make the club, the user, the pulkas and a signed-in session."""
    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from harness.seed import running_pulka, signed_in_session

    from prefscore.clubs.models import Club, Membership, Player, Role

    call_command("migrate", verbosity=0)
    user = get_user_model().objects.create_user(f"bench-{os.getpid()}", password=None)
    club = Club.objects.create(name="Bench", slug=f"bench-{os.getpid()}")
    Membership.objects.create(club=club, user=user, role=Role.MEMBER)
    players = [Player.objects.create(club=club, name=name) for name in NAMES]
    big = running_pulka(club, players, BIG_DEALS, user)
    table_pks = [running_pulka(club, players, TABLE_DEALS, user).pk for _ in range(tables)]
    return {"big": big.pk, "tables": table_pks, "session": signed_in_session(user)}


# --- load ------------------------------------------------------------------------------


def tables_recording(
    name: str, port: int, session: str, tables: list[int], seconds: float, pace: float | None
) -> Series:
    """Every table records its next deals with htmx: paced, or all at the same instant.

    Paced: each table records a deal every ``pace`` seconds on average (random gaps).
    Burst (``pace`` None): rounds in which every table posts at once, released together
    by a barrier. A table takes the number of its next deal from each answer's fresh
    form, as the browser does.
    """
    series = Series(name)
    deadline = time.perf_counter() + seconds
    rounds = max(1, int(seconds))
    barrier = threading.Barrier(len(tables))
    rng = random.Random(4)

    def table(pk: int) -> None:
        client = Client(port, session, htmx=True)
        path = f"/pulkas/{pk}/deals/"

        def call() -> Answer:
            answer = client.request("POST", path, cycle_form(next_numbers[pk]))
            found = NEXT_NUMBER.search(answer.body)
            if found:
                next_numbers[pk] = int(found.group(1))
            return answer

        if pace is not None:
            time.sleep(rng.random() * pace)
        for _ in range(rounds if pace is None else 1_000_000):
            if pace is None:
                try:
                    barrier.wait(timeout=30)
                except threading.BrokenBarrierError:
                    return
            elif time.perf_counter() >= deadline:
                return
            began = time.perf_counter()
            series.expect(200, call)
            if pace is not None:
                gap = pace * (0.5 + rng.random())
                time.sleep(max(0.0, gap - (time.perf_counter() - began)))

    started = time.perf_counter()
    pool = [threading.Thread(target=table, args=(pk,), daemon=True) for pk in tables]
    for t in pool:
        t.start()
    for t in pool:
        t.join(seconds + 60)
    series.seconds = time.perf_counter() - started
    return series


# The next deal number of each table's pulka, as its last answer's form gave it.
next_numbers: dict[int, int] = {}


# --- report ----------------------------------------------------------------------------


def report(results: list[Series], bare: Series) -> None:
    print()
    print(
        f"{'scenario':44} {'requests':>8} {'req/s':>8} {'× bare':>7} {'p50 ms':>7} {'p95 ms':>7} {'errors':>6}"
    )
    for r in results:
        ratio = r.throughput / bare.throughput if bare.throughput else float("nan")
        print(
            f"{r.name:44} {len(r.latencies):8d} {r.throughput:8.1f} {ratio:7.2f} "
            f"{r.percentile(50):7.1f} {r.percentile(95):7.1f} {r.error_count:6d}"
        )  # fmt: skip
    print()


def ratio_goal(name: str, series: Series, bare: Series, goal: float) -> None:
    ratio = series.throughput / bare.throughput if bare.throughput else 0.0
    met = ratio >= goal and not series.error_count
    print(f"goal: {name} ≥ {goal:.1f}× the bare view's throughput: {ratio:.2f}× "
          f"— {'met' if met else 'NOT met'}")  # fmt: skip


def load_average() -> str:
    one, five, fifteen = os.getloadavg()
    return f"load average {one:.2f}, {five:.2f}, {fifteen:.2f} ({os.cpu_count()} cores)"


def goals(poll: Series, bare: Series, paced: Series, tables: int) -> None:
    ratio = poll.throughput / bare.throughput if bare.throughput else 0.0
    p95 = paced.percentile(95)
    met = ratio >= POLL_GOAL
    print(f"goal: poll ≥ {POLL_GOAL:.0%} of the bare view's throughput: {ratio:.0%} "
          f"— {'met' if met else 'NOT met'}")  # fmt: skip
    met = p95 < RECORD_GOAL_MS and not paced.error_count
    print(f"goal: recording p95 < {RECORD_GOAL_MS:.0f} ms with {tables} tables, no errors: "
          f"{p95:.1f} ms, {paced.error_count} errors — {'met' if met else 'NOT met'}")  # fmt: skip


# --- main ------------------------------------------------------------------------------


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=4.0, help="per throughput scenario")
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument(
        "--pace", type=float, default=2.0, help="seconds between a table's deals (~2)"
    )
    parser.add_argument(
        "--sqlite-tuned",
        action="store_true",
        help="SQLite with BEGIN IMMEDIATE, WAL and persistent connections (bench/webapp)",
    )
    parser.add_argument(
        "--cookie-sessions",
        action="store_true",
        help="signed-cookie sessions instead of database sessions (bench/webapp)",
    )
    parser.add_argument("--prepare", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.prepare:
        print(json.dumps(prepare(args.tables)))
        return
    with bounded_run("bench/web.py", WATCHDOG_SECONDS, "prefscore-bench-") as workdir:
        database_url = os.environ.get("DATABASE_URL") or f"sqlite:///{workdir / 'bench.sqlite3'}"
        extra = {"BENCH_SQLITE_TUNED": "1"} if args.sqlite_tuned else {}
        if args.cookie_sessions:
            extra["BENCH_COOKIE_SESSIONS"] = "1"
        env = server_env(database_url, **extra)
        print(load_average(), flush=True)
        print(f"preparing {database_url.split('@')[-1]} …", flush=True)
        data = in_child(__file__, env, "--prepare", "--tables", str(args.tables))
        with gunicorn(env, args.workers, workdir) as port:
            print(f"gunicorn, {args.workers} workers, on {HOST}:{port}", flush=True)
            run(args, port, data)


def run(args: argparse.Namespace, port: int, data: dict[str, Any]) -> None:
    session, big, tables = data["session"], data["big"], data["tables"]
    next_numbers.update({pk: TABLE_DEALS + 1 for pk in tables})
    seconds, cap = args.seconds, 50_000
    concurrency = 2 * args.workers

    def get(path: str, signed_in: bool = True, htmx: bool = False) -> Callable[[int], Any]:
        def make(index: int) -> Callable[[], Answer]:
            client = Client(port, session if signed_in else "", htmx)
            return lambda: client.request("GET", path)

        return make

    # Warm each worker (imports, template compilation) before measuring.
    closed_loop("warm-up", concurrency, 1.5, get(f"/pulkas/{big}/"), max_requests=200)
    closed_loop("warm-up", concurrency, 0.5, get(BARE, signed_in=False), max_requests=200)
    bare = closed_loop("bare Django view", concurrency, seconds, get(BARE, False), 200, cap)
    ticket = poll_ticket(Client(port, session), big)
    if not ticket:
        raise SystemExit("the sheet page shows no poll ticket")
    poll_path = f"/pulkas/{big}/poll/?v={BIG_DEALS}&t={ticket}"
    poll = closed_loop(
        "poll, nothing new (304)", concurrency, seconds, get(poll_path, htmx=True), 304, cap
    )
    sheet = closed_loop(
        f"sheet page, {BIG_DEALS} deals", concurrency, seconds, get(f"/pulkas/{big}/"), 200, cap
    )
    stale = f"/pulkas/{big}/poll/?v={BIG_DEALS - 1}&t={ticket}"
    fresh = closed_loop(
        "poll, new regions (200)", concurrency, seconds, get(stale, htmx=True), 200, cap
    )
    paced = tables_recording(
        f"record a deal, {len(tables)} tables, one each ~{args.pace:g} s",
        port,
        session,
        tables,
        max(10.0, 2.5 * seconds),
        args.pace,
    )
    burst = tables_recording(
        f"record a deal, {len(tables)} tables at one instant", port, session, tables, seconds, None
    )
    report([bare, poll, sheet, fresh, paced, burst], bare)
    goals(poll, bare, paced, len(tables))
    ratio_goal(f"sheet page of {BIG_DEALS} deals", sheet, bare, SHEET_GOAL)
    ratio_goal("poll answering 200", fresh, bare, SHEET_GOAL)
    print(load_average())
    odd = {r.name: r.errors for r in (bare, poll, sheet, fresh, paced, burst) if r.errors}
    if odd:
        print("unexpected answers:", odd)


if __name__ == "__main__":
    main()
