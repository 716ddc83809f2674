"""The sheet page against a Django view with no middleware, and the private reads against
the plain ORM: side by side, in one run, in this process.

    .venv/bin/python bench/sheet_page.py [--rounds 8] [--slice 0.5] [--deals 25]
    .venv/bin/python bench/sheet_page.py --server [--rounds 5] [--slice 3] [--workers 2]

The data of bench/cpu.py (its settings: DEBUG off, the cached template loader, each
worker's local-memory cache; a temporary SQLite database), with a member signed in and
a pulka of ``--deals`` deals (25: an evening's pulka half played). Every scenario is
requested once to warm it, then the scenarios take turns, ``--rounds`` times, each for
``--slice`` seconds of wall time; each turn counts its requests per second, and each
round's ratio is taken within the round, so that the machine's other work weighs on
both sides alike. Every answer's status is checked (the sheet page: 200).

1. **The sheet page × a bare view** (docs/benchmarks.md, "The sheet page"): the sheet
   page through the whole middleware stack against a view that returns "ok" through
   none (a handler made with ``MIDDLEWARE = []``). Goal: at least 0.1.
2. **The private reads × the plain ORM**: three things are read on most requests: the
   sheet's rows (the pulka, its club, links, seats and the viewer's role), the
   signed-in user and the session. Each is read in plain SQL made once from the
   models' metadata, its rows turned into instances with ``Model.from_db``
   (``games/sheet_read.py``, ``web/auth.py``, ``web/sessions.py``). Each read is
   taken either way (the ORM: ``select_related``, ``prefetch_related``, Django's
   backend and session store), alone and all at once, on the sheet page (its regions
   in the cache, as every load after the version's first) and on the poll (304 and
   200: what every phone asks every 2 s, and after each deal); then each read alone,
   in a loop. At a real table's pace (``REAL_HOUR``) the difference per read is
   turned into CPU seconds per table-hour.

``--server`` measures the sheet page × the bare view as bench/web.py does, through a real
server: gunicorn with ``--workers`` sync workers on 127.0.0.1 (bench/harness/server.py;
SQLite in write-ahead mode with its connections kept open, as ``bench/web.py
--sqlite-tuned``), loaded by ``2 × --workers`` closed-loop clients over keep-alive HTTP.
The bare view is answered by a handler with no middleware in the same gunicorn
(bench/webapp/wsgi.py), so that both sides pay the same server, socket and HTTP parsing;
the bare view through the whole stack is timed beside them for reference. The scenarios
take turns for ``--slice`` seconds, ``--rounds`` times, each round's ratio taken within
the round; every answer's status is checked (200), and any other counts as an error.
The in-process ratio is the harsher one: there the bare view pays nothing but Django.
"""

from __future__ import annotations

import argparse
import contextlib
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

GOAL = 0.1
WATCHDOG_SECONDS = 600
# A real table's hour: four phones, 30 deals (a deal every two minutes), each recorded
# by one phone and answered by a poll answering 200 on the three others; the sheet page
# opened by each phone three times (a reload, a phone woken up). The polls answering
# 304 (every 2 s) read none of the three (their ticket, games/poll_tickets.py). Each of
# these requests reads each of the three once.
REAL_HOUR = {"record": 30, "poll200": 30 * 3, "sheet": 4 * 3}


def world(deals: int) -> dict[str, Any]:
    from django.contrib.auth import get_user_model
    from harness.deals import NAMES
    from harness.seed import running_pulka, signed_in_session

    from prefscore.clubs.models import Club, Membership, Player, Role

    user = get_user_model().objects.create_user("sheet", password=None)
    club = Club.objects.create(name="Bench", slug="sheet")
    Membership.objects.create(club=club, user=user, role=Role.MEMBER)
    players = [Player.objects.create(club=club, name=name) for name in NAMES]
    pulka = running_pulka(club, players, deals, user)
    return {"pulka": pulka.pk, "deals": deals, "session": signed_in_session(user)}


# --- each read, private (as shipped) and through the ORM ----------------------------------

CALLS = [0]  # how many times a read ran: a request that makes none is not timed


def private_read_sheet(user_id: Any, pk: int) -> Any:
    from prefscore.games.sheet_read import read_sheet

    CALLS[0] += 1
    return read_sheet(user_id, pk)


