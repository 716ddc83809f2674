"""The cache backends of rendered regions: each worker's own, bounded in bytes as well as
in entries; and a shared Redis whose client is made once, not for every call.

Django's ``LocMemCache`` counts entries only, and an entry of prefscore's cache may be a
few hundred bytes (a poll's version) or 120 KB (the page of a 100-deal pulka): a count
alone bounds a worker's memory at neither. This backend keeps the pickled size of every
entry it holds and, past ``MAX_BYTES``, lets the least recently read ones go first, as
``LocMemCache`` itself orders them (docs/design.md, "How the table screen is cached").
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable
from threading import Lock
from typing import Any

from django.core.cache.backends.base import DEFAULT_TIMEOUT
from django.core.cache.backends.locmem import LocMemCache
from django.core.cache.backends.redis import RedisCache, RedisCacheClient

DEFAULT_MAX_BYTES = 64 * 1024 * 1024

# Per cache name, as LocMemCache keeps its entries: every worker thread shares them.
_sizes: dict[str, dict[str, int]] = {}
_totals: dict[str, list[int]] = {}


class BoundedLocMemCache(LocMemCache):
    """``LocMemCache`` with ``OPTIONS["MAX_BYTES"]``: the pickled values' total stays under it."""

    # LocMemCache's own state, which django-stubs does not declare (its private part).
    _cache: OrderedDict[str, bytes]
    _expire_info: dict[str, float | None]
    _lock: Lock

    def __init__(self, name: str, params: dict[str, Any]) -> None:
        super().__init__(name, params)
        self.max_bytes = int(params.get("OPTIONS", {}).get("MAX_BYTES", DEFAULT_MAX_BYTES))
        self._sizes = _sizes.setdefault(name, {})
        self._total = _totals.setdefault(name, [0])

    @property
    def total_bytes(self) -> int:
        """The pickled size of what the cache holds now."""
        return self._total[0]

    def _set(self, key: str, value: bytes, timeout: Any = DEFAULT_TIMEOUT) -> None:
        self._forget(key)
        super()._set(key, value, timeout)  # type: ignore[misc]
        self._sizes[key] = len(value)
        self._total[0] += len(value)
        # The newest entry stays even when it alone passes the bound: it is the one the
        # next request of that table asks for.
        while self._total[0] > self.max_bytes and len(self._cache) > 1:
            oldest, _ = self._cache.popitem()  # the end of the order: least recently read
            del self._expire_info[oldest]
            self._forget(oldest)

    def _cull(self) -> None:
        super()._cull()  # type: ignore[misc]
        for key in [key for key in self._sizes if key not in self._cache]:
            self._forget(key)

    def _delete(self, key: str) -> bool:
        self._forget(key)
        return bool(super()._delete(key))  # type: ignore[misc]

    def clear(self) -> None:
        super().clear()
        with self._lock:
            self._sizes.clear()
            self._total[0] = 0

    def _forget(self, key: str) -> None:
        self._total[0] -= self._sizes.pop(key, 0)


class _OneClientPerPool(RedisCacheClient):
    """Django's Redis client, keeping one ``redis.Redis`` per connection pool.

    Django's own makes a new ``redis.Redis`` for every call, and each builds its table of
    response callbacks (some 170 entries, upper-cased one by one): about 0.13 ms of a
    worker's CPU per cache call, which `bench/cpu.py` measured as a third of a poll
    answering 200 and of a record on a shared Redis (docs/benchmarks.md). A ``redis.Redis``
    is safe to share between threads: each command takes a connection from the pool.
    """

    # RedisCacheClient's own state, which django-stubs does not declare (its private part).
    _servers: list[str]
    _pools: dict[int, Any]
    _pool_class: Any
    _pool_options: dict[str, Any]
    _client: Any
    _get_connection_pool_index: Callable[[bool], int]

    def __init__(self, servers: list[str], **options: Any) -> None:
        super().__init__(servers, **options)
        self._clients: dict[int, Any] = {}

    def get_client(self, key: Any = None, *, write: bool = False) -> Any:
        index = self._get_connection_pool_index(write)
        client = self._clients.get(index)
        if client is None:
            if index not in self._pools:
                self._pools[index] = self._pool_class.from_url(
                    self._servers[index], **self._pool_options
                )
            client = self._clients[index] = self._client(connection_pool=self._pools[index])
        return client


class SharedRedisCache(RedisCache):
    """Django's ``RedisCache`` with a client made once per pool (``_OneClientPerPool``)."""

    def __init__(self, server: str, params: dict[str, Any]) -> None:
        super().__init__(server, params)
        self._class = _OneClientPerPool
