"""`manage.py restore FILE`: put a backup written by `manage.py backup` in place.

It refuses while anything else holds the database (the site's workers, a shell): stop
the site first. SQLite: the backup is checked, the live file's stale ``-wal`` and
``-shm`` files are removed (SQLite would otherwise replay them onto the restored copy,
as it does after an unclean stop), and the copy replaces the file in one rename.
The replaced file (with its -wal, if any) is kept beside it, readable by its owner alone,
as ``db.sqlite3.replaced-<time>``: a restore of the wrong backup loses nothing.
PostgreSQL: in one transaction, every table the site's role owns is dropped and the
backup (``pg_restore``'s SQL, without owners) made again: the whole database as it was.
Then the restored database's integrity is checked and its counts of deals, corrections
and audit events are printed. Errors go to standard error, exit status 2.
"""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
import tempfile
from datetime import datetime
from pathlib import Path
from typing import Any

from django.apps import apps
from django.core.management.base import BaseCommand, CommandParser
from django.db import DEFAULT_DB_ALIAS, connections

from .backup import PG_BIN, fail, private_file

# What the printed counts name: (app label, model), looked up by name so that this
# command imports nothing above the clubs layer.
COUNTED = (("games", "Deal"), ("games", "Correction"), ("games", "AuditEvent"))


def holders_of(path: Path) -> list[int]:
    """Other processes with the database, or its -wal or -shm file, open (Linux /proc)."""
    names = {str(path), f"{path}-wal", f"{path}-shm"}
    found = []
    for process in Path("/proc").glob("[0-9]*"):
        if int(process.name) == os.getpid():
            continue
        try:
            if any(os.readlink(fd) in names for fd in (process / "fd").iterdir()):
                found.append(int(process.name))
        except OSError:  # gone meanwhile, or not ours to look at
            continue
    return found


def check_sqlite_file(path: Path) -> None:
    try:
        with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as db:
            verdict = db.execute("PRAGMA integrity_check").fetchone()[0]
            db.execute("SELECT count(*) FROM games_deal").fetchone()
    except sqlite3.Error as error:
        raise fail(f"{path} is not a prefscore SQLite backup: {error}") from None
    if verdict != "ok":
        raise fail(f"{path} fails SQLite's integrity check: {verdict}")


def restore_sqlite(backup: Path, live: Path) -> list[str]:
    """Replace the live file by the backup; the notes say what was cleared."""
    check_sqlite_file(backup)
    holders = holders_of(live)
    if holders:
        pids = ", ".join(map(str, holders))
        raise fail(f"{live} is in use by process {pids}: stop the site, then restore.")
    notes = []
    kept = keep_replaced(live)
    if kept is not None:
        notes.append(f"kept the replaced database as {kept}")
    for stale in (Path(f"{live}-wal"), Path(f"{live}-shm")):
        if stale.exists():
            stale.unlink()
            notes.append(f"removed stale {stale.name}")
    partial = live.with_name(live.name + ".restoring")
    partial.unlink(missing_ok=True)
    private_file(partial)
    shutil.copyfile(backup, partial)
    partial.replace(live)
    return notes


def keep_replaced(live: Path) -> Path | None:
    """A private copy of the live file and its -wal beside it, before it is replaced."""
    if not live.exists():
        return None
    stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
    kept = live.with_name(f"{live.name}.replaced-{stamp}")
    for source, target in ((live, kept), (Path(f"{live}-wal"), Path(f"{kept}-wal"))):
        if source.exists():
            target.unlink(missing_ok=True)
            private_file(target)
            shutil.copyfile(source, target)
    return kept


# Inside the restore's transaction, before the backup's objects are made again: every
# table, view and sequence the site's role owns, so that the restore gives back the
# whole database as it was, without the tables a later migration added (which
# ``pg_restore --clean`` would leave, and ``migrate`` then refuse to make again).
DROP_OWNED_RELATIONS = """
DO $$
DECLARE
    relation record;
BEGIN
    FOR relation IN
        SELECT CASE c.relkind WHEN 'v' THEN 'VIEW' WHEN 'm' THEN 'MATERIALIZED VIEW'
                              WHEN 'S' THEN 'SEQUENCE' WHEN 'f' THEN 'FOREIGN TABLE'
                              ELSE 'TABLE' END AS kind,
               quote_ident(n.nspname) || '.' || quote_ident(c.relname) AS name
        FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE c.relowner = (SELECT oid FROM pg_roles WHERE rolname = current_user)
          AND c.relkind IN ('r', 'p', 'v', 'm', 'S', 'f')
          AND n.nspname NOT IN ('pg_catalog', 'information_schema')
          AND n.nspname NOT LIKE 'pg\\_%'
        ORDER BY c.relkind IN ('v', 'm') DESC, c.relkind = 'S'
    LOOP
        EXECUTE format('DROP %s IF EXISTS %s CASCADE', relation.kind, relation.name);
    END LOOP;
END
$$;
"""