def orm_read_sheet(user_id: Any, pk: int) -> tuple[Any, tuple[Any, ...], str | None] | None:
    """``sheet_read.read_sheet`` through the ORM: the pulka with its club, links and the
    viewer's role (one query), its seats with their players (a second)."""
    from django.db.models import OuterRef, Prefetch, Subquery

    from prefscore.clubs.models import Membership
    from prefscore.games.models import Pulka, PulkaSeat

    CALLS[0] += 1
    role = Membership.objects.filter(club_id=OuterRef("club_id"), user_id=user_id)
    seats = PulkaSeat.objects.select_related("player").order_by("seat")
    rows = (
        Pulka.objects.select_related("club", "links")
        .annotate(viewer_role=Subquery(role.order_by("pk").values("role")[:1]))
        .prefetch_related(Prefetch("seats", queryset=seats))
    )
    pulka = rows.filter(pk=pk).first()
    if pulka is None:
        return None
    return pulka, tuple(pulka.seats.all()), pulka.viewer_role


def private_get_user(backend: Any, user_id: Any) -> Any:
    from prefscore.web.auth import PlainUserRead

    CALLS[0] += 1
    return PlainUserRead.get_user(backend, user_id)


def orm_get_user(backend: Any, user_id: Any) -> Any:
    """The user as Django's ``ModelBackend`` reads him."""
    from django.contrib.auth.backends import ModelBackend

    CALLS[0] += 1
    return ModelBackend.get_user(backend, user_id)


_SHIPPED_SESSION: list[Any] = []  # web/sessions.py's read, before any swap


def private_session(store: Any) -> Any:
    CALLS[0] += 1
    return _SHIPPED_SESSION[0](store)


def orm_session(store: Any) -> Any:
    """The session as Django's database store reads it."""
    from django.contrib.sessions.backends import db

    CALLS[0] += 1
    return db.SessionStore._get_session_from_db(store)


READS = {
    "sheet": (private_read_sheet, orm_read_sheet),
    "user": (private_get_user, orm_get_user),
    "session": (private_session, orm_session),
}


@contextlib.contextmanager
def swapped(orm: frozenset[str]) -> Iterator[None]:
    """Each read private, or through the ORM when named in ``orm``, for the block."""
    from prefscore.clubs.ratelimit import RateLimitedModelBackend
    from prefscore.games import access
    from prefscore.web import sessions

    saved = (access.read_sheet, sessions.SessionStore.__dict__["_get_session_from_db"])
    if not _SHIPPED_SESSION:
        _SHIPPED_SESSION.append(saved[1])
    pick = {name: READS[name][name in orm] for name in READS}
    try:
        access.read_sheet = pick["sheet"]
        RateLimitedModelBackend.get_user = pick["user"]  # type: ignore[method-assign]
        sessions.SessionStore._get_session_from_db = pick["session"]  # type: ignore[method-assign]
        yield
    finally:
        access.read_sheet = saved[0]
        del RateLimitedModelBackend.get_user  # its own is PlainUserRead's
        sessions.SessionStore._get_session_from_db = saved[1]  # type: ignore[method-assign]


ARMS = {
    "as shipped": frozenset(),
    "ORM: sheet read": frozenset({"sheet"}),
    "ORM: user read": frozenset({"user"}),
    "ORM: session read": frozenset({"session"}),
    "ORM: user, session": frozenset({"user", "session"}),
    "all ORM": frozenset({"sheet", "user", "session"}),
}
BASE = "as shipped"


def micro(data: dict[str, Any], repeat: int = 1000) -> None:
    """Each read alone, private and through the ORM: CPU µs per read, best of 5."""
    from django.contrib.auth import get_user_model

    from prefscore.clubs.ratelimit import RateLimitedModelBackend
    from prefscore.web.sessions import SessionStore

    user = get_user_model().objects.get(username="sheet").pk
    backend, key, pk = RateLimitedModelBackend(), data["session"], data["pulka"]
    calls = {
        "sheet": lambda read: read(user, pk),
        "user": lambda read: read(backend, user),
        "session": lambda read: read(SessionStore(key)),
    }
    pace = ", ".join(f"{count} {name}" for name, count in REAL_HOUR.items())
    print(f"\neach read alone, CPU µs per read (best of 5 runs of {repeat}); a table-hour: {pace}")
    for name, (private, orm) in READS.items():
        found = []
        for read in (private, orm):
            runs = []
            for _ in range(5):
                started = time.process_time()
                for _ in range(repeat):
                    calls[name](read)
                runs.append((time.process_time() - started) / repeat * 1e6)
            found.append(min(runs))
        hour = (found[1] - found[0]) * sum(REAL_HOUR.values()) / 1e6
        print(
            f"  {name:8} private {found[0]:6.0f}  ORM {found[1]:6.0f}  "
            f"ORM / private {found[1] / found[0]:4.1f}×; through the ORM at a real "
            f"table's pace: {hour:+.2f} CPU s per table-hour"
        )


