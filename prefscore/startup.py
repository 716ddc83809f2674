"""What ``make run`` does before it serves: the database made ready, or a clear refusal.

:func:`prepare`, in order (README, "Run it"):

1. The database is checked: a SQLite file that is not a database, or fails SQLite's
   quick check, is refused. So is a database with migrations this code does not know
   (a newer prefscore made it, or one from before the migrations were squashed on
   2026-12-01), or an inconsistent history.
2. An older database is backed up first (``data/backups/prefscore-before-upgrade-…``),
   then migrated; the statistics are summarised again after an upgrade. A migration
   that fails is refused, naming the backup and how to restore it.
3. The published demo password stops working, and clubs left without an admin who can
   sign in go to the owner (prefscore/clubs/owner.py); a server without an owner gets a
   new one-time owner link.

A refusal is a :class:`StartRefused` with its message, which ``prefscore.lan`` prints
without a traceback. The worker then takes the daily backups while the server runs
(prefscore/clubs/backups.py).
"""

from __future__ import annotations

import io
import sqlite3
from dataclasses import dataclass, field
from pathlib import Path
from typing import TextIO

from django.conf import settings
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import DEFAULT_DB_ALIAS, DatabaseError, connections
from django.db.migrations.exceptions import InconsistentMigrationHistory
from django.db.migrations.executor import MigrationExecutor
from django.utils import timezone

from prefscore.clubs import owner

# Every app's migrations before they were squashed into one on 2026-12-01: a database
# that has any of them applied cannot be migrated by this code.
BEFORE_THE_SQUASH = frozenset(
    {
        ("clubs", "0002_invitation_signinattempt"),
        ("clubs", "0003_longer_names"),
        ("games", "0002_corrections_and_audit"),
        ("games", "0003_pulka_convention_source"),
        ("games", "0004_pulka_tournament"),
        ("games", "0005_alter_pulka_convention_name"),
        ("games", "0006_shared_convention_snapshot"),
        ("tournaments", "0002_alter_tournament_convention_name"),
        ("tournaments", "0003_shared_convention_snapshot"),
        ("scoring", "0003_alter_convention_name"),
    }
)


class StartRefused(Exception):
    """The server must not start; the message says why and what to do."""


@dataclass
class Prepared:
    """What the start did: the owner link's token (None when the server has its owner)
    and the lines the terminal should show."""

    owner_token: str | None
    notes: list[str] = field(default_factory=list)


def check_sqlite_file(path: Path) -> None:
    """Refuse a file that is not a SQLite database or that fails SQLite's quick check."""
    if not path.exists() or path.stat().st_size == 0:
        return  # a new server: migrate makes it
    try:
        with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as db:
            verdict = db.execute("PRAGMA quick_check").fetchone()[0]
    except sqlite3.Error as error:
        verdict = str(error)
    if verdict != "ok":
        raise StartRefused(
            f"{path} is damaged ({verdict}). Nothing was changed. Move it aside and restore "
            f"the newest backup: python manage.py restore {settings.BACKUP_DIR}/<newest file> "
            "(README, 'Backup and restore')."
        )


def pending_migrations(alias: str = DEFAULT_DB_ALIAS) -> tuple[list[str], bool]:
    """The migrations to apply, and whether the database has any applied: refuses a
    database that this code cannot migrate."""
    connection = connections[alias]
    try:
        executor = MigrationExecutor(connection)
        executor.loader.check_consistent_history(connection)
    except InconsistentMigrationHistory as error:
        raise StartRefused(f"The database's migration history is inconsistent: {error}") from None
    except DatabaseError as error:
        raise StartRefused(f"The database cannot be read: {error}") from None
    loader = executor.loader
    ours = set(loader.migrated_apps)
    unknown = sorted(
        key for key in loader.applied_migrations if key[0] in ours and key not in loader.graph.nodes
    )
    if set(unknown) & BEFORE_THE_SQUASH:
        raise StartRefused(
            "The database was made by a prefscore from before 2026-12-01, whose migrations "
            "were squashed since: this code cannot upgrade it. Nothing was changed. Start "
            "afresh by moving data/db.sqlite3 aside (keep it: the deals are in it)."
        )
    if unknown:
        names = ", ".join(f"{app}.{name}" for app, name in unknown)
        raise StartRefused(
            f"The database was made by a newer prefscore (it has migrations this code does "
            f"not know: {names}). Nothing was changed. Update this copy (git pull), or "
            "restore a backup made by this version."
        )
    plan = executor.migration_plan(loader.graph.leaf_nodes())
    return [f"{m.app_label}.{m.name}" for m, _backwards in plan], bool(loader.applied_migrations)


def backup_before_upgrade() -> Path:
    stamp = timezone.now().strftime("%Y%m%d-%H%M%S")
    suffix = ".sqlite3" if connections[DEFAULT_DB_ALIAS].vendor == "sqlite" else ".dump"
    output = Path(settings.BACKUP_DIR) / f"prefscore-before-upgrade-{stamp}{suffix}"
    try:
        call_command("backup", output=str(output), stdout=io.StringIO())
    except CommandError as error:
        raise StartRefused(f"No backup could be taken before the upgrade: {error}") from None
    return output


def migrate(stdout: TextIO) -> list[str]:
    """Check, back up an older database, migrate; the lines to show."""
    database = connections[DEFAULT_DB_ALIAS]
    if database.vendor == "sqlite":
        check_sqlite_file(Path(database.settings_dict["NAME"]))
    pending, existing = pending_migrations()
    if not pending:
        return []
    notes = []
    backup = backup_before_upgrade() if existing else None
    if backup is not None:
        notes.append(f"Before upgrading, the database was backed up to {backup}.")
    try:
        call_command("migrate", interactive=False, verbosity=0, stdout=stdout)
    except Exception as error:  # noqa: BLE001 (any failure is told, never a traceback)
        restore = f" Restore the backup with: python manage.py restore {backup}" if backup else ""
        raise StartRefused(
            f"The database could not be upgraded ({type(error).__name__}: {error}).{restore}"
        ) from None
    if existing:
        call_command("summarise", stdout=io.StringIO())
        notes.append(f"Upgraded the database: {len(pending)} migration(s) applied.")
    return notes


def prepare(stdout: TextIO) -> Prepared:
    """Everything ``make run`` does before serving (the module's docstring)."""
    notes = migrate(stdout)
    call_command("createcachetable", stdout=io.StringIO())
    call_command("collectstatic", interactive=False, verbosity=0, stdout=io.StringIO())
    if owner.retire_published_password():
        notes.append(
            "The demo account's published password (demo / demo-pulka) no longer works "
            "on this server; its clubs and deals stay."
        )
    found = owner.server_owner()
    if found is None:
        return Prepared(owner.new_link(), notes)
    for club in owner.adopt_orphan_clubs(found):
        notes.append(f"{found.get_username()} is now admin of {club.name}, which had none.")
    return Prepared(None, notes)
