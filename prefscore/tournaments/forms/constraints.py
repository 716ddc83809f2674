"""The organiser's seating constraints (§4.3): home clubs, and a pair to keep apart."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from ..models import TournamentEntry


class HomeClubsForm(forms.Form):
    """One field per player in play: the club he comes from (blank: none)."""

    def __init__(self, *args: Any, entries: list[TournamentEntry], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.entries = entries
        for entry in entries:
            self.fields[f"club_{entry.pk}"] = forms.CharField(
                label=entry.player.name, max_length=80, required=False, initial=entry.home_club
            )

    def clubs(self) -> dict[int, str]:
        return {entry.pk: self.cleaned_data[f"club_{entry.pk}"] for entry in self.entries}


class PairForm(forms.Form):
    """Two entered players who never sit at one table."""

    first = forms.TypedChoiceField(label=_("Player"), coerce=int)
    second = forms.TypedChoiceField(label=_("and player"), coerce=int)

    def __init__(self, *args: Any, entries: list[TournamentEntry], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        choices = [(str(entry.player_id), entry.player.name) for entry in entries]
        for name in ("first", "second"):
            field = self.fields[name]
            assert isinstance(field, forms.TypedChoiceField)
            field.choices = choices
