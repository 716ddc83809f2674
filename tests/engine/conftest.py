"""The engine tests need no Django: they run with ``-p no:django`` as well.

tests/conftest.py speeds up password hashing through pytest-django's ``settings``
fixture for every test; the engine creates no users, so the fixture is overridden
here by one that asks for nothing.
"""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def _fast_password_hashing() -> None:
    """Nothing to speed up: the engine has no users and no settings."""
