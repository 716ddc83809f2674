"""Django admin for clubs, their members and their players.

A club is edited with its memberships and players inline; players and memberships also
have their own lists for searching across clubs.
"""

from __future__ import annotations

from django.contrib import admin
from django.http import HttpRequest

from .models import Club, Invitation, Membership, Player, SignInCounter


class MembershipInline(admin.TabularInline):
    model = Membership
    extra = 0
    autocomplete_fields = ["user"]


class PlayerInline(admin.TabularInline):
    model = Player
    extra = 0
    autocomplete_fields = ["user"]


@admin.register(Club)
class ClubAdmin(admin.ModelAdmin):
    list_display = ["name", "slug", "pencil_minutes", "created_at"]
    search_fields = ["name", "slug"]
    prepopulated_fields = {"slug": ["name"]}
    inlines = [MembershipInline, PlayerInline]


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ["name", "club", "user"]
    list_filter = ["club"]
    list_select_related = ["club", "user"]
    search_fields = ["name", "user__username", "club__name"]
    autocomplete_fields = ["club", "user"]


@admin.register(Membership)
class MembershipAdmin(admin.ModelAdmin):
    list_display = ["user", "club", "role"]
    list_filter = ["role", "club"]
    list_select_related = ["club", "user"]
    search_fields = ["user__username", "club__name"]
    autocomplete_fields = ["club", "user"]


@admin.register(Invitation)
class InvitationAdmin(admin.ModelAdmin):
    list_display = ["club", "role", "created_by", "expires_at", "used_by", "used_at"]
    list_filter = ["role", "club"]
    list_select_related = ["club", "created_by", "used_by"]
    search_fields = ["club__name", "created_by__username", "used_by__username"]
    readonly_fields = ["token"]


@admin.register(SignInCounter)
class SignInCounterAdmin(admin.ModelAdmin):
    """Read-only but for deletion: deleting a counter lifts its lock at once."""

    list_display = ["scope", "key", "failures", "strikes", "locked_until", "trusted"]
    list_filter = ["scope", "trusted"]
    search_fields = ["key"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False
