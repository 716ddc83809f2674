"""Push, not polling: how soon the other phones see a deal, and what idle pages cost.

    python bench/push.py [--deals 30] [--idle 200] [--idle-seconds 60]

The site runs as ``make run`` runs it: uvicorn, one process, SQLite (a fresh database in a
scratch folder, the bench settings), on a loopback port. Each part measures against a
baseline taken in the same run:

1. **Delay.** A table of three phones and a spectator. One phone records a deal (the
   entry form's POST); the other two and the spectator each keep the event stream open
   and, at a new version, ask the ordinary poll as ``static/js/push.js`` does. The delay
   is from the record's POST to the poll's answer that shows the new deal, per phone.
   The baseline: the same phones with no stream, polling every 2 s as before.
2. **Idle.** ``--idle`` open table pages (streams), no deals, for ``--idle-seconds``: the
   server's memory per open stream and its CPU per stream-hour (heartbeats and the
   SQLite watcher), and how many requests the pages make: with push.js's fallback, none
   more often than every 25 s (the stream's heartbeats are not requests).
3. **Costs** for the sizing: CPU per poll answering 304, per poll answering 200 and per
   record, measured in the server process (closed loops), and so the worker-seconds per
   table-hour at a real table's pace with push and with 2 s polling.

Only 127.0.0.1 is used; every process started here is stopped here; each wait is bounded.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import statistics
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from harness.client import TIMEOUT, Client, poll_ticket, shown_version
from harness.deals import NAMES, cycle_deal, entry_form
from harness.faults import RUNNING
from harness.report import workers_of
from harness.server import (
    HOST,
    ROOT,
    START_SECONDS,
    _stop,
    bounded_run,
    free_port,
    gunicorn,
    in_child,
    server_env,
)

HISTORY = 10  # deals each pulka has before the bench
POLL_SECONDS = 2.0  # the page's poll timer without a stream
FALLBACK_SECONDS = 25.0  # push.js: the timer's polls while the stream is up
WATCHDOG_SECONDS = 600
TICKS = os.sysconf("SC_CLK_TCK")


# --- in a child process with the bench settings ----------------------------------------


def prepare(tables: int) -> dict[str, Any]:
    """Migrate; per table three signed-in members, a pulka with history, a spectator link."""
    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from harness.seed import running_pulka, signed_in_session

    from prefscore.clubs.models import Club, Membership, Player, Role
    from prefscore.games import joining

    call_command("migrate", verbosity=0)
    call_command("createcachetable", verbosity=0)
    club = Club.objects.create(name="Push", slug="push", allow_spectators=True)
    players = [Player.objects.create(club=club, name=name) for name in NAMES]
    User = get_user_model()
    made = []
    for table in range(tables):
        users = [User.objects.create_user(f"push-{table}-{i}") for i in range(3)]
        Membership.objects.bulk_create(
            Membership(club=club, user=user, role=Role.MEMBER) for user in users
        )
        pulka = running_pulka(club, players, HISTORY, users[0])
        token = joining.spectator_token(joining.open_spectator_link(pulka, users[0]))
        sessions = [signed_in_session(user) for user in users]
        made.append({"pulka": pulka.pk, "sessions": sessions, "spectator": token})
    return {"tables": made}


# --- the server --------------------------------------------------------------------------


@contextmanager
def uvicorn(env: dict[str, str], workdir: Path) -> Iterator[tuple[int, int]]:
    """The site under uvicorn, one process, as ``make run`` serves it: (port, pid)."""
    port = free_port()
    log_path = workdir / "uvicorn.log"
    with log_path.open("wb") as log:
        process = subprocess.Popen(
            [sys.executable, "-m", "uvicorn", "prefscore.asgi:application", "--host", HOST,
             "--port", str(port), "--log-level", "warning", "--no-server-header", "--lifespan", "off"],
            env=env, cwd=ROOT, stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
        )  # fmt: skip
        try:
            deadline = time.time() + START_SECONDS
            while True:
                try:
                    if Client(port).request("GET", "/bench/bare/").status == 200:
                        break
                except OSError:
                    pass
                if process.poll() is not None or time.time() > deadline:
                    raise SystemExit(f"uvicorn did not start: {log_path.read_text()[-2000:]}")
                time.sleep(0.2)
            yield port, process.pid
        finally:
            _stop(process)


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS


def server_threads(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("Threads:"):
            return int(line.split()[1])
    return 0


def rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


# --- a page: its poll, and its event stream -----------------------------------------------


class Page:
    """One table page: a poll connection, and the stream on a connection of its own."""

    def __init__(self, port: int, pulka: int, session: str = "", spectator: str = "") -> None:
        self.port = port
        self.client = Client(port, session, htmx=True)
        if spectator:
            self.poll_path = f"/watch/{spectator}/poll/?v={{v}}"
            self.events_path = f"/watch/{spectator}/events/"
            self.shown = HISTORY
        else:
            ticket = poll_ticket(self.client, pulka)
            self.poll_path = f"/pulkas/{pulka}/poll/?v={{v}}&t={ticket}"
            self.events_path = f"/pulkas/{pulka}/events/?t={ticket}"
            self.shown = HISTORY
        self.seen: dict[int, float] = {}  # version -> when its regions arrived
        self.requests: list[float] = []
        self.stream: http.client.HTTPConnection | None = None

    def poll(self) -> None:
        self.requests.append(time.monotonic())
        try:
            answer = self.client.request("GET", self.poll_path.format(v=self.shown))
        except http.client.RemoteDisconnected:  # an idle keep-alive closed: as a browser
            answer = self.client.request("GET", self.poll_path.format(v=self.shown))
        if answer.status == 200:
            version = shown_version(answer.body)
            if version is not None and version != self.shown:
                self.shown = version
                self.seen[version] = time.perf_counter()

    def open_stream(self) -> http.client.HTTPResponse:
        self.stream = http.client.HTTPConnection(HOST, self.port, timeout=TIMEOUT)
        self.requests.append(time.monotonic())
        self.stream.request("GET", self.events_path, headers={"Cookie": self.client.cookies})
        response = self.stream.getresponse()
        if response.status != 200:
            raise SystemExit(f"{self.events_path}: {response.status}")
        return response

    def follow(self, stop: threading.Event) -> None:
        """push.js: a poll at each new version (and at the first, as on connecting)."""
        response = self.open_stream()
        first = True
        while not stop.is_set():
            try:
                line = response.readline()
            except (TimeoutError, OSError, AttributeError, ValueError):  # closed at the end
                return
            if not line:
                return
            if line.startswith(b"data: "):
                version = line[6:].strip()
                if first or version.decode() != str(self.shown):
                    self.poll()
                first = False

    def close(self) -> None:
        if self.stream is not None:
            self.stream.close()


def polling(page: Page, stop: threading.Event) -> None:
    """The page as before: a poll every 2 s, from a random phase."""
    stop.wait(random.uniform(0, POLL_SECONDS))
    while not stop.is_set():
        page.poll()
        stop.wait(POLL_SECONDS)


# --- 1. the delay --------------------------------------------------------------------------


def delays(port: int, table: dict[str, Any], deals: int, push: bool, first: int) -> list[float]:
    """Record ``deals`` deals on the first phone; each other page's delay to see each."""
    pulka, sessions = table["pulka"], table["sessions"]
    recorder = Client(port, sessions[0], htmx=True)
    pages = [Page(port, pulka, session) for session in sessions[1:]]
    pages.append(Page(port, pulka, spectator=table["spectator"]))
    for page in pages:
        page.shown = first - 1
    stop = threading.Event()
    threads = [
        threading.Thread(target=page.follow if push else polling, args=(stop,) if push else (page, stop), daemon=True)
        for page in pages
    ]  # fmt: skip
    for thread in threads:
        thread.start()
    time.sleep(1.0)  # the streams are open
    recorded: dict[int, float] = {}
    for number in range(first, first + deals):
        started = time.perf_counter()
        answer = recorder.request(
            "POST", f"/pulkas/{pulka}/deals/", entry_form(cycle_deal(number), NAMES, number)
        )
        version = shown_version(answer.body)
        if answer.status != 200 or version is None:
            raise SystemExit(f"deal {number}: {answer.status}")
        recorded[version] = started
        # The next deal after every page has this one (bounded), then a pause of a random
        # length, so that a deal falls anywhere in the 2 s pollers' cycle.
        deadline = time.monotonic() + 2 * POLL_SECONDS + 1
        while time.monotonic() < deadline and not all(version in p.seen for p in pages):
            time.sleep(0.01)
        time.sleep(random.uniform(0.1, POLL_SECONDS))
    stop.set()
    for page in pages:
        page.close()
    for thread in threads:
        thread.join(TIMEOUT)
    found = [page.seen[v] - at for page in pages for v, at in recorded.items() if v in page.seen]
    missing = sum(v not in page.seen for page in pages for v in recorded)
    if missing:
        print(f"  {missing} page-deals never seen within {2 * POLL_SECONDS + 1:.0f} s")
    return found


