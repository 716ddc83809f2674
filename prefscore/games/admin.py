"""Django admin for pulkas and their logs: a window onto the record, never an eraser.

Deals, corrections and audit events are read-only and can never be deleted (a deal row
is withdrawn, never removed). A pulka is never deleted either: the "archive" action
takes it off the club's pages and freezes it. Its convention snapshot, players and
target are read-only: changing them would re-score a game already played.
"""

from __future__ import annotations

from typing import Any

from django.contrib import admin, messages
from django.db import transaction
from django.db.models import F, QuerySet
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from prefscore.admin_words import WordedAdmin

from . import events
from .models import AuditEvent, Correction, Deal, Pulka, PulkaSeat


class ReadOnlyAdmin(WordedAdmin):
    """View only: no adding, changing or deleting."""

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


# Shown and read-only alike: a tuple of its own, which both attributes' types accept.
SEAT_FIELDS = ("seat", "player")


class SeatInline(admin.TabularInline):
    model = PulkaSeat
    extra = 0
    fields = SEAT_FIELDS
    readonly_fields = SEAT_FIELDS

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Pulka)
class PulkaAdmin(WordedAdmin):
    list_display = ["__str__", "club", "convention_name", "status", "created_at"]
    list_filter = ["club", "status"]
    list_select_related = ["club"]
    search_fields = ["title", "club__name", "seats__player__name"]
    date_hierarchy = "created_at"
    actions = ["archive"]
    inlines = [SeatInline]
    readonly_fields = [
        "club",
        "convention_name",
        "convention_options",
        "convention_source",
        "player_names",
        "target",
        "stake",
        "first_dealer",
        "status",
        "created_by",
        "created_at",
        "version",
    ]

    def has_add_permission(self, request: HttpRequest) -> bool:
        # A pulka starts from the club's "new pulka" screen, which snapshots the convention.
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    @admin.action(description=_("Archive the selected pulkas"), permissions=["change"])
    def archive(self, request: HttpRequest, queryset: QuerySet[Pulka]) -> None:
        # The version moves so that devices showing the sheet notice the change.
        archived = queryset.exclude(status=Pulka.Status.ARCHIVED)
        with transaction.atomic():
            ids = list(archived.values_list("pk", flat=True))
            count = Pulka.objects.filter(pk__in=ids).update(
                status=Pulka.Status.ARCHIVED, version=F("version") + 1
            )
            for pulka_id in ids:
                events.announce(pulka_id)
        self.message_user(
            request,
            ngettext("%(count)d pulka archived.", "%(count)d pulkas archived.", count)
            % {"count": count},
            messages.SUCCESS,
        )


@admin.register(Deal)
class DealAdmin(ReadOnlyAdmin):
    list_display = ["pulka", "number", "facts", "entered_by", "entered_at", "withdrawn_at"]
    list_filter = ["pulka__club", "pulka__status"]
    list_select_related = ["pulka", "pulka__club", "entered_by"]
    search_fields = ["pulka__title", "pulka__club__name"]


@admin.register(Correction)
class CorrectionAdmin(ReadOnlyAdmin):
    list_display = ["pulka", "deal_number", "after_deal", "kind", "penalise", "created_at"]
    list_filter = ["kind", "pulka__club"]
    list_select_related = ["pulka", "pulka__club"]


@admin.register(AuditEvent)
class AuditEventAdmin(ReadOnlyAdmin):
    list_display = ["pulka", "action", "deal_number", "user", "at"]
    list_filter = ["action", "pulka__club"]
    list_select_related = ["pulka", "pulka__club", "user"]
