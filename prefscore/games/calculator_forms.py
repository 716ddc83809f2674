"""The paper-pulka calculator's forms: the players and convention, then the sheet's figures.

A club player settles a pulka played on paper the way the paper sheet reads: first who
played and under which convention (:class:`PaperPlayersForm`, sent by GET so that the
grid's address can be kept), then each player's pulya, gora and the whists written on
each opponent (:class:`PaperFiguresForm`). Every mistake is named next to its field, in
the reader's language; the engine's limits (``scoring.engine.protocol``) are the form's.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from typing import Any, cast
from urllib.parse import urlencode

from django import forms
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from prefscore.clubs.name_rules import NO_LETTER, shows
from prefscore.clubs.names import normalise_name
from scoring.conventions import user_convention, user_convention_choices
from scoring.engine.conventions import Convention
from scoring.engine.protocol import MAX_SHEET_FIGURE, PaperSheet
from scoring.engine.seats import MAX_PLAYERS, MIN_PLAYERS
from scoring.engine.settlement import Totals

from . import io
from .presenters.numbers import format_money
from .pulka_forms import stake_field, target_field

# What the engine refuses in a name (scoring.engine.protocol): control characters,
# lone surrogates, line and paragraph separators.
NOT_IN_NAMES = frozenset({"Cc", "Cs", "Zl", "Zp"})
MINUS_SIGNS = str.maketrans({"\u2212": "-", "\u2013": "-"})  # − and – typed on phones


class PaperPlayersForm(forms.Form):
    """Who played, clockwise, under which convention, to what pulya, for what stake."""

    convention = forms.ChoiceField(label=_("Convention"))
    target = target_field()
    stake = stake_field()

    def __init__(self, *args: Any, user: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.user = user
        choices = user_convention_choices(user)
        self.convention_labels = dict(choices)
        cast(forms.ChoiceField, self.fields["convention"]).choices = choices
        for number in range(1, MAX_PLAYERS + 1):
            self.fields[f"name_{number}"] = forms.CharField(
                label=_("Player %(number)s") % {"number": number},
                max_length=io.MAX_PLAYER_NAME,
                required=False,
            )

    def name_fields(self) -> list[forms.BoundField]:
        return [self[f"name_{number}"] for number in range(1, MAX_PLAYERS + 1)]

    @property
    def names(self) -> tuple[str, ...]:
        """The players, once the form is valid."""
        return cast(tuple[str, ...], self.cleaned_data["names"])

    def summary(self) -> str:
        """The valid form in one line, above the grid: convention, target, stake."""
        data = self.cleaned_data
        words = [self.convention_labels[data["convention"]], gettext("to %(target)s") % data]
        if data["stake"] is not None:
            words.append(gettext("%(stake)s a whist") % {"stake": format_money(data["stake"])})
        return " · ".join(words)

    def edit_query(self) -> str:
        """The query string that opens this form again, filled in, to change it."""
        values = {name: self.data.get(name, "") for name in self.fields}
        return urlencode({**values, "edit": "1"})

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        names = self._clean_names()
        if names is not None:
            cleaned["names"] = names
        key = cleaned.get("convention")
        if key is not None:
            try:
                cleaned["engine_convention"] = user_convention(self.user, key)
            except KeyError:  # offered a moment ago, deleted since
                self.add_error("convention", gettext("Choose one of the conventions offered."))
        return cleaned

    def _clean_names(self) -> tuple[str, ...] | None:
        """The typed names in order, empty rows skipped; None after an error."""
        names: list[str] = []
        seen: dict[str, int] = {}
        ok = True
        for number in range(1, MAX_PLAYERS + 1):
            field = f"name_{number}"
            typed = self.cleaned_data.get(field) or ""
            name = normalise_name(typed)
            if not name:
                if typed.strip():  # invisible characters alone (clubs/name_rules.py)
                    self.add_error(field, NO_LETTER)
                    ok = False
                continue
            if any(unicodedata.category(char) in NOT_IN_NAMES for char in name):
                self.add_error(field, gettext("A name cannot hold control characters."))
                ok = False
            elif not shows(name):
                self.add_error(field, NO_LETTER)
                ok = False
            elif name.casefold() in seen:
                self.add_error(
                    field,
                    gettext("%(name)s already sits at seat %(seat)s.")
                    % {"name": name, "seat": seen[name.casefold()]},
                )
                ok = False
            else:
                seen[name.casefold()] = number
                names.append(name)
        if ok and not MIN_PLAYERS <= len(names) <= MAX_PLAYERS:
            self.add_error(
                "name_1",
                gettext("Type the names of %(low)s to %(high)s players.")
                % {"low": MIN_PLAYERS, "high": MAX_PLAYERS},
            )
            ok = False
        return tuple(names) if ok and not self.errors else None


class SheetFigure(forms.IntegerField):
    """A figure off the paper sheet: empty is 0, a typographic minus is a minus.

    A text box, not ``type=number``: a browser sends a number box's "1,5" or "abc" as
    empty, which would read as 0 instead of being named as a mistake.
    """

    widget = forms.TextInput

    def __init__(self, *, label: str, low: int) -> None:
        super().__init__(label=label, required=False, min_value=low, max_value=MAX_SHEET_FIGURE)
        self.low = low
        self.widget.attrs.update({"inputmode": "numeric", "autocomplete": "off"})
        if low < 0:  # a phone's numeric keypad has no minus sign
            self.widget.attrs["inputmode"] = "text"
        range_message = gettext("A whole number from %(low)s to %(high)s (%(field)s).") % {
            "low": low,
            "high": MAX_SHEET_FIGURE,
            "field": label,
        }
        self.error_messages = {
            **self.error_messages,
            "invalid": gettext("Not a whole number (%(field)s).") % {"field": label},
        }
        for validator in self.validators:
            validator.message = range_message  # type: ignore[attr-defined]

    def to_python(self, value: Any) -> int | None:
        if isinstance(value, str):
            value = value.translate(MINUS_SIGNS).replace(" ", "").replace("\xa0", "")
        return super().to_python(value)


@dataclass(frozen=True)
class PaperCell:
    """One box of the grid: a short label above it (the row names the player)."""

    short_label: str
    field: forms.BoundField


@dataclass(frozen=True)
class PaperError:
    id: str
    text: str


@dataclass(frozen=True)
class PaperRow:
    """One player's line of the grid: his pulya, gora, and whists on each opponent."""

    name: str
    figures: tuple[PaperCell, ...]

    @property
    def errors(self) -> list[PaperError]:
        """The row's mistakes, each with the id its box's ``aria-describedby`` names."""
        return [
            PaperError(f"{cell.field.auto_id}_error", str(cell.field.errors[0]))
            for cell in self.figures
            if cell.field.errors
        ]


