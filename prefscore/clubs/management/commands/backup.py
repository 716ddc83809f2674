"""`manage.py backup [--output PATH] [--keep N]`: a consistent copy of the database;
prints its path.

SQLite: the online backup API (``sqlite3.Connection.backup``), safe while the site runs.
PostgreSQL: ``pg_dump --format=custom`` (from PATH, else /usr/lib/postgresql/15/bin).
The copy is written beside its final name and renamed when complete, so a file with
the final name is always a whole backup. It is readable by its owner alone (mode 0600,
in a directory created 0700): it holds password hashes and sessions. With ``--keep N``
(the daily backups of deploy/'s timer), only the N newest dated backups
(``prefscore-<time>``) of that folder stay; each one removed is printed after the path.
Errors go to standard error, exit status 2.
README, "Backup and restore", says how to restore.
"""

from __future__ import annotations

import os
import re
import shutil
import sqlite3
import subprocess
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import DEFAULT_DB_ALIAS, connections
from django.utils import timezone

PG_BIN = Path("/usr/lib/postgresql/15/bin")
SUFFIX = {"sqlite": ".sqlite3", "postgresql": ".dump"}
# The names default_output gives: a UTC time, so that their order is their age.
DATED = re.compile(r"prefscore-\d{8}-\d{6}(\.sqlite3|\.dump)")


def fail(message: str) -> CommandError:
    return CommandError(message, returncode=2)


def default_output(vendor: str) -> Path:
    stamp = timezone.now().strftime("%Y%m%d-%H%M%S")
    return Path(settings.BACKUP_DIR) / f"prefscore-{stamp}{SUFFIX[vendor]}"


def older_than_newest(folder: Path, keep: int) -> list[Path]:
    """The dated backups in ``folder`` beyond the ``keep`` newest."""
    dated = sorted(path for path in folder.iterdir() if DATED.fullmatch(path.name))
    return dated[: max(0, len(dated) - keep)]


def keep_count(value: str) -> int:
    """--keep's argument: a whole number from 1 up (a backup is never removed at once)."""
    try:
        count = int(value)
    except ValueError:
        count = 0
    if count < 1:
        raise fail(f"--keep {value}: give how many backups to keep, 1 or more.")
    return count


def backup_sqlite(connection: Any, output: Path) -> None:
    """Copy page by page through SQLite's online backup: consistent even mid-write."""
    connection.ensure_connection()
    try:
        target = sqlite3.connect(output)
        try:
            connection.connection.backup(target)
        finally:
            target.close()
    except sqlite3.Error as error:
        raise fail(f"SQLite backup to {output} failed: {error}") from None


def pg_dump_path() -> str:
    found = shutil.which("pg_dump") or str(PG_BIN / "pg_dump")
    if not os.access(found, os.X_OK):
        raise fail("pg_dump not found: install postgresql-client (or postgresql-15).")
    return found


def backup_postgresql(connection: Any, output: Path) -> None:
    """pg_dump's custom format: compressed, and pg_restore can pick from it."""
    db = connection.settings_dict
    command = [pg_dump_path(), "--format=custom", f"--file={output}", "--dbname", db["NAME"]]
    for option, key in (("--host", "HOST"), ("--port", "PORT"), ("--username", "USER")):
        if db.get(key):
            command += [option, str(db[key])]
    env = dict(os.environ)
    if db.get("PASSWORD"):
        env["PGPASSWORD"] = db["PASSWORD"]  # not on the command line, where `ps` shows it
    result = subprocess.run(command, env=env, capture_output=True, text=True, check=False)
    if result.returncode != 0:
        raise fail(f"pg_dump failed: {result.stderr.strip()}")


def private_file(path: Path) -> None:
    """An empty file only its owner may read: SQLite and pg_dump write into it as it is,
    so the backup is never readable by others, not even while it is being written."""
    os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
    os.chmod(path, 0o600)  # whatever the umask


class Command(BaseCommand):
    help = "Write a consistent copy of the database (SQLite or PostgreSQL); print its path."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--output",
            help="Where to write the backup (default: BACKUP_DIR/prefscore-<time>.sqlite3 "
            "or .dump). An existing file is never overwritten.",
        )
        parser.add_argument(
            "--database", default=DEFAULT_DB_ALIAS, help="The database alias (default: default)."
        )
        parser.add_argument(
            "--keep",
            metavar="N",
            help="Afterwards remove the dated backups (prefscore-<time>.*) of the folder "
            "written to, but the N newest.",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        connection = connections[options["database"]]
        vendor = connection.vendor
        keep = None if options["keep"] is None else keep_count(str(options["keep"]))
        if vendor not in SUFFIX:
            raise fail(f"backup knows SQLite and PostgreSQL, not {vendor}.")
        output = Path(options["output"]) if options["output"] else default_output(vendor)
        output = output.expanduser().resolve()
        if output.exists():
            raise fail(f"{output} exists already: give another --output.")
        try:
            output.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        except OSError as error:
            raise fail(f"cannot create {output.parent}: {error.strerror}") from None
        partial = output.with_name(output.name + ".partial")
        partial.unlink(missing_ok=True)
        try:
            private_file(partial)
            if vendor == "sqlite":
                backup_sqlite(connection, partial)
            else:
                backup_postgresql(connection, partial)
            partial.replace(output)
        except OSError as error:
            raise fail(f"cannot write {output}: {error.strerror}") from None
        finally:
            partial.unlink(missing_ok=True)
        self.stdout.write(str(output))
        if keep is not None:
            for old in older_than_newest(output.parent, keep):
                old.unlink()
                self.stdout.write(f"removed {old}")
