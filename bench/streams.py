"""A flood of event streams against one server at a laptop's file limit.

    python bench/streams.py [--files 1024] [--streams 1100] [--root PATH]

The site runs as ``make run`` runs it (uvicorn, one process, SQLite in a scratch folder,
the bench settings), started with its open files limited to ``--files``, soft and hard
alike, so that it cannot raise them (a laptop's common 1,024); with ``--hard`` above
``--files``, as most systems have it, the server may raise its own. Then:

1. **One account** opens ``--streams`` streams of its table at once (a script, or a tab
   gone wild): how many are held, how many refused, and how (429, 503, 500, a dropped
   connection).
2. **Many** (spectator links, the per-address limit lifted for the run, so that only the
   process's own limit is left): ``--streams`` streams at once, counted the same way.
3. **While they are held**, another phone of the club records a deal, its poll answers,
   and one of the streams held hears the new version: "the other phones keep working".
4. The server's memory per stream held, and its log's count of "Too many open files"
   and of tracebacks.

``--root`` runs the same against another checkout (``git archive`` of the code before),
for a baseline measured in the same run. Only 127.0.0.1 is used; every process started
here is stopped here; each wait is bounded.
"""

from __future__ import annotations

import argparse
import asyncio
import http.client
import json
import resource
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from harness.client import Client, shown_version
from harness.deals import NAMES, cycle_deal, entry_form
from harness.server import (
    HOST,
    ROOT,
    START_SECONDS,
    _stop,
    bounded_run,
    free_port,
    in_child,
    server_env,
)

HISTORY = 10
WATCHDOG_SECONDS = 600
OPEN_SECONDS = 60  # bound on opening the whole flood
READ_SECONDS = 20  # bound on each stream's first answer


def prepare() -> dict[str, Any]:
    """Migrate; a club with two tables: two members each signed in, a spectator link."""
    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from harness.seed import running_pulka, signed_in_session

    from prefscore.clubs.models import Club, Membership, Player, Role
    from prefscore.games import joining

    call_command("migrate", verbosity=0)
    call_command("createcachetable", verbosity=0)
    club = Club.objects.create(name="Flood", slug="flood", allow_spectators=True)
    players = [Player.objects.create(club=club, name=name) for name in NAMES]
    users = [get_user_model().objects.create_user(f"flood-{i}") for i in range(3)]
    for user in users:
        Membership.objects.create(club=club, user=user, role=Role.MEMBER)
    pulka = running_pulka(club, players, HISTORY, users[0])
    token = joining.spectator_token(joining.open_spectator_link(pulka, users[0]))
    return {
        "pulka": pulka.pk,
        "sessions": [signed_in_session(user) for user in users],
        "spectator": token,
    }