def describe(values: list[float]) -> str:
    ordered = sorted(values)
    p95 = ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]
    return (
        f"median {statistics.median(ordered) * 1000:.0f} ms, p95 {p95 * 1000:.0f} ms, "
        f"max {ordered[-1] * 1000:.0f} ms ({len(ordered)} page-deals)"
    )


# --- 2. idle pages ---------------------------------------------------------------------------


def idle(
    port: int, pid: int, tables: list[dict[str, Any]], count: int, seconds: float
) -> dict[str, float]:
    """``count`` open pages, no deals: memory per stream, CPU, requests per page."""
    pages: list[Page] = []
    for table in tables:
        for session in table["sessions"]:
            if len(pages) < count:
                pages.append(Page(port, table["pulka"], session))
    time.sleep(1.0)
    base_rss, base_cpu = rss_kib(pid), cpu_seconds(pid)
    stop = threading.Event()

    def page_life(page: Page) -> None:
        """push.js idle: the stream, one poll at connecting, the 25 s fallback."""
        response = page.open_stream()
        response.readline()  # retry + the first version
        page.poll()
        while not stop.wait(FALLBACK_SECONDS):
            page.poll()

    for page in pages:
        page.requests.clear()
    threads = [threading.Thread(target=page_life, args=(page,), daemon=True) for page in pages]
    for thread in threads:
        thread.start()
    time.sleep(3.0)
    open_rss = rss_kib(pid)
    started_cpu, started = cpu_seconds(pid), time.monotonic()
    time.sleep(seconds)
    cpu = cpu_seconds(pid) - started_cpu
    elapsed = time.monotonic() - started
    threads = server_threads(pid)
    polls = sum(1 for page in pages for at in page.requests if at >= started)
    stop.set()
    for page in pages:
        page.close()
    gaps = [
        b - a for page in pages for a, b in zip(page.requests[1:], page.requests[2:], strict=False)
    ]
    return {
        "pages": len(pages),
        "rss_before_mib": base_rss / 1024,
        "rss_open_mib": open_rss / 1024,
        "kib_per_stream": (open_rss - base_rss) / max(1, len(pages)),
        "cpu_seconds": cpu,
        "elapsed": elapsed,
        "fallback_polls": polls,
        "server_threads": threads,
        "shortest_gap_s": min(gaps) if gaps else float("nan"),
        "setup_cpu_s": started_cpu - base_cpu,
    }


