"""``manage.py run_worker`` whose season count is slow on its first run, for the kill test
of tests/web/test_season_counts_kill.py: the worker process counts the real table, and
the test has time to kill it in the middle. Writes "start <pid>" and "done <pid>" to the
file named by SLOW_COUNT_LOG around each count."""

from __future__ import annotations

import os
import time
from pathlib import Path

import django


def main() -> None:
    django.setup()
    from django.core.management import call_command

    from prefscore.seasons import standings

    counted = standings.refresh
    log = Path(os.environ["SLOW_COUNT_LOG"])

    def slow(season: object) -> None:
        first = not log.exists()
        with log.open("a", encoding="utf-8") as out:
            out.write(f"start {os.getpid()}\n")
        if first:
            time.sleep(600)
        counted(season)  # type: ignore[arg-type]
        with log.open("a", encoding="utf-8") as out:
            out.write(f"done {os.getpid()}\n")

    standings.refresh = slow  # type: ignore[assignment]
    call_command("run_worker", "--interval", "0.1")


if __name__ == "__main__":
    main()
