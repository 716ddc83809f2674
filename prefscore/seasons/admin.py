from django.contrib import admin
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _

from prefscore.admin_words import WordedAdmin

from .models import DivisionMove, PolicyChange, Qualification, Season


@admin.register(Season)
class SeasonAdmin(WordedAdmin):
    add_title = _("New season")
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
