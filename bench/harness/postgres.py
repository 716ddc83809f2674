"""A throwaway PostgreSQL 15 on a loopback port for one run, as .ci/run starts one."""

from __future__ import annotations

import os
import pwd
import secrets
import shutil
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from .faults import RUNNING
from .server import HOST, free_port

PG_BIN = Path("/usr/lib/postgresql/15/bin")


@contextmanager
def database(workdir: Path) -> Iterator[str]:
    """``DATABASE_URL`` when it is set; otherwise a throwaway server's, until the block ends."""
    url = os.environ.get("DATABASE_URL")
    if url:
        yield url
    else:
        with throwaway_postgres(workdir) as url:
            yield url


@contextmanager
def throwaway_postgres(workdir: Path) -> Iterator[str]:
    """A PostgreSQL 15 cluster in ``workdir`` for this run only; its URL."""
    if not (PG_BIN / "initdb").exists():
        raise SystemExit(
            "PostgreSQL 15 is missing (apt-get install postgresql-15), or set DATABASE_URL"
        )
    as_user = _server_user()
    root = workdir / "postgres"
    (root / "data").mkdir(parents=True)
    (root / "socket").mkdir()
    if as_user:
        for path in (workdir, root, root / "data", root / "socket"):
            shutil.chown(path, "postgres")
    port = free_port()
    subprocess.run(
        [*as_user, str(PG_BIN / "initdb"), "-D", str(root / "data"), "-U", "postgres",
         "--auth-local=trust", "--auth-host=scram-sha-256", "--encoding=UTF8",
         "--locale=C.UTF-8", "--no-sync"],
        stdout=subprocess.DEVNULL, check=True,
    )  # fmt: skip
    # A throwaway cluster: durability is not wanted, speed is (as in .ci/run).
    options = (
        f"-p {port} -k {root / 'socket'} -c listen_addresses={HOST} -c fsync=off "
        "-c synchronous_commit=off -c full_page_writes=off"
    )
    pg_ctl = [*as_user, str(PG_BIN / "pg_ctl"), "-D", str(root / "data")]
    subprocess.run(
        [*pg_ctl, "-l", str(root / "server.log"), "-w", "-o", options, "start"],
        stdout=subprocess.DEVNULL,
        check=True,
    )
    # bench/load.py --fault restart-db restarts it (pg_ctl reuses the options above).
    RUNNING["pg_ctl"] = [*pg_ctl, "-l", str(root / "server.log")]
    RUNNING["pg_data"] = root / "data"  # its postmaster.pid: bench/load.py's CPU split
    try:
        password = secrets.token_hex(16)
        subprocess.run(
            [str(PG_BIN / "psql"), "-h", str(root / "socket"), "-p", str(port), "-U",
             "postgres", "-d", "postgres", "-q", "-v", "ON_ERROR_STOP=1"],
            input=(f"CREATE ROLE prefscore LOGIN CREATEDB PASSWORD '{password}';\n"
                   "CREATE DATABASE prefscore OWNER prefscore;\n").encode(),
            stdout=subprocess.DEVNULL, check=True,
        )  # fmt: skip
        yield f"postgres://prefscore:{password}@{HOST}:{port}/prefscore"
    finally:
        subprocess.run([*pg_ctl, "-m", "fast", "stop"], stdout=subprocess.DEVNULL, check=False)


def _server_user() -> list[str]:
    """The command prefix that runs the server as postgres when we are root (initdb refuses root)."""
    if os.geteuid() != 0:
        return []
    try:
        pwd.getpwnam("postgres")
    except KeyError:
        subprocess.run(
            ["useradd", "--system", "--user-group", "--no-create-home",
             "--shell", "/usr/sbin/nologin", "postgres"],
            check=True,
        )  # fmt: skip
    return ["runuser", "-u", "postgres", "--"]
