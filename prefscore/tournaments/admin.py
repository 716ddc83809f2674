"""Django admin for tournaments: a window onto the record.

The convention snapshot, table size and seed, and the drawn rounds, are read-only
here: changing them would re-seat or re-score rounds already played. The ranking
settings may be changed; once round 1 is published each change is logged
(``RegulationChange``) and shown on the tournament's page. A tournament is never
deleted (its pulkas protect it).
"""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest

from .models import RegulationChange, Round, TableClosure, Tournament, TournamentEntry
from .regulations import log_admin_change

CHANGE_FIELDS = ("field", "before", "after", "changed_by", "changed_at")


class EntryInline(admin.TabularInline):
    model = TournamentEntry
    extra = 0
    fields = ["player", "state", "joined_round", "left_after_round"]
    raw_id_fields = ["player"]


# Shown and read-only alike: a tuple of its own, which both attributes' types accept.
ROUND_FIELDS = (
    "number",
    "stage",
    "status",
    "method",
    "repeats",
    "repeats_forced",
    "seed",
    "published_at",
)


class RoundInline(admin.TabularInline):
    model = Round
    extra = 0
    fields = ROUND_FIELDS
    readonly_fields = ROUND_FIELDS
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class ChangeInline(admin.TabularInline):
    model = RegulationChange
    extra = 0
    fields = CHANGE_FIELDS
    readonly_fields = CHANGE_FIELDS
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(TableClosure)
class TableClosureAdmin(admin.ModelAdmin):
    list_display = ["pulka", "reason", "closed_by", "closed_at"]
    readonly_fields = ["pulka", "reason", "whists", "note", "closed_by", "closed_at"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin):
    list_display = ["name", "club", "status", "public", "table_size", "created_at"]
    list_filter = ["status", "public", "club"]
    search_fields = ["name", "club__name"]
    readonly_fields = [
        "club",
        "convention_name",
        "convention_options",
        "convention_source",
        "table_size",
        "seed",
        "created_by",
        "created_at",
        "regulations_frozen_at",
    ]
    inlines = [EntryInline, RoundInline, ChangeInline]

    def save_model(self, request: HttpRequest, obj: Tournament, form: Any, change: bool) -> None:
        """Changes to frozen regulations are logged and shown (docs/tournaments.md §4.15)."""
        before = Tournament.objects.filter(pk=obj.pk).first() if change else None
        super().save_model(request, obj, form, change)
        if before is not None:
            log_admin_change(obj, before, request.user)

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False
