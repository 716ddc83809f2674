"""A throwaway Redis for one run (bench/load.py --cache redis), as postgres.py makes a
PostgreSQL: loopback only, a free port, nothing written to disk, bounded memory.

It is the shared cache prefscore uses with ``CACHE_URL=redis://…``: one copy of each
rendered region for every worker, where the default keeps one per worker.
"""

from __future__ import annotations

import shutil
import socket
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from .faults import RUNNING
from .server import HOST, free_port

MISSING = "redis-server is not on this machine: apt-get install redis-server"
# A club's whole evening in one cache: prefscore's own bound for a worker's memory is
# 64 MiB, and the 200-table evening's live set fits it; past it the least recently used
# keys go (allkeys-lru), as a production Redis for a cache is set up.
MAXMEMORY = "128mb"
START_SECONDS = 10


def redis_command(binary: str, port: int, folder: Path) -> list[str]:
    """redis-server on ``port`` of the loopback, its files in ``folder``, no persistence."""
    return [
        binary, "--bind", HOST, "--port", str(port), "--protected-mode", "yes",
        "--save", "", "--appendonly", "no", "--dir", str(folder),
        "--maxmemory", MAXMEMORY, "--maxmemory-policy", "allkeys-lru",
        "--logfile", str(folder / "redis.log"), "--daemonize", "no",
    ]  # fmt: skip


@contextmanager
def throwaway_redis(workdir: Path) -> Iterator[str]:
    """A redis-server in ``workdir`` for this run only; its ``redis://`` URL."""
    binary = shutil.which("redis-server")
    if binary is None:
        raise SystemExit(MISSING)
    folder = workdir / "redis"
    folder.mkdir()
    port = free_port()
    process = subprocess.Popen(
        redis_command(binary, port, folder),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    RUNNING["redis"] = process.pid
    try:
        _wait_until_up(port, process, folder / "redis.log")
        yield f"redis://{HOST}:{port}/0"
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=10)
        RUNNING.pop("redis", None)


def ping(port: int) -> bool:
    """Whether a Redis answers PING on ``port`` (an inline command: no client needed)."""
    try:
        with socket.create_connection((HOST, port), timeout=1) as connection:
            connection.sendall(b"PING\r\n")
            return connection.recv(64).startswith(b"+PONG")
    except OSError:
        return False


def _wait_until_up(port: int, process: subprocess.Popen[bytes], log: Path) -> None:
    deadline = time.monotonic() + START_SECONDS
    while time.monotonic() < deadline:
        if process.poll() is not None:
            told = log.read_text()[-2000:] if log.exists() else ""
            raise SystemExit(f"redis-server stopped: {told}")
        if ping(port):
            return
        time.sleep(0.1)
    raise SystemExit(f"redis-server did not answer within {START_SECONDS} s")


@contextmanager
def shared_cache(kind: str, workdir: Path) -> Iterator[str | None]:
    """bench/load.py's CACHE_URL for ``--cache kind``: a throwaway Redis's, the database
    table's, or None for each worker's own memory (or the shell's CACHE_URL)."""
    if kind == "redis":
        with throwaway_redis(workdir) as url:
            yield url
    else:
        yield "db://prefscore_cache" if kind == "db" else None
