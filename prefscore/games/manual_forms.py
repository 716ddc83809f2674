"""The manual entry form: a line written by hand, turned into its facts (docs/rules.md §3.11).

The form only reads and shapes the facts (docs/protocol.md, "Manual entries"); whether
they make a valid line is the engine's call, and its :class:`DealError` lands beside
the field it names.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from prefscore.clubs.names import normalise_text
from prefscore.web.integers import request_int
from scoring.engine.errors import DealError
from scoring.engine.manual import MAX_POINTS, MAX_REASON, ManualLine
from scoring.messages import message_for

SECTIONS = ("pulya", "gora", "whists")
FIELDS = ("number", "player", "section", "on", "points", "reason")
NON_FIELD = "__all__"
_MINUS = ("-", "−", "–")


class ManualEntryForm(forms.Form):
    """One manual line for a pulka whose players are ``names``, in seat order."""

    number = forms.CharField(required=False)
    player = forms.CharField(required=False, max_length=2)
    section = forms.CharField(required=False, max_length=10)
    on = forms.CharField(required=False, max_length=2)
    points = forms.CharField(required=False, max_length=8, strip=True)
    reason = forms.CharField(required=False, max_length=MAX_REASON * 2, strip=True)

    def __init__(self, names: tuple[str, ...], data: Any = None, **kwargs: Any) -> None:
        super().__init__(data, **kwargs)
        self.names = names
        self.facts: dict[str, Any] = {}
        self.line_number: int | None = None
        self._extra: dict[str, list[str]] = {}

    def clean(self) -> dict[str, Any]:
        super().clean()
        data = self.cleaned_data
        self.line_number = request_int(data.get("number") or "", max_digits=7)
        if self.line_number is None:
            self._error("number", _("This form is out of date: reload the page."))
        body: dict[str, Any] = {}
        body["player"] = self._seat(data.get("player") or "", "player")
        section = data.get("section") or ""
        if section not in SECTIONS:
            self._error("section", _("Choose the pulya, the gora or the whists."))
        body["section"] = section
        if section == "whists":
            body["on"] = self._seat(data.get("on") or "", "on")
        body["points"] = self._points(data.get("points") or "")
        body["reason"] = normalise_text(data.get("reason") or "")
        self.facts = {"manual": body}
        return data

    def _seat(self, value: str, field: str) -> str | None:
        seat = request_int(value, max_digits=1)
        if seat is None or seat >= len(self.names):
            self._error(field, _("Choose a player of this pulka."))
            return None
        return self.names[seat]

    def _points(self, text: str) -> int | None:
        negative = text[:1] in _MINUS
        count = request_int(text[1:] if negative else text, max_digits=4)
        if count is None or count > MAX_POINTS:
            self._error(
                "points",
                _("Enter a whole number from %(low)s to %(high)s.")
                % {"low": -MAX_POINTS, "high": MAX_POINTS},
            )
            return None
        return -count if negative else count

    # --- errors by field -----------------------------------------------------------

    def _error(self, field: str, message: str) -> None:
        self._extra.setdefault(field, []).append(message)

    def is_valid(self) -> bool:
        return super().is_valid() and not self._extra

    def add_engine_error(self, error: DealError) -> None:
        """The engine refused the line: show its message beside the field it names."""
        field = error.field if error.field in FIELDS else NON_FIELD
        self._error(field, message_for(error, places=False))

    def add_notice(self, message: str) -> None:
        self._error(NON_FIELD, message)

    def field_errors(self) -> dict[str, list[str]]:
        grouped: dict[str, list[str]] = {}
        for name, errors in self.errors.items():
            grouped.setdefault(name if name in FIELDS else NON_FIELD, []).extend(map(str, errors))
        for name, messages in self._extra.items():
            grouped.setdefault(name, []).extend(messages)
        return grouped

    def typed(self) -> dict[str, str]:
        if not self.is_bound:
            return {}
        return {name: str(self.data.get(name, "")) for name in self.fields}


def values_of(line: ManualLine, names: tuple[str, ...]) -> dict[str, str]:
    """A standing line as the form's values, for its correction."""
    return {
        "player": str(names.index(line.player)) if line.player in names else "",
        "section": line.section,
        "on": str(names.index(line.on)) if line.on in names else "",
        "points": str(line.points),
        "reason": line.reason,
    }


SECTION_LABELS = {
    "pulya": gettext_lazy("pulya"),
    "gora": gettext_lazy("gora"),
    "whists": gettext_lazy("whists"),
}
