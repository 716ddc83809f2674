"""Faster constructors for the frozen dataclasses the fold builds for every deal.

A frozen dataclass's generated ``__init__`` sets each field through
``object.__setattr__(self, name, value)``, which looks the slot up by name every
time. The fold builds several such objects per deal (entries, outcomes, states,
records), so :func:`fast_init` replaces that ``__init__`` with one that calls each
slot's descriptor directly. Fields, defaults, equality, hashing and immutability are
the dataclass's own; only the constructor's inner workings change.
"""

from __future__ import annotations

import dataclasses
from typing import Any, TypeVar

T = TypeVar("T")

_MISSING = object()


def fast_init(cls: type[T]) -> type[T]:
    """Give a frozen, slotted dataclass an ``__init__`` that sets its slots directly.

    Only for classes without ``__post_init__`` or init-only fields; the signature
    (names, order, defaults) stays the dataclass's.
    """
    if not dataclasses.is_dataclass(cls) or "__slots__" not in cls.__dict__:
        raise TypeError(f"{cls.__name__} must be a slotted dataclass")
    if hasattr(cls, "__post_init__"):
        raise TypeError(f"{cls.__name__} has __post_init__: keep its generated __init__")
    namespace: dict[str, Any] = {"_MISSING": _MISSING}
    params: list[str] = []
    body: list[str] = []
    for field in dataclasses.fields(cls):
        name = field.name
        namespace[f"_set_{name}"] = getattr(cls, name).__set__
        if field.default is not dataclasses.MISSING:
            namespace[f"_default_{name}"] = field.default
            params.append(f"{name}=_default_{name}")
        elif field.default_factory is not dataclasses.MISSING:
            namespace[f"_factory_{name}"] = field.default_factory
            params.append(f"{name}=_MISSING")
            body.append(f"if {name} is _MISSING: {name} = _factory_{name}()")
        else:
            params.append(name)
        body.append(f"_set_{name}(self, {name})")
    source = f"def __init__(self, {', '.join(params)}):\n" + "".join(
        f"    {line}\n" for line in body
    )
    exec(source, namespace)  # the way dataclasses builds its own __init__
    init = namespace["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    init.__doc__ = cls.__init__.__doc__
    setattr(cls, "__init__", init)  # noqa: B010 - mypy refuses assigning to a method
    return cls
