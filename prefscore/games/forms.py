"""The deal entry form: what the players report, turned into protocol deal facts.

The form only reads and shapes the facts (docs/protocol.md, a deal); whether they make a
legal deal is the engine's call, and its :class:`DealError` lands beside the field.
"""

from __future__ import annotations

import functools
from typing import Any

from django import forms
from django.utils.functional import Promise
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from prefscore.clubs.names import isolate, normalise_text
from prefscore.web.integers import request_int
from scoring.engine.errors import DealError
from scoring.engine.seats import seating
from scoring.engine.sheet import SheetState
from scoring.messages import message_for

CONTRACTS = ("6", "7", "8", "9", "10", "misere", "allpass")
SUIT_CODES = ("", "S", "C", "D", "H", "NT")
WORDS = ("", "whist", "pass", "half")
# Form areas an error is shown beside; the engine's DealError.field names the same facts.
GROUPS = ("number", "contract", "declarer", "whists", "tricks", "prikup", "special", "reason")
# Facts of docs/rules.md §3.10, ticked in the form's "special deal" area.
SPECIAL_FACTS = ("conceded", "totus", "talon_shown")
NON_FIELD = "__all__"


class _DealFields(forms.Form):
    """The deal form's fields that every table has, made once (never instantiated)."""

    number = forms.IntegerField(
        min_value=1,
        max_value=1_000_000,
        error_messages={
            "required": gettext_lazy("This form is out of date: reload the page."),
            "invalid": gettext_lazy("This form is out of date: reload the page."),
            "min_value": gettext_lazy("This form is out of date: reload the page."),
            "max_value": gettext_lazy("This form is out of date: reload the page."),
        },
    )
    contract = forms.ChoiceField(
        choices=[(c, c) for c in CONTRACTS],
        error_messages={
            "required": gettext_lazy("Choose the contract: 6 to 10, misère or all-pass."),
            "invalid_choice": gettext_lazy("Choose the contract: 6 to 10, misère or all-pass."),
        },
    )
    suit = forms.ChoiceField(
        choices=[(s, s) for s in SUIT_CODES],
        required=False,
        error_messages={"invalid_choice": gettext_lazy("Choose a suit from the list.")},
    )
    declarer = forms.CharField(required=False, max_length=3, strip=True)
    prikup = forms.CharField(required=False, strip=True)
    conceded = forms.BooleanField(required=False)
    totus = forms.BooleanField(required=False)
    talon_shown = forms.BooleanField(required=False)


@functools.cache
def _seat_fields(size: int) -> dict[str, forms.Field]:
    """Each seat's word and tricks, for a table of ``size``: made once per size."""
    fields: dict[str, forms.Field] = {}
    for seat in range(size):
        fields[f"word_{seat}"] = forms.ChoiceField(
            choices=[(w, w) for w in WORDS],
            required=False,
            error_messages={"invalid_choice": gettext_lazy("Each word is whist, pass or half.")},
        )
        fields[f"tricks_{seat}"] = forms.CharField(required=False, strip=True)
    return fields


