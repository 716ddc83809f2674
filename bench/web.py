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
- recording a deal with htmx while ``--tables`` tables record at once: each table
  records a deal every ``--pace`` seconds on average (a real table takes a minute or
  more per deal), and again with every table posting at the same instant (a burst).

``--sqlite-tuned`` measures SQLite as it could be configured for several workers
(``BEGIN IMMEDIATE``, write-ahead logging, persistent connections) and
``--cookie-sessions`` signed-cookie sessions (no session query), instead of as
prefscore's settings leave them; see bench/webapp/settings.py.

Goals (issue #4): the poll at least half the bare view's throughput; recording a deal
under 100 ms at the 95th percentile with 50 tables recording at once. The run stops by
itself (a watchdog ends it after three minutes at most) and removes what it made.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
from collections.abc import Callable
from dataclasses import dataclass, field
from importlib import import_module
from pathlib import Path
from typing import Any

# Run as a script, so bench/ is on the path: the forms are shared with the other bench.
from webapp.forms import entry_form  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
HOST = "127.0.0.1"
NAMES = ("Anna", "Boris", "Vera")
BIG_DEALS = 100
TABLE_DEALS = 10
WATCHDOG_SECONDS = 180
POLL_GOAL = 0.5
RECORD_GOAL_MS = 100.0


# --- the deals a table plays -----------------------------------------------------------


def deal_seats(number: int) -> tuple[int, int, int]:
    """Declarer-side seats of deal ``number`` at a table of three, first dealer seat 0."""
    dealer = (number - 1) % 3
    return (dealer + 1) % 3, (dealer + 2) % 3, dealer


def deal_facts(number: int) -> dict[str, Any]:
    """A legal Sochi deal that never closes a pulka to 1000: a cycle of four kinds."""
    d, f1, f2 = (NAMES[s] for s in deal_seats(number))
    return [
        {"contract": "6S", "declarer": d, "whists": {f1: "whist", f2: "pass"},
         "tricks": {d: 6, f1: 3, f2: 1}},
        {"contract": "allpass", "tricks": {d: 3, f1: 3, f2: 4}},
        {"contract": "7H", "declarer": d, "whists": {f1: "whist", f2: "whist"},
         "tricks": {d: 5, f1: 3, f2: 2}},
        {"contract": "8", "declarer": f1, "whists": {f2: "pass", d: "pass"}},
    ][(number - 1) % 4]  # fmt: skip


def deal_form(number: int) -> dict[str, str]:
    """The same deal as the entry form posts it, by seat."""
    return entry_form(deal_facts(number), NAMES, number)


# --- preparing the database (runs in a child process with the bench settings) ---------


def prepare(tables: int) -> dict[str, Any]:
    """Migrate, then make the club, the user, the pulkas and a signed-in session."""
    import django

    django.setup()
    from django.conf import settings
    from django.contrib.auth import (
        BACKEND_SESSION_KEY,
        HASH_SESSION_KEY,
        SESSION_KEY,
        get_user_model,
    )
    from django.core.management import call_command

    from prefscore.clubs.models import Club, Membership, Player, Role
    from prefscore.games.models import Deal, Pulka, PulkaSeat
    from scoring.engine.conventions import preset

    call_command("migrate", verbosity=0)
    user = get_user_model().objects.create_user(f"bench-{os.getpid()}", password=None)
    club = Club.objects.create(name="Bench", slug=f"bench-{os.getpid()}")
    Membership.objects.create(club=club, user=user, role=Role.MEMBER)
    players = [Player.objects.create(club=club, name=name) for name in NAMES]
    options = preset("sochi").to_options()

    def pulka(deals: int) -> int:
        made = Pulka.objects.create(
            club=club,
            convention_name="sochi",
            convention_options=options,
            player_names=list(NAMES),
            target=1000,
            version=deals,
        )
        PulkaSeat.objects.bulk_create(
            PulkaSeat(pulka=made, seat=i, player=p) for i, p in enumerate(players)
        )
        Deal.objects.bulk_create(
            Deal(pulka=made, number=n, facts=deal_facts(n), entered_by=user)
            for n in range(1, deals + 1)
        )
        return made.pk

    big = pulka(BIG_DEALS)
    table_pks = [pulka(TABLE_DEALS) for _ in range(tables)]
    session = import_module(settings.SESSION_ENGINE).SessionStore()
    session[SESSION_KEY] = str(user.pk)
    session[BACKEND_SESSION_KEY] = settings.AUTHENTICATION_BACKENDS[0]
    session[HASH_SESSION_KEY] = user.get_session_auth_hash()
    session.save()
    return {"big": big, "tables": table_pks, "session": session.session_key}


# --- load ------------------------------------------------------------------------------


@dataclass
class Result:
    name: str
    latencies: list[float] = field(default_factory=list)
    errors: int = 0
    seconds: float = 0.0
    statuses: dict[int, int] = field(default_factory=dict)

    @property
    def throughput(self) -> float:
        return len(self.latencies) / self.seconds if self.seconds else 0.0

    def percentile(self, p: float) -> float:
        if not self.latencies:
            return float("nan")
        ordered = sorted(self.latencies)
        return ordered[min(len(ordered) - 1, int(p / 100 * len(ordered)))] * 1000


class Client:
    """One keep-alive connection, as one device at the table holds."""

    def __init__(self, port: int, cookies: str = "") -> None:
        self.connection = http.client.HTTPConnection(HOST, port, timeout=30)
        self.cookies = cookies

    def request(
        self, method: str, path: str, body: dict[str, str] | None = None, **headers: str
    ) -> tuple[int, bytes, http.client.HTTPResponse]:
        sent = {"Host": HOST, **headers}
        if self.cookies:
            sent["Cookie"] = self.cookies
        data = None
        if body is not None:
            data = urllib.parse.urlencode(body).encode()
            sent["Content-Type"] = "application/x-www-form-urlencoded"
        try:
            self.connection.request(method, path, data, sent)
            response = self.connection.getresponse()
            payload = response.read()
        except (http.client.HTTPException, OSError):
            self.connection.close()
            raise
        return response.status, payload, response


def timed(result: Result, lock: threading.Lock, call: Callable[[], int], expect: int) -> None:
    start = time.perf_counter()
    try:
        status = call()
    except (http.client.HTTPException, OSError):
        status = 0
    elapsed = time.perf_counter() - start
    with lock:
        result.statuses[status] = result.statuses.get(status, 0) + 1
        if status == expect:
            result.latencies.append(elapsed)
        else:
            result.errors += 1


def hammer(
    name: str,
    port: int,
    make_call: Callable[[Client], Callable[[], int]],
    expect: int,
    threads: int,
    seconds: float,
    max_requests: int,
    cookies: str = "",
) -> Result:
    """``threads`` clients back to back for ``seconds`` or ``max_requests`` in all."""
    result, lock = Result(name), threading.Lock()
    deadline = time.perf_counter() + seconds
    budget = [max_requests]

    def worker() -> None:
        client = Client(port, cookies)
        call = make_call(client)
        while time.perf_counter() < deadline:
            with lock:
                if budget[0] <= 0:
                    return
                budget[0] -= 1
            timed(result, lock, call, expect)

    started = time.perf_counter()
    pool = [threading.Thread(target=worker) for _ in range(threads)]
    for t in pool:
        t.start()
    for t in pool:
        t.join(seconds + 35)
    result.seconds = time.perf_counter() - started
    return result


def tables_recording(
    name: str,
    port: int,
    cookies: str,
    csrf: str,
    tables: list[int],
    seconds: float,
    pace: float | None,
) -> Result:
    """Every table records its next deals with htmx: paced, or all at the same instant.

    Paced: each table records a deal every ``pace`` seconds on average (random gaps).
    Burst (``pace`` None): rounds in which every table posts at once, released together
    by a barrier. A table takes the number of its next deal from each answer's fresh
    form, as the browser does.
    """
    result, lock = Result(name), threading.Lock()
    deadline = time.perf_counter() + seconds
    rounds = max(1, int(seconds))
    barrier = threading.Barrier(len(tables))
    rng = random.Random(4)

    def table(pk: int) -> None:
        client = Client(port, cookies)
        path = f"/pulkas/{pk}/deals/"
        headers = {"HX-Request": "true", "X-CSRFToken": csrf}

        def call() -> int:
            status, body, _ = client.request("POST", path, deal_form(counters[pk]), **headers)
            found = re.search(rb'name="number" value="(\d+)"', body)
            if found:
                counters[pk] = int(found.group(1))
            return status

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
            timed(result, lock, call, 200)
            if pace is not None:
                gap = pace * (0.5 + rng.random())
                time.sleep(max(0.0, gap - (time.perf_counter() - began)))

    started = time.perf_counter()
    pool = [threading.Thread(target=table, args=(pk,)) for pk in tables]
    for t in pool:
        t.start()
    for t in pool:
        t.join(seconds + 60)
    result.seconds = time.perf_counter() - started
    return result


# The next deal number of each table's pulka, as its last answer's form gave it.
counters: dict[int, int] = {}


# --- the server ------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        return int(s.getsockname()[1])


def server_env(
    database_url: str, tuned: bool = False, cookie_sessions: bool = False
) -> dict[str, str]:
    env = dict(os.environ)
    env.pop("BENCH_SQLITE_TUNED", None)
    env.pop("BENCH_COOKIE_SESSIONS", None)
    if tuned:
        env["BENCH_SQLITE_TUNED"] = "1"
    if cookie_sessions:
        env["BENCH_COOKIE_SESSIONS"] = "1"
    env.update(
        DEBUG="0",
        SECRET_KEY="bench-" + os.urandom(24).hex(),
        ALLOWED_HOSTS=HOST,
        SECURE_SSL_REDIRECT="0",
        DATABASE_URL=database_url,
        DJANGO_SETTINGS_MODULE="bench.webapp.settings",
        PYTHONPATH=str(ROOT),
        LOG_LEVEL="WARNING",
    )
    return env


def wait_until_up(port: int, process: subprocess.Popen[bytes], seconds: float = 30) -> None:
    deadline = time.time() + seconds
    while time.time() < deadline:
        if process.poll() is not None:
            raise SystemExit(f"gunicorn stopped with status {process.returncode}")
        try:
            if Client(port).request("GET", "/bench/bare/")[0] == 200:
                return
        except OSError:
            pass
        time.sleep(0.2)
    raise SystemExit("gunicorn did not answer within 30 s")


def csrf_token(port: int, cookies: str, pk: int) -> str:
    """The CSRF token a signed-in page hands out (its cookie, which htmx echoes)."""
    _, _, response = Client(port, cookies).request("GET", f"/pulkas/{pk}/")
    for header in response.headers.get_all("Set-Cookie") or []:
        match = re.match(r"csrftoken=([^;]+)", header)
        if match:
            return match.group(1)
    raise SystemExit("the sheet page set no CSRF cookie")


def poll_ticket(port: int, cookies: str, pk: int) -> str:
    """The signed poll ticket the sheet page hands a device (its poll URL carries it)."""
    payload = Client(port, cookies).request("GET", f"/pulkas/{pk}/")[1]
    found = re.search(rb"/poll/\?v=\d+&amp;t=([^\"&]+)", payload)
    if not found:
        raise SystemExit("the sheet page shows no poll ticket")
    return found.group(1).decode()


# --- report ----------------------------------------------------------------------------


def report(results: list[Result], bare: Result) -> None:
    print()
    print(
        f"{'scenario':44} {'requests':>8} {'req/s':>8} {'× bare':>7} {'p50 ms':>7} {'p95 ms':>7} {'errors':>6}"
    )
    for r in results:
        ratio = r.throughput / bare.throughput if bare.throughput else float("nan")
        print(
            f"{r.name:44} {len(r.latencies):8d} {r.throughput:8.1f} {ratio:7.2f} "
            f"{r.percentile(50):7.1f} {r.percentile(95):7.1f} {r.errors:6d}"
        )  # fmt: skip
    print()


def goals(poll: Result, bare: Result, paced: Result, tables: int) -> None:
    ratio = poll.throughput / bare.throughput if bare.throughput else 0.0
    p95 = paced.percentile(95)
    met = ratio >= POLL_GOAL
    print(f"goal: poll ≥ {POLL_GOAL:.0%} of the bare view's throughput: {ratio:.0%} "
          f"— {'met' if met else 'NOT met'}")  # fmt: skip
    met = p95 < RECORD_GOAL_MS and not paced.errors
    print(f"goal: recording p95 < {RECORD_GOAL_MS:.0f} ms with {tables} tables, no errors: "
          f"{p95:.1f} ms, {paced.errors} errors — {'met' if met else 'NOT met'}")  # fmt: skip


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
    signal.signal(signal.SIGALRM, _watchdog)
    signal.alarm(WATCHDOG_SECONDS)
    workdir = Path(tempfile.mkdtemp(prefix="prefscore-bench-"))
    process: subprocess.Popen[bytes] | None = None
    try:
        database_url = os.environ.get("DATABASE_URL") or f"sqlite:///{workdir / 'bench.sqlite3'}"
        env = server_env(database_url, args.sqlite_tuned, args.cookie_sessions)
        print(f"preparing {database_url.split('@')[-1]} …", flush=True)
        prepared = subprocess.run(
            [sys.executable, __file__, "--prepare", "--tables", str(args.tables)],
            env=env,
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=120,
            check=True,
        )
        data = json.loads(prepared.stdout.strip().splitlines()[-1])
        port = free_port()
        log = (workdir / "gunicorn.log").open("wb")
        process = subprocess.Popen(
            [str(Path(sys.executable).parent / "gunicorn"), "prefscore.wsgi:application",
             "--workers", str(args.workers), "--bind", f"{HOST}:{port}",
             "--log-level", "warning", "--chdir", str(ROOT)],
            env=env, cwd=ROOT, stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
        )  # fmt: skip
        wait_until_up(port, process)
        print(f"gunicorn, {args.workers} workers, on {HOST}:{port}", flush=True)
        run(args, port, data)
    finally:
        signal.alarm(0)
        if process is not None:
            _stop(process)
        shutil.rmtree(workdir, ignore_errors=True)


def run(args: argparse.Namespace, port: int, data: dict[str, Any]) -> None:
    cookies = f"sessionid={data['session']}"
    big, tables = data["big"], data["tables"]
    csrf = csrf_token(port, cookies, tables[0])
    cookies += f"; csrftoken={csrf}"
    counters.update({pk: TABLE_DEALS + 1 for pk in tables})
    seconds, cap = args.seconds, 50_000
    concurrency = 2 * args.workers

    def get(path: str, **headers: str) -> Callable[[Client], Callable[[], int]]:
        return lambda client: lambda: client.request("GET", path, **headers)[0]

    # Warm each worker (imports, template compilation) before measuring.
    hammer("warm-up", port, get(f"/pulkas/{big}/"), 200, concurrency, 1.5, 200, cookies)
    hammer("warm-up", port, get("/bench/bare/"), 200, concurrency, 0.5, 200)
    bare = hammer("bare Django view", port, get("/bench/bare/"), 200, concurrency, seconds, cap)
    poll = hammer(
        "poll, nothing new (304)",
        port,
        get(
            f"/pulkas/{big}/poll/?v={BIG_DEALS}&t={poll_ticket(port, cookies, big)}",
            **{"HX-Request": "true"},
        ),
        304,
        concurrency,
        seconds,
        cap,
        cookies,
    )
    sheet = hammer(
        f"sheet page, {BIG_DEALS} deals",
        port,
        get(f"/pulkas/{big}/"),
        200,
        concurrency,
        seconds,
        cap,
        cookies,
    )
    paced = tables_recording(
        f"record a deal, {len(tables)} tables, one each ~{args.pace:g} s",
        port,
        cookies,
        csrf,
        tables,
        max(10.0, 2.5 * seconds),
        args.pace,
    )
    burst = tables_recording(
        f"record a deal, {len(tables)} tables at one instant",
        port,
        cookies,
        csrf,
        tables,
        seconds,
        None,
    )
    report([bare, poll, sheet, paced, burst], bare)
    goals(poll, bare, paced, len(tables))
    odd = {r.name: r.statuses for r in (bare, poll, sheet, paced, burst) if r.errors}
    if odd:
        print("unexpected statuses:", odd)


def _stop(process: subprocess.Popen[bytes]) -> None:
    try:
        os.killpg(process.pid, signal.SIGTERM)
        process.wait(timeout=10)
    except (ProcessLookupError, subprocess.TimeoutExpired):
        try:
            os.killpg(process.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass


def _watchdog(signum: int, frame: Any) -> None:
    raise SystemExit(f"bench/web.py stopped by its {WATCHDOG_SECONDS} s watchdog")


if __name__ == "__main__":
    main()
