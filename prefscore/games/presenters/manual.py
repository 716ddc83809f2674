"""Manual entries on the screens (docs/rules.md §3.11): the form page (the protocol's
reason line and the notes beneath the drawn sheet are ``protocol``'s).

The figures are the engine's entries, explained as every deal's are; a manual line
adds the reason its writer gave.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from scoring.engine.manual import MAX_POINTS

from ..manual_forms import SECTION_LABELS, ManualEntryForm
from ..models import Pulka
from .protocol import ManualNote


@dataclass(frozen=True, slots=True)
class Choice:
    value: str
    label: str
    checked: bool


@dataclass(frozen=True, slots=True)
class ManualPage:
    """The manual entry page: the form as typed or as the line stands, and its errors."""

    action: str
    number: int
    correcting: int | None
    players: tuple[Choice, ...]
    on: tuple[Choice, ...]
    sections: tuple[Choice, ...]
    points: str
    reason: str
    errors: dict[str, list[str]]
    general_errors: tuple[str, ...]
    lines: tuple[ManualNote, ...]  # the lines that stand, each with its correction link
    min_points: int
    max_points: int


def manual_page(
    pulka: Pulka,
    form: ManualEntryForm,
    action: str,
    number: int,
    lines: tuple[ManualNote, ...],
    correcting: int | None = None,
) -> ManualPage:
    """The page's view model: choices with the typed (or standing) values checked."""
    values: dict[str, Any] = form.typed() if form.is_bound else dict(form.initial)
    names = tuple(pulka.player_names)
    errors = form.field_errors() if form.is_bound else {}

    def choices(field: str, options: Sequence[tuple[str, str]]) -> tuple[Choice, ...]:
        return tuple(Choice(v, label, str(values.get(field, "")) == v) for v, label in options)

    seats = [(str(i), name) for i, name in enumerate(names)]
    return ManualPage(
        action=action,
        number=number,
        correcting=correcting,
        players=choices("player", seats),
        on=choices("on", seats),
        sections=choices("section", [(k, str(v)) for k, v in SECTION_LABELS.items()]),
        points=str(values.get("points", "")),
        reason=str(values.get("reason", "")),
        errors=errors,
        general_errors=tuple(errors.get("__all__", ())),
        lines=lines,
        min_points=-MAX_POINTS,
        max_points=MAX_POINTS,
    )
