"""The forms of the divisions page (docs/seasons.md §10)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from prefscore.clubs.models import Club, Player
from prefscore.games.models import Pulka

from .models import Season


class DivisionsForm(forms.Form):
    """One division a line, the highest first: “Masters = Alla, Bella”."""

    text = forms.CharField(
        label=_("Divisions, the highest first"),
        widget=forms.Textarea(attrs={"rows": 4}),
        help_text=_("One a line: the division's name, “=”, its players separated by commas."),
    )

    def __init__(self, *args: Any, club: Club, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.club = club

    def clean_text(self) -> list[tuple[str, list[Player]]]:
        players = {p.name: p for p in Player.objects.filter(club=self.club)}
        out: list[tuple[str, list[Player]]] = []
        seen: set[str] = set()
        for line in self.cleaned_data["text"].splitlines():
            if not line.strip():
                continue
            name, sep, names = line.partition("=")
            if not sep or not name.strip():
                raise forms.ValidationError(_("Write each line as “division = players”."))
            members = [n.strip() for n in names.split(",") if n.strip()]
            unknown = [n for n in members if n not in players]
            if unknown:
                raise forms.ValidationError(
                    _("No player of the club is named %(name)s.") % {"name": unknown[0]}
                )
            twice = seen.intersection(members)
            if twice:
                raise forms.ValidationError(
                    _("%(name)s is in two divisions.") % {"name": sorted(twice)[0]}
                )
            seen.update(members)
            out.append((name.strip(), [players[n] for n in members]))
        return out


class ConfirmForm(forms.Form):
    count = forms.IntegerField(label=_("Up and down from each division"), min_value=0, max_value=50)
    next_season = forms.ModelChoiceField(label=_("Next season"), queryset=Season.objects.none())

    def __init__(self, *args: Any, season: Season, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        field = self.fields["next_season"]
        field.queryset = Season.objects.filter(club_id=season.club_id).exclude(pk=season.pk)  # type: ignore[attr-defined]


class MarkedForm(forms.Form):
    """The club's finished pulkas of the season's period, to mark for it (§1)."""

    pulkas = forms.ModelMultipleChoiceField(
        label=_("Pulkas that count for the season"),
        queryset=Pulka.objects.none(),
        required=False,
        widget=forms.CheckboxSelectMultiple,
    )

    def __init__(self, *args: Any, season: Season, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        field = self.fields["pulkas"]
        field.queryset = Pulka.objects.filter(  # type: ignore[attr-defined]
            club_id=season.club_id,
            tournament__isnull=True,
            status=Pulka.Status.FINISHED,
            created_at__date__gte=season.starts_on,
            created_at__date__lte=season.ends_on,
        ).order_by("created_at", "pk")
