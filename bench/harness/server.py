"""The server side of a bench run: a free port, gunicorn, child processes, a watchdog.

Only 127.0.0.1 is used. Every process started here is stopped here, and every wait
has a bound.
"""

from __future__ import annotations

import json
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from .faults import RUNNING

ROOT = Path(__file__).resolve().parents[2]
HOST = "127.0.0.1"
BARE = "/bench/bare/"  # the bench settings' view that does nothing (bench/webapp/urls.py)
BARE_ALONE = "/bench/bare/alone/"  # the same view through no middleware (bench/webapp/wsgi.py)
CHILD_SECONDS = 120
START_SECONDS = 30


def free_port() -> int:
    """A loopback port nobody listens on now."""
    with socket.socket() as s:
        s.bind((HOST, 0))
        return int(s.getsockname()[1])


def server_env(database_url: str, **extra: str) -> dict[str, str]:
    """The environment of gunicorn and of the children: production's, bench settings.

    ``extra`` adds variables the bench settings read (``BENCH_SQLITE_TUNED``...); any
    such variable of the calling shell is dropped first.
    """
    env = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith("BENCH_") and key != "DJANGO_ALLOW_ASYNC_UNSAFE"
    }
    env.update(
        DEBUG="0",
        SECRET_KEY="bench-" + secrets.token_hex(24),
        ALLOWED_HOSTS=HOST,
        SECURE_SSL_REDIRECT="0",
        DATABASE_URL=database_url,
        DJANGO_SETTINGS_MODULE="bench.webapp.settings",
        PYTHONPATH=str(ROOT),
        LOG_LEVEL="WARNING",
        **extra,
    )
    return env


def in_child(script: str, env: dict[str, str], *args: str, stdin: str = "") -> Any:
    """Run ``script`` with ``args`` in a child with the bench settings; its last line's JSON.

    The benches prepare and check the database this way, so that their own process
    never sets Django up.
    """
    done = subprocess.run(
        [sys.executable, script, *args],
        env=env,
        cwd=ROOT,
        input=stdin,
        capture_output=True,
        text=True,
        timeout=CHILD_SECONDS,
    )
    if done.returncode:
        raise SystemExit(f"{script} {args[0]} failed:\n{done.stderr[-3000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


@contextmanager
def gunicorn(
    env: dict[str, str], workers: int, workdir: Path, app: str = "prefscore.wsgi:application"
) -> Iterator[int]:
    """gunicorn with ``workers`` sync workers on a free loopback port, until the block ends;
    ``app`` is the WSGI application it serves.

    Yields the port once the bare view answers; stops the whole process group after.
    """
    port = free_port()
    log_path = workdir / "gunicorn.log"
    with log_path.open("wb") as log:
        process = subprocess.Popen(
            [str(Path(sys.executable).parent / "gunicorn"), app,
             "--workers", str(workers), "--bind", f"{HOST}:{port}", "--log-level", "warning",
             "--chdir", str(ROOT)],
            env=env, cwd=ROOT, stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
        )  # fmt: skip
        RUNNING["gunicorn"] = process.pid  # for bench/load.py --fault kill-worker
        try:
            _wait_until_up(port, process, log_path)
            yield port
        finally:
            _stop(process)


def _wait_until_up(port: int, process: subprocess.Popen[bytes], log: Path) -> None:
    from .client import Client

    deadline = time.time() + START_SECONDS
    while time.time() < deadline:
        if process.poll() is not None:
            raise SystemExit(f"gunicorn stopped: {log.read_text()[-3000:]}")
        try:
            if Client(port).request("GET", BARE).status == 200:
                return
        except OSError:
            pass
        time.sleep(0.2)
    raise SystemExit(f"gunicorn did not answer within {START_SECONDS} s")


def _stop(process: subprocess.Popen[bytes]) -> None:
    try:
        os.killpg(process.pid, signal.SIGTERM)
        process.wait(timeout=15)
    except (ProcessLookupError, subprocess.TimeoutExpired):
        try:
            os.killpg(process.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass


@contextmanager
def bounded_run(name: str, seconds: int, prefix: str) -> Iterator[Path]:
    """A scratch folder and a watchdog: the run ends after ``seconds`` whatever happens.

    The folder (readable by the postgres user, who may run a throwaway server in it)
    is removed afterwards.
    """

    def watchdog(signum: int, frame: Any) -> None:
        raise SystemExit(f"{name} stopped by its {seconds} s watchdog")

    signal.signal(signal.SIGALRM, watchdog)
    signal.alarm(seconds)
    workdir = Path(tempfile.mkdtemp(prefix=prefix))
    os.chmod(workdir, 0o755)
    try:
        yield workdir
    finally:
        signal.alarm(0)
        shutil.rmtree(workdir, ignore_errors=True)
