"""``make run``'s start (prefscore/startup.py, prefscore/lan.py): a fresh server, an upgrade,
and the databases it must refuse, each told in a sentence, never a traceback; and its stop.

Each case runs ``python -m prefscore.lan --prepare-only`` on its own SQLite file, as
``make run`` does before it serves; the migrated database is made once for the module.
"""

from __future__ import annotations

import http.client
import os
import re
import shutil
import signal
import socket
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from prefscore import lan
from tests.helpers import ROOT, SETTINGS_VARIABLES, run_python

# Each start is the club's server on an SQLite file of its own: the same whatever database
# the run's DATABASE_URL names, so CI's PostgreSQL stage leaves it out.
pytestmark = pytest.mark.own_database

LINK = re.compile(r"https?://\S+/owner/([\w-]{43})/")


def server_env(database: Path) -> dict[str, str]:
    """``make run``'s settings on ``database``, with its key and backups beside it."""
    folder = database.parent
    return {
        "DEBUG": "0",
        "PLAIN_HTTP": "1",
        "SECRET_KEY_FILE": str(folder / "secret_key"),
        "DATABASE_URL": f"sqlite:///{database}",
        "BACKUP_DIR": str(folder / "backups"),
    }


def start(database: Path, *extra: str, env: dict[str, str] | None = None):
    """The start of ``make run`` on ``database``, up to serving."""
    return run_python(
        "-m",
        "prefscore.lan",
        "--port",
        "8123",
        "--prepare-only",
        *extra,
        env={**server_env(database), **(env or {})},
    )


def sql(database: Path, statement: str, *params: object) -> list[tuple]:
    with sqlite3.connect(database) as db:
        rows = db.execute(statement, params).fetchall()
    db.close()
    return rows


@pytest.fixture(scope="module")
def fresh_start(tmp_path_factory):
    """A new server's first start: the database made, the owner's link printed."""
    database = tmp_path_factory.mktemp("fresh") / "db.sqlite3"
    result = start(database)
    return database, result


@pytest.fixture
def copy_of(fresh_start, tmp_path):
    def copy(name: str = "db.sqlite3") -> Path:
        target = tmp_path / name
        shutil.copyfile(fresh_start[0], target)
        return target

    return copy


def test_a_fresh_server_prints_the_owners_link_and_has_no_account(fresh_start):
    database, result = fresh_start

    assert result.returncode == 0, result.stderr
    assert LINK.search(result.stdout)
    assert "demo" not in result.stdout  # no published sign-in
    assert "Plain http" in result.stdout and "HTTPS" in result.stdout
    assert sql(database, "SELECT count(*) FROM auth_user") == [(0,)]
    assert not (database.parent / "backups").exists()  # nothing to back up yet


def test_each_start_without_an_owner_prints_a_new_link(copy_of):
    database = copy_of()

    first = LINK.search(start(database).stdout)
    second = LINK.search(start(database).stdout)

    assert first and second and first.group(1) != second.group(1)
    assert sql(database, "SELECT count(*) FROM clubs_ownerlink WHERE used_at IS NULL") == [(1,)]


def test_an_upgraded_server_loses_the_published_demo_password(copy_of):
    database = copy_of()
    made = run_python(
        "manage.py",
        "shell",
        "-c",
        "from django.contrib.auth.models import User; "
        "User.objects.create_user('demo', '', 'demo-pulka'); "
        "User.objects.create_superuser('vera', '', 'a long passphrase 7')",
        env={"DEBUG": "1", "DATABASE_URL": f"sqlite:///{database}"},
    )
    assert made.returncode == 0, made.stderr

    result = start(database)

    assert result.returncode == 0, result.stderr
    assert "(demo / demo-pulka) no longer works" in result.stdout
    assert not LINK.search(result.stdout)  # vera owns it
    (password,) = sql(database, "SELECT password FROM auth_user WHERE username = 'demo'")[0]
    assert password.startswith("!")


def test_an_older_database_is_backed_up_then_migrated(copy_of):
    database = copy_of()
    older = run_python(
        "manage.py",
        "migrate",
        "clubs",
        "0008",
        env={"DEBUG": "1", "DATABASE_URL": f"sqlite:///{database}"},
    )
    assert older.returncode == 0, older.stderr

    result = start(database)

    assert result.returncode == 0, result.stderr
    (backup,) = (database.parent / "backups").iterdir()
    assert backup.name.startswith("prefscore-before-upgrade-")
    assert f"backed up to {backup}" in result.stdout
    assert "Upgraded the database" in result.stdout
    ninth = "SELECT count(*) FROM django_migrations WHERE app = 'clubs' AND name LIKE '0009%'"
    assert sql(backup, ninth) == [(0,)]  # the backup is the database as it was
    assert sql(database, ninth) == [(1,)]
    # Restored as the README says, the database is the older one again.
    restored = run_python(
        "manage.py",
        "restore",
        str(backup),
        env={"DEBUG": "1", "DATABASE_URL": f"sqlite:///{database}"},
    )
    assert restored.returncode == 0, restored.stderr
    assert sql(database, ninth) == [(0,)]


