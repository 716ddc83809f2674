"""Pickling the engine's frozen, slotted dataclasses at C speed (docs/design.md, "How a
deal flows").

The web side keeps a pulka's fold in a shared cache (its deals' records, the sheet's
state, the convention), pickled on every deal and read back on the next. A dataclass
made with ``slots=True`` pickles through the ``__getstate__`` and ``__setstate__`` that
``dataclasses`` writes for it, which call ``dataclasses.fields()`` for every object:
for a 100-deal pulka that was half of the time its fold took to pickle and to read
back. These read and write the fields by a list of names made once per class.

The state is the tuple of the fields' values in their order, as ``dataclasses``' own
(a list) is: each reads the other's.
"""

from __future__ import annotations

import dataclasses
import operator
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

C = TypeVar("C", bound=type)


def compact_pickle(cls: C) -> C:
    """``cls`` (a dataclass with ``slots=True``) with a ``__getstate__`` that reads its
    fields with one ``attrgetter`` and a ``__setstate__`` that sets them by name.

    Put it above ``@dataclass(...)``: ``slots=True`` makes a new class, and this must
    change that one. A subclass needs it too (``ManualDeal``): a slotted one gets
    ``dataclasses``' own methods, and one without slots would inherit these, which know
    only its parent's fields.
    """
    if not dataclasses.is_dataclass(cls) or "__slots__" not in cls.__dict__:
        raise TypeError(f"{cls.__qualname__} is not a dataclass with slots")
    names = tuple(field.name for field in dataclasses.fields(cls))
    read = operator.attrgetter(*names)
    put = object.__setattr__  # a frozen dataclass refuses its own __setattr__

    if len(names) == 1:

        def getstate(self: Any) -> tuple[Any, ...]:
            return (read(self),)

    else:

        def getstate(self: Any) -> tuple[Any, ...]:
            values: tuple[Any, ...] = read(self)
            return values

    def setstate(self: Any, state: Sequence[Any]) -> None:
        for name, value in zip(names, state, strict=True):
            put(self, name, value)

    setattr(cls, "__getstate__", getstate)  # noqa: B010 (mypy refuses a method assigned)
    setattr(cls, "__setstate__", setstate)  # noqa: B010
    return cls


def slot_setters(cls: type) -> tuple[Callable[[Any, Any], None], ...]:
    """The ``__set__`` of each field's slot of ``cls`` (a frozen dataclass with slots), in
    the fields' order, for an ``__init__`` written out by hand (docs/design.md, "How a
    deal flows": the fold's hot path).

    A frozen dataclass's generated ``__init__`` sets each field through
    ``object.__setattr__(self, name, value)``, which looks the slot up by its name every
    time: for the objects the fold makes for every deal that is most of their cost. The
    object stays as frozen as before (its own ``__setattr__`` still refuses).
    """
    return tuple(cls.__dict__[field.name].__set__ for field in dataclasses.fields(cls))
