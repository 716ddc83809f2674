"""Qualifying the season's best, and the organiser's wildcards, to its final (§9).

``qualify`` counts the table afresh, asks the engine for the qualifiers seeded by their
standing, enters them into the final tournament and keeps the list (docs/seasons.md §9).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django import forms
from django.db import transaction
from django.utils.translation import gettext_lazy as _

from prefscore.clubs.models import Club, Player
from prefscore.tournaments import entries
from scoring.engine import season as engine

from . import standings
from .models import Qualification, Season


class QualifyForm(forms.Form):
    top = forms.IntegerField(label=_("Top of the table who qualify"), min_value=0, max_value=500)
    wildcards = forms.ModelMultipleChoiceField(
        label=_("Wildcards"),
        queryset=Player.objects.none(),
        required=False,
        widget=forms.CheckboxSelectMultiple,
    )

    def __init__(self, *args: Any, club: Club, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        players = self.fields["wildcards"]
        players.queryset = Player.objects.filter(club=club).order_by("name")  # type: ignore[attr-defined]


def qualify(season: Season, top: int, wildcards: Sequence[Player], user: Any) -> int:
    """Enter the qualifiers into the final and keep them with their seeds; how many."""
    assert season.final is not None
    chosen = engine.qualifiers(standings.compute(season), top, [p.pk for p in wildcards])
    players = {p.pk: p for p in Player.objects.filter(pk__in=[q.player for q in chosen])}
    with transaction.atomic():
        entries.register(season.final, [players[q.player] for q in chosen])
        Qualification.objects.filter(season=season).delete()
        Qualification.objects.bulk_create(
            Qualification(
                season=season,
                player_id=q.player,
                seed=q.seed,
                wildcard=q.wildcard,
                chosen_by=user,
            )
            for q in chosen
        )
    return len(chosen)


def final_seeds(sender: Any, tournament: Any, **kwargs: Any) -> dict[int, int]:
    """``tournaments.seeds.seeds_wanted``: the qualifiers' seeds when the tournament is a
    season's final, for its first draw and its registration list (docs/seasons.md §9)."""
    rows = Qualification.objects.filter(season__final=tournament).order_by("season_id", "seed")
    seeds: dict[int, int] = {}
    for player, seed in rows.values_list("player_id", "seed"):
        seeds.setdefault(player, seed)
    return seeds
