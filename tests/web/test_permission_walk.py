"""Every URL of the project, requested by everyone: who may open it and who may not.

The walk goes through ``get_resolver().url_patterns`` recursively. Django's own URLs
(the admin's pages, i18n's set_language) are left out, except the admin's front page,
which must send everyone but the superuser to the admin's sign-in. Each other URL must
have a row in EXPECTATIONS, keyed by its name: who gets through (OK: 2xx, a 3xx that is
not a sign-in page, or 400/409/422/429, a refusal of the input after the permission
check), who is sent to sign in (LOGIN), and who is refused (DENIED: 403 or 404).

A URL without a row fails ``test_every_url_has_a_permission_expectation`` (and its own
cases): a new view must state who may use it. Views still answering with the
placeholder module ("Placeholder until this screen is written") are skipped until
they are written; the row is already there, so the real view is held to it from its
first day.

The table, the walk and their helpers are in ``tests/web/permission_table.py``; the
CSRF, Content-Security-Policy and no-deletion checks over the same URLs are in the
other test_permission_*.py modules.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.web.fixtures_access import ROLES, World
from tests.web.permission_table import (
    EXPECTATIONS,
    ROUTES,
    call,
    is_placeholder,
    no_expectation_message,
    outcome,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def access_world(access_world_once_per_module: World) -> World:
    """One world for this module's many requests, as it was at each test's start."""
    return access_world_once_per_module


def cases() -> list[Any]:
    return [
        pytest.param(name, role, htmx, id=f"{name}-{role}{'-htmx' if htmx else ''}")
        for name in ROUTES
        for role in ROLES
        for htmx in (False, True)
    ]


def test_every_url_has_a_permission_expectation():
    missing = [name for name in ROUTES if name not in EXPECTATIONS]

    assert not missing, no_expectation_message(missing)


def test_the_expectation_table_names_only_urls_that_exist():
    walked = set(ROUTES) | {"admin:index"}

    stale = sorted(set(EXPECTATIONS) - walked)

    assert not stale, f"EXPECTATIONS has rows for URLs that no longer exist: {stale}"


def test_the_walk_finds_the_urls_of_every_app():
    for name in ("clubs:home", "games:sheet", "members:list", "login", "admin:index"):
        assert name in ROUTES
    assert not any(name.startswith("admin:") and name != "admin:index" for name in ROUTES)
    assert "set_language" not in ROUTES


@pytest.mark.parametrize(("name", "role", "htmx"), cases())
def test_who_may_use_each_url(name, role, htmx, access_world, client_as):
    """With and without HX-Request: a partial view checks permissions like a full one."""
    assert name in EXPECTATIONS, no_expectation_message([name])
    assert not is_placeholder(ROUTES[name]), f"{name} is still a placeholder"
    headers = {"hx-request": "true"} if htmx else {}

    response = call(client_as(role), access_world, name, **headers)

    expected = EXPECTATIONS[name].outcomes[role]
    got = outcome(response)
    assert got == expected, (
        f"{name} as {role}{' (htmx)' if htmx else ''}: expected {expected}, got {got} "
        f"({response.status_code} {response.get('Location', '')})"
    )
