"""Settings for every test: fast password hashing (the tests create many users)."""

from typing import Any

import pytest


@pytest.fixture(autouse=True)
def _fast_password_hashing(settings: Any) -> None:
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def _empty_cache() -> None:
    """Each test starts with an empty cache: ids are reused after a rollback, and a
    region cached by one test must not answer in the next."""
    from django.core.cache import cache

    cache.clear()
