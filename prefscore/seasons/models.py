"""A club's seasons: their standings policy, the stored table, and changes to the policy.

The table is computed by the engine (``scoring.engine.season``, docs/seasons.md) from the
statistics' summary rows and kept as ``SeasonLine`` rows, counted again whenever a pulka
of the club settles (``standings.py``); ``check_season`` recomputes and compares.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from prefscore.clubs.models import Club, Player
from prefscore.games.models import Pulka
from prefscore.tournaments.models import SettingChange, Tournament
from scoring.engine import season as engine


def _default_tie_breaks() -> list[str]:
    return list(engine.DEFAULT_TIE_BREAKS)


def _no_coefficients() -> dict[str, str]:
    return {}


# The settings of the standings policy (docs/seasons.md §2–§6, §8): frozen once an event counts.
POLICY_FIELDS = (
    "evenings",
    "final_id",
    "measure",
    "aggregate",
    "best_n",
    "minimum",
    "coefficients",
    "tie_breaks",
    "yellow_cards_limit",
)


class Season(models.Model):
    class Evenings(models.TextChoices):
        ALL = "all", _("every finished club pulka in the period")
        MARKED = "marked", _("only the pulkas marked for the season")

    class Measure(models.TextChoices):
        PLACES = "places", _("place points at the table (3 to 0, tables of 3 and 4 alike)")
        WHISTS = "whists", _("whists")
        RATING = "rating", _("the change of the player's club rating")

    class Aggregate(models.TextChoices):
        SUM = "sum", _("sum of all events")
        AVERAGE = "average", _("average of all events")
        BEST = "best", _("sum of the best N events")

    club = models.ForeignKey(
        Club, on_delete=models.PROTECT, related_name="seasons", verbose_name=_("club")
    )
    name = models.CharField(_("name"), max_length=120)
    slug = models.SlugField(_("short name for links"), max_length=60)
    starts_on = models.DateField(_("first day"))
    ends_on = models.DateField(_("last day"))
    regulations = models.TextField(_("regulations"), blank=True)
    public = models.BooleanField(
        _("table is public"),
        default=False,
        help_text=_("Anyone with the link may read the season table, without signing in."),
    )
    evenings = models.CharField(
        _("club evenings"), max_length=8, choices=Evenings.choices, default=Evenings.ALL
    )
    marked_pulkas = models.ManyToManyField(
        Pulka, blank=True, related_name="seasons", verbose_name=_("pulkas marked for the season")
    )
    tournaments = models.ManyToManyField(
        Tournament, blank=True, related_name="seasons", verbose_name=_("tournaments of the season")
    )
    final = models.ForeignKey(
        Tournament,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="final_of",
        verbose_name=_("the season's final"),
    )
    measure = models.CharField(
        _("points of an event"), max_length=8, choices=Measure.choices, default=Measure.PLACES
    )
    aggregate = models.CharField(
        _("season total"), max_length=8, choices=Aggregate.choices, default=Aggregate.SUM
    )
    best_n = models.PositiveSmallIntegerField(_("best N events count"), default=0)
    minimum = models.PositiveSmallIntegerField(_("events needed to be ranked"), default=0)
    coefficients = models.JSONField(_("coefficients per convention"), default=_no_coefficients)
    tie_breaks = models.JSONField(_("tie-breaks in order"), default=_default_tie_breaks)
    # Cards carry over (docs/seasons.md §13): empty, yellow cards never take a player out.
    yellow_cards_limit = models.PositiveSmallIntegerField(
        _("yellow cards across the season that take a player out of the ranking"),
        null=True,
        blank=True,
        default=engine.DEFAULT_YELLOW_CARDS_LIMIT,
        help_text=_("A red card always does. Empty: yellow cards are shown, never counted."),
    )
    # Set the first time the table is counted with an event in it (docs/seasons.md §8).
    policy_frozen_at = models.DateTimeField(_("policy frozen"), null=True, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        related_name="+",
        verbose_name=_("created by"),
    )
    created_at = models.DateTimeField(_("created"), auto_now_add=True)

    class Meta:
        verbose_name = _("season")
        verbose_name_plural = _("seasons")
        ordering = ["-starts_on", "-pk"]
        constraints = [
            models.UniqueConstraint(fields=["club", "slug"], name="unique_season_slug_in_club")
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def policy(self) -> engine.Policy:
        """The standings policy as the engine reads it (docs/seasons.md §2–§6)."""
        return engine.Policy(
            measure=self.measure,
            aggregate=self.aggregate,
            best_n=self.best_n,
            minimum=self.minimum,
            coefficients=engine.parse_coefficients(self.coefficients),
            tie_breaks=tuple(self.tie_breaks),
            yellow_cards_limit=self.yellow_cards_limit,
        )


class Division(models.Model):
    """A division of a season, ``order`` 0 the highest (docs/seasons.md §10)."""

    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="divisions")
    name = models.CharField(_("name"), max_length=60)
    order = models.PositiveSmallIntegerField(_("order, 0 the highest"))
    players = models.ManyToManyField(Player, blank=True, related_name="+")

    class Meta:
        verbose_name = _("division")
        verbose_name_plural = _("divisions")
        ordering = ["order"]
        constraints = [
            models.UniqueConstraint(fields=["season", "order"], name="one_division_per_order")
        ]

    def __str__(self) -> str:
        return self.name


class SeasonLine(models.Model):
    """A player's line of the stored season table (docs/seasons.md §7)."""

    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="lines")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="season_lines")
    position = models.PositiveIntegerField(_("position"))
    # With divisions, the rank within the player's division (docs/seasons.md §10).
    division = models.ForeignKey(
        Division, on_delete=models.CASCADE, null=True, blank=True, related_name="+"
    )
    rank = models.PositiveIntegerField(_("rank"), null=True, blank=True)
    total = models.CharField(_("total"), max_length=40)  # exact, "35/3"
    needed = models.PositiveSmallIntegerField(_("events still needed"))
    wins = models.PositiveSmallIntegerField(_("tables won"))
    # [[event key, "points", counts?], ...] in the order the events were played.
    points = models.JSONField(_("points per event"))
    # [[event key, yellow, red], ...] where he got cards (docs/seasons.md §13).
    cards = models.JSONField(_("cards per event"), default=list)
    excluded = models.BooleanField(_("out of the ranking by his cards"), default=False)

    class Meta:
        verbose_name = _("season line")
        verbose_name_plural = _("season lines")
        ordering = ["position"]
        constraints = [
            models.UniqueConstraint(fields=["season", "player"], name="one_line_per_season_player")
        ]

    def __str__(self) -> str:
        return f"{self.season_id}/{self.player_id}: {self.total}"


