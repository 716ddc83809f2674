"""The player page's filters: period, convention and table size (issue 15)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.db.models import QuerySet
from django.utils.translation import gettext_lazy as _

from .models import PulkaSummary


def _date_input() -> forms.DateInput:
    """A date typed as the page's language writes it (25.10.2026 on a Russian page,
    2026-10-25 on an English one; ISO is read in both): a browser's own date field
    shows the browser's format, not the page's (mm/dd/yyyy on a Russian page)."""
    return forms.DateInput(
        attrs={"inputmode": "numeric", "autocomplete": "off", "placeholder": _("yyyy-mm-dd")}
    )


class StatsFilter(forms.Form):
    since = forms.DateField(label=_("From"), required=False, localize=True, widget=_date_input())
    until = forms.DateField(label=_("To"), required=False, localize=True, widget=_date_input())
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
