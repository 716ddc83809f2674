"""What each convention option may hold (docs/protocol.md, "Convention options").

One object per kind of value both checks a value and says what it allows, in the words
of the option table's "values" column (``describe``): the table is tested against
:data:`conventions.OPTION_VALUES`, so the two cannot drift apart. A value outside what
an option allows raises :class:`ConventionError` naming the option, with the codes of
docs/protocol.md.
"""

from __future__ import annotations

from dataclasses import dataclass

from .errors import ConventionError

# At most this many steps in a ladder (``allpass_ladder``, ``exit_ladder``).
MAX_LADDER = 20


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _words(values: tuple[object, ...]) -> str:
    return ", ".join(f"`{value}`" for value in values)


@dataclass(frozen=True, slots=True)
class Choice:
    """One of a few words (``whist_style: greedy``) or whole numbers (``pulya_to_gora: 2``)."""

    values: tuple[str, ...] | tuple[int, ...]
    code: str = "option.choice"

    def check(self, name: str, value: object) -> None:
        """Refuse a value not among ``values`` (a bool is no number here)
        (docs/protocol.md, "Convention options")."""
        if isinstance(value, bool) or value not in self.values:
            if self.code == "option.choice":
                raise ConventionError(name, self.code, allowed=self.values, value=value)
            raise ConventionError(name, self.code, value=value)

    def describe(self) -> str:
        """What it allows, as docs/protocol.md's option table writes it ("values")."""
        return _words(self.values)


@dataclass(frozen=True, slots=True)
class Flag:
    """``true`` or ``false``."""

    def check(self, name: str, value: object) -> None:
        """Refuse anything but a JSON boolean
        (docs/protocol.md, "Convention options")."""
        if not isinstance(value, bool):
            raise ConventionError(name, "option.bool", value=value)

    def describe(self) -> str:
        """What it allows, as docs/protocol.md's option table writes it ("values")."""
        return "bool"


@dataclass(frozen=True, slots=True)
class Whole:
    """A whole number from ``low`` to ``high``; with ``optional``, also ``null``."""

    low: int
    high: int
    optional: bool = False

    def check(self, name: str, value: object) -> None:
        """Refuse a value outside ``low``–``high`` (``None`` only when optional)
        (docs/protocol.md, "Convention options")."""
        if value is None and self.optional:
            return
        if not _is_int(value) or not self.low <= value <= self.high:  # type: ignore[operator]
            raise ConventionError(
                name, "option.int_range", low=self.low, high=self.high, value=value
            )

    def describe(self) -> str:
        """What it allows, as docs/protocol.md's option table writes it ("values")."""
        return f"int {self.low}–{self.high}" + (" or null" if self.optional else "")


@dataclass(frozen=True, slots=True)
class Ladder:
    """A list of 1 to :data:`MAX_LADDER` whole numbers from ``low`` to ``high``."""

    low: int
    high: int

    def check(self, name: str, value: object) -> None:
        """Refuse an empty or too long list, or a step outside ``low``–``high``
        (docs/protocol.md, "Convention options")."""
        if (
            not isinstance(value, tuple)
            or not value
            or len(value) > MAX_LADDER
            or not all(_is_int(v) and self.low <= v <= self.high for v in value)
        ):
            raise ConventionError(name, "option.int_list", low=self.low, high=self.high)

    def describe(self) -> str:
        """What it allows, as docs/protocol.md's option table writes it ("values")."""
        return f"list of 1–{MAX_LADDER} ints {self.low}–{self.high}"


@dataclass(frozen=True, slots=True)
class Levels:
    """A list of contract levels among ``levels``, possibly empty (none at all)."""

    levels: tuple[int, ...]
    code: str
    distinct: bool = False

    def check(self, name: str, value: object) -> None:
        """Refuse a level outside ``levels`` (and one given twice, when ``distinct``)
        (docs/protocol.md, "Convention options")."""
        if (
            not isinstance(value, tuple)
            or not all(_is_int(v) and v in self.levels for v in value)
            or (self.distinct and len(set(value)) != len(value))
        ):
            raise ConventionError(name, self.code)

    def describe(self) -> str:
        """What it allows, as docs/protocol.md's option table writes it ("values")."""
        each = ", each once" if self.distinct else ""
        return f"list of levels among {_words(self.levels)}{each}; may be empty"


@dataclass(frozen=True, slots=True)
class Subset:
    """Some of ``values``, each at most once, possibly none."""

    values: tuple[str, ...]

    def check(self, name: str, value: object) -> None:
        """Refuse a word outside ``values``, or one given twice
        (docs/protocol.md, "Convention options")."""
        if not isinstance(value, tuple) or not all(v in self.values for v in value):
            raise ConventionError(name, "option.consolers")
        if len(set(value)) != len(value):
            raise ConventionError(name, "option.consolers_twice")

    def describe(self) -> str:
        """What it allows, as docs/protocol.md's option table writes it ("values")."""
        return f"list of {_words(self.values)}, each once; may be empty"


@dataclass(frozen=True, slots=True)
class Prices:
    """A price for each of ``keys``, whole numbers from 1 to ``high`` (docs/rules.md §2)."""

    keys: tuple[str, ...]
    high: int

    def check(self, name: str, value: object) -> None:
        """Refuse a value that is not one price per key, or a price outside 1–``high``
        (docs/protocol.md, "Convention options")."""
        if (
            not isinstance(value, tuple)
            or len(value) != len(self.keys)
            or not all(_is_int(v) for v in value)
        ):
            raise ConventionError(name, "option.prices_shape")
        if not all(0 < v <= self.high for v in value):
            raise ConventionError(name, "option.prices_range", low=1, high=self.high)

    def describe(self) -> str:
        """What it allows, as docs/protocol.md's option table writes it ("values")."""
        return f"map of {_words(self.keys)} → int 1–{self.high}"


Allowed = Choice | Flag | Whole | Ladder | Levels | Subset | Prices
