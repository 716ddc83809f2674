"""The season form: its details and its standings policy (docs/seasons.md §1–§6)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from prefscore.clubs.forms import free_among, slug_from_name
from prefscore.clubs.models import Club
from prefscore.clubs.name_rules import shown_name
from prefscore.tournaments.models import Tournament
from scoring.engine import season as engine
from scoring.messages import message_for

from . import coefficients
from .models import Season

TIE_BREAK_CHOICES = [
    ("", _("none")),
    ("best_result", _("best single event")),
    ("attended", _("events played")),
    ("wins", _("tables won")),
    ("latest", _("latest event")),
]


# ModelForm is generic in the stubs only (pyproject.toml, [[tool.mypy.overrides]]).
class SeasonForm(forms.ModelForm):  # type: ignore[type-arg]
    first_tie_break = forms.ChoiceField(
        label=_("First tie-break"), choices=TIE_BREAK_CHOICES, required=False
    )
    second_tie_break = forms.ChoiceField(
        label=_("Second tie-break"), choices=TIE_BREAK_CHOICES, required=False
    )

    class Meta:
        model = Season
        fields = [
            "name",
            "slug",
            "starts_on",
            "ends_on",
            "regulations",
            "public",
            "evenings",
            "tournaments",
            "final",
            "measure",
            "aggregate",
            "best_n",
            "minimum",
            "yellow_cards_limit",
        ]
        widgets = {
            "starts_on": forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
            "ends_on": forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
            "regulations": forms.Textarea(attrs={"rows": 4}),
            "tournaments": forms.CheckboxSelectMultiple,
        }

    def clean_name(self) -> str:
        """The season's name shows (the one rule of names, clubs/name_rules.py)."""
        name = shown_name(str(self.cleaned_data["name"]))
        if not name:
            raise forms.ValidationError(_("Give the season a name."))
        return name

    def __init__(self, *args: Any, club: Club, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.club = club
        # As a club's: a newcomer need not invent a link name (docs/seasons.md §1).
        self.fields["slug"].required = False
        self.fields["slug"].help_text = _(
            "Latin letters, digits and hyphens; made from the name if left empty."
        )
        of_club = Tournament.objects.filter(club=club)
        self.fields["tournaments"].queryset = of_club  # type: ignore[attr-defined]
        self.fields["final"].queryset = of_club  # type: ignore[attr-defined]
        if not of_club.exists():  # else an empty list under its label says nothing
            self.fields["tournaments"].help_text = _(
                "The club has no tournament yet; choose them here once it has."
            )
        season = self.instance
        self._coefficient_fields(season)
        breaks = list(season.tie_breaks or []) + ["", ""]
        self.fields["first_tie_break"].initial = breaks[0]
        self.fields["second_tie_break"].initial = breaks[1]

    def clean_slug(self) -> str:
        slug: str = self.cleaned_data["slug"]
        if not slug:  # made from the name in clean(), once the name is read
            return slug
        if slug == "new" or self._taken(slug):
            raise forms.ValidationError(_("The club has a season of this short name already."))
        return slug

    def _taken(self, slug: str) -> bool:
        return (
            Season.objects.filter(club=self.club, slug=slug).exclude(pk=self.instance.pk).exists()
        )

    def _free_slug(self, name: str) -> str:
        """A short name from the season's name, free in the club (``-2``, ``-3``…)."""
        others = Season.objects.filter(club=self.club).exclude(pk=self.instance.pk)
        base = slug_from_name(name, fallback="season")
        return free_among(others, base, {"new"})  # "new": the URL of the new-season form

    def _coefficient_fields(self, season: Season) -> None:
        """A coefficient field per convention the club plays, stored by its name
        (docs/seasons.md §3); a stored name that matches none gets a field of its own,
        refused until it is emptied (``coefficients.unknown``)."""
        stored = dict(season.coefficients or {})
        known = coefficients.weighable(self.club)
        names = {name for name, _label in known}
        strays = [(name, "") for name in stored if name not in names]
        self.coefficient_names: dict[str, tuple[str, bool]] = {}
        for name, label in [*known, *strays]:
            key = coefficients.field_name(name)
            self.coefficient_names[key] = (name, name in names)
            self.fields[key] = forms.CharField(
                label=label or _("“%(name)s” (no convention of the club)") % {"name": name},
                required=False,
                max_length=20,
                initial=stored.get(name, ""),
                widget=forms.TextInput(attrs={"placeholder": "1", "autocomplete": "off"}),
            )

    @property
    def coefficient_fields(self) -> list[forms.BoundField]:
        """The coefficient fields in the order shown: presets, the club's own, the rest."""
        return [self[key] for key in self.coefficient_names]

    def _clean_coefficients(self) -> dict[str, str]:
        """The coefficients by convention name; each refusal next to its field."""
        out: dict[str, str] = {}
        for key, (name, known) in self.coefficient_names.items():
            value = (self.cleaned_data.get(key) or "").strip()
            if not value:
                continue
            if not known:
                self.add_error(
                    key,
                    _(
                        "No convention of the club is called “%(name)s”: give its coefficient "
                        "to the convention it means, and empty this field."
                    )
                    % {"name": name},
                )
                continue
            try:
                weight = engine.parse_coefficients({name: value})
                engine.check_policy(engine.Policy(coefficients=weight))
            except engine.SeasonError as error:
                self.add_error(key, message_for(error))
                continue
            out[name] = value
        return out

    def clean_yellow_cards_limit(self) -> int | None:
        limit: int | None = self.cleaned_data.get("yellow_cards_limit")
        try:
            engine.check_policy(engine.Policy(yellow_cards_limit=limit))
        except engine.SeasonError as error:
            raise forms.ValidationError(message_for(error)) from error
        return limit

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        starts, ends = data.get("starts_on"), data.get("ends_on")
        if starts and ends and ends < starts:
            self.add_error("ends_on", _("The last day cannot come before the first."))
        if data.get("aggregate") == Season.Aggregate.BEST and not data.get("best_n"):
            self.add_error("best_n", _("Say how many of the best events count (at least 1)."))
        breaks = [b for b in (data.get("first_tie_break"), data.get("second_tie_break")) if b]
        if len(set(breaks)) != len(breaks):
            self.add_error("second_tie_break", _("Choose two different tie-breaks."))
        data["tie_breaks"] = breaks
        data["coefficients"] = self._clean_coefficients()
        if not data.get("slug") and data.get("name"):
            data["slug"] = self._free_slug(data["name"])
        return data

    def save(self, commit: bool = True) -> Season:
        season: Season = super().save(commit=False)
        season.coefficients = self.cleaned_data["coefficients"]
        season.tie_breaks = self.cleaned_data["tie_breaks"]
        if commit:
            season.save()
        return season
