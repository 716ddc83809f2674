"""Manual entries on the screens (docs/rules.md §3.11): the form page, the protocol's
reason line and the notes beneath the drawn sheet.

The figures are the engine's entries, explained as every deal's are; a manual line
adds the reason its writer gave.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.urls import reverse
from django.utils.translation import gettext as _

from scoring.engine.deals import Deal as EngineDeal
from scoring.engine.manual import MAX_POINTS, describe
from scoring.engine.pulka import ScoredPulka

from ..manual_forms import SECTION_LABELS, ManualEntryForm
from ..models import Pulka
from .bidi import isolate
from .numbers import format_points


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


def reason_lines(deal: EngineDeal) -> tuple[str, ...]:
    """The protocol's extra line for a manual entry: the reason given; () for a deal."""
    line = describe(deal)
    if line is None:
        return ()
    return (_("Written by hand: %(reason)s") % {"reason": line.reason},)


@dataclass(frozen=True, slots=True)
class ManualNote:
    """A manual line of the sheet: its number, its figure and its reason (§3.11)."""

    number: int
    figure: str
    reason: str
    correct_url: str = ""


def manual_notes(scored: ScoredPulka, pulka_pk: int | None = None) -> tuple[ManualNote, ...]:
    """Every manual line of the sheet as it stands (corrections applied), oldest first.

    With ``pulka_pk`` each carries its correction link: for the manual entry page, which
    only those who may correct reach. The drawn sheet, shared by every viewer, has none.
    """
    notes = []
    for record in scored.records:
        line = describe(record.deal)
        if line is None:
            continue
        figure = _figure(line.player, line.section, line.points, line.on)
        url = ""
        if pulka_pk is not None:
            url = reverse("games:manual_correct", args=[pulka_pk, record.number])
        notes.append(ManualNote(record.number, figure, line.reason, url))
    return tuple(notes)


def _figure(player: str, section: str, points: int, on: str | None) -> str:
    shown = format_points(abs(points))
    if section == "whists":
        return _("%(player)s → %(on)s: %(points)s whists") % {
            "player": isolate(player),
            "on": isolate(on or ""),
            "points": shown,
        }
    if section == "pulya":
        return _("%(player)s: %(points)s into the pulya") % {
            "player": isolate(player),
            "points": shown,
        }
    if points < 0:
        return _("%(player)s: %(points)s off the gora") % {
            "player": isolate(player),
            "points": shown,
        }
    return _("%(player)s: %(points)s into the gora") % {"player": isolate(player), "points": shown}
