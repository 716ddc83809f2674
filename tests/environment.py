"""The environment of a test run, set before pytest-django imports the settings.

pytest-django loads the settings before it imports any conftest.py, so this module is
loaded as a plugin instead (`-p tests.environment` in pyproject.toml). DEBUG=1 gives the
development defaults (secret key, SQLite unless DATABASE_URL is set); pytest-django still
runs the tests themselves with DEBUG off, as in production.
"""

import os
import tempfile

os.environ.setdefault("DEBUG", "1")
# The zone the tests' dates and times were written for, whatever the machine's own
# (settings.time_zone reads the machine's; tests/test_time_zone.py tries that).
os.environ.setdefault("TIME_ZONE", "Europe/Moscow")
# The result cards a test draws go to a directory of the run's own, not to data/.
os.environ.setdefault("CARD_DIR", tempfile.mkdtemp(prefix="prefscore-cards-"))


# --- the fast loop: `make test-fast APP=games` (CONTRIBUTING.md, "Tests") --------------


def pytest_addoption(parser):  # type: ignore[no-untyped-def]
    parser.addoption(
        "--app",
        action="append",
        default=[],
        help="collect only the test files that import this app: games (prefscore.games), "
        "clubs, tournaments, seasons, stats, web, or scoring; again for more than one",
    )
    parser.addoption(
        "--database-only",
        action="store_true",
        help="leave out the tests that touch no database (CI's stage on PostgreSQL)",
    )


def _needles(app: str) -> tuple[str, ...]:
    module = app if app == "scoring" or "." in app else f"prefscore.{app}"
    return (f"{module}.", f"{module} ", f"{module}\n", module.replace(".", "/") + "/")


def pytest_ignore_collect(collection_path, config):  # type: ignore[no-untyped-def]
    """With ``--app``, a test file that names none of the apps' modules is left out."""
    apps = config.getoption("app")
    name = collection_path.name
    if not apps or not (name.startswith("test_") and name.endswith(".py")):
        return None
    text = collection_path.read_text(encoding="utf-8")
    if any(needle in text for app in apps for needle in _needles(app)):
        return None
    return True


# --- CI's PostgreSQL stage: `make test-database` (.ci/run) ------------------------------

# pytest-django refuses the database to a test that asks for none of these (or for the
# django_db mark), so a test without them cannot touch it: the database the run names
# cannot change its outcome, and the stage on a second database leaves it out. (Not
# django_db_blocker: every test has it, through pytest-django's own autouse fixtures; a
# test that unblocks the database by hand must carry the django_db mark as well.)
DATABASE_FIXTURES = frozenset(
    {
        "db",
        "transactional_db",
        "django_db_reset_sequences",
        "django_db_serialized_rollback",
        "client",
        "async_client",
        "admin_client",
        "admin_user",
        "django_user_model",
        "live_server",
    }
)


def touches_the_database(item) -> bool:  # type: ignore[no-untyped-def]
    if item.get_closest_marker("django_db") is not None:
        return True
    return bool(DATABASE_FIXTURES & set(getattr(item, "fixturenames", ())))


def pytest_collection_modifyitems(config, items):  # type: ignore[no-untyped-def]
    """With ``--database-only``, the tests that touch no database are deselected."""
    if not config.getoption("database_only"):
        return
    kept = [item for item in items if touches_the_database(item)]
    left = [item for item in items if not touches_the_database(item)]
    if left:
        config.hook.pytest_deselected(items=left)
        items[:] = kept
