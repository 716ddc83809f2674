"""How many event streams one process holds open (docs/push.md; the
settings ``STREAMS_PER_ACCOUNT``, ``STREAMS_PER_ADDRESS``, ``STREAMS_MAX``).

A stream holds a connection, so an open file, for as long as its page stays open. A
table's phones and a projector hold a few each; a script could hold thousands, and the
process would then run out of files: every other request (a deal recorded, a page, the
database file) would fail. So a process counts its streams and refuses one more:

- per account (8: a phone's tabs and a projector never reach it) and per address (an
  IPv6 address by its /64), answered 429 with ``Retry-After``;
- in all, below the open files the process may have (its soft limit, raised to the hard
  one at start where the system allows: ``raise_file_limit``) less a reserve for
  everything else, answered 503 with ``Retry-After``.

A refused page is no worse off: its ``EventSource`` does not connect again, and the page
polls as it does without a stream. The counts are the process's own; production runs one
events process per app server (README, "Running in production").
"""

from __future__ import annotations

import threading
from collections import Counter
from dataclasses import dataclass, field

from django.conf import settings
from django.http import HttpResponse

# Files kept for everything but the streams: the pages' own connections, the database's
# files (three a SQLite connection with its -wal and -shm), the logs, the static files.
RESERVED_FILES = 256
# Streams at most however many files there are: beyond it, memory (a few dozen KiB each).
MOST_STREAMS = 10_000
RETRY_AFTER_SECONDS = 60

_lock = threading.Lock()  # a place is given back from the server's thread, not the loop's
_open: Counter[tuple[str, object]] = Counter()


def file_limit() -> int | None:
    """The soft limit of open files, where the system has one."""
    try:
        import resource
    except ImportError:  # not a Unix
        return None
    soft, _hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    return None if soft == resource.RLIM_INFINITY else int(soft)


def raise_file_limit(wanted: int = 65_536) -> tuple[int, int] | None:
    """The soft limit of open files raised towards ``wanted``, as far as the hard limit
    lets a process raise it by itself; (before, after), or None where there is none."""
    try:
        import resource
    except ImportError:
        return None
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
    if soft != resource.RLIM_INFINITY and soft < target:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
        except (ValueError, OSError):  # a system that says no: keep what there is
            return soft, soft
        return soft, target
    return soft, soft


def most_streams() -> int:
    """``STREAMS_MAX``, else what the open files allow (``RESERVED_FILES`` kept back)."""
    if settings.STREAMS_MAX:
        return int(settings.STREAMS_MAX)
    files = file_limit()
    if files is None:
        return MOST_STREAMS
    return max(0, min(MOST_STREAMS, files - RESERVED_FILES))


@dataclass
class Place:
    """One open stream's place in the counts, given back once."""

    held: tuple[tuple[str, object], ...]
    given_back: bool = field(default=False)

    def release(self) -> None:
        with _lock:
            if self.given_back:
                return
            self.given_back = True
            _open.subtract(self.held)
            for counted in self.held:
                if _open[counted] <= 0:
                    del _open[counted]


def refused(status: int) -> HttpResponse:
    """The refusal: no body (``EventSource`` reads none) and not a page (no middleware
    reads its account), and the connection closed after it, so that its file is free at
    once rather than after the keep-alive."""
    response = HttpResponse(status=status, content_type="text/plain")
    response["Retry-After"] = str(RETRY_AFTER_SECONDS)
    response["Connection"] = "close"
    return response


def admit(account: int | None, address: str | None) -> Place | HttpResponse:
    """A place for one more stream of this account (None: nobody's) from this address (a
    network), or the answer that refuses it."""
    held: list[tuple[str, object]] = [("all", None)]
    if account is not None:
        held.append(("account", account))
    if address is not None:
        held.append(("address", address))
    limits = {
        "all": most_streams(),
        "account": settings.STREAMS_PER_ACCOUNT,
        "address": settings.STREAMS_PER_ADDRESS,
    }
    with _lock:
        for counted in held:
            if _open[counted] >= limits[counted[0]]:
                return refused(503 if counted[0] == "all" else 429)
        _open.update(held)
    return Place(tuple(held))


def open_streams() -> int:
    """The streams this process holds now."""
    with _lock:
        return _open[("all", None)]
