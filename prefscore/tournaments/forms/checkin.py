"""The organiser's bulk check-in form: the players still only registered, ticked (§4.2)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from ..models import Tournament, TournamentEntry


class BulkCheckInForm(forms.Form):
    entries = forms.TypedMultipleChoiceField(
        label=_("Arrived"),
        coerce=int,
        widget=forms.CheckboxSelectMultiple,
        error_messages={"required": _("Tick the players who arrived.")},
    )

    def __init__(self, *args: Any, tournament: Tournament, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        waiting = tournament.entries.filter(state=TournamentEntry.State.REGISTERED).order_by(
            "player__name"
        )
        field = self.fields["entries"]
        assert isinstance(field, forms.TypedMultipleChoiceField)
        field.choices = [(str(pk), name) for pk, name in waiting.values_list("pk", "player__name")]