# --- the requests ---------------------------------------------------------------------


def requests(data: dict[str, Any]) -> dict[str, tuple[Callable[[], Any], int]]:
    from django.conf import settings
    from django.test import Client, override_settings
    from harness.client import TICKET

    pk = data["pulka"]
    member = Client()
    member.cookies[settings.SESSION_COOKIE_NAME] = data["session"]
    page = member.get(f"/pulkas/{pk}/")
    if page.status_code != 200:
        raise SystemExit(f"the sheet page answered {page.status_code}")
    found = TICKET.search(page.content)
    if found is None:
        raise SystemExit("the sheet page shows no poll ticket")
    ticket = found.group(1).decode()
    bare = Client()
    with override_settings(MIDDLEWARE=[]):  # the handler loads its middleware once
        if bare.get("/bench/bare/").status_code != 200:
            raise SystemExit("the bare view did not answer 200")
    hx = {"HX-Request": "true"}
    version = data["deals"]
    return {
        "bare": (lambda: bare.get("/bench/bare/"), 200),
        "sheet": (lambda: member.get(f"/pulkas/{pk}/"), 200),
        "poll304": (
            lambda: member.get(f"/pulkas/{pk}/poll/?v={version}&t={ticket}", headers=hx),
            304,
        ),
        "poll200": (
            lambda: member.get(f"/pulkas/{pk}/poll/?v={version - 1}&t={ticket}", headers=hx),
            200,
        ),
    }


def turn(call: Callable[[], Any], expected: int, seconds: float) -> tuple[float, float]:
    """Requests per second over ``seconds`` of wall time, and CPU ms per request."""
    count = 0
    cpu, began = time.process_time(), time.perf_counter()
    while True:
        response = call()
        if response.status_code != expected:
            raise SystemExit(f"HTTP {response.status_code}, expected {expected}")
        count += 1
        elapsed = time.perf_counter() - began
        if elapsed >= seconds:
            return count / elapsed, (time.process_time() - cpu) / count * 1000


