"""The player page's filters: period, convention and table size."""

from __future__ import annotations

from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.db.models import QuerySet
from django.utils.translation import gettext_lazy as _

from .models import PulkaSummary


class PhoneDateInput(forms.DateInput):
    """The phone's own date picker (``type="date"``), its value in ISO as HTML requires.

    A phone shows the picker in its own language and format, so a Russian phone shows
    a Russian calendar on any page; desktop Chromium shows its own UI's format
    (mm/dd/yyyy in an English Chromium), whatever the page's language. Typing a date
    on a phone is slower and easier to get wrong than picking it, so the picker wins.
    A browser without one shows a text box: what it sends is read as ISO or as the
    page's language writes dates (``StatsFilter``'s fields).
    """

    input_type = "date"

    def __init__(self) -> None:
        super().__init__(format="%Y-%m-%d", attrs={"autocomplete": "off"})

    def format_value(self, value: Any) -> str | None:
        # A date typed as the page writes it (a text box's 01.02.2026) goes back in ISO,
        # which the picker shows; what is no date stays as typed, beside its error.
        if isinstance(value, str) and value:
            typed: str = value
            try:
                value = forms.DateField().to_python(typed)
            except ValidationError:
                return typed
        shown: str | None = super().format_value(value)
        return shown


def _date_field(label: Any) -> forms.DateField:  # a lazy translation
    # Not localized: the value goes out in ISO; Django reads ISO and the active
    # language's own formats (25.10.2026, 10/25/2026) either way.
    return forms.DateField(label=label, required=False, widget=PhoneDateInput())


class StatsFilter(forms.Form):
    since = _date_field(_("From"))
    until = _date_field(_("To"))
    convention = forms.ChoiceField(label=_("Convention"), required=False)
    table_size = forms.TypedChoiceField(
        label=_("Players at the table"),
        required=False,
        coerce=int,
        empty_value=None,
        choices=[("", _("any")), ("3", "3"), ("4", "4")],
    )

    def __init__(self, *args: Any, conventions: list[tuple[str, str]], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        field = self.fields["convention"]
        assert isinstance(field, forms.ChoiceField)
        field.choices = [("", _("any")), *conventions]

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        since, until = data.get("since"), data.get("until")
        if since and until and since > until:
            self.add_error("until", _("The end of the period comes before its start."))
        return data

    def apply(self, rows: QuerySet[PulkaSummary]) -> QuerySet[PulkaSummary]:
        """The rows the valid filters keep; every row when the form is not valid."""
        if not self.is_valid():
            return rows
        data = self.cleaned_data
        if data.get("since"):
            rows = rows.filter(finished_at__date__gte=data["since"])
        if data.get("until"):
            rows = rows.filter(finished_at__date__lte=data["until"])
        if data.get("convention"):
            rows = rows.filter(convention_name=data["convention"])
        if data.get("table_size"):
            rows = rows.filter(table_size=data["table_size"])
        return rows