# --- 3. costs ---------------------------------------------------------------------------------


def cost_ms(pid: int, repeat: int, action: Any) -> float:
    """The server's CPU per request of ``action``, in a closed loop of ``repeat``."""
    before = cpu_seconds(pid)
    for _ in range(repeat):
        action()
    return (cpu_seconds(pid) - before) / repeat * 1000


def costs(port: int, pid: int, table: dict[str, Any], first: int) -> dict[str, float]:
    pulka, session = table["pulka"], table["sessions"][1]
    page = Page(port, pulka, session)
    recorder = Client(port, table["sessions"][0], htmx=True)
    page.shown = first - 1
    path_304 = page.poll_path.format(v=first - 1)
    path_200 = page.poll_path.format(v=0)
    numbers = iter(range(first, first + 1000))

    def record() -> None:
        number = next(numbers)
        recorder.request(
            "POST", f"/pulkas/{pulka}/deals/", entry_form(cycle_deal(number), NAMES, number)
        )

    found = {
        "record": cost_ms(pid, 40, record),
        "poll 304": cost_ms(pid, 400, lambda: page.client.request("GET", path_304)),
    }
    version = shown_version(page.client.request("GET", path_200).body) or 0
    found["poll 304"] = cost_ms(
        pid, 400, lambda: page.client.request("GET", page.poll_path.format(v=version))
    )
    found["poll 200"] = cost_ms(pid, 200, lambda: page.client.request("GET", path_200))
    return found


