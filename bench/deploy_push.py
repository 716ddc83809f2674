"""Push through the hosted route: how soon a deal on one phone shows on another when the
site runs as deploy/ runs it, against the same site served as ``make run`` serves it; and
what the static files cost through gunicorn (WhiteNoise) against Caddy's file_server.

    python bench/deploy_push.py [--deals 15] [--rounds 2] [--files 300]

The hosted route is brought up by bench/harness/topology.py as tests/deploy/ bring it up:
PostgreSQL 15, the release step, gunicorn, uvicorn and the worker from their unit files,
Caddy with deploy/Caddyfile over HTTPS (its own authority, trusted by the browser) on
prefscore.localhost. The baseline, in the same run, on the same database: one uvicorn
serving the whole site over plain http on loopback, as ``make run`` does (no proxy, no
TLS, no split). Two phones in Debian's Chromium (390×844): one records deals through the
entry form, the other waits with its poll timer at 10 minutes, so only the push brings
the deal (tests/deploy/phones.py). Rounds alternate the two ways; each way plays a fresh
pulka per round, after one deal that warms the workers.

Per deal: ``total`` from the entry's submit on the first phone to the deal's line on the
second; ``signal`` until the second phone asks its poll (record, NOTIFY, stream),
``poll`` its answer, ``swap`` htmx putting it on the page.

Static files: ``--files`` requests of the hashed stylesheet over one HTTPS keep-alive
connection, as a phone's first visit asks for it, through deploy/'s Caddy to gunicorn
and WhiteNoise, and through a second Caddy that serves ``collectstatic``'s folder itself
(``file_server`` with the precompressed files); alternated, twice each. Per request: the
wall time, and the CPU of the serving processes (gunicorn's, Caddy's) from /proc.

Only loopback addresses are used; every process started here is stopped here; a
watchdog ends the run.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
# The browser helpers import Django's settings (never the database, here): development
# settings in this process; the site's own processes have the environment file's.
os.environ.update(DJANGO_SETTINGS_MODULE="prefscore.settings", DEBUG="1",
                  DATABASE_URL="sqlite://:memory:")  # fmt: skip

import django  # noqa: E402
from playwright.sync_api import Browser  # noqa: E402

django.setup()

from bench.harness.deals import cycle_deal  # noqa: E402
from bench.harness.server import _stop, free_port  # noqa: E402
from bench.harness.topology import Site, hosted_site  # noqa: E402
from tests.deploy.phones import (  # noqa: E402
    push_delays,
    signed_in_phone,
    trusting_chromium,
    with_push,
)
from tests.deploy.seed import last_json, seed_command  # noqa: E402

WATCHDOG_SECONDS = 1200
PARTS = ("total", "signal", "poll", "swap")
TICKS = os.sysconf("SC_CLK_TCK")
# Caddy serving collectstatic's folder itself: the alternative deploy/ does not take.
FILE_SERVER = """{{
	admin off
	skip_install_trust
	http_port {http}
	https_port {https}
}}
{domain} {{
	handle_path /static/* {{
		root * {root}
		header Cache-Control "max-age=315360000, public, immutable"
		file_server {{
			precompressed br gzip
		}}
	}}
	handle {{
		reverse_proxy 127.0.0.1:{pages}
	}}
}}
"""


def direct_uvicorn(site: Site) -> tuple[str, subprocess.Popen[bytes]]:
    """The whole site under one uvicorn on plain http, as ``make run`` serves it."""
    port = free_port()
    env = {**site.environment("prefscore-web.service"), "PLAIN_HTTP": "1",
           "ALLOWED_HOSTS": "127.0.0.1"}  # fmt: skip
    python = site.paths("/srv/prefscore/.venv/bin/python")
    log = (site.workdir / "direct.log").open("wb")
    process = subprocess.Popen(
        [python, "-m", "uvicorn", "prefscore.asgi:application", "--host", "127.0.0.1",
         "--port", str(port), "--lifespan", "off", "--no-access-log"],
        cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
    )  # fmt: skip
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
            connection.request("GET", "/favicon.ico")
            connection.getresponse().read()
            return f"http://127.0.0.1:{port}", process
        except OSError:
            time.sleep(0.2)
    _stop(process)
    raise SystemExit("the direct uvicorn did not start")


def play(
    browser: Browser, origin: str, password: str, pulka: int, deals: int
) -> list[dict[str, float]]:
    sheet = f"/pulkas/{pulka}/"
    anna = with_push(signed_in_phone(browser, origin, "anna", password, "ru-RU", sheet))
    boris = with_push(signed_in_phone(browser, origin, "boris", password, "en-US", sheet))
    try:
        push_delays(anna, boris, [cycle_deal(1)], 1)  # warms the workers
        return push_delays(anna, boris, [cycle_deal(n) for n in range(2, deals + 2)], 2)
    finally:
        anna.context.close()
        boris.context.close()


def cpu_seconds(pids: list[int]) -> float:
    """User and system CPU of these processes and their children so far (/proc)."""
    total = 0.0
    for pid in pids:
        for task in [pid, *children(pid)]:
            try:
                fields = Path(f"/proc/{task}/stat").read_text().rsplit(")", 1)[1].split()
            except FileNotFoundError:
                continue
            total += (int(fields[11]) + int(fields[12])) / TICKS
    return total


def children(pid: int) -> list[int]:
    try:
        found = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    except FileNotFoundError:
        return []
    return [int(child) for child in found]


def fetch_static(site: Site, port: int, path: str, count: int, pids: list[int]) -> dict[str, float]:
    """``count`` GETs of ``path`` on one connection: wall ms each (median), CPU ms each."""
    connection = site.https()
    connection.port = port
    times = []
    cpu_before = cpu_seconds(pids)
    for _ in range(count):
        started = time.perf_counter()
        connection.request("GET", path, headers={"Accept-Encoding": "br, gzip"})
        answer = connection.getresponse()
        answer.read()
        if answer.status != 200:
            raise SystemExit(f"{path}: {answer.status}")
        times.append((time.perf_counter() - started) * 1000)
    cpu = (cpu_seconds(pids) - cpu_before) * 1000 / count
    connection.close()
    return {"median": statistics.median(times), "cpu": cpu,
            "encoding": answer.getheader("Content-Encoding") or "none"}  # fmt: skip


def static_files(site: Site, count: int) -> dict[str, dict[str, float]]:
    """The hashed stylesheet through WhiteNoise and through Caddy's file_server."""
    root = Path(site.settings["STATIC_ROOT"])
    manifest = json.loads((root / "staticfiles.json").read_text())["paths"]
    path = "/static/" + manifest["css/prefscore.css"]
    http, https = free_port(), free_port()
    config = site.workdir / "file_server.Caddyfile"
    config.write_text(FILE_SERVER.format(http=http, https=https, domain="prefscore.localhost",
                                         root=root, pages=site.settings["PAGES_PORT"]))  # fmt: skip
    env = {**site.environment("prefscore-caddy.service")}
    log = (site.workdir / "file_server.log").open("wb")
    other = subprocess.Popen(
        ["/usr/bin/caddy", "run", "--config", str(config), "--adapter", "caddyfile"],
        env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                fetch_static(site, https, path, 1, [])
                break
            except (OSError, SystemExit):
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.2)
        gunicorn = site.processes["prefscore-web.service"].pid
        caddy = site.processes["prefscore-caddy.service"].pid
        found: dict[str, list[dict[str, float]]] = {"whitenoise": [], "file_server": []}
        for _ in range(2):
            found["whitenoise"].append(
                fetch_static(site, site.https_port, path, count, [gunicorn, caddy])
            )
            found["file_server"].append(fetch_static(site, https, path, count, [other.pid]))
    finally:
        _stop(other)
    return {way: {"median": min(r["median"] for r in runs), "cpu": min(r["cpu"] for r in runs),
                  "encoding": runs[0]["encoding"]}
            for way, runs in found.items()}  # fmt: skip


def figures(timings: list[dict[str, float]]) -> dict[str, float]:
    found: dict[str, float] = {"deals": len(timings)}
    totals = sorted(t["total"] for t in timings)
    found["median"] = statistics.median(totals)
    found["p90"] = totals[round(0.9 * (len(totals) - 1))]
    found["max"] = totals[-1]
    for part in PARTS[1:]:
        found[f"{part} median"] = statistics.median(t[part] for t in timings)
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=15, help="measured deals per way and round")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--files", type=int, default=300, help="static requests per way and run")
    options = parser.parse_args()

    def watchdog(signum: int, frame: object) -> None:
        raise SystemExit(f"stopped by its {WATCHDOG_SECONDS} s watchdog")

    signal.signal(signal.SIGALRM, watchdog)
    signal.alarm(WATCHDOG_SECONDS)
    started = time.monotonic()
    with hosted_site() as site:
        up = time.monotonic() - started
        seeded = site.manage(*seed_command(tables=2 * options.rounds))
        if seeded.returncode:
            raise SystemExit(seeded.stderr)
        world = last_json(seeded.stdout)
        direct, process = direct_uvicorn(site)
        results: dict[str, list[dict[str, float]]] = {"hosted": [], "direct": []}
        pulkas = iter(world["pulkas"])
        try:
            with tempfile.TemporaryDirectory() as home:
                with trusting_chromium(site.root_certificate, Path(home)) as browser:
                    for round_ in range(options.rounds):
                        ways = [("hosted", site.origin), ("direct", direct)]
                        for way, origin in ways if round_ % 2 == 0 else ways[::-1]:
                            timings = play(browser, origin, world["password"], next(pulkas),
                                           options.deals)  # fmt: skip
                            results[way] += timings
                            print(f"round {round_ + 1}, {way}: {figures(timings)}", flush=True)
        finally:
            _stop(process)
        served = static_files(site, options.files)
    hosted, plain = figures(results["hosted"]), figures(results["direct"])
    print(f"\nthe topology came up in {up:.1f} s (release step included)")
    print("\n| | median | p90 | max | signal | poll | swap | deals |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for name, found in (("make run (uvicorn alone, http)", plain),
                        ("deploy/ (Caddy, HTTPS, gunicorn + uvicorn)", hosted)):  # fmt: skip
        print(f"| {name} | {found['median']:.0f} ms | {found['p90']:.0f} ms | "
              f"{found['max']:.0f} ms | {found['signal median']:.0f} | "
              f"{found['poll median']:.0f} | {found['swap median']:.0f} | "
              f"{found['deals']:.0f} |")  # fmt: skip
    print(f"| ratio | {hosted['median'] / plain['median']:.2f} | "
          f"{hosted['p90'] / plain['p90']:.2f} | | | | | |")  # fmt: skip
    print("\n| the hashed stylesheet | wall per request (median) | CPU per request | encoding |")
    print("|---|---:|---:|---|")
    for way, found in served.items():
        print(f"| {way} | {found['median']:.2f} ms | {found['cpu']:.2f} ms | "
              f"{found['encoding']} |")  # fmt: skip
    print(json.dumps({"hosted": hosted, "direct": plain, "up_seconds": up, "static": served}))


if __name__ == "__main__":
    main()
