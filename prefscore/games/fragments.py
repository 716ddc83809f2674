"""Rendered pieces of the drawn sheet kept by their content, in each worker (issue 16).

A new version of a pulka changes a few of its sheet's fields (the declarer's pulya, the
whisters' whists) and one balance row; every other field, and the balance rows of the
earlier deals, render to the same markup as in the version before. So each such piece
is kept under everything it shows (its plain values: the presenters' frozen dataclasses
of strings and tuples, compared by content) with the pulka's identity and the language
(``scope``), never the version, and a new version renders only the pieces a deal
changed.

A key is the content itself, never a version, so an entry is never stale, and a
worker's own memory is the right place for it: no pickling, no digest (the values are
hashed and, on a hit, compared whole, so two pieces never share an entry by a
collision), no round trip to Redis for each of twenty fields. It is bounded in entries
and in characters of markup, the least recently used going first.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Hashable
from threading import Lock

from django.utils.translation import get_language

from .models import Pulka
from .render_cache import SCHEMA, identity

# A sheet of three keeps 12 pieces (4 K characters) at 10 deals, 16 (14 K) at 100: these
# bounds hold the current pieces of about 500 tables, whose keys take about as much again.
MAX_ENTRIES = 10000
MAX_CHARACTERS = 8 * 1024 * 1024


class FragmentStore:
    """A bounded least-recently-used map of content keys to rendered markup."""

    def __init__(
        self, max_entries: int = MAX_ENTRIES, max_characters: int = MAX_CHARACTERS
    ) -> None:
        self.max_entries, self.max_characters = max_entries, max_characters
        self._entries: OrderedDict[Hashable, str] = OrderedDict()
        self._size = 0
        self._lock = Lock()

    def get(self, key: Hashable) -> str | None:
        with self._lock:
            found = self._entries.get(key)
            if found is not None:
                self._entries.move_to_end(key)
            return found

    def put(self, key: Hashable, markup: str) -> None:
        with self._lock:
            old = self._entries.pop(key, None)
            if old is not None:
                self._size -= len(old)
            self._entries[key] = markup
            self._size += len(markup)
            while len(self._entries) > 1 and (
                len(self._entries) > self.max_entries or self._size > self.max_characters
            ):
                _oldest, dropped = self._entries.popitem(last=False)
                self._size -= len(dropped)

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()
            self._size = 0

    @property
    def size(self) -> int:
        """The characters held now."""
        return self._size

    def __len__(self) -> int:
        return len(self._entries)


store = FragmentStore()


def scope(pulka: Pulka) -> str:
    """The pulka's identity (id and creation, never its version) and the page's language:
    the part of every key that the pieces' values do not say (the language of the
    words around them, which pulka: a piece is never shown on another pulka's sheet)."""
    return f"{SCHEMA}.{identity(pulka)}.{get_language() or ''}"


__all__ = ["MAX_CHARACTERS", "MAX_ENTRIES", "FragmentStore", "scope", "store"]
