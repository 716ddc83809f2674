"""`manage.py restore FILE`: refuses while the site holds the database, clears SQLite's
stale -wal/-shm files after an unclean stop, checks integrity and prints the counts."""

import shutil
import signal
import sqlite3
import stat
import subprocess
import sys
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command
from django.db import connection

from prefscore.games.models import Deal
from tests.helpers import ROOT, run_python
from tests.web.fixtures_access import build_world, record

pytestmark = pytest.mark.django_db(transaction=True)

on_sqlite = pytest.mark.skipif(connection.vendor != "sqlite", reason="the database is not SQLite")
# The club's server, started on an SQLite file of its own (``site_with_backup``).
own_site = pytest.mark.own_database
on_postgresql = pytest.mark.skipif(
    connection.vendor != "postgresql", reason="the database is SQLite: pg_restore is not used"
)

# A worker that has committed deals SQLite has not yet copied from its -wal file into
# the database, and is killed (SIGKILL) in the middle of recording the next one.
WORKER = """
import sqlite3, sys, time
db = sqlite3.connect(sys.argv[1], isolation_level=None)
db.execute("PRAGMA journal_mode=WAL")
db.execute("PRAGMA wal_autocheckpoint=0")
db.execute("UPDATE games_deal SET number = number + 1000")
db.execute("BEGIN IMMEDIATE")
db.execute("DELETE FROM games_deal")
print("recording", flush=True)
time.sleep(60)
"""


