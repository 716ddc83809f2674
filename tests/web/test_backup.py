"""`manage.py backup`: a consistent copy of the database that restores every deal."""

import json
import os
import secrets
import shutil
import sqlite3
import subprocess
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command
from django.db import connection

from prefscore.games.models import Deal
from tests.helpers import run_python
from tests.web.fixtures_access import build_world, make_pulka, record

PG_BIN = Path("/usr/lib/postgresql/15/bin")

# Committed rows: pg_dump is another process, and SQLite's backup copies what is written.
pytestmark = pytest.mark.django_db(transaction=True)

on_sqlite = pytest.mark.skipif(connection.vendor != "sqlite", reason="the database is not SQLite")
on_postgresql = pytest.mark.skipif(
    connection.vendor != "postgresql", reason="the database is SQLite: no pg_dump to test"
)

MORE_DEALS = [
    {
        "contract": "7H",
        "declarer": "Boris",
        "whists": {"Anna": "whist", "Vera": "whist"},
        "tricks": {"Boris": 7, "Anna": 2, "Vera": 1},
    },
    {"contract": "misere", "declarer": "Vera", "tricks": {"Vera": 0}},
]


@pytest.fixture
def deals():
    """Two pulkas' deals, one withdrawn by a pencil change: every row must come back."""
    world = build_world()
    second = make_pulka(world.club, ("Anna", "Boris", "Vera"))
    for facts in MORE_DEALS:
        record(second, facts)
    Deal.objects.filter(pulka=second, number=2).update(withdrawn_at="2026-01-01T00:00:00Z")
    return sorted(Deal.objects.values_list("pk", "pulka_id", "number", "facts"))


def run_backup(output: Path | None = None) -> str:
    out = StringIO()
    call_command("backup", *(["--output", str(output)] if output else []), stdout=out)
    return out.getvalue().strip()


@on_sqlite
def test_a_sqlite_backup_restored_into_a_fresh_file_has_every_deal(deals, tmp_path):
    printed = run_backup(tmp_path / "backup.sqlite3")

    assert printed == str(tmp_path / "backup.sqlite3")
    restored = tmp_path / "restored" / "db.sqlite3"
    restored.parent.mkdir()
    shutil.copyfile(printed, restored)  # README: copy the file back, server stopped
    with sqlite3.connect(restored) as db:
        assert db.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        rows = db.execute("SELECT id, pulka_id, number, facts FROM games_deal").fetchall()
    assert sorted((i, p, n, json.loads(f)) for i, p, n, f in rows) == deals
    assert not list(tmp_path.glob("*.partial"))


def test_without_output_the_backup_goes_to_the_backup_folder(deals, tmp_path, settings):
    settings.BACKUP_DIR = tmp_path / "nested" / "backups"

    printed = Path(run_backup())

    assert printed.parent == tmp_path / "nested" / "backups"
    assert printed.name.startswith("prefscore-")
    assert printed.suffix == (".sqlite3" if connection.vendor == "sqlite" else ".dump")
    assert printed.stat().st_size > 0


def test_an_existing_file_is_never_overwritten(tmp_path):
    target = tmp_path / "keep.sqlite3"
    target.write_text("precious")

    with pytest.raises(CommandError, match="exists") as raised:
        call_command("backup", output=str(target))

    assert raised.value.returncode == 2
    assert target.read_text() == "precious"


def sqlite_env(tmp_path: Path) -> dict[str, str]:
    return {"DEBUG": "1", "DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}"}


def test_the_command_prints_the_path_and_exits_0(tmp_path):
    result = run_python(
        "manage.py", "backup", "--output", str(tmp_path / "b.sqlite3"), env=sqlite_env(tmp_path)
    )

    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == str(tmp_path / "b.sqlite3")
    assert result.stderr == ""


