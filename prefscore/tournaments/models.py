"""Tournaments of a club: entries, rounds, and a pulka per table per round.

The tables of a round are ordinary pulkas (``games.Pulka``) that carry the tournament
and the round number; their sheets are recorded like any other. Each table's settled
figures are kept as its sheet changes (``TableResult``, ``results.py``); the standings are
ranked from them at every request (``services.standings``), never stored.
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
    # Set when round 1 is published: the regulations are frozen from then on
    # (docs/tournaments.md §4.1); later changes by an admin are RegulationChange rows.
    regulations_frozen_at = models.DateTimeField(_("regulations frozen"), null=True, blank=True)
    # The time a round is played for (Кодекс: closing by time, docs/tournaments.md §4.9):
    # the dashboard and the projector count it down; None: no limit, the time played only.
    round_minutes = models.PositiveSmallIntegerField(_("minutes per round"), null=True, blank=True)
    # How many rounds each stage after a cut plays (semi-final, final), seeded by standing.
    stage_rounds = models.PositiveSmallIntegerField(_("rounds per stage after a cut"), default=1)
    # The end (docs/tournaments.md §4.10): when the last stage's last round has every table
    # over, or by the organiser's hand; who and how are kept as the audit.
    finished_at = models.DateTimeField(_("finished"), null=True, blank=True)
    finished_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("finished by"),
    )
    finished_by_hand = models.BooleanField(_("finished by the organiser"), default=False)
    # Discipline (docs/tournaments.md §4.9, the online championship's rule): this many
    # yellow cards disqualify (None: never); a round's whists below ``round_floor`` give
    # the player a yellow card (None: no floor).
    yellow_cards_limit = models.PositiveSmallIntegerField(
        _("yellow cards that disqualify"), null=True, blank=True, default=2
    )

    class AtTime(models.TextChoices):
        FLAG = "flag", _("the tables are only flagged; the organiser closes them")
        CLOSE = "close", _("each table is closed as it stands after the deal in play")

    # What happens when a round's time is up (docs/tournaments.md §4.9; Кодекс 4.2.3).
    at_time = models.CharField(
        _("when the time is up"), max_length=8, choices=AtTime.choices, default=AtTime.FLAG
    )

    class AfterDrop(models.TextChoices):
        CLOSE = "close", _("the table is closed as it stands")
        PLAY_ON = "play_on", _("the other three play on at a sheet of three; both sheets count")

    # A player leaves a qualifying table of 4 after its first deal (docs/tournaments.md
    # §4.9): the Кодекс stops a pulka early only in an emergency (4.2.15) and leaves the
    # case to the arbiters (4.2.16), so the regulations say which, before round 1.
    after_drop = models.CharField(
        _("when a player leaves a table of 4 in play"),
        max_length=8,
        choices=AfterDrop.choices,
        default=AfterDrop.CLOSE,
    )
    # Seating constraints (docs/tournaments.md §4.3): pairs of club player ids that never
    # sit at one table, a hard rule of every qualifying draw.
    forbidden_pairs = models.JSONField(_("players kept apart"), default=list, blank=True)
    round_floor = models.IntegerField(
        _("a round below this many whists gives a yellow card"),
        null=True,
        blank=True,
        default=-1000,
    )

    # A forfeit (docs/tournaments.md §4.9): a player who leaves his table after its first
    # deal counts at most this many whists for that round (None: as the sheet stands).
    forfeit_whists = models.IntegerField(
        _("a forfeit counts at most this many whists"), null=True, blank=True, default=None
    )

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
    def finished(self) -> bool:
        """Over: no more draws, the results and the standings are final (§4.10)."""
        return self.status == self.Status.FINISHED

    @property
    def rules(self) -> ranking.Rules:
        return ranking.Rules(self.normalisation, tuple(self.tie_breaks), self.seed)


class TournamentEntry(models.Model):
    """A club player registered for a tournament (docs/tournaments.md §4.2).

    ``state`` goes registered → checked in → playing, or ends in dropped or
    disqualified; those two are no longer drawn and are ranked after the active players.
    A player still only registered when round 1 is published is ``absent`` (a no-show,
    docs/tournaments.md §4.2): never drawn, never ranked, until the organiser takes him back.
    ``joined_round``: the first round a late entry could be seated in (None: from the
    start); ``left_after_round``: the rounds played before a drop or disqualification.
    """

    class State(models.TextChoices):
        REGISTERED = "registered", _("registered")
        CHECKED_IN = "checked_in", _("checked in")
        PLAYING = "playing", _("playing")
        DROPPED = "dropped", _("dropped")
        DISQUALIFIED = "disqualified", _("disqualified")
        ABSENT = "absent", _("absent")

    OUT = (State.DROPPED, State.DISQUALIFIED, State.ABSENT)

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="entries")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="tournament_entries")
    state = models.CharField(
        _("state"), max_length=12, choices=State.choices, default=State.REGISTERED
    )
    joined_round = models.PositiveSmallIntegerField(_("late entry from round"), null=True)
    left_after_round = models.PositiveSmallIntegerField(_("left after round"), null=True)
    # The club (or team) a player comes from: clubmates are kept apart in round 1
    # when the draw can (docs/tournaments.md §4.3); blank: nobody to keep him from.
    home_club = models.CharField(_("home club"), max_length=80, blank=True)
    # The round whose table he left after its first deal: a forfeit (§4.9), scored by
    # ``Tournament.forfeit_whists``; kept if he is taken back (the table stays left).
    forfeited_round = models.PositiveSmallIntegerField(_("forfeited round"), null=True, blank=True)
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

    @property
    def dropped(self) -> bool:
        """Out of the tournament: dropped, disqualified or absent, no longer drawn."""
        return self.state in self.OUT


class Round(models.Model):
    """A drawn round: its tables are the pulkas with this tournament and round number.

    A round is drawn as a ``draft`` (docs/tournaments.md §4.5): its pulkas exist but are
    not played; the organiser may swap players, redraw or discard it. ``published``
    locks it and opens its pulkas. ``stage``: qualifying, or a stage after a cut
    (semi-final, final), seeded by standing; ``is_final`` is True for the stages after a cut.
    """

    class Status(models.TextChoices):
        DRAFT = "draft", _("draft")
        PUBLISHED = "published", _("published")

    class Stage(models.TextChoices):
        QUALIFYING = "qualifying", _("qualifying")
        SEMIFINAL = "semifinal", _("semi-final")
        FINAL = "final", _("final")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="rounds")
    number = models.PositiveSmallIntegerField(_("number"))
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.DRAFT
    )
    stage = models.CharField(
        _("stage"), max_length=12, choices=Stage.choices, default=Stage.QUALIFYING
    )
    published_at = models.DateTimeField(_("published"), null=True, blank=True)
    # The scheduled start: the round's clock runs from then (None: from publishing).
    starts_at = models.DateTimeField(_("scheduled start"), null=True, blank=True)
    # The draw as the engine made it (and the organiser swapped it in the draft): one
    # {"players": [club player id, …], "first_dealer": seat} per table, in table order.
    # Publishing starts a pulka per table from it.
    tables = models.JSONField(_("tables"), default=list, blank=True)
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


class TableClosure(models.Model):
    """A table the organiser closed (docs/tournaments.md §4.9; Кодекс 4.2.16).

    ``reason``: the time limit or the deal limit (the sheet counts as it stands), the
    arbiter's final sheet (``whists``, one whole figure per seat in seat order, adding up
    to zero, replaces the sheet in the standings), or a player's drop (the table plays
    short or is re-seated). ``pulka`` is the table; every closure is kept as the audit.
    """

    class Reason(models.TextChoices):
        TIME = "time", _("time limit")
        DEAL_LIMIT = "deal_limit", _("deal limit")
        ARBITER = "arbiter", _("final sheet entered by the arbiter")
        DROP = "drop", _("a player dropped")

    pulka = models.OneToOneField(
        "games.Pulka", on_delete=models.CASCADE, related_name="closure", verbose_name=_("table")
    )
    reason = models.CharField(_("reason"), max_length=12, choices=Reason.choices)
    whists = models.JSONField(_("final whists per seat"), null=True, blank=True)
    note = models.CharField(_("note"), max_length=300, blank=True)
    closed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        related_name="+",
        verbose_name=_("closed by"),
    )
    closed_at = models.DateTimeField(_("closed"), auto_now_add=True)

    class Meta:
        verbose_name = _("closed table")
        verbose_name_plural = _("closed tables")

    def __str__(self) -> str:
        return f"{self.pulka} ({self.reason})"


class SettingChange(models.Model):
    """A setting changed after it froze: which, before and after, who and when.

    The shape shared by a tournament's regulations (§4.1, §4.15) and a season's standings
    policy (docs/seasons.md §8); each names what it belongs to.
    """

    field = models.CharField(_("setting"), max_length=40)
    before = models.TextField(_("before"), blank=True)
    after = models.TextField(_("after"), blank=True)
    changed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        related_name="+",
        verbose_name=_("changed by"),
    )
    changed_at = models.DateTimeField(_("changed"), auto_now_add=True)

    class Meta:
        abstract = True
        ordering = ["changed_at", "pk"]


class RegulationChange(SettingChange):
    """A change to frozen regulations, by an admin after round 1 was published (§4.1, §4.15)."""

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="regulation_changes"
    )

    class Meta(SettingChange.Meta):
        verbose_name = _("change of the regulations")
        verbose_name_plural = _("changes of the regulations")

    def __str__(self) -> str:
        return f"{self.tournament}: {self.field}"


class TournamentEvent(models.Model):
    """A director's decision on a tournament, kept as its audit (docs/tournaments.md §4.15).

    Reopening a finished tournament, closing a table and correcting an arbiter's closing,
    cutting the field, withdrawing a player who never checked in, dropping,
    disqualifying or taking back a player, a card or a fine (``entry``: the player), a
    player's own check-in: who, when, why, and what changed (``details``). Every state
    a director's decision leaves (a closed or archived table, a player out, a stage's
    field) has its decision here, and ``check_tournament`` names a state without one
    (``audit.py``). The tournament page lists them with the arbiters' corrections of
    closed tables.
    """

    class Action(models.TextChoices):
        REOPENED = "reopened", _("tournament reopened")
        TABLE_CLOSED = "table_closed", _("table closed")
        CLOSURE_CORRECTED = "closure_corrected", _("arbiter's final sheet corrected")
        CUT = "cut", _("field cut")
        NO_SHOW = "no_show", _("withdrawn: not checked in")
        DROPPED = "dropped", _("dropped out")
        REINSTATED = "reinstated", _("taken back")
        YELLOW_CARD = "yellow_card", _("yellow card")
        RED_CARD = "red_card", _("red card")
        FINE = "fine", _("whist fine")
        DISQUALIFIED = "disqualified", _("disqualified")
        CHECKED_IN = "checked_in", _("checked in by the player")

    CARDS = (Action.YELLOW_CARD, Action.RED_CARD)
    # The decisions that put a player out of the tournament or back in (§4.2), by the
    # state they leave.
    LEAVING: dict[str, str] = {
        Action.DROPPED: "dropped",
        Action.DISQUALIFIED: "disqualified",
        Action.NO_SHOW: "absent",
    }

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="events")
    # The player a card, a fine or a check-in is about; None for the tournament's own.
    entry = models.ForeignKey(
        TournamentEntry,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="events",
        verbose_name=_("player"),
    )
    action = models.CharField(_("action"), max_length=20, choices=Action.choices)
    reason = models.CharField(_("reason"), max_length=300, blank=True)
    details = models.JSONField(_("details"), default=dict, blank=True)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        related_name="+",
        verbose_name=_("by"),
    )
    at = models.DateTimeField(_("when"), auto_now_add=True)

    class Meta:
        verbose_name = _("tournament decision")
        verbose_name_plural = _("tournament decisions")
        ordering = ["at", "pk"]

    def __str__(self) -> str:
        return f"{self.tournament}: {self.action}"


class TableResult(models.Model):
    """A table's settled figures, kept as the sheet changes (docs/tournaments.md §4.11).

    One row per tournament pulka, written by ``results.refresh`` after every change of the
    sheet (``games.events.sheet_changed``): each seat's whole whists (Кодекс 4.2.12) and
    the Кодекс 4.1.3 counts, in seat order, as the engine's fold gives them. The standings
    rank from these rows rather than folding every table's deals on each read;
    ``version`` is the pulka's version they were counted at, so a row that missed a change
    is seen as stale and counted again. An arbiter's final sheet (``TableClosure``) still
    replaces the whists when the standings read them.
    """

    pulka = models.OneToOneField(
        "games.Pulka",
        on_delete=models.CASCADE,
        related_name="table_result",
        verbose_name=_("table"),
    )
    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="table_results"
    )
    version = models.PositiveIntegerField(_("version of the sheet"))
    deals = models.PositiveSmallIntegerField(_("deals"), default=0)
    whists = models.JSONField(_("whole whists per seat"), default=list)
    # Per seat: [all-pass deals won, all-pass tricks, remizes, misère tricks].
    stats = models.JSONField(_("counts per seat"), default=list)
    updated_at = models.DateTimeField(_("counted"), auto_now=True)

    class Meta:
        verbose_name = _("table result")
        verbose_name_plural = _("table results")

    def __str__(self) -> str:
        return f"{self.pulka_id}: {self.whists}"


class ImportJob(models.Model):
    """A large tournament file imported after the request (docs/tournaments.md §6.4).

    A file too big to import within the request (``jobs.INLINE_BYTES``) is kept here and
    imported by a task (``jobs.import_file``, run by the worker: docs/tasks.md); the
    organiser's page asks for its state (``views.files.import_job``). ``language``: the
    organiser's, for the refusal's message. ``updated_at`` moves at each step. A file that is already a
    tournament of the club (``already``) waits for the organiser's answer (``asking``)
    whatever its size, and is imported once he ``confirmed`` it.
    """

    class Status(models.TextChoices):
        # The file is already a tournament of the club: the organiser is asked first.
        ASKING = "asking", _("waiting for your answer")
        QUEUED = "queued", _("waiting to begin")
        CHECKING = "checking", _("checking the file")
        STORING = "storing", _("storing the tournament")
        DONE = "done", _("imported")
        FAILED = "failed", _("the file was refused")

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="+")
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.QUEUED)
    text = models.TextField(blank=True)  # the file; emptied once it is imported or refused
    slug = models.SlugField(max_length=60, blank=True)
    language = models.CharField(max_length=10, blank=True)
    message = models.TextField(blank=True)
    tournament = models.ForeignKey(
        Tournament, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    # The organiser said to import it though the club has that tournament already.
    confirmed = models.BooleanField(default=False)
    # The club's tournament the file already is (shown while asking).
    already = models.ForeignKey(
        Tournament, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    # The task that runs it (docs/tasks.md): its row says whether a worker has it yet,
    # and how it ended when it failed past its tries.
    task_id = models.CharField(max_length=64, blank=True)
    # While checking: rounds read of all of them (the page's bar).
    done = models.PositiveIntegerField(default=0)
    total = models.PositiveIntegerField(default=0)

    class Meta:
        verbose_name = _("tournament import")
        verbose_name_plural = _("tournament imports")

    def __str__(self) -> str:
        return f"{self.club_id} import {self.pk} ({self.status})"


class ExportJob(models.Model):
    """A large tournament's file, built after the request (docs/tournaments.md §6.4).

    A tournament of more than ``exports_jobs.INLINE_DEALS`` deals is written by a task
    (``exports_jobs.build``, run by the worker: docs/tasks.md) while the organiser's page
    shows how far it is (``done`` of ``total`` tables), then offers the file, kept here
    in ``text`` until it is downloaded again or replaced. ``language``: the organiser's,
    for a failure's message.
    """

    class Status(models.TextChoices):
        QUEUED = "queued", _("waiting to begin")
        READING = "reading", _("reading the tournament")
        WRITING = "writing", _("writing the tables")
        DONE = "done", _("ready")
        FAILED = "failed", _("failed")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="+")
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.QUEUED)
    language = models.CharField(max_length=10, blank=True)
    done = models.PositiveIntegerField(default=0)
    total = models.PositiveIntegerField(default=0)
    message = models.TextField(blank=True)
    task_id = models.CharField(max_length=64, blank=True)
    text = models.TextField(blank=True)  # the file, once written

    class Meta:
        verbose_name = _("tournament export")
        verbose_name_plural = _("tournament exports")

    def __str__(self) -> str:
        return f"{self.tournament_id} export {self.pk} ({self.status})"