def pg_tool(name: str) -> str:
    found = shutil.which(name) or str(PG_BIN / name)
    if not os.access(found, os.X_OK):
        raise fail(f"{name} not found: install postgresql-client (or postgresql-15).")
    return found


def restore_postgresql(connection: Any, backup: Path) -> None:
    """The backup in place of the whole database, in one transaction: all or nothing.

    pg_restore writes the backup out as SQL first, whole (a damaged backup stops there,
    before anything changes); psql then drops the role's relations and runs that SQL
    in a single transaction.
    """
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
            "AND pid <> pg_backend_pid()"
        )
        (others,) = cursor.fetchone()
    if others:
        raise fail(f"{others} other connection(s) hold the database: stop the site first.")
    db = connection.settings_dict
    connection.close()
    env = dict(os.environ, PGPASSWORD=db.get("PASSWORD") or "")
    descriptor, name = tempfile.mkstemp(prefix="prefscore-restore-", suffix=".sql")
    script = Path(name)  # mode 0600: it holds what the backup holds
    try:
        os.close(descriptor)
        command = [pg_tool("pg_restore"), "--no-owner", f"--file={script}", str(backup)]
        written = subprocess.run(command, env=env, capture_output=True, text=True)
        if written.returncode != 0:
            raise fail(f"pg_restore cannot read {backup}: {written.stderr.strip()}")
        command = [pg_tool("psql"), "--no-psqlrc", "--quiet", "--single-transaction",
                   "--set=ON_ERROR_STOP=1", "--command", DROP_OWNED_RELATIONS,
                   f"--file={script}", "--dbname", db["NAME"]]  # fmt: skip
        for option, key in (("--host", "HOST"), ("--port", "PORT"), ("--username", "USER")):
            if db.get(key):
                command += [option, str(db[key])]
        result = subprocess.run(command, env=env, capture_output=True, text=True)
    finally:
        script.unlink(missing_ok=True)
    if result.returncode != 0:
        raise fail(f"the restore failed, the database is unchanged: {result.stderr.strip()}")


def counts(connection: Any) -> dict[str, int]:
    found = {}
    with connection.cursor() as cursor:
        for label, name in COUNTED:
            table = apps.get_model(label, name)._meta.db_table
            cursor.execute(f"SELECT count(*) FROM {connection.ops.quote_name(table)}")
            found[name] = cursor.fetchone()[0]
    return found


class Command(BaseCommand):
    help = "Restore a backup written by `manage.py backup`, with the site stopped."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="The backup: a .sqlite3 copy or a pg_dump .dump file.")
        parser.add_argument(
            "--database", default=DEFAULT_DB_ALIAS, help="The database alias (default: default)."
        )

    def handle(self, *args: Any, **options: Any) -> None:
        connection = connections[options["database"]]
        backup = Path(options["file"]).expanduser().resolve()
        if not backup.is_file():
            raise fail(f"{backup}: no such file.")
        notes: list[str] = []
        if connection.vendor == "sqlite":
            connection.close()  # ours must not count as the site's
            notes = restore_sqlite(backup, Path(connection.settings_dict["NAME"]).resolve())
        elif connection.vendor == "postgresql":
            restore_postgresql(connection, backup)
        else:
            raise fail(f"restore knows SQLite and PostgreSQL, not {connection.vendor}.")
        self.check_integrity(connection)
        for note in notes:
            self.stdout.write(note)
        found = counts(connection)
        self.stdout.write(
            "restored: {Deal} deals, {Correction} corrections, {AuditEvent} audit events".format(
                **found
            )
        )

    def check_integrity(self, connection: Any) -> None:
        if connection.vendor != "sqlite":
            return  # psql's single transaction restored everything or nothing
        with connection.cursor() as cursor:
            cursor.execute("PRAGMA integrity_check")
            (verdict,) = cursor.fetchone()
        if verdict != "ok":
            raise fail(f"the restored database fails SQLite's integrity check: {verdict}")