class PaperFiguresForm(forms.Form):
    """The paper sheet's final figures for the players of a :class:`PaperPlayersForm`."""

    def __init__(self, *args: Any, names: tuple[str, ...], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.names = names
        for seat, name in enumerate(names):
            self.fields[f"pulya_{seat}"] = SheetFigure(
                label=gettext("%(name)s: pulya") % {"name": name}, low=0
            )
            self.fields[f"gora_{seat}"] = SheetFigure(
                label=gettext("%(name)s: gora") % {"name": name}, low=-MAX_SHEET_FIGURE
            )
            for on, other in enumerate(names):
                if on != seat:
                    self.fields[f"whists_{seat}_{on}"] = SheetFigure(
                        label=gettext("%(name)s → %(other)s: whists")
                        % {"name": name, "other": other},
                        low=0,
                    )
        # Кодекс 4.2.12 lets the table choose who adjusts; by default whoever method 1
        # of rule 4.2.14 cannot divide (docs/rules.md §3.7, "Who x is").
        choices: list[tuple[str, Any]] = [("", _("whoever the pairwise method needs"))]
        choices += [(str(seat), name) for seat, name in enumerate(names)]
        self.fields["first_seat"] = forms.TypedChoiceField(
            label=_("Who adjusts first for whole whists (Кодекс 4.2.12)"),
            choices=choices,
            coerce=int,
            required=False,
            empty_value=None,
            initial="",
        )

    @property
    def first_seat(self) -> int | None:
        seat = self.cleaned_data.get("first_seat")
        return None if seat in (None, "") else int(seat)

    def rows(self) -> list[PaperRow]:
        return [self._row(seat, name) for seat, name in enumerate(self.names)]

    def _row(self, seat: int, name: str) -> PaperRow:
        cells = [
            PaperCell(gettext("Pulya"), self[f"pulya_{seat}"]),
            PaperCell(gettext("Gora"), self[f"gora_{seat}"]),
        ]
        cells += [
            PaperCell(gettext("→%(name)s") % {"name": other}, self[f"whists_{seat}_{on}"])
            for on, other in enumerate(self.names)
            if on != seat
        ]
        return PaperRow(name, tuple(cells))

    def totals(self, target: int) -> Totals:
        """The sheet as the engine reads it (``scoring.engine.settlement.Totals``)."""
        data = self.cleaned_data
        size = len(self.names)

        def figure(key: str) -> int:
            return int(data.get(key) or 0)

        return Totals(
            self.names,
            target,
            tuple(figure(f"pulya_{seat}") for seat in range(size)),
            tuple(figure(f"gora_{seat}") for seat in range(size)),
            tuple(
                tuple(0 if on == seat else figure(f"whists_{seat}_{on}") for on in range(size))
                for seat in range(size)
            ),
        )


def paper_sheet(players: PaperPlayersForm, figures: PaperFiguresForm) -> PaperSheet:
    """Both forms, valid, as the engine's paper sheet: what the JSON ``sheet`` gives."""
    data = players.cleaned_data
    convention: Convention = data["engine_convention"]
    return PaperSheet(convention, figures.totals(data["target"]), data["stake"])