class PolicyChange(SettingChange):
    """A change to a frozen standings policy (docs/seasons.md §8), shaped as a tournament's
    change of its regulations."""

    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="policy_changes")

    class Meta(SettingChange.Meta):
        verbose_name = _("change of the standings policy")
        verbose_name_plural = _("changes of the standings policy")

    def __str__(self) -> str:
        return f"{self.season}: {self.field}"


class Qualification(models.Model):
    """A player entered into the season's final, with his seed (docs/seasons.md §9)."""

    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="qualifications")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    seed = models.PositiveIntegerField(_("seed"))
    wildcard = models.BooleanField(_("wildcard"), default=False)
    chosen_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        related_name="+",
        verbose_name=_("chosen by"),
    )
    chosen_at = models.DateTimeField(_("chosen"), auto_now_add=True)

    class Meta:
        verbose_name = _("qualification")
        verbose_name_plural = _("qualifications")
        ordering = ["seed"]
        constraints = [
            models.UniqueConstraint(fields=["season", "player"], name="one_qualification_each")
        ]

    def __str__(self) -> str:
        return f"{self.season_id}/{self.player_id}: {self.seed}"


class DivisionMove(models.Model):
    """A confirmed promotion or relegation into the next season (docs/seasons.md §10)."""

    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="moves")
    next_season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="+")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    from_division = models.CharField(_("from"), max_length=60)
    to_division = models.CharField(_("to"), max_length=60)
    confirmed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        related_name="+",
        verbose_name=_("confirmed by"),
    )
    confirmed_at = models.DateTimeField(_("confirmed"), auto_now_add=True)

    class Meta:
        verbose_name = _("move between divisions")
        verbose_name_plural = _("moves between divisions")
        ordering = ["confirmed_at", "pk"]

    def __str__(self) -> str:
        return f"{self.player_id}: {self.from_division} → {self.to_division}"


class PendingCount(models.Model):
    """A season whose table is to be counted again by the worker (``counts.py``).

    Written in the request that saves the season's settings or marks its pulkas, with
    the ``count_season`` task; deleted by the task once the table is stored. While a
    season has any, its pages say "updating…" (docs/tasks.md §4).
    """

    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="+")
    asked_at = models.DateTimeField(_("asked"), auto_now_add=True)

    class Meta:
        verbose_name = _("season count waiting")
        verbose_name_plural = _("season counts waiting")

    def __str__(self) -> str:
        return f"{self.season_id} at {self.asked_at:%Y-%m-%d %H:%M:%S}"
