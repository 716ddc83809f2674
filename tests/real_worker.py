"""A real worker process on the test's database, for the tests whose point is that work
runs after the request, in another process (docs/tasks.md).

The worker is production's (``manage.py run_worker``, prefscore/deferred/worker.py),
started on the database of the running test (a file on SQLite: settings.py), which must
commit what it makes (``transaction=True``). It is stopped, by its own process id, when
the block ends. tests/test_deferred_kill.py kills such workers.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import quote

from tests.helpers import SETTINGS_VARIABLES

ROOT = Path(__file__).resolve().parent.parent


def database_url() -> str:
    """The URL of the database the tests run on (a file for SQLite: settings.py)."""
    from django.db import connection

    found = connection.settings_dict
    if connection.vendor == "sqlite":
        return f"sqlite:///{found['NAME']}"
    user = quote(found.get("USER") or "")
    password = quote(found.get("PASSWORD") or "")
    host = found.get("HOST") or "localhost"
    port = found.get("PORT") or 5432
    return f"postgres://{user}:{password}@{host}:{port}/{found['NAME']}"


@contextmanager
def real_worker() -> Iterator[subprocess.Popen[bytes]]:
    """``manage.py run_worker`` in a process of its own, looking every 0.1 s."""
    env = {k: v for k, v in os.environ.items() if k not in SETTINGS_VARIABLES}
    env.update(
        DEBUG="1",
        DATABASE_URL=database_url(),
        DJANGO_SETTINGS_MODULE="prefscore.settings",
        BACKUP_EVERY_HOURS="0",
        TIME_ZONE=os.environ.get("TIME_ZONE", "Europe/Moscow"),
    )
    env.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
    command = [sys.executable, "manage.py", "run_worker", "--interval", "0.1"]
    process = subprocess.Popen(
        command, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
    )
    try:
        yield process
    finally:
        process.terminate()
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=5)


def wait_for(check: Callable[[], bool], seconds: float = 60.0) -> bool:
    """Whether ``check()`` came true within ``seconds`` (asked every 0.1 s)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if check():
            return True
        time.sleep(0.1)
    return check()
