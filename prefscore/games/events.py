"""A pulka changed: who is told. The layers above, by Django signals (below), and every
open table page, by the event streams of every process (docs/push.md).

The signals tell the layers above, without importing them (docs/design.md layers).

``sheet_settled`` is sent, once the transaction commits, whenever a pulka's settled
figures may have changed: it finished, a finished pulka was corrected or changed, it
was reopened by an undo, abandoned or imported. Receivers (the statistics) re-read
the pulka; the signal carries only its id.

``sheet_settling`` is sent at once, inside the transaction that settles the sheet, with
the same ``pulka_id``: a receiver that defers its work records it there, so that the
record commits, or rolls back, with the change (the statistics' recount, ``stats.recounts``).

``sheets_settled`` says the same of many pulkas at once (``pulka_ids``): a tournament
import sends it once rather than ``sheet_settled`` per table.

``sheet_changed`` is sent, once the transaction commits, after every change of a
pulka's figures, running or finished: a deal recorded, changed or undone, a correction,
a manual line, an import. It carries the pulka's id and its ``tournament_id`` (None for
a club game), so that a receiver that keeps only tournament tables (the tournament's
stored table results) skips every other pulka without a query.

Each table page keeps one Server-Sent Events stream open (``streams.py``); the
stream says only "the version is now N", and the page then asks the ordinary poll for
the regions, so permissions, tickets and the render cache stay in the ordinary views.

How a change reaches the streams of one events process (a ``ChangeHub`` per event loop):

- **PostgreSQL**: every change of a pulka's version calls :func:`announce` inside its
  transaction, which sends ``NOTIFY prefscore_pulka, '<id>'``. PostgreSQL delivers it when
  the transaction commits, and never if it rolls back. Each events process holds one
  connection that ``LISTEN``s, straight to PostgreSQL (a transaction-pooling proxy
  drops a session's ``LISTEN``).
- **SQLite** (and any other database): one watcher per process reads the versions of the
  pulkas its streams show, a few times a second, in one query; :func:`announce` does
  nothing.

A stream woken by either re-reads the version through its own permission check, so a
member removed from the club, or a revoked spectator link, hears nothing more.

Besides the pulkas (int keys), a higher layer may add keys of its own, named
``"<kind>:<id>"`` (a tournament's round state: ``tournaments/events.py``): it
announces them as a pulka's, and registers a reader for the watcher (:func:`register`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
import time
import weakref
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

from django.conf import settings
from django.db import connection, connections, transaction
from django.dispatch import Signal

sheet_settled = Signal()
# Sent inside the settling transaction (``settled``), before ``sheet_settled`` after it.
sheet_settling = Signal()
sheet_changed = Signal()
# ``sheet_settled`` for many pulkas at once (a tournament import): ``pulka_ids``.
sheets_settled = Signal()
# Sent, once the transaction commits, after any change to a tournament table's sheet
# (a deal recorded, changed or undone): the tournament's clock may close it then
# (docs/tournaments.md §4.9, "after the deal in play").
table_changed = Signal()


def settled(pulka_id: int) -> None:
    """Send ``sheet_settling`` for the pulka now, and ``sheet_settled`` after the current
    transaction commits."""
    sheet_settling.send(sender=None, pulka_id=pulka_id)
    transaction.on_commit(lambda: sheet_settled.send(sender=None, pulka_id=pulka_id))


def changed(pulka_id: int, tournament_id: int | None) -> None:
    """Send ``sheet_changed`` for the pulka after the current transaction commits."""
    transaction.on_commit(
        lambda: sheet_changed.send(sender=None, pulka_id=pulka_id, tournament_id=tournament_id)
    )


def settled_many(pulka_ids: list[int]) -> None:
    """Send ``sheets_settled`` for these pulkas after the current transaction commits.

    One signal for a whole import, so that a receiver reads and writes them in bulk.
    """
    ids = list(pulka_ids)
    if ids:
        transaction.on_commit(lambda: sheets_settled.send(sender=None, pulka_ids=ids))


def table_change(pulka_id: int) -> None:
    """Send ``table_changed`` for the tournament table after the current transaction commits."""
    transaction.on_commit(lambda: table_changed.send(sender=None, pulka_id=pulka_id))


# --- the event streams: announcing a change, watching for it ---------------------------

logger = logging.getLogger(__name__)
T = TypeVar("T")
# What a stream watches: a pulka's id, or a higher layer's "<kind>:<id>" (register()).
Key = int | str

CHANNEL = "prefscore_pulka"
# How often the SQLite watcher reads the versions: a deal reaches the other phones within
# this, plus a poll (bench/push.py).
WATCH_SECONDS = 0.2
# The PostgreSQL listener's wait before connecting again after it lost its connection.
RECONNECT_SECONDS = 2.0


def announce(key: Key) -> None:
    """Say that ``key`` (a pulka's id) changed, from inside the transaction that changed it.

    On PostgreSQL a ``NOTIFY``, delivered at commit; elsewhere nothing (the watcher reads
    the versions). Called wherever a pulka's ``version`` is written.
    """
    if connection.vendor != "postgresql":
        return
    payload = str(int(key)) if isinstance(key, int) else key
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_notify(%s, %s)", [CHANNEL, payload])


# The readers of the keys that are not a pulka's, by kind: the ids named after the kind's
# colon (text) -> a value per id that changes with the thing; an id left out reads None.
Reader = Callable[[list[str]], dict[str, object]]
_readers: dict[str, Reader] = {}


def register(kind: str, read: Reader, seconds: float | None = None) -> None:
    """Let streams watch ``"<kind>:<id>"``: ``read`` gives the watcher (SQLite) a value per
    id that changes whenever the thing does; on PostgreSQL the layer announces the key.
    ``seconds``: read every id only this often (an id new to the watcher at once), for a
    kind that need not be heard as soon as a deal."""
    _readers[kind] = read if seconds is None else Every(read, seconds)


class Every:
    """A reader whose ids are read again at most every ``seconds``; an id it has not read
    yet is read at once. Called by the watcher's one thread only."""

    def __init__(self, read: Reader, seconds: float) -> None:
        self.read = read
        self.seconds = seconds
        self.at = float("-inf")
        self.known: dict[str, object] = {}

    def __call__(self, names: list[str]) -> dict[str, object]:
        now = time.monotonic()
        if now - self.at >= self.seconds:
            found = self.read(names)
            self.known = {name: found.get(name) for name in names}
            self.at = now
        else:
            new = [name for name in names if name not in self.known]
            if new:
                found = self.read(new)
                self.known.update({name: found.get(name) for name in new})
        return {name: self.known[name] for name in names if self.known[name] is not None}


class ChangeHub:
    """The streams of one event loop, by pulka, and the feed that wakes them."""

    def __init__(self) -> None:
        self.waiters: dict[Key, set[asyncio.Event]] = {}
        self.feed: asyncio.Task[None] | None = None
        # Set once the feed hears every change: the watcher has read the keys once, or
        # the listener is listening (tests wait for it; a stream need not).
        self.hearing = asyncio.Event()
        # Set when the server stops: every stream ends at once (``close``).
        self.closing = False

    @contextlib.contextmanager
    def watching(self, pulka_id: Key) -> Iterator[asyncio.Event]:
        """An event set whenever ``pulka_id`` may have changed, while the block runs.

        Taken before the stream reads its first version, so that no change falls between.
        """
        woken = asyncio.Event()
        self.add(pulka_id, woken)
        try:
            yield woken
        finally:
            self.discard(pulka_id, woken)

    def add(self, key: Key, woken: asyncio.Event) -> None:
        """Set ``woken`` whenever ``key`` may have changed (one event may serve many keys)."""
        self.waiters.setdefault(key, set()).add(woken)
        self._start_feed()

    def discard(self, key: Key, woken: asyncio.Event) -> None:
        found = self.waiters.get(key)
        if found is not None:
            found.discard(woken)
            if not found:
                del self.waiters[key]

    def wake(self, pulka_id: Key) -> None:
        for woken in self.waiters.get(pulka_id, ()):
            woken.set()

    def wake_all(self) -> None:
        for pulka_id in list(self.waiters):
            self.wake(pulka_id)

    def close(self) -> None:
        """The server stops: every stream of this loop ends now, as at its time limit, and
        its browser connects again (to the next start). Without it a stop would wait for
        the streams, then cancel them mid-flight with a traceback each."""
        self.closing = True
        self.wake_all()

    def streams(self) -> int:
        """The streams watching anything (one stream may watch many keys)."""
        return len(set().union(*self.waiters.values()))

    async def stop(self) -> None:
        """End the feed now (its PostgreSQL connection with it), as at a shutdown."""
        if self.feed is not None and not self.feed.done():
            self.feed.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.feed

    def _start_feed(self) -> None:
        if self.feed is None or self.feed.done():
            self.hearing.clear()
            run = listen_postgresql if connections["default"].vendor == "postgresql" else watch
            self.feed = asyncio.get_running_loop().create_task(run(self))


_hubs: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, ChangeHub] = weakref.WeakKeyDictionary()


