"""Every URL pattern with an id beyond what a database holds: a 404 (or the refusal the
page gives anyone), never a 500, on SQLite and PostgreSQL alike.

Ids are bounded in one place, the ``<id:…>`` path converter (prefscore/web/integers.py), which
every pattern uses; the admin's object ids go through Django's own lookup.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver

from tests.web.fixtures_tournaments import tournament_world, walk_tournament  # noqa: F401

# 2**63, one more than the largest 64-bit id; 30 digits; and the longest id the
# converter lets through, which the database must answer as "no such row".
HUGE = ["9223372036854775808", "1" * 30, "999999999999999999"]
PARAMETER = re.compile(r"<(?:(\w+):)?(\w+)>")


def routes(patterns: list, prefix: str = "") -> Iterator[str]:
    for pattern in patterns:
        route = prefix + str(pattern.pattern)
        if isinstance(pattern, URLResolver):
            yield from routes(pattern.url_patterns, route)
        elif isinstance(pattern, URLPattern) and not route.startswith("^"):
            yield route


def with_ids(route: str, huge: str) -> str | None:
    """The route with every id ``huge`` and every other part a real one; None if it
    takes no id."""
    if not re.search(r"<(id|int|path):", route):
        return None
    tournament = route.startswith("tournaments/")

    def value(match: re.Match) -> str:
        converter, name = match.group(1), match.group(2)
        if converter in ("id", "int", "path"):
            return huge
        if name == "club" or (name == "slug" and not tournament):
            return "cup"
        return "walk-cup" if name == "slug" else "x"

    return PARAMETER.sub(value, route)


ROUTES = sorted(set(routes(get_resolver().url_patterns)))


def test_the_walk_sees_every_kind_of_page():
    with_an_id = [r for r in ROUTES if with_ids(r, "1")]
    assert any(r.startswith("pulkas/") for r in with_an_id)
    assert any(r.startswith("tournaments/") for r in with_an_id)
    assert any(r.startswith("admin/") for r in with_an_id)
    assert all("<int:" not in r for r in ROUTES if not r.startswith("admin/"))


@pytest.mark.parametrize("huge", HUGE)
def test_no_url_pattern_answers_a_huge_id_with_a_500(tournament_world, huge, django_user_model):  # noqa: F811
    walk_tournament(tournament_world)
    root = django_user_model.objects.create_superuser("root", password="pw-root-12345")
    clients = {"anonymous": Client(raise_request_exception=False)}
    for role in ("admin", "root"):
        clients[role] = Client(raise_request_exception=False)
        clients[role].force_login(root if role == "root" else tournament_world.users[role])
    failures = []
    for route in ROUTES:
        url = with_ids(route, huge)
        if url is None:
            continue
        for role, client in clients.items():
            if route.startswith("admin/") and role != "root":
                continue
            for method in (client.get, client.post):
                status = method("/" + url).status_code
                if status >= 500:
                    failures.append((method.__name__, url, role, status))

    assert failures == []


@pytest.mark.parametrize("player", ["9" * 20, "9223372036854775808", "1" * 30])
def test_registering_a_player_with_a_huge_id_is_the_forms_error(tournament_world, player):  # noqa: F811
    from tests.web.fixtures_tournaments import client_as, url

    tournament = walk_tournament(tournament_world)
    client = client_as(tournament_world, "organiser", raise_request_exception=False)

    response = client.post(url("register", tournament), {"players": [player]})

    assert response.status_code == 200
    assert "is not a valid value" in response.content.decode()
    assert tournament.entries.count() == 3
