"""Backups on a schedule: take one with the ``backup`` command, keep the newest few.

:func:`backup_and_prune` is the one unit of work: ``make run`` calls it once a day from
a thread (prefscore/startup.py), ``manage.py backup --keep N`` from a timer does the
same. Each backup is a whole, consistent copy (SQLite's online backup, ``pg_dump``);
only the scheduled ones, named ``prefscore-<date>-<time>``, are rotated: a backup taken
before an upgrade (``prefscore-before-upgrade-…``) or written elsewhere is kept.
"""

from __future__ import annotations

import io
import time
from datetime import timedelta
from pathlib import Path

from django.conf import settings
from django.core.management import call_command

# The backup command's own rule for its dated names and which of them go (--keep).
from .management.commands.backup import DATED, older_than_newest


def scheduled_backups(directory: Path) -> list[Path]:
    """The rotated backups in ``directory``, oldest first (their names sort by time)."""
    if not directory.is_dir():
        return []
    return sorted(p for p in directory.iterdir() if DATED.fullmatch(p.name) and p.is_file())


def prune(directory: Path, keep: int) -> list[Path]:
    """Remove all but the newest ``keep`` dated backups (at least one); the removed."""
    removed = older_than_newest(directory, max(keep, 1))
    for path in removed:
        path.unlink(missing_ok=True)
    return removed


def backup_and_prune(keep: int | None = None) -> tuple[Path, list[Path]]:
    """Take a backup into BACKUP_DIR and keep the newest ``keep`` (BACKUP_KEEP).

    Returns the new backup's path and the ones removed. The backup command's errors
    (a full disk, pg_dump missing) are raised as its ``CommandError``.
    """
    out = io.StringIO()
    call_command("backup", stdout=out)
    made = Path(out.getvalue().strip())
    return made, prune(made.parent, settings.BACKUP_KEEP if keep is None else keep)


def seconds_until_due(directory: Path, every: timedelta) -> float:
    """How long until the next scheduled backup: ``every`` after the newest, or now."""
    found = scheduled_backups(directory)
    if not found:
        return 0.0
    age = time.time() - found[-1].stat().st_mtime
    return max(0.0, every.total_seconds() - age)
