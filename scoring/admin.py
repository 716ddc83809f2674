"""Conventions in the Django admin, for superusers and for club admins.

A club admin is a user with the Membership role "admin" in a club. To use the admin he
also needs ``is_staff`` and the scoring.Convention permissions; ``manage.py
grant_club_admins`` gives both to every club admin (run it after naming new ones). He
then sees the presets (read-only) and his own clubs' conventions, and nothing else.
"""

from __future__ import annotations

import re
from typing import Any

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import ValidationError
from django.db.models import Q
from django.db.models.fields import Field
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.urls import reverse
from django.utils.text import capfirst
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _

from prefscore.admin_words import WordedAdmin
from prefscore.clubs.models import Club

from .choices import ConcedeLevel
from .models import (
    Consoler,
    Convention,
    ConventionQuerySet,
    HalfWhistLevel,
    admin_clubs,
    fields_by_topic,
)
from .presenters import convention_field, option_text

# Shown as words on a read-only page (a preset), instead of the stored JSON.
LIST_FIELDS = (
    "half_whist_levels",
    "consolation",
    "allpass_ladder",
    "exit_ladder",
    "concede_levels",
)


class IntegerListField(forms.CharField):
    """Whole numbers typed as "1, 2, 3"; the engine then judges their range."""

    def prepare_value(self, value: Any) -> Any:
        if isinstance(value, list | tuple):
            return ", ".join(str(item) for item in value)
        return value

    def to_python(self, value: Any) -> list[int]:  # type: ignore[override]
        text = super().to_python(value) or ""  # None only with empty_value=None
        parts = [part for part in re.split(r"[\s,;]+", text) if part]
        try:
            return [int(part) for part in parts]
        except ValueError:
            raise ValidationError(
                _("Enter whole numbers separated by commas, for example 1, 2, 3."),
                code="invalid",
            ) from None


def _list_formfield(db_field: Field[Any, Any]) -> forms.Field:
    common: dict[str, Any] = {
        "label": capfirst(str(db_field.verbose_name)),
        "help_text": db_field.help_text,
        "required": not db_field.blank,
    }
    if db_field.name == "consolation":
        return forms.MultipleChoiceField(
            choices=Consoler.choices, widget=forms.CheckboxSelectMultiple, **common
        )
    if db_field.name in ("half_whist_levels", "concede_levels"):
        levels = HalfWhistLevel if db_field.name == "half_whist_levels" else ConcedeLevel
        return forms.TypedMultipleChoiceField(
            choices=levels.choices,
            coerce=int,
            widget=forms.CheckboxSelectMultiple,
            **common,
        )
    return IntegerListField(**common)


