"""Django admin for tournaments: a window onto the record.

The convention snapshot, table size and seed, and the drawn rounds, are read-only
here: changing them would re-seat or re-score rounds already played. The ranking
settings may be changed; once round 1 is published each change is logged
(``RegulationChange``) and shown on the tournament's page. A tournament is never
deleted (its pulkas protect it).
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _

from prefscore.admin_words import WordedAdmin

from . import decisions
from .models import (
    RegulationChange,
    Round,
    TableClosure,
    Tournament,
    TournamentEntry,
    TournamentEvent,
)
from .regulations import log_admin_change
from .services import TournamentError
from .tables import checked_whists

CHANGE_FIELDS = ("field", "before", "after", "changed_by", "changed_at")


class EntryInline(admin.TabularInline):
    model = TournamentEntry
    extra = 0
    fields = ["player", "state", "joined_round", "left_after_round", "forfeited_round"]
    # Set when he left a table in play (tables.leave_table): a fact, not a setting.
    readonly_fields = ["forfeited_round"]
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


CLOSURE_FIELDS = ["pulka", "reason", "whists", "note", "closed_by", "closed_at"]


class ClosureCorrectionForm(forms.ModelForm):
    """The arbiter's final sheet corrected in the admin: the same checks and audit as on
    the tournament page (``decisions.correct_closure``), with a reason."""

    decision_reason = forms.CharField(label=_("Reason for the correction"), max_length=300)

    class Meta:
        model = TableClosure
        fields = ["whists"]

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        whists = cleaned.get("whists")
        pulka = self.instance.pulka
        try:
            if not isinstance(whists, list) or not all(
                isinstance(w, int) and not isinstance(w, bool) for w in whists
            ):
                raise TournamentError(_("Enter the whists of every player at the table."))
            checked_whists(pulka, whists)
            if pulka.tournament is not None and pulka.tournament.finished:
                raise TournamentError(
                    _(
                        "The tournament is finished: its results are final. Reopen it to change them."
                    )
                )
        except TournamentError as error:
            self.add_error("whists", str(error))
        return cleaned


@admin.register(TableClosure)
class TableClosureAdmin(WordedAdmin):
    list_display = ["pulka", "reason", "closed_by", "closed_at"]
    readonly_fields = CLOSURE_FIELDS

    def _arbiter(self, obj: Any) -> bool:
        return obj is not None and obj.reason == TableClosure.Reason.ARBITER

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> Any:
        if self._arbiter(obj):
            return [name for name in CLOSURE_FIELDS if name != "whists"]
        return CLOSURE_FIELDS

    def get_form(
        self, request: HttpRequest, obj: Any = None, change: bool = False, **kwargs: Any
    ) -> Any:
        if self._arbiter(obj):
            kwargs["form"] = ClosureCorrectionForm
        return super().get_form(request, obj, change, **kwargs)

    def save_model(self, request: HttpRequest, obj: TableClosure, form: Any, change: bool) -> None:
        """Only an arbiter's sheet changes here, through the audited correction."""
        if not self._arbiter(obj) or "whists" not in form.changed_data:
            return
        pulka = obj.pulka
        tournament = pulka.tournament
        if tournament is None:
            return
        decisions.correct_closure(
            pulka.pk,
            tournament,
            request.user,
            form.cleaned_data["whists"],
            form.cleaned_data["decision_reason"],
        )

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(TournamentEvent)
class TournamentEventAdmin(WordedAdmin):
    """The directors' decisions: read only, never deleted (the audit)."""

    list_display = ["tournament", "action", "user", "at"]
    readonly_fields = ["tournament", "action", "reason", "details", "user", "at"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Tournament)
class TournamentAdmin(WordedAdmin):
    add_title = _("New tournament")
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
