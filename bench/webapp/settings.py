"""Settings for the benches (bench/web.py, bench/load.py): prefscore's own, with a bare view.

Static files are served from the app folders, as with DEBUG, so that the benchmark
needs no collectstatic; everything else is production's (DEBUG off).
"""

import os

from prefscore.settings import *  # noqa: F403
from prefscore.settings import CACHES, DATABASES, MIDDLEWARE, STORAGES

ROOT_URLCONF = "bench.webapp.urls"
STORAGES = {
    **STORAGES,
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}

# bench/load.py's accounting (BENCH_TALLY; bench/webapp/tally.py): each request's CPU and
# cache calls by kind. Outermost, so that the other middleware's share is counted in the
# request's; the cache is prefscore's backend with a counting mixin, the same bounds and
# options. Off for bench/web.py, whose ratios then measure prefscore alone.
COUNTED = {
    "prefscore.cache.BoundedLocMemCache": "bench.webapp.tally.CountedLocMem",
    "django.core.cache.backends.db.DatabaseCache": "bench.webapp.tally.CountedDatabase",
    "prefscore.cache.SharedRedisCache": "bench.webapp.tally.CountedRedis",
}
if os.environ.get("BENCH_TALLY"):
    MIDDLEWARE = ["bench.webapp.tally.CpuTallyMiddleware", *MIDDLEWARE]
    backend = CACHES["default"]["BACKEND"]
    CACHES = {**CACHES, "default": {**CACHES["default"], "BACKEND": COUNTED.get(backend, backend)}}

# bench/web.py --sqlite-tuned: SQLite set up for several worker processes. BEGIN
# IMMEDIATE takes the write lock at the start of a transaction, so that a writer waits
# for another (busy timeout) instead of failing with "database is locked" when it
# upgrades a read lock; write-ahead logging lets readers go on during a write; and
# connections stay open between requests, as the settings already do for PostgreSQL.
if os.environ.get("BENCH_SQLITE_TUNED") and DATABASES["default"]["ENGINE"].endswith("sqlite3"):
    DATABASES["default"]["CONN_MAX_AGE"] = 60
    DATABASES["default"]["OPTIONS"] = {
        "transaction_mode": "IMMEDIATE",
        "timeout": 20,
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
    }

# bench/web.py --cookie-sessions: sessions in a signed cookie, so that a request reads
# no session row (the poll's one query is then its only one).
if os.environ.get("BENCH_COOKIE_SESSIONS"):
    SESSION_ENGINE = "django.contrib.sessions.backends.signed_cookies"
