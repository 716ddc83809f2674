"""The table screen on a shared Redis reads its parts in as few round trips as it can
(issue 16): a poll answered from the cache in two, a record's log and proposals in one.

Each round trip is a worker's CPU and a share of Redis's and the kernel's: a poll that
asked for its five parts of the version one by one, then its body, then its newest
lines, made seven. These run against a real ``redis-server`` (tests/test_cache_redis.py
starts one) through the whole middleware stack, and check that what is read ahead
changes no byte of the answer.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any
from unittest import mock

import pytest
from django.core.cache import caches
from django.core.cache.backends.redis import RedisCache

from prefscore.games import render_cache
from tests.test_cache_redis import redis_url  # noqa: F401 (the fixture)
from tests.web.test_render_cache import normal
from tests.web.test_render_cache_record import fresh_poll, phone, poll, record_next
from tests.web.test_viewer_class import played

pytestmark = pytest.mark.django_db


@pytest.fixture
def shared_cache(redis_url: str, settings: Any) -> Iterator[Any]:  # noqa: F811
    settings.CACHES = {
        "default": {
            "BACKEND": "prefscore.cache.SharedRedisCache",
            "LOCATION": redis_url,
            "TIMEOUT": 3600,
        }
    }
    shared = caches["default"]
    shared.clear()
    yield shared
    shared.clear()


class RoundTrips:
    """Every read the backend sends to Redis, by kind and the parts it names."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, list[str]]] = []

    def count(self, kind: str) -> int:
        return sum(1 for made, _ in self.calls if made == kind)

    def parts(self, kind: str) -> list[set[str]]:
        return [
            {name.split(".")[2] for name in names} for made, names in self.calls if made == kind
        ]


def counted() -> Any:
    trips = RoundTrips()
    real_get, real_get_many = RedisCache.get, RedisCache.get_many

    def get(self: Any, key: str, *args: Any, **kwargs: Any) -> Any:
        trips.calls.append(("get", [key]))
        return real_get(self, key, *args, **kwargs)

    def get_many(self: Any, keys: Any, *args: Any, **kwargs: Any) -> Any:
        keys = list(keys)
        trips.calls.append(("get_many", keys))
        return real_get_many(self, keys, *args, **kwargs)

    patches = (
        mock.patch.object(RedisCache, "get", get),
        mock.patch.object(RedisCache, "get_many", get_many),
    )
    return trips, patches


def test_a_poll_answered_from_the_shared_cache_reads_it_in_two_round_trips(
    shared_cache, seated_world, seated_client
):
    pulka = played(seated_world)
    anna, boris = phone(seated_client, "anna", pulka), phone(seated_client, "boris", pulka)
    shown = pulka.version
    record_next(anna, pulka)
    poll(boris, pulka, shown)  # his class's body and newest lines into Redis
    other = phone(seated_client, "boris", pulka)

    trips, (get, get_many) = counted()
    with get, get_many, mock.patch.object(render_cache, "_render") as made:
        again = poll(other, pulka, shown)

    assert made.call_count == 0 and "holds the pencil" in again
    assert trips.count("get") == 0
    assert trips.parts("get_many") == [
        {"last-deal", "proposal", "abandonment", "entry-digest", "protocol-head"},
        {"regions", "protocol-head-html"},
    ]
    assert normal(again) == normal(fresh_poll(other, pulka, shown))


def test_a_record_reads_its_log_and_the_pending_proposals_in_one_round_trip(
    shared_cache, seated_world, seated_client
):
    pulka = played(seated_world)
    anna = phone(seated_client, "anna", pulka)
    shown = pulka.version
    poll(anna, pulka, shown - 1)  # the version's log and proposals into Redis

    trips, (get, get_many) = counted()
    with get, get_many:
        record_next(anna, pulka)

    first = trips.calls[0]
    assert first[0] == "get_many"
    assert {name.split(".")[2] for name in first[1]} >= {"log", "proposal", "abandonment"}
    singles = {part for parts in trips.parts("get") for part in parts}
    assert not singles & {"log", "proposal", "abandonment", "last-deal", "entry-digest"}, singles