@admin.register(Convention)
class ConventionAdmin(WordedAdmin):
    add_title = _("New convention")
    list_display = (
        "__str__",
        "owner",
        "is_preset",
        "whist_style",
        "allpass_scoring",
        "end",
        "pulkas_using_it",
    )
    list_filter = (
        ("owner", admin.RelatedOnlyFieldListFilter),
        "is_preset",
        "whist_style",
        "allpass_scoring",
        "end",
    )
    list_select_related = ("owner",)
    search_fields = ("name", "slug", "description")
    prepopulated_fields = {"slug": ("name",)}
    actions = ["duplicate"]

    # Who sees and changes what

    def get_queryset(self, request: HttpRequest) -> ConventionQuerySet:
        conventions = Convention.objects.with_pulka_count()
        if request.user.is_superuser:
            return conventions
        return conventions.filter(Q(owner__isnull=True) | Q(owner__in=admin_clubs(request.user)))

    def _admin_club_ids(self, request: HttpRequest) -> frozenset[int]:
        # Asked several times per page: once per request is enough.
        cached: frozenset[int] | None = getattr(request, "_convention_admin_clubs", None)
        if cached is None:
            cached = frozenset(admin_clubs(request.user).values_list("pk", flat=True))
            request._convention_admin_clubs = cached  # type: ignore[attr-defined]
        return cached

    def _visible(self, request: HttpRequest, obj: Convention) -> bool:
        return (
            request.user.is_superuser
            or obj.owner_id is None
            or obj.owner_id in self._admin_club_ids(request)
        )

    def _editable(self, request: HttpRequest, obj: Convention) -> bool:
        if obj.is_preset:
            return False
        return request.user.is_superuser or obj.owner_id in self._admin_club_ids(request)

    def has_view_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        allowed = super().has_view_permission(request, obj)
        return allowed and (obj is None or self._visible(request, obj))

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        allowed = super().has_change_permission(request, obj)
        return allowed and (obj is None or self._editable(request, obj))

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        allowed = super().has_delete_permission(request, obj)
        return allowed and (obj is None or self._editable(request, obj))

    def has_add_permission(self, request: HttpRequest) -> bool:
        allowed = super().has_add_permission(request)
        return allowed and (request.user.is_superuser or bool(self._admin_club_ids(request)))

    # The form

    def get_fieldsets(self, request: HttpRequest, obj: Any = None) -> Any:
        general: list[str] = ["name", "slug", "owner", "description"]
        if obj is not None:
            general += ["is_preset", "pulkas_using_it"] if obj.is_preset else ["pulkas_using_it"]
        read_only = obj is not None and not self.has_change_permission(request, obj)
        topics = [
            (title, {"fields": [self._shown(field) if read_only else field for field in fields]})
            for title, fields in fields_by_topic()
        ]
        return [(None, {"fields": general}), *topics]

    @staticmethod
    def _shown(field: str) -> str:
        return f"{field}_shown" if field in LIST_FIELDS else field

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> Any:
        return ("is_preset", "pulkas_using_it") if obj is not None else ()

    def formfield_for_dbfield(
        self, db_field: Field[Any, Any], request: HttpRequest, **kwargs: Any
    ) -> forms.Field | None:
        if db_field.name in LIST_FIELDS:
            return _list_formfield(db_field)
        return super().formfield_for_dbfield(db_field, request, **kwargs)

    def formfield_for_foreignkey(self, db_field: Any, request: HttpRequest, **kwargs: Any) -> Any:
        if db_field.name == "owner" and not request.user.is_superuser:
            # A club admin files conventions under his own clubs only.
            kwargs["queryset"] = admin_clubs(request.user)
            kwargs["required"] = True
            kwargs["empty_label"] = None
        return super().formfield_for_foreignkey(db_field, request, **kwargs)

    def get_changeform_initial_data(self, request: HttpRequest) -> dict[str, Any]:
        # Values from the query string are strings; the owner's initial value is a pk.
        initial: dict[str, Any] = super().get_changeform_initial_data(request)
        if not request.user.is_superuser:
            club = admin_clubs(request.user).first()
            if club is not None:
                initial.setdefault("owner", club.pk)
        return initial

    # Columns

    @admin.display(description=_("pulkas using it"), ordering="pulka_count")
    def pulkas_using_it(self, obj: Convention) -> int:
        return getattr(obj, "pulka_count", 0)

    # The action

    @admin.action(description=_("Duplicate as a new convention"), permissions=["add"])
    def duplicate(self, request: HttpRequest, queryset: ConventionQuerySet) -> HttpResponse | None:
        copies = [source.duplicate(self._owner_for_copy(request, source)) for source in queryset]
        if len(copies) == 1:
            copy = copies[0]
            self.message_user(
                request,
                gettext("“%(name)s” is a new convention: change it below and save.")
                % {"name": copy.name},
                messages.SUCCESS,
            )
            return HttpResponseRedirect(reverse("admin:scoring_convention_change", args=[copy.pk]))
        self.message_user(
            request,
            ngettext(
                "%(count)d convention duplicated.", "%(count)d conventions duplicated.", len(copies)
            )
            % {"count": len(copies)},
            messages.SUCCESS,
        )
        return None

    def _owner_for_copy(self, request: HttpRequest, source: Convention) -> Club | None:
        """A superuser keeps the source's owner (none for a preset); a club admin's
        copy goes to the source's club if he runs it, else to his first club."""
        if request.user.is_superuser or source.owner_id in self._admin_club_ids(request):
            return source.owner
        return admin_clubs(request.user).order_by("name").first()


def _shown_method(field: str) -> Any:
    def shown(self: ConventionAdmin, obj: Convention) -> str:
        return option_text(field, getattr(obj, field))

    label = capfirst(convention_field(field).verbose_name)
    return admin.display(description=label)(shown)


for _field in LIST_FIELDS:
    setattr(ConventionAdmin, f"{_field}_shown", _shown_method(_field))
