"""An evening of a busy club under gunicorn on PostgreSQL, against a bare Django view.

    .venv/bin/python bench/load.py [--tables 50] [--seconds 60] [--workers 2]

Uses DATABASE_URL when it is set; otherwise starts a throwaway PostgreSQL 15 on a
loopback port (initdb in a temporary folder, as .ci/run does) and removes it after.
Migrates, makes a club, three users and their signed-in sessions per table (three
phones), and ``--tables`` running pulkas of three players; starts gunicorn with
``--workers`` sync workers (production's kind) on 127.0.0.1 with the bench settings
(``bench/webapp``: prefscore's own plus a bare view at /bench/bare/). Then:

1. Capacity, a few seconds each: the bare view, the poll that answers 304, the poll
   that answers 200 (the new regions) and recording a deal, each from closed-loop
   clients; throughput as a ratio to the bare view's.
2. The evening, ``--seconds`` long: every table records a deal every 2 to 4 seconds
   from one phone while its three phones poll every 2 seconds; every fifth deal a
   second phone sends the same deal number again on purpose (it must get 409). A
   probe requests the bare view twice a second all along, so that every latency has
   a baseline measured under the same load.
3. The database check: every deal acknowledged (200) is saved exactly once, none
   is missing, nothing else is saved.

Only 127.0.0.1 is contacted; threads are bounded (four per table and a probe), every
request has a timeout, and a watchdog ends the run after WATCHDOG_SECONDS.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import pwd
import random
import re
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

# Run as a script, so bench/ is on the path: the forms are shared with the other bench.
from webapp.forms import entry_form  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
HOST = "127.0.0.1"
PG_BIN = Path("/usr/lib/postgresql/15/bin")
NAMES = ("Anna", "Boris", "Vera")
HISTORY = 10  # deals each pulka already has when the evening starts
POLL_SECONDS = 2.0
RECORD_SECONDS = (2.0, 4.0)
AGAIN_EVERY = 5  # every fifth deal is sent again on purpose from another phone
PROBE_SECONDS = 0.5
CAPACITY_SECONDS = 5.0
WATCHDOG_SECONDS = 175
TIMEOUT = 30
SPARE_PULKAS = 16


# --- the deals a table plays -----------------------------------------------------------


def deal_facts(number: int) -> dict[str, Any]:
    """A legal Sochi deal that keeps a pulka to 1000 running: a cycle of six kinds."""
    dealer = (number - 1) % 3
    d, w1, w2 = NAMES[(dealer + 1) % 3], NAMES[(dealer + 2) % 3], NAMES[dealer]
    return [
        {"contract": "6S", "declarer": d, "whists": {w1: "whist", w2: "pass"},
         "tricks": {d: 6, w1: 3, w2: 1}},
        {"contract": "allpass", "tricks": {d: 3, w1: 3, w2: 4}},
        {"contract": "7H", "declarer": d, "whists": {w1: "whist", w2: "whist"},
         "tricks": {d: 5, w1: 3, w2: 2}},
        {"contract": "6C", "declarer": w1, "whists": {w2: "pass", d: "half"}},
        {"contract": "misere", "declarer": w2, "tricks": {w2: 1}},
        {"contract": "8NT", "declarer": d, "whists": {w1: "pass", w2: "pass"}},
    ][(number - 1) % 6]  # fmt: skip


def deal_form(number: int) -> dict[str, str]:
    """The deal as the entry form posts it (prefscore/games/forms.py), by seat."""
    return entry_form(deal_facts(number), NAMES, number)


# --- in a child process with the bench settings: prepare, then check ------------------


def prepare(tables: int) -> dict[str, Any]:
    """Migrate; a club, three signed-in users per table, the pulkas with their history."""
    import django

    django.setup()
    from django.conf import settings
    from django.contrib.auth import (
        BACKEND_SESSION_KEY,
        HASH_SESSION_KEY,
        SESSION_KEY,
        get_user_model,
    )
    from django.contrib.sessions.backends.db import SessionStore
    from django.core.management import call_command

    from prefscore.clubs.models import Club, Membership, Player, Role
    from prefscore.games.models import Deal, Pulka, PulkaSeat
    from scoring.engine.conventions import preset

    call_command("migrate", verbosity=0)
    tag = secrets.token_hex(3)
    club = Club.objects.create(name=f"Load {tag}", slug=f"load-{tag}")
    players = [Player.objects.create(club=club, name=name) for name in NAMES]
    User = get_user_model()
    options = preset("sochi").to_options()
    made = []
    for table in range(tables):
        users = [User.objects.create_user(f"load-{tag}-{table}-{i}") for i in range(3)]
        Membership.objects.bulk_create(
            Membership(club=club, user=user, role=Role.MEMBER) for user in users
        )
        pulka = Pulka.objects.create(
            club=club,
            convention_name="sochi",
            convention_options=options,
            player_names=list(NAMES),
            target=1000,
            version=HISTORY,
        )
        PulkaSeat.objects.bulk_create(
            PulkaSeat(pulka=pulka, seat=i, player=p) for i, p in enumerate(players)
        )
        Deal.objects.bulk_create(
            Deal(pulka=pulka, number=n, facts=deal_facts(n), entered_by=users[0])
            for n in range(1, HISTORY + 1)
        )
        sessions = []
        for user in users:
            session = SessionStore()
            session[SESSION_KEY] = str(user.pk)
            session[BACKEND_SESSION_KEY] = settings.AUTHENTICATION_BACKENDS[0]
            session[HASH_SESSION_KEY] = user.get_session_auth_hash()
            session.create()
            sessions.append(session.session_key)
        made.append({"pulka": pulka.pk, "version": HISTORY, "sessions": sessions})
    # The capacity test records on pulkas of its own, one per client: each client's
    # deal numbers then follow each other as a table's do.
    spare = []
    for _ in range(SPARE_PULKAS):
        pulka = Pulka.objects.create(
            club=club,
            convention_name="sochi",
            convention_options=options,
            player_names=list(NAMES),
            target=1000,
        )
        PulkaSeat.objects.bulk_create(
            PulkaSeat(pulka=pulka, seat=i, player=p) for i, p in enumerate(players)
        )
        spare.append(pulka.pk)
    return {"tables": made, "spare": spare}


def check(acknowledged: dict[str, list[int]]) -> dict[str, Any]:
    """Each pulka's saved deals against the numbers the server acknowledged."""
    import django

    django.setup()
    from django.db.models import Count

    from prefscore.games.models import Deal

    problems: list[str] = []
    saved_total = 0
    for pk, numbers in acknowledged.items():
        rows = Deal.objects.filter(pulka_id=int(pk))
        saved = list(rows.order_by("number").values_list("number", flat=True))
        saved_total += len(saved)
        twice = list(
            rows.values("number").annotate(n=Count("id")).filter(n__gt=1).values_list("number")
        )
        expected = list(range(1, HISTORY + 1)) + sorted(numbers)
        if twice:
            problems.append(f"pulka {pk}: saved more than once: {twice}")
        if saved != expected:
            missing = sorted(set(expected) - set(saved))
            extra = sorted(set(saved) - set(expected))
            problems.append(f"pulka {pk}: missing {missing}, not acknowledged {extra}")
    acked = sum(len(n) for n in acknowledged.values())
    return {"problems": problems, "saved": saved_total, "acknowledged": acked}