class DealForm(forms.Form):
    """One deal's facts for a table whose next deal is dealt in ``state``.

    Its fields are shared by every form of a table's size, not deep-copied for each one
    as Django copies declared fields (a third of a record's form work): this
    form never changes a field, it only reads the post through them. A subclass's own
    declared fields (``ArbiterForm``'s) are still copied, and come after the deal's.
    """

    def __init__(self, state: SheetState, data: Any = None, **kwargs: Any) -> None:
        super().__init__(data, **kwargs)
        self.fields = {**_DealFields.base_fields, **self.fields, **_seat_fields(state.size)}
        self.state = state
        self.facts: dict[str, Any] = {}
        # Errors by form area beyond Django's per-field ones (GROUPS, or __all__).
        self._extra: dict[str, list[str]] = {}

    # --- reading the facts -----------------------------------------------------------

    def clean(self) -> dict[str, Any]:
        super().clean()
        data = self.cleaned_data  # what the base class returns, typed as never None
        contract = data.get("contract")
        if not contract:
            return data
        facts: dict[str, Any] = {"contract": _contract_text(contract, data.get("suit") or "")}
        if contract != "allpass":
            declarer = self._declarer(data.get("declarer") or "")
            if declarer is not None:
                facts["declarer"] = declarer
            words = self._words(data)
            if words:
                facts["whists"] = words
        tricks = self._tricks(data, contract)
        if tricks:
            facts["tricks"] = tricks
        prikup = self._prikup(data.get("prikup") or "", contract)
        if prikup:
            facts["prikup"] = prikup
        # Ticked only where the convention offers them; the engine judges the rest.
        facts.update({name: True for name in SPECIAL_FACTS if data.get(name)})
        self.facts = facts
        return data

    def _declarer(self, value: str) -> str | None:
        names = self.state.names
        if not value:
            self._group_error("declarer", _("Choose the declarer."))
            return None
        seat = request_int(value, max_digits=1)
        if seat is None or seat >= len(names):
            self._group_error("declarer", _("Choose the declarer among the players."))
            return None
        return names[seat]

    def _words(self, data: dict[str, Any]) -> dict[str, str]:
        seats = seating(self.state.size, self.state.dealer)
        speaking = list(seats.active)
        if self.state.size == 4 and self.state.convention.dealer_whist != "none":
            speaking.append(seats.dealer)  # the dealer may whist (docs/rules.md §3.10.4)
        return {
            self.state.names[seat]: data[f"word_{seat}"]
            for seat in speaking
            if data.get(f"word_{seat}")
        }

    def _tricks(self, data: dict[str, Any], contract: str) -> dict[str, int]:
        """Tricks typed for the players dealt a hand; the 4-player dealer only on an all-pass."""
        seats = seating(self.state.size, self.state.dealer)
        players = list(seats.active)
        if contract == "allpass":
            players += [s for s in seats.sitting_out if s == seats.dealer]
        tricks: dict[str, int] = {}
        for seat in players:
            text = data.get(f"tricks_{seat}") or ""
            if not text:
                continue
            name = self.state.names[seat]
            count = request_int(text, max_digits=2)
            if count is None or count > 10:
                self._group_error(
                    "tricks",
                    _("%(name)s: tricks must be a whole number from 0 to 10.")
                    % {"name": isolate(name)},
                )
                continue
            tricks[name] = count
        return tricks

    def _prikup(self, text: str, contract: str) -> int:
        if not text or not self.state.convention.prikup_whists or contract in ("allpass", "misere"):
            return 0
        count = request_int(text, max_digits=1)
        if count is None or count > 3:
            self._group_error("prikup", _("Talon fast tricks are a whole number from 0 to 3."))
            return 0
        return count

    # --- errors by area --------------------------------------------------------------

    def _group_error(self, group: str, message: str | Promise) -> None:
        self._extra.setdefault(group, []).append(str(message))

    def is_valid(self) -> bool:
        valid = super().is_valid()
        return valid and not self._extra

    def add_engine_error(self, error: DealError) -> None:
        """The engine refused the deal: show its message beside the fact it names."""
        field_name = "special" if error.field in SPECIAL_FACTS else error.field
        group = field_name if field_name in GROUPS else NON_FIELD
        self._group_error(group, message_for(error))

    def add_notice(self, message: str) -> None:
        self._group_error(NON_FIELD, message)

    def grouped_errors(self) -> dict[str, list[str]]:
        """Every error by the form area it belongs beside (``GROUPS`` or ``__all__``)."""
        grouped: dict[str, list[str]] = {}
        for name, errors in self.errors.items():
            group = _group_of(name)
            for error in errors:
                if error:
                    grouped.setdefault(group, []).append(str(error))
        for group, messages in self._extra.items():
            grouped.setdefault(group, []).extend(messages)
        return grouped

    def typed(self) -> dict[str, str]:
        """What was typed, to show again beside the errors."""
        if not self.is_bound:
            return {}
        return {name: str(self.data.get(name, "")) for name in self.fields}


class ArbiterForm(DealForm):
    """An arbiter's decision on a deal (Кодекс 4.2.16): the right facts, why, and whether
    the 4.2.7 penalty applies."""

    reason = forms.CharField(
        max_length=2000,
        strip=True,
        error_messages={
            "required": gettext_lazy("State the reason for the arbiter's decision."),
            "max_length": gettext_lazy("Keep the reason under 2000 characters."),
        },
    )
    penalty = forms.BooleanField(required=False)

    def clean_reason(self) -> str:
        reason = normalise_text(self.cleaned_data["reason"])
        if not reason:
            raise forms.ValidationError(
                self.fields["reason"].error_messages["required"], "required"
            )
        return reason


def _group_of(name: str) -> str:
    if name.startswith("word_"):
        return "whists"
    if name.startswith("tricks_"):
        return "tricks"
    if name == "suit":
        return "contract"
    if name in SPECIAL_FACTS:
        return "special"
    return name if name in GROUPS else NON_FIELD


def _contract_text(contract: str, suit: str) -> str:
    if contract in ("misere", "allpass"):
        return contract
    return contract + suit
