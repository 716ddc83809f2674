"""Each worker's own cache of rendered regions, bounded in bytes as well as in entries.

Django's ``LocMemCache`` counts entries only, and an entry of prefscore's cache may be a
few hundred bytes (a poll's version) or 120 KB (the page of a 100-deal pulka): a count
alone bounds a worker's memory at neither. This backend keeps the pickled size of every
entry it holds and, past ``MAX_BYTES``, lets the least recently read ones go first, as
``LocMemCache`` itself orders them (issue 16: "the cache is bounded"; README, sizing).
"""

from __future__ import annotations

from collections import OrderedDict
from threading import Lock
from typing import Any

from django.core.cache.backends.base import DEFAULT_TIMEOUT
from django.core.cache.backends.locmem import LocMemCache

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
