"""Conventions as people read them: option values in words, game values as whists.

Templates compute nothing: every figure and every word a convention page shows is
prepared here, from the engine (scoring.engine.values) and the model's field labels.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction
from typing import Any

from django.db.models import Field
from django.utils.formats import number_format
from django.utils.functional import Promise
from django.utils.text import capfirst
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _

from scoring.engine.conventions import OPTION_NAMES
from scoring.engine.conventions import Convention as EngineConvention
from scoring.engine.numbers import Points
from scoring.engine.values import game_values

from .choices import ConcedeLevel
from .models import OPTION_TOPICS, PRESET_SLUGS, Consoler, Convention, HalfWhistLevel
from .models import option_fields as fields_of_option

# The table sizes whose game values the pages show (docs/rules.md §6.6 quotes 3 and 4).
TABLE_SIZES = (3, 4)
MINUS = "\u2212"

GAME_LABELS: dict[str, Promise] = {
    "6_made": _("Six made"),
    "6_down_1": _("Six, one down"),
    "7_made": _("Seven made"),
    "7_down_1": _("Seven, one down"),
    "8_made": _("Eight made"),
    "8_down_1": _("Eight, one down"),
    "9_made": _("Nine made"),
    "9_down_1": _("Nine, one down"),
    "10_made": _("Ten made"),
    "10_down_1": _("Ten, one down"),
    "misere_made": _("Misère made"),
    "misere_caught_1": _("Misère caught with one trick"),
    "allpass_trick": _("One all-pass trick"),
}

# The heading of the options no topic of OPTION_TOPICS places yet (option_topics).
OTHER_OPTIONS = _("Other options")

_NONE_TEXT: dict[str, Promise] = {
    "deal_limit": _("none (played by time)"),
    "allpass_max_run": _("no limit"),
}


def whists_text(value: Points) -> str:
    """Whists with two decimals in the reader's notation, a true minus sign for losses."""
    fraction = Fraction(value)
    exact = Decimal(fraction.numerator) / Decimal(fraction.denominator)
    rounded = exact.quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)
    text = number_format(abs(rounded), 2)
    return f"{MINUS}{text}" if rounded < 0 else text


def option_text(field: str, value: Any) -> str:
    """One option field's value in words, in the reader's language."""
    if value is None:
        return str(_NONE_TEXT.get(field, "—"))
    if isinstance(value, bool):
        return gettext("yes") if value else gettext("no")
    if field == "consolation":
        labels = dict(Consoler.choices)
        return ", ".join(str(labels[v]) for v in value) or gettext("nobody")
    if field == "half_whist_levels":
        level_labels = dict(HalfWhistLevel.choices)
        return ", ".join(str(level_labels[v]) for v in value) or gettext("never")
    if field == "concede_levels":
        level_labels = dict(ConcedeLevel.choices)
        return ", ".join(str(level_labels[v]) for v in value) or gettext("never")
    if isinstance(value, list | tuple):
        return ", ".join(str(v) for v in value)
    if not is_model_field(field):  # an engine option the model does not hold yet
        return str(value)
    choices = dict(convention_field(field).flatchoices)
    return str(choices.get(value, value))


def is_model_field(name: str) -> bool:
    """Whether Convention has a field of that name (a new engine option may not yet)."""
    return any(f.name == name and isinstance(f, Field) for f in Convention._meta.get_fields())


def convention_field(name: str) -> Field[Any, Any]:
    """One of Convention's own option fields (get_field may also give a reverse relation)."""
    field = Convention._meta.get_field(name)
    if not isinstance(field, Field):
        raise TypeError(f"{name!r} is a relation of Convention, not one of its fields")
    return field


def field_label(field: str) -> str:
    if not is_model_field(field):
        return field
    return capfirst(str(convention_field(field).verbose_name))


def option_topics() -> list[tuple[str, list[str]]]:
    """Every option's fields by topic, as the pages show them.

    The topics of OPTION_TOPICS first; then, under "Other options", every option of the
    engine's OPTION_NAMES that no topic places yet: a new option is on the compare page
    and the convention page the day the engine has it, wherever it is later put.
    """
    placed = {option for _title, options in OPTION_TOPICS for option in options}
    topics = [
        (str(title), [field for option in options for field in fields_of_option(option)])
        for title, options in OPTION_TOPICS
    ]
    others = [
        field for name in OPTION_NAMES if name not in placed for field in fields_of_option(name)
    ]
    return topics + ([(str(OTHER_OPTIONS), others)] if others else [])


