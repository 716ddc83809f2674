"""The tournament file's fields, read and checked one at a time (docs/tournaments.md §6.4).

Every refusal is an :class:`ImportRefused` that names the place in the file, in the
reader's language; ``imports`` and ``file_extras`` read their models with these.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext as _


class ImportRefused(ValueError):
    """A tournament file that cannot be imported; the message says where and why."""


def refuse(place: str, problem: str) -> ImportRefused:
    return ImportRefused(_("%(place)s: %(problem)s") % {"place": place, "problem": problem})


def as_object(value: Any, place: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise refuse(place, _("must be an object ({…})."))
    return value


def as_list(value: Any, place: str, most: int) -> list[Any]:
    if not isinstance(value, list):
        raise refuse(place, _("must be a list ([…])."))
    if len(value) > most:
        raise refuse(place, _("at most %(count)s items.") % {"count": most})
    return value


def whole(data: Mapping[str, Any], key: str, place: str, low: int, high: int) -> int:
    value = data.get(key)
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise refuse(
            f"{place} → {key}",
            _("must be a whole number from %(low)s to %(high)s.") % {"low": low, "high": high},
        )
    return value


def text(data: Mapping[str, Any], key: str, place: str, longest: int, blank: bool = False) -> str:
    value = data.get(key, "" if blank else None)
    if not isinstance(value, str) or (not blank and not value.strip()) or len(value) > longest:
        raise refuse(
            f"{place} → {key}",
            _("must be text of at most %(count)s characters.") % {"count": longest},
        )
    return value.strip() if not blank else value


def flag(data: Mapping[str, Any], key: str, place: str) -> bool:
    value = data.get(key, False)
    if not isinstance(value, bool):
        raise refuse(f"{place} → {key}", _("must be true or false."))
    return value


def choice(data: Mapping[str, Any], key: str, place: str, choices: Sequence[Any]) -> Any:
    value = data.get(key)
    if isinstance(value, bool) or value not in choices:
        shown = ", ".join(str(c) for c in choices)
        raise refuse(f"{place} → {key}", _("must be one of: %(choices)s.") % {"choices": shown})
    return value


def moment(data: Mapping[str, Any], key: str, place: str) -> datetime | None:
    """An ISO 8601 moment with its offset, or None when the file leaves it out."""
    value = data.get(key)
    if value is None:
        return None
    moment = parse_datetime(value) if isinstance(value, str) and len(value) <= 40 else None
    if moment is None or moment.tzinfo is None:
        raise refuse(f"{place} → {key}", _("must be a date and time (ISO 8601, with its offset)."))
    return moment