def queries(call: Callable[[], Any]) -> int:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as captured:
        call()
    return len(captured.captured_queries)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=None, help="8 in process, 5 --server")
    parser.add_argument("--slice", type=float, default=None, help="seconds per turn")
    parser.add_argument("--deals", type=int, default=25)
    parser.add_argument("--server", action="store_true", help="through gunicorn and HTTP")
    parser.add_argument("--workers", type=int, default=2, help="gunicorn's, with --server")
    parser.add_argument("--prepare", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.prepare:  # in a child, with the server's settings and database
        import json

        import django

        django.setup()
        from django.core.management import call_command

        call_command("migrate", verbosity=0)
        print(json.dumps(world(args.deals)))
        return
    if args.server:
        served(args.rounds or 5, args.slice or 3.0, args.deals, args.workers)
        return
    args.rounds, args.slice = args.rounds or 8, args.slice or 0.5
    with tempfile.TemporaryDirectory() as folder:
        from cpu import setup

        setup(folder)
        data = world(args.deals)
        calls = requests(data)
        run(calls, args.rounds, args.slice, args.deals)
        micro(data)


def run(
    calls: dict[str, tuple[Callable[[], Any], int]], rounds: int, seconds: float, deals: int
) -> None:
    import os

    print(f"load average before: {os.getloadavg()[0]:.1f}")
    turns = [("bare", "as shipped")] + [
        (scenario, arm) for scenario in ("sheet", "poll304", "poll200") for arm in ARMS
    ]
    for scenario, arm in turns:  # warm each, and count its queries
        with swapped(ARMS[arm]):
            calls[scenario][0]()
    untouched = set()
    for scenario, arm in turns:
        CALLS[0] = 0
        with swapped(ARMS[arm]):
            made = queries(calls[scenario][0])
        if scenario != "bare" and not CALLS[0]:  # the request makes none of these reads
            untouched.add((scenario, arm))
        print(f"  {scenario:8} {arm:18} {made} queries{' (none of its reads)' * (not CALLS[0])}")
    turns = [t for t in turns if t not in untouched]
    rps: dict[tuple[str, str], list[float]] = {t: [] for t in turns}
    cpu: dict[tuple[str, str], list[float]] = {t: [] for t in turns}
    ratio: list[float] = []
    for number in range(rounds):
        order = turns[number % len(turns) :] + turns[: number % len(turns)]
        found: dict[tuple[str, str], float] = {}
        for scenario, arm in order:
            call, expected = calls[scenario]
            with swapped(ARMS[arm]):
                per_second, ms = turn(call, expected, seconds)
            found[scenario, arm] = per_second
            rps[scenario, arm].append(per_second)
            cpu[scenario, arm].append(ms)
        ratio.append(found["sheet", "as shipped"] / found["bare", "as shipped"])
    print(f"load average after: {os.getloadavg()[0]:.1f}")
    bare = statistics.median(rps["bare", "as shipped"])
    sheet = statistics.median(rps["sheet", "as shipped"])
    print(
        f"\nsheet page, {deals} deals: {sheet:,.0f} req/s; bare view, no middleware: "
        f"{bare:,.0f} req/s; ratio per round {', '.join(f'{r:.3f}' for r in ratio)}; "
        f"median {statistics.median(ratio):.3f} (goal ≥ {GOAL})"
    )
    print("\nprivate reads × the ORM: median req/s, CPU ms per request, ORM / private CPU")
    for scenario in ("sheet", "poll304", "poll200"):
        if (scenario, BASE) in untouched:
            continue
        own = statistics.median(cpu[scenario, BASE])
        for arm in ARMS:
            if (scenario, arm) in untouched:
                continue
            ms = statistics.median(cpu[scenario, arm])
            print(
                f"  {scenario:8} {arm:18} {statistics.median(rps[scenario, arm]):8,.0f} req/s"
                f"  {ms:6.2f} ms  {ms / own:5.2f}×"
            )


# --- through a real server ----------------------------------------------------------------


def served(rounds: int, seconds: float, deals: int, workers: int) -> None:
    """The sheet page × the bare view with no middleware, through gunicorn (``--server``)."""
    import os

    from harness.client import Client, closed_loop
    from harness.server import BARE, BARE_ALONE, bounded_run, gunicorn, in_child, server_env

    with bounded_run("bench/sheet_page.py", WATCHDOG_SECONDS, "prefscore-sheet-") as workdir:
        env = server_env(f"sqlite:///{workdir / 'sheet.sqlite3'}", BENCH_SQLITE_TUNED="1")
        data = in_child(__file__, env, "--prepare", "--deals", str(deals))
        with gunicorn(env, workers, workdir, app="bench.webapp.wsgi:application") as port:
            page = f"/pulkas/{data['pulka']}/"
            paths = {
                "sheet": (page, True),
                "bare": (BARE_ALONE, False),
                "bare, whole stack": (BARE, False),
            }

            def get(name: str) -> Callable[[int], Callable[[], Any]]:
                path, signed_in = paths[name]

                def make(index: int) -> Callable[[], Any]:
                    client = Client(port, data["session"] if signed_in else "")
                    return lambda: client.request("GET", path)

                return make

            clients = 2 * workers
            for name in paths:  # warm each worker, and check each answers 200
                warm = closed_loop(name, clients, 1.0, get(name), 200, 400)
                if warm.error_count or not warm.latencies:
                    raise SystemExit(f"{name} did not answer 200: {warm.errors}")
            load = [f"{os.getloadavg()[0]:.1f}"]
            names = list(paths)
            rps: dict[str, list[float]] = {name: [] for name in names}
            ratio: list[float] = []
            for number in range(rounds):
                found = {}
                for name in names[number % 3 :] + names[: number % 3]:
                    series = closed_loop(name, clients, seconds, get(name), 200)
                    if series.error_count:
                        raise SystemExit(f"{name}: {series.errors}")
                    found[name] = series.throughput
                    rps[name].append(series.throughput)
                ratio.append(found["sheet"] / found["bare"])
            load.append(f"{os.getloadavg()[0]:.1f}")
    sheet, bare = statistics.median(rps["sheet"]), statistics.median(rps["bare"])
    whole = statistics.median(rps["bare, whole stack"])
    print(
        f"through gunicorn, {workers} workers, {clients} keep-alive clients; load average "
        f"{' → '.join(load)} ({os.cpu_count()} cores)\n"
        f"sheet page, {deals} deals: {sheet:,.0f} req/s; bare view, no middleware: "
        f"{bare:,.0f} req/s (through the whole stack: {whole:,.0f}); ratio per round "
        f"{', '.join(f'{r:.3f}' for r in ratio)}; median {statistics.median(ratio):.3f} "
        f"(goal ≥ {GOAL}: {'met' if statistics.median(ratio) >= GOAL else 'NOT met'})"
    )


if __name__ == "__main__":
    main()
