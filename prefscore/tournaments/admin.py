"""Django admin for tournaments: a window onto the record.

The regulations (convention snapshot, table size, scoring, tie-breaks, seed) and the
drawn rounds are read-only here: changing them would re-seat or re-score rounds already
played. A tournament is never deleted (its pulkas protect it).
"""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest

from .models import Round, Tournament, TournamentEntry


class EntryInline(admin.TabularInline):
    model = TournamentEntry
    extra = 0
    fields = ["player", "state", "joined_round", "left_after_round"]
    raw_id_fields = ["player"]


# Shown and read-only alike: a tuple of its own, which both attributes' types accept.
ROUND_FIELDS = ("number", "is_final", "method", "repeats", "repeats_forced", "seed", "created_at")


class RoundInline(admin.TabularInline):
    model = Round
    extra = 0
    fields = ROUND_FIELDS
    readonly_fields = ROUND_FIELDS
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
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
        "normalisation",
        "tie_breaks",
        "seed",
        "created_by",
        "created_at",
    ]
    inlines = [EntryInline, RoundInline]

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False
