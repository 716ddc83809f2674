"""The director's discipline form: a card or a whist fine, with its reason (§4.9)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from scoring.engine.manual import MAX_REASON

from ..discipline import MAX_FINE
from ..models import TournamentEvent
from .tournament import WholeNumberField

Action = TournamentEvent.Action


class DisciplineForm(forms.Form):
    """A yellow or red card, or a fine in whists written at the player's table."""

    action = forms.ChoiceField(
        label=_("Decision"),
        choices=[
            (Action.YELLOW_CARD, _("yellow card")),
            (Action.RED_CARD, _("red card (disqualifies)")),
            (Action.FINE, _("whist fine at his table")),
        ],
        widget=forms.RadioSelect,
    )
    points = WholeNumberField(
        label=_("Whists each opponent writes on him"),
        required=False,
        min_value=1,
        max_value=MAX_FINE,
    )
    # As long as a line of the sheet takes (a fine's reason is written there too).
    reason = forms.CharField(label=_("Reason"), max_length=MAX_REASON)

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if (
            data.get("action") == Action.FINE
            and not data.get("points")
            and "points" not in self.errors
        ):
            self.add_error("points", _("Write how many whists the fine is."))
        return data
