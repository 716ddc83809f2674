"""A viewer's class: what his table screen shows beyond the version and the language.

Every device of a table asks for the whole screen after each deal, and most of them
may do the same things on it: the same buttons, the same banners, the same panels. So
the screen's body (the page's content, or the poll's regions) is rendered once per
(pulka, version, language, viewer class) and shared (issue 16). The class is a digest
of every value of the screen's context that the version and the language do not
settle already: what the viewer may do (the newest lines' and older lines' keys, the
forgotten deal's and the abandon panel's buttons, the manual entry's link), the pencil
and its time, the join panel's links. Never the user himself: two viewers who may do the
same share a body; one who may do something else gets his own. What differs on every
request (the CSRF token, the poll's ticket, the user name in the page's head) stays
outside the shared body or is put in on each request.

The digest is made from plain values only (strings, numbers, dates, tuples, and
dataclasses of them): a value of any other type (a model instance, a form) makes the
screen unshareable, so that no object whose ``repr`` is its address, or that hides what
it shows, ever keys a shared body. Adding a context value to the screen adds it here
without a change: it is digested, or it turns the sharing off, never silently ignored.
"""

from __future__ import annotations

import dataclasses
import hashlib
import operator
from collections.abc import Callable, Mapping
from datetime import date, datetime, time
from functools import lru_cache
from typing import Any

from django.http import HttpRequest
from django.utils.functional import Promise

from .. import render_cache
from ..models import Deal, Pulka

# Context values that the version and the language settle, through the pulka's key
# (its status, names, target, convention, title) or through a key of their own that is
# digested instead (``*_key``): the drawn sheet, the protocol's lines, the empty entry
# form. ``seating`` is read by the join panel only, which is digested itself.
SETTLED = frozenset(
    {
        "pulka",
        "convention",
        "names",
        "finished",
        "deal_count",
        "status_target",
        "status_deals",
        "drawn",
        "sheet_figures",
        "sheet_scope",
        "balance",
        "manual_notes",
        "cache_seconds",
        "protocol_head",
        "protocol_hidden",
        "protocol_line_key",
        "entry_number",
        "seating",
    }
)
# Put in on every request (the poll's ticket is the device's own).
PER_REQUEST = frozenset({"poll_url", "page_key", "regions_key"})
# The newest deal's lines, and what only they show (the pencil and its time): put in a
# shared body on every request, when they have a key of their own.
VIEWER_HEAD = frozenset({"protocol_head_key", "pencil", "pencil_until"})


class Unshareable(Exception):
    """A context value the digest cannot read as plain data: render for this viewer."""


def plain(value: Any) -> Any:
    """``value`` as plain, comparable data, or :class:`Unshareable`."""
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if isinstance(value, Promise):
        return str(value)
    if isinstance(value, (datetime, date, time)):
        return value.isoformat()
    if isinstance(value, (tuple, list)):
        return tuple(plain(item) for item in value)
    if isinstance(value, (set, frozenset)):
        return tuple(sorted(repr(plain(item)) for item in value))
    if isinstance(value, Mapping):
        return tuple(sorted((str(k), plain(v)) for k, v in value.items()))
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        fields = tuple((f.name, plain(getattr(value, f.name))) for f in dataclasses.fields(value))
        return (type(value).__qualname__, fields)
    raise Unshareable(type(value).__qualname__)


_FLAT = (str, int, bool, type(None))


@lru_cache(maxsize=64)
def _fields_of(cls: type) -> Callable[[Any], tuple[Any, ...]] | None:
    """A dataclass's values at C speed (``attrgetter``), or None for any other type."""
    if not dataclasses.is_dataclass(cls):
        return None
    names = [f.name for f in dataclasses.fields(cls)]
    get = operator.attrgetter(*names)
    return (lambda item: (get(item),)) if len(names) == 1 else get


def _flat(value: Any) -> bool:
    """Strings, numbers, flags, and tuples, string-keyed dicts and dataclasses of them
    only: their ``repr`` is their value, never an object's address."""
    kind: type = type(value)
    if kind in _FLAT:
        return True
    if kind is tuple:
        parts: Any = value
    elif kind is dict:
        if not all(type(k) is str for k in value):
            return False
        parts = value.values()
    else:
        fields = _fields_of(kind)
        if fields is None:
            return False
        parts = fields(value)
    for part in parts:  # a loop, not all(): a line's fields are mostly strings
        if type(part) not in _FLAT and not _flat(part):
            return False
    return True


def shown_digest(item: Any) -> str:
    """What one item shows, as a digest of its plain values (``Unshareable`` if not plain).

    A dataclass of flat values (a protocol line, an entry form) is digested by its
    ``repr``, the dataclasses' own, made at C speed: the general ``plain`` took longer
    than rendering a line from the cache saves. The two paths are tagged, so that their
    texts never meet."""
    shown = ("flat", repr(item)) if _flat(item) else ("plain", plain(item))
    return hashlib.blake2b(repr(shown).encode(), digest_size=16).hexdigest()


def _shown(context: Mapping[str, Any]) -> list[tuple[str, Any]]:
    """Every context value the screen shows beyond the version and the language."""
    if context.get("entry") is not None and not context.get("entry_key"):
        raise Unshareable("a form of this viewer's own")  # typed values, a change, a proposal
    if context.get("protocol_tail") is not None and not context.get("protocol_tail_key"):
        raise Unshareable("older lines of this viewer's own")
    # The newest deal's lines go into a shared body on each request (viewer_part,
    # render_cache.viewer_head), named by their own key: the pencil's holder and the
    # other players share the rest.
    own_head = VIEWER_HEAD if context.get("protocol_head_key") else frozenset()
    shown = []
    for name in sorted(context):
        if name in SETTLED or name in PER_REQUEST or name in own_head:
            continue
        value = context[name]
        if name == "entry" and value is not None:
            continue  # the shared empty form, named by entry_key
        if name == "protocol_tail":
            continue  # named by protocol_tail_key
        if name == "pencil":
            value = _pencil(value)
        shown.append((name, plain(value)))
    return shown


def _pencil(deal: Deal | None) -> Any:
    """The pencil's deal, as what the screen shows of it."""
    if deal is None:
        return None
    return (deal.number, deal.entered_by_id, deal.entered_at.isoformat())


def key(pulka: Pulka, part: str, context: Mapping[str, Any]) -> str:
    """The cache key of the screen's ``part`` for every viewer who would see what this
    context shows, or "" when it holds something of this viewer's own."""
    try:
        shown = _shown(context)
    except Unshareable:
        return ""
    digest = hashlib.blake2b(repr(shown).encode(), digest_size=16).hexdigest()
    return render_cache.key(pulka, part, digest)


def page_key(request: HttpRequest, pulka: Pulka, context: Mapping[str, Any]) -> str:
    """The whole page's body: only for the plain address (no ``?change``, ``?propose``,
    ``?protocol``, ``?links``, whose pages are one viewer's own or rare)."""
    if request.GET:
        return ""
    return key(pulka, "page", context)


__all__ = ["PER_REQUEST", "SETTLED", "Unshareable", "key", "page_key", "plain", "shown_digest"]