@pytest.mark.parametrize("where", ["exists", "unwritable"])
def test_an_error_goes_to_stderr_with_exit_status_2(tmp_path, where):
    # In the process: a CommandError with returncode 2 is what manage.py prints as one
    # "CommandError: ..." line on stderr, exit status 2, no traceback (Django's
    # run_from_argv); the subprocess smoke test above runs the real command.
    (tmp_path / "exists").write_text("x")
    (tmp_path / "file").write_text("not a folder")
    output = tmp_path / "exists" if where == "exists" else tmp_path / "file" / "b.sqlite3"
    out = StringIO()

    with pytest.raises(CommandError) as raised:
        call_command("backup", "--output", str(output), stdout=out)

    assert raised.value.returncode == 2
    assert out.getvalue() == ""


def test_keep_leaves_the_newest_dated_backups_of_the_folder_and_nothing_else_is_touched(
    deals, tmp_path, settings
):
    """The daily timer's ``--keep N``: the N newest dated backups stay, the new one with
    them; a file of another name in the folder is left alone."""
    settings.BACKUP_DIR = tmp_path
    suffix = ".sqlite3" if connection.vendor == "sqlite" else ".dump"
    older = [tmp_path / f"prefscore-2026010{day}-030000{suffix}" for day in (1, 2, 3)]
    for path in older:
        path.write_text("an older backup")
    other = tmp_path / "prefscore-by-hand.sqlite3"
    other.write_text("kept by hand")
    out = StringIO()

    call_command("backup", "--keep", "2", stdout=out)

    printed, *removed = out.getvalue().splitlines()
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(
        [older[2].name, Path(printed).name, other.name]
    )
    assert removed == [f"removed {older[0]}", f"removed {older[1]}"]


@pytest.mark.parametrize("keep", ["0", "-1", "many"])
def test_keep_must_be_a_whole_number_from_one_and_nothing_is_written_otherwise(
    keep, tmp_path, settings
):
    settings.BACKUP_DIR = tmp_path / "backups"

    with pytest.raises(CommandError, match="how many backups to keep") as raised:
        call_command("backup", "--keep", keep, stdout=StringIO())

    assert raised.value.returncode == 2
    assert not settings.BACKUP_DIR.exists()


# --- PostgreSQL: pg_dump, then pg_restore into a database made for the test ---


def pg_tool(name: str) -> str:
    return shutil.which(name) or str(PG_BIN / name)


def pg_env(db: dict) -> dict[str, str]:
    env = dict(os.environ)
    if db.get("PASSWORD"):
        env["PGPASSWORD"] = db["PASSWORD"]
    return env


def pg_args(db: dict) -> list[str]:
    args = []
    for option, key in (("--host", "HOST"), ("--port", "PORT"), ("--username", "USER")):
        if db.get(key):
            args += [option, str(db[key])]
    return args


@on_postgresql
def test_a_postgresql_dump_restored_into_a_new_database_has_every_deal(deals, tmp_path):
    import psycopg

    printed = run_backup(tmp_path / "backup.dump")
    assert printed == str(tmp_path / "backup.dump")

    db = connection.settings_dict
    name = f"prefscore_restore_{secrets.token_hex(4)}"
    server = {
        "host": db.get("HOST") or None,
        "port": db.get("PORT") or None,
        "user": db.get("USER") or None,
        "password": db.get("PASSWORD") or None,
    }
    with psycopg.connect(dbname="postgres", autocommit=True, **server) as admin:
        admin.execute(f'CREATE DATABASE "{name}"')
    try:
        restore = subprocess.run(
            [pg_tool("pg_restore"), "--clean", "--if-exists", "--no-owner", "--dbname", name]
            + pg_args(db)
            + [printed],
            env=pg_env(db),
            capture_output=True,
            text=True,
            check=False,
        )
        assert restore.returncode == 0, restore.stderr
        with psycopg.connect(dbname=name, **server) as restored:
            rows = restored.execute("SELECT id, pulka_id, number, facts FROM games_deal").fetchall()
        assert sorted(rows) == deals
    finally:
        with psycopg.connect(dbname="postgres", autocommit=True, **server) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
