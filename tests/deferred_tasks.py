"""Tasks the tests queue for real worker processes (tests/test_deferred_kill.py): a module
the worker imports by its path, as it imports the site's own tasks."""

from __future__ import annotations

import time
from pathlib import Path

from django_tasks import TaskContext, task


@task(takes_context=True)
def slow_step(context: TaskContext, log: str, seconds: float) -> str:
    """Writes "start <try>" to ``log``, takes ``seconds`` on its first try (long enough
    for the test to kill its worker), then writes "done <try>"."""
    path = Path(log)
    with path.open("a", encoding="utf-8") as out:
        out.write(f"start {context.attempt}\n")
    if context.attempt == 1:
        time.sleep(seconds)
    with path.open("a", encoding="utf-8") as out:
        out.write(f"done {context.attempt}\n")
    return "done"


@task()
def quick_step(log: str, number: int) -> int:
    """Writes "<number> <process id>" to ``log``."""
    import os

    with Path(log).open("a", encoding="utf-8") as out:
        out.write(f"{number} {os.getpid()}\n")
    return number
