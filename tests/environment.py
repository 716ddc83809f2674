"""The environment of a test run, set before pytest-django imports the settings.

pytest-django loads the settings before it imports any conftest.py, so this module is
loaded as a plugin instead (`-p tests.environment` in pyproject.toml). DEBUG=1 gives the
development defaults (secret key, SQLite unless DATABASE_URL is set); pytest-django still
runs the tests themselves with DEBUG off, as in production.
"""

import os

os.environ.setdefault("DEBUG", "1")
# The zone the tests' dates and times were written for, whatever the machine's own
# (settings.time_zone reads the machine's; tests/test_time_zone.py tries that).
os.environ.setdefault("TIME_ZONE", "Europe/Moscow")
