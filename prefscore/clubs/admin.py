"""Django admin for clubs, their members and their players.

A club is edited with its memberships and players inline; players and memberships also
have their own lists for searching across clubs.
"""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.contrib.auth import admin as auth_admin
from django.contrib.auth.models import Group, User
from django.forms import ModelForm
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _

from prefscore.admin_words import WordedAdmin

from .account_views import SignInView
from .models import Club, Invitation, Membership, Player, SignInCounter
from .players import ensure_player


class MembershipInline(admin.TabularInline):
    model = Membership
    extra = 0
    autocomplete_fields = ["user"]


class PlayerInline(admin.TabularInline):
    model = Player
    extra = 0
    autocomplete_fields = ["user"]


@admin.register(Club)
class ClubAdmin(WordedAdmin):
    add_title = _("New club")
    list_display = ["name", "slug", "pencil_minutes", "created_at"]
    search_fields = ["name", "slug"]
    prepopulated_fields = {"slug": ["name"]}
    inlines = [MembershipInline, PlayerInline]

    def save_formset(self, request: HttpRequest, form: Any, formset: Any, change: bool) -> None:
        super().save_formset(request, form, formset, change)
        if formset.model is Membership:  # every member is one of the club's players
            for membership in formset.new_objects:
                ensure_player(membership.club, membership.user, by=request.user)


@admin.register(Player)
class PlayerAdmin(WordedAdmin):
    add_title = _("New player")
    list_display = ["name", "club", "user"]
    list_filter = ["club"]
    list_select_related = ["club", "user"]
    search_fields = ["name", "user__username", "club__name"]
    autocomplete_fields = ["club", "user"]


@admin.register(Membership)
class MembershipAdmin(WordedAdmin):
    add_title = _("New membership")
    list_display = ["user", "club", "role"]
    list_filter = ["role", "club"]
    list_select_related = ["club", "user"]
    search_fields = ["user__username", "club__name"]
    autocomplete_fields = ["club", "user"]

    def save_model(
        self, request: HttpRequest, obj: Membership, form: ModelForm, change: bool
    ) -> None:
        super().save_model(request, obj, form, change)
        ensure_player(obj.club, obj.user, by=request.user)  # every member is a player


@admin.register(Invitation)
class InvitationAdmin(WordedAdmin):
    add_title = _("New invitation")
    list_display = ["club", "role", "created_by", "expires_at", "used_by", "used_at"]
    list_filter = ["role", "club"]
    list_select_related = ["club", "created_by", "used_by"]
    search_fields = ["club__name", "created_by__username", "used_by__username"]
    readonly_fields = ["token"]


@admin.register(SignInCounter)
class SignInCounterAdmin(WordedAdmin):
    """Read-only but for deletion: deleting a counter lifts its challenge at once."""

    list_display = ["scope", "key", "failures", "strikes", "locked_until", "trusted"]
    list_filter = ["scope", "trusted"]
    search_fields = ["key"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False


def admin_sign_in(request: HttpRequest, extra_context: dict[str, Any] | None = None) -> Any:
    """The admin's sign-in is ours: the same limits, mailed code, message and 429."""
    return SignInView.as_view()(request)


# AdminSite.login is what /admin/login/ calls; replacing it keeps the admin's URL names.
admin.site.login = admin_sign_in  # type: ignore[method-assign]


# Django's own admins of accounts and groups, with the titles worded as the others'.
admin.site.unregister(User)
admin.site.unregister(Group)


@admin.register(User)
class AccountAdmin(WordedAdmin, auth_admin.UserAdmin):
    add_title = _("New user")


@admin.register(Group)
class GroupAdmin(WordedAdmin, auth_admin.GroupAdmin):
    add_title = _("New group")
