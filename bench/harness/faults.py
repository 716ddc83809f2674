"""Faults injected into a running evening (bench/load.py --fault): a gunicorn worker
killed with SIGKILL, or the PostgreSQL server restarted.

Only this run's own processes are touched: the gunicorn master this harness started
and the throwaway PostgreSQL cluster it made.
"""

from __future__ import annotations

import os
import signal
import subprocess
from pathlib import Path

# Set by server.gunicorn and postgres.throwaway_postgres while they run.
RUNNING: dict[str, object] = {}


def workers() -> list[int]:
    """The pids of the running gunicorn master's workers."""
    master = RUNNING.get("gunicorn")
    if not isinstance(master, int):
        raise SystemExit("no gunicorn of this run to take a worker from")
    children = Path(f"/proc/{master}/task/{master}/children").read_text().split()
    return [int(pid) for pid in children]


def kill_a_worker() -> str:
    """SIGKILL one worker mid-request: the master starts another in its place."""
    victim = workers()[0]
    os.kill(victim, signal.SIGKILL)
    return f"SIGKILL to gunicorn worker {victim}"


def restart_database() -> str:
    """Restart this run's PostgreSQL (fast mode: open connections are cut)."""
    control = RUNNING.get("pg_ctl")
    if not isinstance(control, list):
        raise SystemExit("--fault restart-db needs the throwaway PostgreSQL (unset DATABASE_URL)")
    subprocess.run([*control, "-m", "fast", "-w", "restart"], stdout=subprocess.DEVNULL, check=True)
    return "PostgreSQL restarted (pg_ctl restart -m fast)"


FAULTS = {"kill-worker": kill_a_worker, "restart-db": restart_database}
