"""Per player and pulka summaries, the club rating and the club's choices about them.

A finished club pulka has one ``PulkaSummary`` per seat, written when it finishes and
again whenever its figures change (``summaries.py``), so a player's page reads his
rows in one query however many pulkas he played (README.md, "Documentation": the query
count does not grow with the number of pulkas). ``PlayerRating`` holds the club rating
as the engine computes it from those rows (docs/rating.md); recomputing it always gives
the same.
"""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _

from prefscore.clubs.models import Club, Player
from prefscore.games.models import Pulka


class PulkaSummary(models.Model):
    pulka = models.ForeignKey(Pulka, on_delete=models.CASCADE, related_name="summaries")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="pulka_summaries")
    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="+")
    seat = models.PositiveSmallIntegerField(_("seat"))
    finished_at = models.DateTimeField(_("finished"))
    version = models.PositiveIntegerField(_("pulka version summarised"))
    table_size = models.PositiveSmallIntegerField(_("players at the table"))
    convention_name = models.CharField(_("convention"), max_length=64)
    # Exact figures as fractions ("35/3"): the engine's results are rationals.
    result = models.CharField(_("settled result, whists"), max_length=40)
    won = models.BooleanField(_("best result at the table"))
    money = models.DecimalField(_("money"), max_digits=14, decimal_places=4, null=True, blank=True)
    play = models.JSONField(_("deals played"))  # scoring.engine.stats.PlayStats
    against = models.JSONField(_("net against each rival"))  # {player id: "fraction"}

    class Meta:
        verbose_name = _("pulka summary")
        verbose_name_plural = _("pulka summaries")
        constraints = [
            models.UniqueConstraint(fields=["pulka", "player"], name="one_summary_per_seat")
        ]
        indexes = [models.Index(fields=["club", "finished_at"])]

    def __str__(self) -> str:
        return f"{self.pulka_id}/{self.player_id}: {self.result}"


class PlayerRating(models.Model):
    player = models.OneToOneField(Player, on_delete=models.CASCADE, related_name="rating")
    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="+")
    mu = models.FloatField("μ")
    sigma = models.FloatField("σ")
    pulkas = models.PositiveIntegerField(_("pulkas rated"))

    class Meta:
        verbose_name = _("rating")
        verbose_name_plural = _("ratings")

    def __str__(self) -> str:
        return f"{self.player_id}: {self.mu:.2f} ± {self.sigma:.2f}"


class ClubStatsSettings(models.Model):
    """What a club admin chooses about the leaderboard."""

    club = models.OneToOneField(Club, on_delete=models.CASCADE, related_name="stats_settings")
    rating_public = models.BooleanField(
        _("leaderboard public"),
        default=False,
        help_text=_("Anyone with the link sees the club's leaderboard, signed in or not."),
    )

    def __str__(self) -> str:
        return f"{self.club_id}: {'public' if self.rating_public else 'members'}"


class PendingRecount(models.Model):
    """A settled sheet whose recount has not landed yet (``recounts.py``).

    Written in the very transaction that settles the sheet, so that no settle is lost;
    deleted by the recount task once the club's summaries, rating and seasons are counted
    again. While a club has any, its pages that show those figures say "updating…".
    ``pulka_id`` is a plain number (the pulka may be gone by then: its rows go with it);
    none means the club's rating and seasons only (a player merged into another).
    """

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="+")
    pulka_id = models.BigIntegerField(null=True, blank=True)
    settled_at = models.DateTimeField(_("settled"), auto_now_add=True)

    class Meta:
        verbose_name = _("recount waiting")
        verbose_name_plural = _("recounts waiting")
        indexes = [models.Index(fields=["club", "id"])]

    def __str__(self) -> str:
        return f"{self.club_id}: {self.pulka_id} at {self.settled_at:%Y-%m-%d %H:%M:%S}"