def field_values(conv: EngineConvention) -> dict[str, Any]:
    """Every option field's value, as the engine normalises it (consoler order etc.).

    The model's value where it has the field, else the engine's own (docs/protocol.md).
    """
    model, options = Convention.from_engine(conv), conv.to_options()
    return {
        field: getattr(model, field) if is_model_field(field) else options[field]
        for _title, fields in option_topics()
        for field in fields
    }


@dataclass(frozen=True, slots=True)
class Row:
    """One line of a table: a label and a cell per column; ``differs`` marks a difference."""

    label: str
    cells: tuple[str, ...]
    differs: bool = False
    key: str = ""


@dataclass(frozen=True, slots=True)
class Section:
    title: str
    rows: tuple[Row, ...]


def option_sections(*conventions: EngineConvention) -> list[Section]:
    """Every option by topic, one column per convention, differences marked."""
    values = [field_values(conv) for conv in conventions]
    sections = []
    for title, fields in option_topics():
        rows = tuple(
            Row(
                label=field_label(field),
                cells=tuple(option_text(field, v[field]) for v in values),
                differs=len({repr(v[field]) for v in values}) > 1,
                key=field,
            )
            for field in fields
        )
        sections.append(Section(str(title), rows))
    return sections


def value_rows(conv: EngineConvention) -> list[Row]:
    """The game values (docs/rules.md §6.6) with one column per table size."""
    by_size = [game_values(conv, size) for size in TABLE_SIZES]
    return [
        Row(
            label=str(GAME_LABELS[entries[0].key]),
            cells=tuple(whists_text(entry.whists) for entry in entries),
            key=entries[0].key,
        )
        for entries in zip(*by_size, strict=True)
    ]


def value_sections(a: EngineConvention, b: EngineConvention) -> list[Section]:
    """Two conventions' game values side by side, one table per table size."""
    sections = []
    for size in TABLE_SIZES:
        rows = tuple(
            Row(
                label=str(GAME_LABELS[first.key]),
                cells=(whists_text(first.whists), whists_text(second.whists)),
                differs=first.whists != second.whists,
                key=first.key,
            )
            for first, second in zip(game_values(a, size), game_values(b, size), strict=True)
        )
        title = ngettext("%(count)s player", "%(count)s players", size) % {"count": size}
        sections.append(Section(title, rows))
    return sections


def size_labels() -> list[str]:
    """Column headings for :data:`TABLE_SIZES`."""
    return [
        ngettext("%(count)s player", "%(count)s players", size) % {"count": size}
        for size in TABLE_SIZES
    ]


@dataclass(frozen=True, slots=True)
class Item:
    convention: Convention
    summary: str


@dataclass(frozen=True, slots=True)
class Group:
    title: str
    items: tuple[Item, ...]


def summary(convention: Convention) -> str:
    """A line that tells conventions apart at a glance: whist, all-pass, end."""
    return " · ".join(
        f"{field_label(field)}: {option_text(field, getattr(convention, field))}"
        for field in ("whist_style", "allpass_scoring", "end")
    )


def _items(conventions: Iterable[Convention]) -> tuple[Item, ...]:
    return tuple(Item(convention, summary(convention)) for convention in conventions)


def convention_groups(conventions: Iterable[Convention]) -> list[Group]:
    """Presets (in docs/protocol.md's order) and shared conventions, then each club's own."""
    order = {slug: index for index, slug in enumerate(PRESET_SLUGS)}
    shared: list[Convention] = []
    clubs: dict[int, list[Convention]] = {}
    for convention in conventions:
        if convention.owner is None:
            shared.append(convention)
        else:
            clubs.setdefault(convention.owner.pk, []).append(convention)
    shared.sort(key=lambda c: (order.get(c.slug, len(order)), c.name))
    groups = [Group(gettext("Presets"), _items(shared))] if shared else []
    by_club = sorted(clubs.values(), key=lambda items: items[0].owner.name.casefold())  # type: ignore[union-attr]
    groups += [
        Group(items[0].owner.name, _items(sorted(items, key=lambda c: c.name.casefold())))  # type: ignore[union-attr]
        for items in by_club
    ]
    return groups
