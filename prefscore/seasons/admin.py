from typing import Any

from django import forms
from django.contrib import admin
from django.http import HttpRequest
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from prefscore.admin_words import WordedAdmin
from scoring.engine import season as engine
from scoring.messages import message_for

from . import coefficients
from .models import DivisionMove, PolicyChange, Qualification, Season


class SeasonAdminForm(forms.ModelForm):
    """The coefficients as the season form takes them (docs/seasons.md §3): under the
    name of a convention of the club, each a number above zero."""

    class Meta:
        model = Season
        # What the admin edits; the freeze and the author it shows read-only.
        fields = [
            "club",
            "name",
            "slug",
            "starts_on",
            "ends_on",
            "regulations",
            "public",
            "evenings",
            "marked_pulkas",
            "tournaments",
            "final",
            "measure",
            "aggregate",
            "best_n",
            "minimum",
            "coefficients",
            "tie_breaks",
            "yellow_cards_limit",
        ]

    def clean_coefficients(self) -> Any:
        value = self.cleaned_data.get("coefficients") or {}
        if not isinstance(value, dict):
            raise forms.ValidationError(_('Give the coefficients as {"convention": "4/3"}.'))
        club = self.cleaned_data.get("club") or getattr(self.instance, "club", None)
        known = {name for name, _label in coefficients.weighable(club)} if club else set()
        for name in value:
            if name not in known:
                raise forms.ValidationError(
                    _(
                        "No convention of the club is called “%(name)s”: give its coefficient "
                        "to the convention it means, and empty this field."
                    )
                    % {"name": name}
                )
        try:
            texts = {str(name): str(weight) for name, weight in value.items()}
            engine.check_policy(engine.Policy(coefficients=engine.parse_coefficients(texts)))
        except engine.SeasonError as error:
            raise forms.ValidationError(message_for(error)) from error
        return texts


@admin.register(Season)
class SeasonAdmin(WordedAdmin):
    add_title = gettext_lazy("New season")
    form = SeasonAdminForm
    list_display = ("name", "club", "starts_on", "ends_on", "public", "policy_frozen_at")
    list_filter = ("club",)
    # The stored table is counted, never typed in: the lines are not edited here.
    readonly_fields = ("policy_frozen_at", "created_by", "created_at")


@admin.register(PolicyChange, Qualification, DivisionMove)
class RecordAdmin(WordedAdmin):
    """What was decided stays written (docs/seasons.md §8–§10): read, never changed here."""

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False
