"""A round's scheduled start (docs/tournaments.md §4.9): its clock runs from then.
Organisers and admins only (403 to members); a refusal shows the reason, nothing saved."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.utils import timezone
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from prefscore.clubs.permissions import ORGANISERS
from prefscore.web.htmx import HtmxHttpRequest

from .. import timecontrol
from ..services import TournamentError
from .tournament import _detail, _tournament, reload_at


class ScheduleForm(forms.Form):
    """The start as the browser's date-and-time field sends it, in ASCII digits."""

    starts_at = forms.DateTimeField(
        label=gettext_lazy("Scheduled start"),
        input_formats=["%Y-%m-%dT%H:%M"],
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"),
    )

    def clean_starts_at(self) -> Any:
        raw = str(self.data.get("starts_at", ""))
        if not raw.isascii():
            raise forms.ValidationError(self.fields["starts_at"].error_messages["invalid"])
        return self.cleaned_data["starts_at"]


@require_POST
@login_required
def schedule_round(request: HtmxHttpRequest, club: str, slug: str, number: int) -> HttpResponse:
    """Set when round ``number`` starts; the room's clock runs from then."""
    tournament, role = _tournament(request, club, slug, ORGANISERS)
    form = ScheduleForm(request.POST)
    if not form.is_valid():
        return _detail(request, tournament, role, "draw", schedule_form=form)
    try:
        timecontrol.schedule(tournament, number, timezone.localtime(form.cleaned_data["starts_at"]))
    except TournamentError as error:
        return _detail(request, tournament, role, "draw", draw_error=str(error))
    return reload_at(request, tournament, f"draft-{number}")
