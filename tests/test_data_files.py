"""The SQLite data folder is its owner's alone from the first run (prefscore/settings.py,
``database_config``): the folder 0700, the database and its -wal and -shm files 0600."""

import sqlite3
import stat

from prefscore.settings import database_config


def mode(path):
    return stat.S_IMODE(path.stat().st_mode)


def test_the_first_run_makes_a_private_folder_and_a_private_database(tmp_path):
    config = database_config({}, tmp_path)

    database = tmp_path / "data" / "db.sqlite3"
    assert config["NAME"] == str(database)
    assert mode(tmp_path / "data") == 0o700
    assert mode(database) == 0o600
    with sqlite3.connect(database) as db:
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("CREATE TABLE deal (number INTEGER)")
        db.execute("INSERT INTO deal VALUES (1)")
        assert mode(database.with_name("db.sqlite3-wal")) == 0o600
        assert mode(database.with_name("db.sqlite3-shm")) == 0o600


def test_a_folder_and_files_made_before_are_made_private(tmp_path):
    data = tmp_path / "data"
    data.mkdir(mode=0o755)
    for name in ("db.sqlite3", "db.sqlite3-wal"):
        (data / name).write_bytes(b"")
        (data / name).chmod(0o644)

    database_config({}, tmp_path)

    assert mode(data) == 0o700
    assert mode(data / "db.sqlite3") == mode(data / "db.sqlite3-wal") == 0o600