def view_costs(port: int, pid: int, table: dict[str, Any]) -> dict[str, tuple[float, float]]:
    """Ordinary views, CPU and wall ms per request (closed loop, one client): the same
    requests against either server, to choose between them."""
    page = Page(port, table["pulka"], table["sessions"][2])
    plain = Client(port, table["sessions"][2])
    version = shown_version(page.client.request("GET", page.poll_path.format(v=0)).body) or 0
    recorder = Client(port, table["sessions"][0], htmx=True)
    numbers = iter(range(version + 1, version + 1000))

    def record() -> None:
        number = next(numbers)
        form = entry_form(cycle_deal(number), NAMES, number)
        recorder.request("POST", f"/pulkas/{table['pulka']}/deals/", form)

    actions = {
        "poll 304": (400, lambda: page.client.request("GET", page.poll_path.format(v=version))),
        "poll 200": (200, lambda: page.client.request("GET", page.poll_path.format(v=0))),
        "sheet page": (100, lambda: plain.request("GET", f"/pulkas/{table['pulka']}/")),
        "record": (40, record),
    }
    found = {}
    for name, (repeat, action) in actions.items():
        action()  # warm
        started = time.perf_counter()
        cpu = cost_ms(pid, repeat, action)
        found[name] = (cpu, (time.perf_counter() - started) / repeat * 1000)
    return found


def compare_servers(
    env: dict[str, str], workdir: Path, table: dict[str, Any]
) -> dict[str, dict[str, float]]:
    """uvicorn (the whole site under ASGI) against gunicorn's sync worker, same database."""
    rounds: dict[str, list[dict[str, tuple[float, float]]]] = {"gunicorn": [], "uvicorn": []}
    for _ in range(2):  # alternated, so that a slow moment of the machine hits both
        with gunicorn(env, 1, workdir) as port:
            rounds["gunicorn"].append(view_costs(port, workers_of(RUNNING["gunicorn"])[0], table))
        with uvicorn(env, workdir) as (port, pid):
            rounds["uvicorn"].append(view_costs(port, pid, table))
    print("\nordinary views, one process each, CPU / wall ms per request (best of 2):")
    costs_of = {
        server: {name: min(r[name][0] for r in runs) for name in runs[0]}
        for server, runs in rounds.items()
    }
    for name in ("poll 304", "poll 200", "sheet page", "record"):
        best = {server: min(r[name] for r in runs) for server, runs in rounds.items()}
        g, u = best["gunicorn"], best["uvicorn"]
        print(
            f"  {name}: gunicorn {g[0]:.2f} / {g[1]:.2f}, uvicorn {u[0]:.2f} / {u[1]:.2f}: "
            f"uvicorn/gunicorn CPU {u[0] / g[0]:.2f}x"
        )
    return costs_of


