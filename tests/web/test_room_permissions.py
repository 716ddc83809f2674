"""The pages whose permission follows the tournament's public flag, for a private
tournament (the permission walk's own tournament is public): ``PRIVATE_TOURNAMENT``
in tests/web/permission_table.py, with and without HX-Request."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse

from tests.web.fixtures_access import ROLES, World
from tests.web.permission_table import EXPECTATIONS, PRIVATE_TOURNAMENT, outcome

pytestmark = pytest.mark.django_db


@pytest.fixture
def access_world(access_world_once_per_module: World) -> World:
    """One world for this module's many requests, as it was at each test's start."""
    return access_world_once_per_module


def cases() -> list[Any]:
    return [
        pytest.param(name, role, htmx, id=f"{name}-{role}{'-htmx' if htmx else ''}")
        for name in PRIVATE_TOURNAMENT
        for role in ROLES
        for htmx in (False, True)
    ]


def test_the_private_rows_name_urls_of_the_main_table():
    assert set(PRIVATE_TOURNAMENT) <= set(EXPECTATIONS)


@pytest.mark.parametrize(("name", "role", "htmx"), cases())
def test_who_may_use_each_page_of_a_private_tournament(name, role, htmx, access_world, client_as):
    expect = PRIVATE_TOURNAMENT[name]
    assert expect.kwargs is not None
    headers = {"hx-request": "true"} if htmx else {}

    response = client_as(role).get(
        reverse(name, kwargs=expect.kwargs(access_world)), headers=headers
    )

    assert outcome(response) == expect.outcomes[role], (name, role, response.status_code)
