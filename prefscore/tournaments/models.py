"""Tournaments of a club: entries, rounds, and a pulka per table per round.

The tables of a round are ordinary pulkas (``games.Pulka``) that carry the tournament
and the round number; their sheets are recorded like any other. Standings are always
recomputed from those sheets (``services.standings``), never stored.
"""

from __future__ import annotations

import secrets

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from prefscore.clubs.models import Club, Player
from scoring.engine import ranking
from scoring.snapshot import ConventionSnapshot


def _new_seed() -> int:
    # Shown on the page and kept: the draws can be re-checked from it (docs/tournaments.md §4.3).
    return secrets.randbelow(2**31)


def _default_tie_breaks() -> list[str]:
    return list(ranking.DEFAULT_TIE_BREAKS)


class Tournament(ConventionSnapshot):
    class Status(models.TextChoices):
        REGISTRATION = "registration", _("registration")
        RUNNING = "running", _("rounds in play")
        FINAL = "final", _("final")
        FINISHED = "finished", _("finished")

    class Normalisation(models.TextChoices):
        RAW = "raw", _("whists as they are (Кодекс 4.1.3)")
        PLACES = "places", _("place points at the table, shared places split")
        SERBIAN = "serbian", _("place points, Serbian league rule")
        GAMBLER = "gambler", _("whists above 200 count 1/10, above 650 nothing")
        ELEPHANT = "elephant", _("whists 51–100 count half, above 100 count 1/10")

    class Carry(models.TextChoices):
        KEPT = "kept", _("kept")
        HALVED = "halved", _("halved")
        CLEARED = "cleared", _("cleared")

    club = models.ForeignKey(
        Club, on_delete=models.PROTECT, related_name="tournaments", verbose_name=_("club")
    )
    name = models.CharField(_("name"), max_length=120)
    slug = models.SlugField(_("short name for links"), max_length=60)
    public = models.BooleanField(
        _("standings are public"),
        default=False,
        help_text=_("Anyone with the link may read the standings, without signing in."),
    )
    table_size = models.PositiveSmallIntegerField(
        _("players per table"), choices=[(3, "3"), (4, "4")], default=4
    )
    target = models.PositiveIntegerField(_("pulya target"))
    deals_per_round = models.PositiveSmallIntegerField(_("deals per round"), null=True, blank=True)
    normalisation = models.CharField(
        _("round scores"), max_length=10, choices=Normalisation.choices, default=Normalisation.RAW
    )
    tie_breaks = models.JSONField(_("tie-breaks in order"), default=_default_tie_breaks)
    carry = models.CharField(
        _("qualifying points in the final"),
        max_length=8,
        choices=Carry.choices,
        default=Carry.KEPT,
    )
    seed = models.PositiveIntegerField(_("seed of the draws"), default=_new_seed)
    status = models.CharField(
        _("status"), max_length=12, choices=Status.choices, default=Status.REGISTRATION
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        related_name="+",
        verbose_name=_("created by"),
    )
    created_at = models.DateTimeField(_("created"), auto_now_add=True)

    class Meta:
        verbose_name = _("tournament")
        verbose_name_plural = _("tournaments")
        ordering = ["-created_at"]
        constraints = [
            models.UniqueConstraint(fields=["club", "slug"], name="unique_tournament_slug_in_club")
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def rules(self) -> ranking.Rules:
        return ranking.Rules(self.normalisation, tuple(self.tie_breaks), self.seed)


class TournamentEntry(models.Model):
    """A club player registered for a tournament; ``dropped`` ones are no longer drawn."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="entries")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="tournament_entries")
    dropped = models.BooleanField(_("dropped"), default=False)
    created_at = models.DateTimeField(_("registered"), auto_now_add=True)

    class Meta:
        verbose_name = _("entry")
        verbose_name_plural = _("entries")
        ordering = ["player__name"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "player"], name="one_entry_per_player")
        ]

    def __str__(self) -> str:
        return f"{self.player} @ {self.tournament}"


class Round(models.Model):
    """A drawn round: its tables are the pulkas with this tournament and round number."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="rounds")
    number = models.PositiveSmallIntegerField(_("number"))
    # The seed the engine drew it with: the draw can be reproduced from the history.
    seed = models.PositiveIntegerField(_("seed"))
    is_final = models.BooleanField(_("final"), default=False)
    method = models.CharField(_("seating method"), max_length=12, blank=True)
    repeats = models.PositiveSmallIntegerField(_("pairs meeting again"), default=0)
    repeats_forced = models.BooleanField(_("repeats unavoidable"), default=False)
    created_at = models.DateTimeField(_("drawn"), auto_now_add=True)

    class Meta:
        verbose_name = _("round")
        verbose_name_plural = _("rounds")
        ordering = ["number"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="one_round_per_number")
        ]

    def __str__(self) -> str:
        return f"{self.tournament} #{self.number}"