# --- measuring -------------------------------------------------------------------------


@dataclass
class Kind:
    """The latencies of one kind of request, and what went wrong."""

    name: str
    latencies: list[float] = field(default_factory=list)
    errors: dict[str, int] = field(default_factory=dict)

    def percentile(self, p: float) -> float:
        if not self.latencies:
            return float("nan")
        ordered = sorted(self.latencies)
        return ordered[min(len(ordered) - 1, int(p / 100 * len(ordered)))] * 1000


class Tally:
    """Latencies by kind, from many threads."""

    def __init__(self, *names: str) -> None:
        self.lock = threading.Lock()
        self.kinds = {name: Kind(name) for name in names}

    def add(self, name: str, seconds: float) -> None:
        with self.lock:
            self.kinds[name].latencies.append(seconds)

    def error(self, name: str, what: str) -> None:
        with self.lock:
            errors = self.kinds[name].errors
            errors[what] = errors.get(what, 0) + 1


class Device:
    """One phone: one keep-alive connection (the server may close it), its cookies."""

    def __init__(self, port: int, session: str = "") -> None:
        self.port = port
        self.csrf = secrets.token_hex(16)  # 32 characters: a CSRF secret Django accepts
        self.cookies = f"csrftoken={self.csrf}" + (f"; sessionid={session}" if session else "")
        self.connection = http.client.HTTPConnection(HOST, port, timeout=TIMEOUT)

    def request(
        self, method: str, path: str, form: dict[str, str] | None = None, htmx: bool = True
    ) -> tuple[int, bytes, float]:
        headers = {"Host": HOST, "Cookie": self.cookies}
        if htmx:
            headers["HX-Request"] = "true"
        body = None
        if form is not None:
            body = urllib.parse.urlencode(form).encode()
            headers["Content-Type"] = "application/x-www-form-urlencoded"
            headers["X-CSRFToken"] = self.csrf
        started = time.perf_counter()
        try:
            self.connection.request(method, path, body, headers)
            response = self.connection.getresponse()
            payload = response.read()
        except (http.client.HTTPException, OSError):
            self.connection.close()  # http.client opens a new one on the next request
            raise
        return response.status, payload, time.perf_counter() - started