def sizing(
    found: dict[str, float], idle_found: dict[str, float], deals_an_hour: int, where: str
) -> None:
    """Worker-seconds per table-hour: three phones, a deal every 3600/deals_an_hour s."""
    rows = {
        "2 s polling": {
            "poll 304": 3 * 3600 / POLL_SECONDS - 2 * deals_an_hour,
            "poll 200": 2 * deals_an_hour,
            "record": deals_an_hour,
        },
        "push": {
            "poll 304": 3 * (3600 / (FALLBACK_SECONDS + POLL_SECONDS)),
            "poll 200": 2 * deals_an_hour,
            "record": deals_an_hour,
        },
    }
    print(f"\nper table-hour at {deals_an_hour} deals an hour (three phones), {where}:")
    for name, counts in rows.items():
        seconds = sum(counts[kind] * found[kind] for kind in counts) / 1000
        if name == "push":
            seconds += 3 * idle_found["stream_ms_per_hour"] / 1000
        parts = ", ".join(f"{kind} {n:.0f}" for kind, n in counts.items())
        print(f"  {name}: {seconds:.2f} worker-seconds ({parts})")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=30)
    parser.add_argument("--idle", type=int, default=200)
    parser.add_argument("--idle-seconds", type=float, default=60.0)
    parser.add_argument("--prepare", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.prepare:
        print(json.dumps(prepare(args.prepare)))
        return 0
    deals = max(5, min(args.deals, 200))
    count = max(3, min(args.idle, 300))
    with bounded_run("bench/push.py", WATCHDOG_SECONDS, "prefscore-push-") as workdir:
        env = server_env(f"sqlite:///{workdir / 'push.sqlite3'}")
        data = in_child(__file__, env, "--prepare", str(-(-count // 3) + 1))
        tables = data["tables"]
        with uvicorn(env, workdir) as (port, pid):
            print(f"uvicorn, one process, SQLite, on {HOST}:{port}")
            polled = delays(port, tables[0], max(5, deals // 3), False, HISTORY + 1)
            pushed = delays(port, tables[0], deals, True, HISTORY + 1 + max(5, deals // 3))
            print(f"\nfrom a record to the other phones showing it ({deals} deals):")
            print(f"  2 s polling (baseline): {describe(polled)}")
            print(f"  push:                   {describe(pushed)}")
            print(
                f"  ratio of medians: {statistics.median(pushed) / statistics.median(polled):.3f}"
            )
            found = idle(port, pid, tables[1:], count, max(30.0, args.idle_seconds))
            used = HISTORY + 1 + max(5, deals // 3) + deals
            spent = costs(port, pid, tables[0], used)
            print(
                "\nserver CPU per request: "
                + ", ".join(f"{k} {v:.2f} ms" for k, v in spent.items())
            )
            # The streams' own share: the idle CPU less the fallback polls' (at their cost).
            streams_cpu = found["cpu_seconds"] - found["fallback_polls"] * spent["poll 304"] / 1000
            found["stream_ms_per_hour"] = (
                max(0.0, streams_cpu) / found["elapsed"] / found["pages"] * 3600 * 1000
            )
            print(f"\n{found['pages']} idle pages for {found['elapsed']:.0f} s:")
            print(
                f"  server RSS {found['rss_before_mib']:.1f} MiB -> {found['rss_open_mib']:.1f} MiB: "
                f"{found['kib_per_stream']:.1f} KiB per open page (its stream and its poll's "
                f"connection); {found['server_threads']} threads in the server"
            )
            print(
                f"  CPU {found['cpu_seconds'] / found['elapsed'] * 100:.2f} % of a core, of which "
                f"{found['fallback_polls']} fallback polls; the streams alone (heartbeats, the "
                f"watcher): {found['stream_ms_per_hour']:.1f} ms per stream-hour"
            )
            print(f"  shortest gap between two requests of a page: {found['shortest_gap_s']:.1f} s")
            for pace in (30, 60):
                sizing(spent, found, pace, "make run: uvicorn serves all")
        servers = compare_servers(env, workdir, tables[0])
        for pace in (30, 60):
            sizing(servers["gunicorn"], found, pace, "production: gunicorn, the streams on uvicorn")
    return 0


if __name__ == "__main__":
    sys.exit(main())
