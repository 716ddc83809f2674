"""HEAD on any page answers like GET: the same status
for every role, and no body."""

from __future__ import annotations

from typing import Any

import pytest

from tests.web.fixtures_access import World
from tests.web.permission_table import EXPECTATIONS, url_for

pytestmark = pytest.mark.django_db


@pytest.fixture
def access_world(access_world_once_per_module: World) -> World:
    """One world for this module's many requests, as it was at each test's start."""
    return access_world_once_per_module


PAGES = sorted(name for name, expect in EXPECTATIONS.items() if expect.method == "get")


def test_there_are_pages_to_ask():
    assert len(PAGES) > 20


@pytest.mark.parametrize("role", ["anonymous", "member", "admin"])
@pytest.mark.parametrize("name", PAGES)
def test_head_answers_like_get(name: str, role: str, access_world: Any, client_as: Any) -> None:
    expect = EXPECTATIONS[name]
    data = expect.data(access_world) if expect.data else {}
    url = url_for(access_world, name)

    got = client_as(role).get(url, data)
    head = client_as(role).head(url, data)

    assert head.status_code == got.status_code, f"{name} as {role}"
    assert head.content == b""
    if got.status_code in (301, 302):
        assert head["Location"] == got["Location"]