@contextmanager
def uvicorn(
    env: dict[str, str], workdir: Path, root: Path, files: int, hard: int
) -> Iterator[tuple[int, int]]:
    """The site under uvicorn started with ``files`` open files, ``hard`` at most: (port, pid)."""
    port = free_port()
    log_path = workdir / "uvicorn.log"

    def limited() -> None:
        resource.setrlimit(resource.RLIMIT_NOFILE, (files, hard))

    with log_path.open("wb") as log:
        process = subprocess.Popen(
            [sys.executable, "-m", "uvicorn", "prefscore.asgi:application", "--host", HOST,
             "--port", str(port), "--log-level", "warning", "--no-server-header", "--lifespan", "off"],
            env={**env, "PYTHONPATH": f"{root}:{ROOT}"}, cwd=root, stdout=log,
            stderr=subprocess.STDOUT, start_new_session=True, preexec_fn=limited,
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


def rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


async def open_one(port: int, path: str, cookie: str) -> tuple[str, Any]:
    """One stream: its status (or "dropped"), and its connection while it is held."""
    try:
        reader, writer = await asyncio.wait_for(asyncio.open_connection(HOST, port), READ_SECONDS)
    except (OSError, TimeoutError):
        return "no connection", None
    request = f"GET {path} HTTP/1.1\r\nHost: {HOST}\r\nCookie: {cookie}\r\n\r\n"
    writer.write(request.encode())
    try:
        line = await asyncio.wait_for(reader.readline(), READ_SECONDS)
    except (OSError, TimeoutError):
        writer.close()
        return "dropped", None
    if not line:
        writer.close()
        return "dropped", None
    status = line.split()[1].decode()
    if status != "200":
        writer.close()
        return status, None
    return status, (reader, writer)


async def flood(port: int, path: str, cookie: str, count: int) -> tuple[Counter[str], list[Any]]:
    found = await asyncio.wait_for(
        asyncio.gather(*(open_one(port, path, cookie) for _ in range(count))), OPEN_SECONDS
    )
    return Counter(status for status, _held in found), [held for _status, held in found if held]


async def hears(held: Any, version: int) -> bool:
    """Whether this held stream says ``version`` within a few seconds."""
    reader, _writer = held
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        try:
            line = await asyncio.wait_for(reader.readline(), deadline - time.monotonic())
        except (TimeoutError, OSError):
            return False
        if line.strip() == f"data: {version}".encode():
            return True
    return False


def close_all(held: list[Any]) -> None:
    for _reader, writer in held:
        writer.close()


def other_phone(port: int, data: dict[str, Any], number: int) -> dict[str, Any]:
    """Another phone of the club records a deal, and polls: their statuses."""
    found: dict[str, Any] = {"version": None}
    phone = Client(port, data["sessions"][1], htmx=True)
    try:
        answer = phone.request(
            "POST", f"/pulkas/{data['pulka']}/deals/", entry_form(cycle_deal(number), NAMES, number)
        )
        found.update(record=answer.status, version=shown_version(answer.body))
    except (OSError, http.client.HTTPException) as error:
        found["record"] = f"failed: {type(error).__name__}"
    try:
        page = Client(port, data["sessions"][2]).request("GET", f"/pulkas/{data['pulka']}/")
        found["page"] = page.status
    except (OSError, http.client.HTTPException) as error:
        found["page"] = f"failed: {type(error).__name__}"
    return found


async def scenario(port: int, pid: int, data: dict[str, Any], count: int) -> dict[str, Any]:
    base = rss_kib(pid)
    cookie = f"sessionid={data['sessions'][0]}"
    one, held_one = await flood(port, f"/pulkas/{data['pulka']}/events/", cookie, count)
    spectators, held_many = await flood(port, f"/watch/{data['spectator']}/events/", "", count)
    held = held_one + held_many
    await asyncio.sleep(1.0)
    rss = rss_kib(pid)
    phone = await asyncio.to_thread(other_phone, port, data, HISTORY + 1)
    heard = bool(held) and phone["version"] is not None and await hears(held[-1], phone["version"])
    close_all(held)
    return {
        "one account": dict(one),
        "spectators": dict(spectators),
        "held": len(held),
        "kib_per_stream": (rss - base) / max(1, len(held)),
        "rss_mib": rss / 1024,
        "other phone": {**phone, "a held stream heard it": heard},
    }


def run(root: Path, files: int, hard: int, count: int, show_log: bool = False) -> dict[str, Any]:
    with bounded_run("bench/streams.py", WATCHDOG_SECONDS, "prefscore-streams-") as workdir:
        env = server_env(
            f"sqlite:///{workdir / 'streams.sqlite3'}", STREAMS_PER_ADDRESS=str(10 * count)
        )
        data = in_child(__file__, env, "--prepare")
        with uvicorn(env, workdir, root, files, hard) as (port, pid):
            found = asyncio.run(scenario(port, pid, data, count))
        log = (workdir / "uvicorn.log").read_text(errors="replace")
        found["log: Too many open files"] = log.count("Too many open files")
        found["log: tracebacks"] = log.count("Traceback (most recent call last)")
        found["log: unable to open database file"] = log.count("unable to open database file")
        if show_log:  # but for the refusals, one line each
            refusals = ("Too Many Requests:", "Service Unavailable:")
            print("\n".join(line for line in log.splitlines() if not line.startswith(refusals)))
    return found


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--files", type=int, default=1024)
    parser.add_argument(
        "--hard", type=int, help="the hard limit of open files (default: --files, so it stays)"
    )
    parser.add_argument("--streams", type=int, default=1100)
    parser.add_argument("--root", type=Path, default=ROOT, help="the checkout to serve")
    parser.add_argument("--log", action="store_true", help="print the end of the server's log")
    parser.add_argument("--prepare", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.prepare:
        print(json.dumps(prepare()))
        return 0
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)  # the flood's own sockets
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, min(hard, 4 * args.streams + 256)), hard))
    hard = max(args.hard or args.files, args.files)
    print(
        f"{args.root}: uvicorn at {args.files} open files (hard {hard}), {args.streams} streams twice"
    )
    print(json.dumps(run(args.root.resolve(), args.files, hard, args.streams, args.log), indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