def test_a_migration_that_fails_is_refused_naming_the_backup(copy_of):
    database = copy_of()
    # A migration that creates a table, and that no other depends on, recorded as not
    # applied while its table is there: migrate fails on it.
    sql(database, "DELETE FROM django_migrations WHERE app = 'stats' AND name LIKE '0002%'")

    result = start(database)

    assert result.returncode == 2
    assert "could not be upgraded" in result.stderr and "manage.py restore" in result.stderr
    assert "Traceback" not in result.stderr + result.stdout


@pytest.mark.parametrize(
    ("migration", "said"),
    [
        ("0099_from_a_newer_prefscore", "made by a newer prefscore"),
        ("0002_invitation_signinattempt", "from before 2026-12-01"),
    ],
)
def test_a_database_this_code_cannot_migrate_is_refused_unchanged(copy_of, migration, said):
    database = copy_of()
    sql(
        database,
        "INSERT INTO django_migrations (app, name, applied) VALUES ('clubs', ?, '2027-01-01')",
        migration,
    )
    before = database.read_bytes()

    result = start(database)

    assert result.returncode == 2
    assert said in result.stderr and "Nothing was changed" in result.stderr
    assert "Traceback" not in result.stderr + result.stdout
    assert database.read_bytes() == before


@pytest.mark.parametrize("damage", ["not a database", "truncated"])
def test_a_damaged_database_is_refused(copy_of, damage):
    database = copy_of()
    if damage == "not a database":
        database.write_bytes(b"these are not the deals you are looking for" * 100)
    else:
        data = database.read_bytes()
        database.write_bytes(data[:4096] + b"\0" * 4096 + data[8192 : len(data) // 2])

    result = start(database)

    assert result.returncode == 2
    assert "is damaged" in result.stderr and "manage.py restore" in result.stderr
    assert "Traceback" not in result.stderr + result.stdout


def test_a_certificate_without_its_key_is_refused_in_a_sentence(copy_of, tmp_path):
    (tmp_path / "cert.pem").write_text("x")

    result = start(copy_of(), "--cert", str(tmp_path / "cert.pem"))

    assert result.returncode == 2
    assert "give both CERT and KEY" in result.stderr
    assert "Traceback" not in result.stderr


# A spectator's link to a table of a club that allows them: its stream needs no sign-in.
SPECTATED_TABLE = """
from django.contrib.auth.models import User
from prefscore.clubs.models import Club
from prefscore.games import joining
from prefscore.games.models import Pulka
from scoring.engine.conventions import preset
owner = User.objects.create_user("vera", "", "a long passphrase 7")
club = Club.objects.create(name="Home", slug="home", allow_spectators=True)
pulka = Pulka.objects.create(club=club, convention_name="sochi",
    convention_options=preset("sochi").to_options(), player_names=["A", "B", "C"], target=10)
print(joining.spectator_token(joining.open_spectator_link(pulka, owner)))
"""


def beats(database: Path) -> int:
    """The task workers that say they are running (prefscore/deferred/worker.py)."""
    return int(sql(database, "SELECT count(*) FROM deferred_workerbeat")[0][0])


@pytest.mark.parametrize("stop", [signal.SIGTERM, signal.SIGINT], ids=["SIGTERM", "Ctrl-C"])
def test_a_stop_ends_the_phones_streams_and_the_worker_before_the_server_exits(copy_of, stop):
    """Stopped with a phone's stream open, the server ends the stream after
    ``STREAMS_END_AFTER`` seconds, stops its worker, then exits cleanly: nothing of it is
    left running (a SIGTERM once ended the server at once, its worker orphaned)."""
    database = copy_of()
    env = server_env(database)
    made = run_python("manage.py", "shell", "-c", SPECTATED_TABLE, env=env)
    assert made.returncode == 0, made.stderr
    token = made.stdout.split()[-1]
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    clean = {k: v for k, v in os.environ.items() if k not in SETTINGS_VARIABLES}
    server = subprocess.Popen(
        [sys.executable, "-m", "prefscore.lan", "--host", "127.0.0.1", "--port", str(port)],
        cwd=ROOT,
        env={**clean, **env, "BACKUP_EVERY_HOURS": "0"},
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        deadline = time.monotonic() + 120
        while not beats(database):  # served, and its worker running
            assert server.poll() is None and time.monotonic() < deadline
            time.sleep(0.2)
        phone = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        phone.request("GET", f"/watch/{token}/events/", headers={"Host": "localhost"})
        stream = phone.getresponse()
        assert stream.status == 200 and stream.getheader("Content-Type", "").startswith(
            "text/event-stream"
        )

        stopped_at = time.monotonic()
        server.send_signal(stop)
        code = server.wait(timeout=lan.STREAMS_END_AFTER + 30)
        took = time.monotonic() - stopped_at
    finally:
        server.kill()
        output = server.communicate()[0]

    assert code == 0, output
    assert beats(database) == 0  # the worker stopped before the server exited
    assert took < lan.STREAMS_END_AFTER + 20, took
    assert "Traceback" not in output, output
    stream.read()  # the stream was ended by the server: read to its end, not hung
    phone.close()