VERSION = re.compile(rb"/poll/\?v=(\d+)")
TICKET = re.compile(rb"/poll/\?v=\d+&amp;t=([^\"&]+)")


def poll_ticket(device: Device, pulka: int) -> str:
    """The signed poll ticket a phone gets with the sheet page, as a real phone polls."""
    _, payload, _ = device.request("GET", f"/pulkas/{pulka}/")
    found = TICKET.search(payload)
    return found.group(1).decode() if found else ""


def shown_version(payload: bytes) -> int | None:
    """The pulka version a page or a set of regions shows (its poll URL carries it)."""
    found = VERSION.search(payload)
    return int(found.group(1)) if found else None


# --- 1. capacity -----------------------------------------------------------------------


def closed_loop(
    seconds: float, clients: int, make: Callable[[int], Callable[[], float | None]]
) -> tuple[int, float, list[float]]:
    """``clients`` threads each sending the next request as soon as one is answered."""
    deadline = time.perf_counter() + seconds
    lock = threading.Lock()
    latencies: list[float] = []
    errors = [0]

    def run(index: int) -> None:
        call = make(index)
        while time.perf_counter() < deadline:
            try:
                spent = call()
            except (http.client.HTTPException, OSError):
                spent = None
            with lock:
                if spent is None:
                    errors[0] += 1
                else:
                    latencies.append(spent)

    started = time.perf_counter()
    threads = [threading.Thread(target=run, args=(i,), daemon=True) for i in range(clients)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(seconds + TIMEOUT + 5)
    return errors[0], time.perf_counter() - started, latencies


def capacity(port: int, data: dict[str, Any], workers: int) -> list[dict[str, Any]]:
    """Requests per second each kind sustains, clients twice the workers."""
    table = data["tables"][0]
    poll = f"/pulkas/{table['pulka']}/poll/"
    clients = min(2 * workers, len(data["spare"]))

    def expect(
        device: Device, status: int, method: str, path: str, form: Any = None
    ) -> float | None:
        got, _, spent = device.request(method, path, form)
        return spent if got == status else None

    def bare(i: int) -> Callable[[], float | None]:
        device = Device(port)
        return lambda: expect(device, 200, "GET", "/bench/bare/")

    def poll_304(i: int) -> Callable[[], float | None]:
        device = Device(port, table["sessions"][i % 3])
        ticket = poll_ticket(device, table["pulka"])
        return lambda: expect(device, 304, "GET", f"{poll}?v={table['version']}&t={ticket}")

    def poll_200(i: int) -> Callable[[], float | None]:
        device = Device(port, table["sessions"][i % 3])
        return lambda: expect(device, 200, "GET", f"{poll}?v=0")

    def record(i: int) -> Callable[[], float | None]:
        device = Device(port, table["sessions"][i % 3])
        path = f"/pulkas/{data['spare'][i]}/deals/"
        numbers = iter(range(1, 1_000_000))
        return lambda: expect(device, 200, "POST", path, deal_form(next(numbers)))

    # Warm every worker (imports, templates, connections) before measuring anything.
    closed_loop(1.0, clients, bare)
    closed_loop(1.0, clients, poll_200)
    rows = []
    for name, make in (
        ("bare view", bare),
        ("poll 304", poll_304),
        ("poll 200", poll_200),
        ("record", record),
    ):
        errors, seconds, latencies = closed_loop(CAPACITY_SECONDS, clients, make)
        rows.append({"name": name, "rate": len(latencies) / seconds, "errors": errors,
                     "kind": Kind(name, latencies)})  # fmt: skip
    return rows


# --- 2. the evening --------------------------------------------------------------------


@dataclass
class Table:
    pulka: int
    sessions: list[str]
    version: int
    next_number: int = HISTORY + 1
    acknowledged: list[int] = field(default_factory=list)


def evening(port: int, tables: list[Table], seconds: float, tally: Tally) -> float:
    """Every table records and polls, a bare-view probe runs; returns the seconds taken."""
    stop = threading.Event()
    rng = random.Random(8)

    def phone(table: Table, seat: int, offset: float) -> None:
        device = Device(port, table.sessions[seat])
        shown = table.version
        path = f"/pulkas/{table.pulka}/poll/"
        try:
            ticket = poll_ticket(device, table.pulka)
        except (http.client.HTTPException, OSError):
            ticket = ""
        next_poll = time.perf_counter() + offset
        while not stop.wait(max(0.0, next_poll - time.perf_counter())):
            next_poll += POLL_SECONDS
            try:
                status, payload, spent = device.request("GET", f"{path}?v={shown}&t={ticket}")
            except (http.client.HTTPException, OSError) as error:
                tally.error("poll 200", type(error).__name__)
                continue
            if status == 304:
                tally.add("poll 304", spent)
            elif status == 200 and shown_version(payload) is not None:
                tally.add("poll 200", spent)
                shown = shown_version(payload) or shown
            else:
                tally.error("poll 200", f"HTTP {status}")

    def recorder(table: Table, offset: float, seed: int) -> None:
        pace = random.Random(seed)
        device = Device(port, table.sessions[0])
        again = Device(port, table.sessions[1])
        path = f"/pulkas/{table.pulka}/deals/"
        next_deal = time.perf_counter() + offset
        while not stop.wait(max(0.0, next_deal - time.perf_counter())):
            next_deal += pace.uniform(*RECORD_SECONDS)
            number = table.next_number
            try:
                status, _, spent = device.request("POST", path, deal_form(number))
            except (http.client.HTTPException, OSError) as error:
                # The answer was lost: whether it was saved is unknown, so the table
                # stops recording rather than guess (the check would show the deal).
                tally.error("record", type(error).__name__)
                return
            if status != 200:
                tally.error("record", f"HTTP {status}")
                return
            tally.add("record", spent)
            table.acknowledged.append(number)
            table.next_number += 1
            if number % AGAIN_EVERY == 0:
                try:
                    status, _, spent = again.request("POST", path, deal_form(number))
                except (http.client.HTTPException, OSError) as error:
                    tally.error("record again (409)", type(error).__name__)
                    continue
                if status == 409:
                    tally.add("record again (409)", spent)
                else:
                    tally.error("record again (409)", f"HTTP {status}")

    def probe() -> None:
        device = Device(port)
        while not stop.wait(PROBE_SECONDS):
            try:
                status, _, spent = device.request("GET", "/bench/bare/", htmx=False)
            except (http.client.HTTPException, OSError) as error:
                tally.error("bare view", type(error).__name__)
                continue
            if status == 200:
                tally.add("bare view", spent)
            else:
                tally.error("bare view", f"HTTP {status}")

    threads = [threading.Thread(target=probe, daemon=True)]
    for index, table in enumerate(tables):
        threads.append(
            threading.Thread(target=recorder, args=(table, rng.uniform(0, 3), index), daemon=True)
        )
        threads += [
            threading.Thread(
                target=phone, args=(table, seat, rng.uniform(0, POLL_SECONDS)), daemon=True
            )
            for seat in range(3)
        ]
    started = time.perf_counter()
    for thread in threads:
        thread.start()
    time.sleep(seconds)
    stop.set()
    for thread in threads:
        thread.join(TIMEOUT + 5)
    return time.perf_counter() - started


# --- the database and the server -------------------------------------------------------


def free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        return int(s.getsockname()[1])


@contextmanager
def throwaway_postgres(workdir: Path) -> Iterator[str]:
    """A PostgreSQL 15 cluster on a loopback port for this run only; its URL."""
    if not (PG_BIN / "initdb").exists():
        raise SystemExit(
            "PostgreSQL 15 is missing (apt-get install postgresql-15), or set DATABASE_URL"
        )
    as_user: list[str] = []
    if os.geteuid() == 0:  # initdb refuses root: the server runs as the postgres user
        try:
            pwd.getpwnam("postgres")
        except KeyError:
            subprocess.run(
                ["useradd", "--system", "--user-group", "--no-create-home",
                 "--shell", "/usr/sbin/nologin", "postgres"],
                check=True,
            )  # fmt: skip
        as_user = ["runuser", "-u", "postgres", "--"]
    root = workdir / "postgres"
    (root / "data").mkdir(parents=True)
    (root / "socket").mkdir()
    if as_user:
        shutil.chown(workdir, "postgres")
        for path in (root, root / "data", root / "socket"):
            shutil.chown(path, "postgres")
    port = free_port()
    password = secrets.token_hex(16)
    quiet = {"stdout": subprocess.DEVNULL, "check": True}
    subprocess.run(
        [*as_user, str(PG_BIN / "initdb"), "-D", str(root / "data"), "-U", "postgres",
         "--auth-local=trust", "--auth-host=scram-sha-256", "--encoding=UTF8",
         "--locale=C.UTF-8", "--no-sync"],
        **quiet,
    )  # fmt: skip
    # A throwaway cluster: durability is not wanted, speed is (as in .ci/run).
    options = (
        f"-p {port} -k {root / 'socket'} -c listen_addresses={HOST} -c fsync=off "
        "-c synchronous_commit=off -c full_page_writes=off"
    )
    pg_ctl = [*as_user, str(PG_BIN / "pg_ctl"), "-D", str(root / "data")]
    subprocess.run([*pg_ctl, "-l", str(root / "server.log"), "-w", "-o", options, "start"], **quiet)
    try:
        subprocess.run(
            [str(PG_BIN / "psql"), "-h", str(root / "socket"), "-p", str(port), "-U",
             "postgres", "-d", "postgres", "-q", "-v", "ON_ERROR_STOP=1"],
            input=(f"CREATE ROLE prefscore LOGIN CREATEDB PASSWORD '{password}';\n"
                   "CREATE DATABASE prefscore OWNER prefscore;\n").encode(),
            **quiet,
        )  # fmt: skip
        yield f"postgres://prefscore:{password}@{HOST}:{port}/prefscore"
    finally:
        subprocess.run([*pg_ctl, "-m", "fast", "stop"], stdout=subprocess.DEVNULL, check=False)


def server_env(database_url: str) -> dict[str, str]:
    env = dict(os.environ)
    env.update(
        DEBUG="0",
        SECRET_KEY="load-" + secrets.token_hex(24),
        ALLOWED_HOSTS=HOST,
        SECURE_SSL_REDIRECT="0",
        DATABASE_URL=database_url,
        DJANGO_SETTINGS_MODULE="bench.webapp.settings",
        PYTHONPATH=str(ROOT),
        LOG_LEVEL="WARNING",
    )
    env.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
    return env


def in_child(env: dict[str, str], *args: str, stdin: str = "") -> Any:
    """Run this script's ``--prepare``/``--check`` with the bench settings; its JSON."""
    done = subprocess.run(
        [sys.executable, __file__, *args],
        env=env,
        cwd=ROOT,
        input=stdin,
        capture_output=True,
        text=True,
        timeout=120,
    )
    if done.returncode:
        raise SystemExit(f"{args[0]} failed:\n{done.stderr[-3000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


@contextmanager
def gunicorn(env: dict[str, str], workers: int, workdir: Path) -> Iterator[int]:
    port = free_port()
    log = (workdir / "gunicorn.log").open("wb")
    process = subprocess.Popen(
        [str(Path(sys.executable).parent / "gunicorn"), "prefscore.wsgi:application",
         "--workers", str(workers), "--bind", f"{HOST}:{port}", "--log-level", "warning",
         "--chdir", str(ROOT)],
        env=env, cwd=ROOT, stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
    )  # fmt: skip
    try:
        deadline = time.time() + 30
        while True:
            if process.poll() is not None:
                raise SystemExit(f"gunicorn stopped: {(workdir / 'gunicorn.log').read_text()}")
            try:
                if Device(port).request("GET", "/bench/bare/", htmx=False)[0] == 200:
                    break
            except OSError:
                pass
            if time.time() > deadline:
                raise SystemExit("gunicorn did not answer within 30 s")
            time.sleep(0.2)
        yield port
    finally:
        try:
            os.killpg(process.pid, signal.SIGTERM)
            process.wait(timeout=15)
        except (ProcessLookupError, subprocess.TimeoutExpired):
            try:
                os.killpg(process.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        log.close()


# --- the report ------------------------------------------------------------------------


def print_capacity(rows: list[dict[str, Any]]) -> None:
    bare = rows[0]["rate"] or float("nan")
    print(f"\n1. capacity: closed-loop clients, {CAPACITY_SECONDS:.0f} s each")
    print(f"{'request':22} {'req/s':>8} {'× bare':>7} {'p50 ms':>7} {'p95 ms':>7} {'errors':>6}")
    for row in rows:
        kind = row["kind"]
        print(
            f"{row['name']:22} {row['rate']:8.1f} {row['rate'] / bare:7.2f} "
            f"{kind.percentile(50):7.1f} {kind.percentile(95):7.1f} {row['errors']:6d}"
        )


def print_demand(tally: Tally, seconds: float, rows: list[dict[str, Any]], workers: int) -> None:
    """What the evening asked of the workers, from each request's cost when measured alone.

    A worker's cost of one request is ``workers / capacity``; the evening's demand is the
    sum over requests of rate × cost, in worker-seconds per second: above ``workers``
    the requests queue, and latency grows with the queue whatever the code does.
    """
    cost = {row["name"]: workers / row["rate"] for row in rows if row["rate"]}
    cost["record again (409)"] = cost.get("record", 0.0)
    asked = {
        kind.name: len(kind.latencies) / seconds * cost[kind.name]
        for kind in tally.kinds.values()
        if kind.name in cost
    }
    parts = ", ".join(f"{name} {value:.2f}" for name, value in asked.items())
    total = sum(asked.values())
    print(
        f"demand: {total:.2f} worker-seconds per second of {workers} available "
        f"({total / workers:.0%}): {parts}"
    )


def print_evening(tally: Tally, seconds: float, tables: int) -> None:
    bare = tally.kinds["bare view"]
    b50, b95 = bare.percentile(50), bare.percentile(95)
    print(f"\n2. the evening: {tables} tables, {seconds:.0f} s; latency ratios to the bare "
          "view measured alongside")  # fmt: skip
    print(
        f"{'request':22} {'count':>6} {'req/s':>7} {'p50 ms':>7} {'p95 ms':>7} "
        f"{'p50×bare':>8} {'p95×bare':>8}  errors"
    )
    for kind in tally.kinds.values():
        p50, p95 = kind.percentile(50), kind.percentile(95)
        errors = ", ".join(f"{k} ×{n}" for k, n in kind.errors.items()) or "0"
        print(
            f"{kind.name:22} {len(kind.latencies):6d} {len(kind.latencies) / seconds:7.1f} "
            f"{p50:7.1f} {p95:7.1f} {p50 / b50:8.1f} {p95 / b95:8.1f}  {errors}"
        )


# --- main ------------------------------------------------------------------------------


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--prepare", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--check", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.prepare:
        print(json.dumps(prepare(args.tables)))
        return 0
    if args.check:
        print(json.dumps(check(json.loads(sys.stdin.read()))))
        return 0
    args.tables = max(1, min(args.tables, 200))
    args.seconds = max(5.0, min(args.seconds, 120.0))
    signal.signal(signal.SIGALRM, _watchdog)
    signal.alarm(WATCHDOG_SECONDS)
    workdir = Path(tempfile.mkdtemp(prefix="prefscore-load-"))
    os.chmod(workdir, 0o755)
    try:
        with database(workdir) as database_url:
            return run(args, server_env(database_url), workdir)
    finally:
        signal.alarm(0)
        shutil.rmtree(workdir, ignore_errors=True)


@contextmanager
def database(workdir: Path) -> Iterator[str]:
    url = os.environ.get("DATABASE_URL")
    if url:
        yield url
    else:
        with throwaway_postgres(workdir) as url:
            yield url


def run(args: argparse.Namespace, env: dict[str, str], workdir: Path) -> int:
    url = env["DATABASE_URL"]
    print(f"database: {url.split('@')[-1]}; preparing {args.tables} tables …", flush=True)
    data = in_child(env, "--prepare", "--tables", str(args.tables))
    with gunicorn(env, args.workers, workdir) as port:
        print(f"gunicorn: {args.workers} sync workers on {HOST}:{port}", flush=True)
        rows = capacity(port, data, args.workers)
        print_capacity(rows)
        tables = [Table(t["pulka"], t["sessions"], t["version"]) for t in data["tables"]]
        tally = Tally("bare view", "poll 304", "poll 200", "record", "record again (409)")
        print(f"\nthe evening runs for {args.seconds:.0f} s …", flush=True)
        seconds = evening(port, tables, args.seconds, tally)
        print_evening(tally, seconds, len(tables))
        print_demand(tally, seconds, rows, args.workers)
    acknowledged = {str(t.pulka): t.acknowledged for t in tables}
    checked = in_child(env, "--check", stdin=json.dumps(acknowledged))
    print(
        f"\n3. database: {checked['acknowledged']} deals acknowledged, "
        f"{checked['saved'] - HISTORY * len(tables)} saved in the evening "
        f"(+{HISTORY * len(tables)} before it); "
        + ("every one exactly once" if not checked["problems"] else "PROBLEMS:")
    )
    for problem in checked["problems"]:
        print("   ", problem)
    errors = sum(sum(k.errors.values()) for k in tally.kinds.values())
    return 1 if checked["problems"] or errors else 0


def _watchdog(signum: int, frame: Any) -> None:
    raise SystemExit(f"bench/load.py stopped by its {WATCHDOG_SECONDS} s watchdog")


if __name__ == "__main__":
    sys.exit(main())
