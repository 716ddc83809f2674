"""The cache backends of rendered regions: each worker's own, bounded in bytes as well as
in entries; and a shared Redis whose client is made once, not for every call.

Django's ``LocMemCache`` counts entries only, and an entry of prefscore's cache may be a
few hundred bytes (a poll's version) or 120 KB (the page of a 100-deal pulka): a count
alone bounds a worker's memory at neither. This backend keeps the pickled size of every
entry it holds and, past ``MAX_BYTES``, lets the least recently read ones go first, as
``LocMemCache`` itself orders them (issue 16: "the cache is bounded"; README, sizing).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from threading import Lock
from typing import Any

from django.core.cache import caches
from django.core.cache.backends.base import DEFAULT_TIMEOUT
from django.core.cache.backends.locmem import LocMemCache
from django.core.cache.backends.redis import RedisCache, RedisCacheClient
from django.http import HttpRequest, HttpResponseBase

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
    answering 200 and of a record on a shared Redis (README, issue 16). A ``redis.Redis``
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


class _Pending(threading.local):
    """One thread's writes held back (``SharedRedisCache.deferred_writes``): by key and
    version, the value and its timeout; and what ``prefetch`` read for it (``_MISSING``
    where Redis had nothing). None outside such a block."""

    writes: dict[tuple[Any, Any], tuple[Any, Any]] | None = None
    reads: dict[tuple[Any, Any], Any] | None = None


_MISSING = object()  # read ahead and not found: asked again, it misses with no round trip
_NOT_KEPT = object()  # neither written nor read ahead in this block: ask Redis


class SharedRedisCache(RedisCache):
    """Django's ``RedisCache`` with a client made once per pool (``_OneClientPerPool``),
    whose writes inside ``deferred_writes`` (a request, ``DeferredCacheWritesMiddleware``)
    go to Redis together at its end."""

    def __init__(self, server: str, params: dict[str, Any]) -> None:
        super().__init__(server, params)
        self._class = _OneClientPerPool
        self._pending = _Pending()

    @contextmanager
    def deferred_writes(self) -> Iterator[None]:
        """Within: ``set`` and ``set_many`` are kept, and sent at the end in one pipelined
        ``set_many`` per timeout. A record writes a dozen parts of the new version as it
        renders them, each a round trip of its own (0.1 ms of the worker's CPU) otherwise.
        Reads inside see the writes kept. What is kept is sent even when the block fails:
        each entry is whole (every key names what its entry holds)."""
        if self._pending.writes is not None:  # nested: the outer block sends
            yield
            return
        self._pending.writes, self._pending.reads = {}, {}
        try:
            yield
        finally:
            writes, self._pending.writes, self._pending.reads = self._pending.writes, None, None
            groups: dict[tuple[Any, Any], dict[Any, Any]] = {}
            for (key, version), (value, timeout) in writes.items():
                groups.setdefault((timeout, version), {})[key] = value
            for (timeout, version), data in groups.items():
                super().set_many(data, timeout, version)

    def set(
        self, key: Any, value: Any, timeout: Any = DEFAULT_TIMEOUT, version: Any = None
    ) -> None:
        writes = self._pending.writes
        if writes is None:
            super().set(key, value, timeout, version)
        else:
            writes[key, version] = (value, timeout)

    def set_many(self, data: Any, timeout: Any = DEFAULT_TIMEOUT, version: Any = None) -> list[Any]:
        writes = self._pending.writes
        if writes is None:
            return super().set_many(data, timeout, version)
        for key, value in data.items():
            writes[key, version] = (value, timeout)
        return []

    def prefetch(self, keys: Any, version: Any = None) -> None:
        """Read ``keys`` now, in one round trip, for the ``get`` calls of this block that
        will ask for them one at a time: a poll's screen asks for five parts of its
        version before it knows the next key. Outside a block, nothing is kept to read
        from, so nothing is read. Every key prefscore reads names what its entry holds
        (a version, or a digest of the content), so what is read stays true for the
        request; a key written in the block is read from its write."""
        reads, writes = self._pending.reads, self._pending.writes or {}
        if reads is None:
            return
        wanted = [k for k in keys if (k, version) not in reads and (k, version) not in writes]
        if wanted:
            found = super().get_many(wanted, version)
            reads.update(((k, version), found.get(k, _MISSING)) for k in wanted)

    def _kept(self, key: Any, version: Any) -> Any:
        """What this block wrote or read ahead for ``key``, else ``_NOT_KEPT``."""
        writes = self._pending.writes
        if writes and (key, version) in writes:
            return writes[key, version][0]
        reads = self._pending.reads
        return reads.get((key, version), _NOT_KEPT) if reads else _NOT_KEPT

    def get(self, key: Any, default: Any = None, version: Any = None) -> Any:
        kept = self._kept(key, version)
        if kept is _NOT_KEPT:
            return super().get(key, default, version)
        return default if kept is _MISSING else kept

    def get_many(self, keys: Any, version: Any = None) -> dict[Any, Any]:
        if not self._pending.writes and not self._pending.reads:
            return super().get_many(keys, version)
        kept = {key: self._kept(key, version) for key in keys}
        rest = [key for key, value in kept.items() if value is _NOT_KEPT]
        found = {k: v for k, v in kept.items() if v is not _NOT_KEPT and v is not _MISSING}
        return {**(super().get_many(rest, version) if rest else {}), **found}

    def has_key(self, key: Any, version: Any = None) -> bool:
        writes = self._pending.writes
        return bool(writes and (key, version) in writes) or super().has_key(key, version)

    def add(
        self, key: Any, value: Any, timeout: Any = DEFAULT_TIMEOUT, version: Any = None
    ) -> bool:
        if self.has_key(key, version):
            return False
        return bool(super().add(key, value, timeout, version))

    def delete(self, key: Any, version: Any = None) -> bool:
        writes, reads = self._pending.writes, self._pending.reads
        if reads:
            reads.pop((key, version), None)
        kept = writes.pop((key, version), None) if writes else None
        return bool(super().delete(key, version)) or kept is not None

    def clear(self) -> None:
        if self._pending.writes:
            self._pending.writes.clear()
        if self._pending.reads:
            self._pending.reads.clear()
        super().clear()


class DeferredCacheWritesMiddleware:
    """Each request's writes to a shared Redis go in one round trip at its end
    (``SharedRedisCache.deferred_writes``), before the answer leaves: a device that asks
    after it finds them. Other backends are used as they are."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        deferred = getattr(caches["default"], "deferred_writes", None)
        if deferred is None:
            return self.get_response(request)
        with deferred():
            return self.get_response(request)
