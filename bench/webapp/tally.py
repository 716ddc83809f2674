"""Where a bench worker's CPU goes: each request's CPU time by kind, and its cache calls.

Only the bench settings (bench/webapp/settings.py) install this; prefscore's own
settings never do. bench/load.py reads every worker's tallies at /bench/tally/ after
the evening and prints them per kind (bench/harness/tally.py).

A kind is the view's name and the answer's status ("poll 200", "poll 304", "record
409", "bare 200"...), so that a poll that renders the new regions is told from one
that answers "nothing new". The CPU is the worker thread's own (``time.thread_time``):
the bench runs sync workers, one request at a time on one thread, so nothing else
is counted in it; what the middleware does not see (gunicorn reading the request and
writing the answer, Django's handler around the middleware) is the worker's process
CPU less the tallies' sum, which bench/load.py prints beside them.

The cache's gets, misses and sets are counted by the same request: the bench
settings swap prefscore's cache backend for the same backend with the counting
mixin below (the settings' ``COUNTED``).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field
from typing import Any

from django.core.cache.backends.base import DEFAULT_TIMEOUT
from django.core.cache.backends.db import DatabaseCache
from django.http import HttpRequest, HttpResponseBase

from prefscore.cache import BoundedLocMemCache, SharedRedisCache

# The probes of bench/load.py: reading the tallies is not part of the evening.
PROBES = ("/bench/tally/", "/bench/cache/")
# Short names of the views bench/load.py sends requests to; any other keeps its own.
NAMES = {"games:poll": "poll", "games:record": "record", "games:sheet": "sheet", "bare": "bare"}


@dataclass
class Calls:
    """The cache calls of the request under way (one at a time: sync workers)."""

    gets: int = 0
    misses: int = 0
    sets: int = 0
    depth: int = 0  # >0 inside a counted call: a backend's get that calls its get_many


@dataclass
class Kind:
    """What every request of one kind cost this worker since the last reset."""

    cpu_ms: list[float] = field(default_factory=list)
    gets: int = 0
    misses: int = 0
    sets: int = 0


CALLS = Calls()
TALLIES: dict[str, Kind] = {}


def snapshot() -> dict[str, dict[str, Any]]:
    """This worker's tallies as plain data (the JSON of /bench/tally/)."""
    return {name: asdict(kind) for name, kind in TALLIES.items()}


def reset() -> None:
    TALLIES.clear()


def kind_of(request: HttpRequest, response: HttpResponseBase) -> str:
    match = request.resolver_match
    view = match.view_name if match is not None else "unresolved"
    return f"{NAMES.get(view, view)} {response.status_code}"


class CpuTallyMiddleware:
    """Outermost middleware: each request's thread CPU and cache calls, by kind."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        if request.path.startswith(PROBES):
            return self.get_response(request)
        CALLS.gets = CALLS.misses = CALLS.sets = 0
        started = time.thread_time()
        response = self.get_response(request)
        spent = time.thread_time() - started
        kind = TALLIES.setdefault(kind_of(request, response), Kind())
        kind.cpu_ms.append(spent * 1000)
        kind.gets += CALLS.gets
        kind.misses += CALLS.misses
        kind.sets += CALLS.sets
        return response


@contextmanager
def _outermost() -> Iterator[bool]:
    """True for a call not made from inside another counted call (so counted once)."""
    CALLS.depth += 1
    try:
        yield CALLS.depth == 1
    finally:
        CALLS.depth -= 1


_MISSING = object()


class Counted:
    """Counts the cache calls prefscore makes (get, get_many, set, set_many).

    Django's database backend answers ``get`` with its ``get_many``, and the base
    ``set_many`` calls ``set``: only the outermost call is counted.
    """

    def get(self, key: Any, default: Any = None, version: Any = None) -> Any:
        with _outermost() as outer:
            found = super().get(key, _MISSING, version)  # type: ignore[misc]
        if outer:
            CALLS.gets += 1
            CALLS.misses += found is _MISSING
        return default if found is _MISSING else found

    def get_many(self, keys: Any, version: Any = None) -> Any:
        keys = list(keys)
        with _outermost() as outer:
            found = super().get_many(keys, version)  # type: ignore[misc]
        if outer:
            CALLS.gets += len(keys)
            CALLS.misses += len(keys) - len(found)
        return found

    def set(self, key: Any, value: Any, timeout: Any = DEFAULT_TIMEOUT, version: Any = None) -> Any:
        with _outermost() as outer:
            done = super().set(key, value, timeout, version)  # type: ignore[misc]
        CALLS.sets += outer
        return done

    def set_many(self, data: Any, timeout: Any = DEFAULT_TIMEOUT, version: Any = None) -> Any:
        with _outermost() as outer:
            done = super().set_many(data, timeout, version)  # type: ignore[misc]
        if outer:
            CALLS.sets += len(data)
        return done


class CountedLocMem(Counted, BoundedLocMemCache):
    pass


class CountedDatabase(Counted, DatabaseCache):
    pass


class CountedRedis(Counted, SharedRedisCache):
    pass
