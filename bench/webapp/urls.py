"""prefscore's URLs plus a bare view: the baseline both benches measure against; and
what one worker's cache holds and where its CPU went, for bench/load.py's report (only
in the bench's URLs)."""

import os
from typing import Any

from django.core.cache import cache
from django.db import connection
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.urls import include, path

from . import tally


def bare(request: HttpRequest) -> HttpResponse:
    """A view that does nothing: what the middleware and the server cost alone."""
    return HttpResponse("ok", content_type="text/plain")


def cache_stats(request: HttpRequest) -> JsonResponse:
    """This worker's cache of rendered regions: entries and bytes held, and its bound.

    The local-memory backend keeps each entry pickled, so its bytes are the entries'
    lengths; the database backend's are its table's; Redis says its own (``DBSIZE``,
    ``INFO``), the same for every worker.
    """
    held = getattr(cache, "_cache", None)  # LocMemCache: key -> pickled bytes
    found: dict[str, object] = {
        "pid": os.getpid(),
        "max_entries": getattr(cache, "_max_entries", None),
    }
    if isinstance(held, dict):
        found.update(entries=len(held), bytes=sum(len(value) for value in held.values()))
    elif hasattr(cache, "_table"):  # DatabaseCache
        table = connection.ops.quote_name(cache._table)
        with connection.cursor() as cursor:
            cursor.execute(f"SELECT COUNT(*), COALESCE(SUM(LENGTH(value)), 0) FROM {table}")
            entries, size = cursor.fetchone()
        found.update(entries=entries, bytes=int(size))
    else:  # RedisCache
        found.update(_redis_stats(cache._cache.get_client()))
    return JsonResponse(found)


def _redis_stats(client: Any) -> dict[str, object]:
    """Keys and memory of the Redis server, its bound and how many keys it evicted."""
    memory, stats = client.info("memory"), client.info("stats")
    return {
        "entries": client.dbsize(),
        "bytes": memory["used_memory"],
        "peak_bytes": memory["used_memory_peak"],
        "max_entries": f"maxmemory {memory['maxmemory'] / 2**20:.0f} MiB "
        f"({memory['maxmemory_policy']})",
        "evicted": stats["evicted_keys"],
    }


def cpu_tally(request: HttpRequest) -> JsonResponse:
    """This worker's CPU and cache calls by kind of request; ``?reset=1`` starts them anew."""
    found = {"pid": os.getpid(), "kinds": tally.snapshot()}
    if request.GET.get("reset"):
        tally.reset()
    return JsonResponse(found)


urlpatterns = [
    path("bench/bare/", bare, name="bare"),
    path("bench/bare/alone/", bare),  # through no middleware: bench/webapp/wsgi.py
    path("bench/tally/", cpu_tally),
    path("bench/cache/", cache_stats),
    path("", include("prefscore.urls")),
]
