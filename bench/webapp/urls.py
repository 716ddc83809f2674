"""prefscore's URLs plus a bare view: the baseline both benches measure against; and
what one worker's cache holds, for bench/load.py's report (only in the bench's URLs)."""

import os

from django.core.cache import cache
from django.db import connection
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.urls import include, path


def bare(request: HttpRequest) -> HttpResponse:
    """A view that does nothing: what the middleware and the server cost alone."""
    return HttpResponse("ok", content_type="text/plain")


def cache_stats(request: HttpRequest) -> JsonResponse:
    """This worker's cache of rendered regions: entries and bytes held, and its bound.

    The local-memory backend keeps each entry pickled, so its bytes are the entries'
    lengths; the database backend's are its table's.
    """
    held = getattr(cache, "_cache", None)  # LocMemCache: key -> pickled bytes
    if isinstance(held, dict):
        entries, size = len(held), sum(len(value) for value in held.values())
    else:
        table = connection.ops.quote_name(cache._table)  # DatabaseCache
        with connection.cursor() as cursor:
            cursor.execute(f"SELECT COUNT(*), COALESCE(SUM(LENGTH(value)), 0) FROM {table}")
            entries, size = cursor.fetchone()
    bound = getattr(cache, "_max_entries", None)
    return JsonResponse(
        {"pid": os.getpid(), "entries": entries, "bytes": int(size), "max_entries": bound}
    )


urlpatterns = [
    path("bench/bare/", bare),
    path("bench/cache/", cache_stats),
    path("", include("prefscore.urls")),
]