def hub() -> ChangeHub:
    """The hub of the running event loop: one per events process (uvicorn runs one loop)."""
    loop = asyncio.get_running_loop()
    found = _hubs.get(loop)
    if found is None:
        found = _hubs[loop] = ChangeHub()
    return found


# --- SQLite: one watcher per process ----------------------------------------------------

# One thread, so one database connection, for the watcher's reads; a few for the streams'
# permission checks, whose connections every stream of the process shares.
_reader = ThreadPoolExecutor(max_workers=1, thread_name_prefix="prefscore-changes")
CHECK_THREADS = max(1, settings.STREAM_CHECK_THREADS)
_checks = ThreadPoolExecutor(max_workers=CHECK_THREADS, thread_name_prefix="prefscore-checks")


async def in_check_thread(function: Callable[..., T], *args: Any) -> T:
    """``function(*args)`` in one of the checks' threads (a stream's permission check)."""
    return await asyncio.get_running_loop().run_in_executor(_checks, function, *args)


def release_connections() -> None:
    """Close the database connections of the watcher's and the checks' threads (a test's
    end: its database is dropped). Each thread takes one task: they wait for each other."""
    for executor, count in ((_reader, 1), (_checks, CHECK_THREADS)):
        barrier = threading.Barrier(count)

        def close(barrier: threading.Barrier = barrier) -> None:
            barrier.wait(timeout=10)
            connections.close_all()

        for future in [executor.submit(close) for _ in range(count)]:
            future.result(timeout=15)