def manage(database: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return run_python(
        "manage.py", *args, env={"DEBUG": "1", "DATABASE_URL": f"sqlite:///{database}"}
    )


def deal_numbers(database: Path) -> list[int]:
    with sqlite3.connect(database) as db:
        return sorted(n for (n,) in db.execute("SELECT number FROM games_deal"))


@pytest.fixture(scope="module")
def demo_site_and_backup(_demo_site_made_once, tmp_path_factory):
    """The demo site's database and a backup of it made by `manage.py backup`: once a
    module, for the tests to copy."""
    made = tmp_path_factory.mktemp("demo-site-and-backup")
    database, backup = made / "db.sqlite3", made / "backup.sqlite3"
    shutil.copy2(_demo_site_made_once, database)
    assert manage(database, "backup", "--output", str(backup)).returncode == 0
    return database, backup


@pytest.fixture
def site_with_backup(demo_site_and_backup, tmp_path):
    """A copy of the demo site's database and of its backup, for one test to change."""
    database, backup = (tmp_path / made.name for made in demo_site_and_backup)
    for made, copy in zip(demo_site_and_backup, (database, backup), strict=True):
        shutil.copy2(made, copy)
    return database, backup


@on_sqlite
@own_site
def test_after_a_worker_is_killed_mid_recording_restore_gives_back_the_backup(site_with_backup):
    database, backup = site_with_backup
    in_backup = deal_numbers(backup)
    worker = subprocess.Popen(
        [sys.executable, "-c", WORKER, str(database)], cwd=ROOT, stdout=subprocess.PIPE, text=True
    )
    try:
        assert worker.stdout.readline().strip() == "recording"

        refused = manage(database, "restore", str(backup))

        assert refused.returncode == 2
        assert f"in use by process {worker.pid}" in refused.stderr
        assert "Traceback" not in refused.stderr
    finally:
        worker.send_signal(signal.SIGKILL)
        worker.wait()
    assert Path(f"{database}-wal").exists()  # the unclean stop left its log behind

    restored = manage(database, "restore", str(backup))

    assert restored.returncode == 0, restored.stderr
    assert "removed stale db.sqlite3-wal" in restored.stdout
    assert f"restored: {len(in_backup)} deals, 0 corrections" in restored.stdout
    assert deal_numbers(database) == in_backup
    with sqlite3.connect(database) as db:
        assert db.execute("PRAGMA integrity_check").fetchone() == ("ok",)


@on_sqlite
@own_site
def test_a_file_that_is_not_a_backup_is_refused_and_the_database_is_untouched(
    site_with_backup, tmp_path
):
    database, _ = site_with_backup
    before = deal_numbers(database)
    junk = tmp_path / "junk.sqlite3"
    junk.write_bytes(b"not a database at all" * 100)

    refused = manage(database, "restore", str(junk))

    assert refused.returncode == 2
    assert "is not a prefscore SQLite backup" in refused.stderr
    assert deal_numbers(database) == before


def test_a_missing_file_is_an_error_with_exit_status_2(tmp_path):
    with pytest.raises(CommandError, match="no such file") as refused:
        call_command("restore", str(tmp_path / "nowhere.sqlite3"))
    assert refused.value.returncode == 2


@on_postgresql
def test_a_postgresql_backup_restores_every_deal_through_the_command(tmp_path):
    build_world()
    kept = sorted(Deal.objects.values_list("pk", "number", "facts"))
    backup = tmp_path / "backup.dump"
    call_command("backup", "--output", str(backup), stdout=StringIO())
    Deal.objects.all().delete()

    out = StringIO()
    call_command("restore", str(backup), stdout=out)

    assert sorted(Deal.objects.values_list("pk", "number", "facts")) == kept
    assert f"restored: {len(kept)} deals" in out.getvalue()


def relations() -> set[str]:
    return set(connection.introspection.table_names(include_views=True))


def deal_columns() -> list[str]:
    with connection.cursor() as cursor:
        described = connection.introspection.get_table_description(cursor, "games_deal")
    return [column.name for column in described]


@on_postgresql
def test_a_postgresql_restore_gives_back_the_whole_database_as_the_backup_had_it(tmp_path):
    """What a later release added after the backup (a table, a column, a view, rows) is
    gone after the restore, so that migrate can make it again."""
    world = build_world()
    kept = sorted(Deal.objects.values_list("pk", "number", "facts"))
    tables, columns = relations(), deal_columns()
    backup = tmp_path / "backup.dump"
    call_command("backup", "--output", str(backup), stdout=StringIO())
    with connection.cursor() as cursor:
        cursor.execute("CREATE TABLE games_later (id bigint GENERATED BY DEFAULT AS IDENTITY)")
        cursor.execute("ALTER TABLE games_deal ADD COLUMN later integer")
        cursor.execute("CREATE VIEW games_later_view AS SELECT id FROM games_later")
        cursor.execute("CREATE SEQUENCE games_later_numbers")
    record(world.pulka, {"contract": "misere", "declarer": "Vera", "tricks": {"Vera": 0}})

    call_command("restore", str(backup), stdout=StringIO())

    assert relations() == tables
    assert deal_columns() == columns
    assert sorted(Deal.objects.values_list("pk", "number", "facts")) == kept
    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM pg_class WHERE relname = 'games_later_numbers'")
        assert cursor.fetchone() == (0,)
    call_command("migrate", "--check", verbosity=0)  # the migrations agree with the tables
    assert record(
        world.pulka, {"contract": "allpass", "tricks": {"Anna": 2, "Boris": 4, "Vera": 4}}
    )


@on_postgresql
def test_a_damaged_postgresql_backup_changes_nothing(tmp_path):
    build_world()
    kept = sorted(Deal.objects.values_list("pk", "number", "facts"))
    backup = tmp_path / "backup.dump"
    call_command("backup", "--output", str(backup), stdout=StringIO())
    damaged = tmp_path / "damaged.dump"
    damaged.write_bytes(backup.read_bytes()[: backup.stat().st_size * 2 // 3])

    with pytest.raises(CommandError, match="cannot read") as refused:
        call_command("restore", str(damaged), stdout=StringIO())

    assert refused.value.returncode == 2
    assert sorted(Deal.objects.values_list("pk", "number", "facts")) == kept


@on_postgresql
def test_a_postgresql_restore_that_fails_midway_changes_nothing(tmp_path):
    """The backup reads, but its SQL fails partway: a type the restore does not drop
    takes the name of a table it makes again. The transaction rolls back whole."""
    build_world()
    backup = tmp_path / "backup.dump"
    call_command("backup", "--output", str(backup), stdout=StringIO())
    Deal.objects.filter(number=2).delete()
    after = sorted(Deal.objects.values_list("pk", "number", "facts"))
    tables = relations()
    with connection.cursor() as cursor:
        cursor.execute("ALTER TABLE django_session RENAME TO session_before")
        cursor.execute("CREATE TYPE django_session AS ENUM ('in the way')")

    with pytest.raises(CommandError, match="the database is unchanged") as refused:
        call_command("restore", str(backup), stdout=StringIO())

    assert 'type "django_session" already exists' in str(refused.value)
    assert sorted(Deal.objects.values_list("pk", "number", "facts")) == after
    assert relations() == tables - {"django_session"} | {"session_before"}
    with connection.cursor() as cursor:
        cursor.execute("DROP TYPE django_session")
        cursor.execute("ALTER TABLE session_before RENAME TO django_session")


def test_backups_are_readable_by_their_owner_alone(tmp_path):
    build_world()
    output = tmp_path / "private" / "backup"
    call_command("backup", "--output", str(output), stdout=StringIO())

    assert stat.S_IMODE(output.stat().st_mode) == 0o600
    assert stat.S_IMODE(output.parent.stat().st_mode) == 0o700


@on_sqlite
@own_site
def test_restore_keeps_the_replaced_database_beside_it_for_its_owner_alone(site_with_backup):
    database, backup = site_with_backup
    in_backup = deal_numbers(backup)
    db = sqlite3.connect(database)
    with db:
        db.execute("DELETE FROM games_deal WHERE number > 1")
    db.close()

    restored = manage(database, "restore", str(backup))

    assert restored.returncode == 0, restored.stderr
    (kept,) = database.parent.glob("db.sqlite3.replaced-*")
    assert f"kept the replaced database as {kept}" in restored.stdout
    assert deal_numbers(kept) == [n for n in in_backup if n <= 1]
    assert stat.S_IMODE(kept.stat().st_mode) == 0o600
    assert deal_numbers(database) == in_backup
