"""Settings for every test: fast password hashing (the tests create many users)."""

from typing import Any

import pytest


@pytest.fixture(autouse=True)
def _fast_password_hashing(settings: Any) -> None:
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