def read_versions(keys: list[Key]) -> dict[Key, object]:
    """The versions of these pulkas, in one query, and of the other keys, one query per
    kind by its registered reader (the watcher's thread)."""
    from .models import Pulka  # the models load after the apps, this module before

    pulka_ids = [key for key in keys if isinstance(key, int)]
    rows = Pulka.objects.filter(pk__in=pulka_ids).values_list("pk", "version")
    found: dict[Key, object] = {int(pk): int(version) for pk, version in rows}
    by_kind: dict[str, list[str]] = {}
    for key in keys:
        if isinstance(key, str):
            kind, _sep, name = key.partition(":")
            if kind in _readers and name:
                by_kind.setdefault(kind, []).append(name)
    for kind, names in by_kind.items():
        found.update({f"{kind}:{name}": value for name, value in _readers[kind](names).items()})
    return found


async def watch(
    hub: ChangeHub, read: Callable[[list[Key]], dict[Key, object]] = read_versions
) -> None:
    """Read the watched pulkas' versions every ``WATCH_SECONDS``; wake the streams of those
    that changed, and of those read for the first time (they may have changed between
    the stream's first read and this one). Ends when no stream is left."""
    loop = asyncio.get_running_loop()
    known: dict[Key, object] = {}
    while hub.waiters:
        watched = list(hub.waiters)
        try:
            versions = await loop.run_in_executor(_reader, read, watched)
            hub.hearing.set()
        except Exception:  # a locked or lost database: the streams' own polls go on
            logger.exception("reading the pulkas' versions failed")
            versions = known
        for pulka_id in watched:
            version = versions.get(pulka_id)
            if pulka_id not in known or known[pulka_id] != version:
                hub.wake(pulka_id)
        known = {key: version for key, version in versions.items() if key in hub.waiters}
        await asyncio.sleep(WATCH_SECONDS)


# --- PostgreSQL: one LISTEN connection per process --------------------------------------


def _listen_dsn() -> dict[str, Any]:
    """Where the listener connects: the default database's own settings."""
    return dict(connections["default"].get_connection_params())


async def listen_postgresql(hub: ChangeHub) -> None:
    """``LISTEN prefscore_pulka`` on one connection of its own, waking the streams of each
    pulka named; every (re)connection wakes all of them, as a change may have come while
    nobody listened. Ends when no stream is left."""
    import psycopg

    while hub.waiters:
        try:
            params = _listen_dsn()
            params.pop("cursor_factory", None)
            params.pop("context", None)
            async with await psycopg.AsyncConnection.connect(**params, autocommit=True) as conn:
                await conn.execute(f"LISTEN {CHANNEL}")
                hub.wake_all()
                hub.hearing.set()
                await _dispatch(hub, conn)
                return
        except Exception:
            logger.exception("the change listener lost PostgreSQL; connecting again")
            hub.hearing.clear()
            await asyncio.sleep(RECONNECT_SECONDS)


async def _dispatch(hub: ChangeHub, conn: Any) -> None:
    """Wake by each notification; stop once no stream is left (checked every second)."""
    while hub.waiters:
        async for notice in conn.notifies(timeout=1.0):
            payload = notice.payload
            hub.wake(int(payload) if payload.isdigit() else payload)
