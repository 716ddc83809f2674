"""Settings for every test: fast password hashing (the tests create many users); and
the demo site's database, made once a run for the tests that run commands on a site."""

import shutil
from pathlib import Path
from typing import Any

import pytest

from tests.helpers import run_python


@pytest.fixture(autouse=True)
def _fast_password_hashing(settings: Any) -> None:
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def _empty_cache() -> None:
    """Each test starts with an empty cache: ids are reused after a rollback, and a
    region cached by one test must not answer in the next."""
    from django.core.cache import cache

    cache.clear()


@pytest.fixture(scope="session")
def _demo_site_made_once(tmp_path_factory: Any) -> Path:
    """A site's SQLite database with the demo club, made by the commands a club runs
    (`manage.py migrate`, `load_demo`: two subprocesses, 6 to 10 s), once a run."""
    database = tmp_path_factory.mktemp("demo-site") / "db.sqlite3"
    env = {"DEBUG": "1", "DATABASE_URL": f"sqlite:///{database}"}
    for command in (("migrate", "--no-input", "-v0"), ("load_demo",)):
        done = run_python("manage.py", *command, env=env)
        assert done.returncode == 0, done.stderr
    assert not Path(f"{database}-wal").exists()  # the file alone is the whole database
    return database


@pytest.fixture
def demo_site(_demo_site_made_once: Path, tmp_path: Path) -> Path:
    """A copy of the demo site's database in the test's own directory, to change."""
    database = tmp_path / "db.sqlite3"
    shutil.copy2(_demo_site_made_once, database)
    return database
