"""Pulkas and their deal logs. The sheet is always the engine's fold over the log.

A deal row is never edited in place: a pencil change withdraws the row and records
a new one with the same number (docs/design.md, "How a deal flows"; Кодекс 4.2.8).
"""

from __future__ import annotations

import secrets
from decimal import Decimal
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.sessions.models import Session
from django.db import connections, models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from prefscore.clubs.models import Club, Membership, Player
from scoring.snapshot import ConventionSnapshot

from .titles import table_title


class PulkaQuerySet(models.QuerySet["Pulka"]):
    def in_progress(self) -> PulkaQuerySet:
        return self.filter(status=Pulka.Status.RUNNING)

    def finished(self) -> PulkaQuerySet:
        return self.filter(status=Pulka.Status.FINISHED)

    def abandoned(self) -> PulkaQuerySet:
        """Pulkas started by mistake and abandoned (``games.abandon``): listed apart."""
        return self.filter(status=Pulka.Status.ARCHIVED)

    def version_for_member(self, pk: int, user_id: Any) -> int | None:
        """The pulka's version if ``user_id`` belongs to its club, else None.

        Every device at every table asks this every 2 s (the poll): one hand-written
        query, as the ORM's join costs several times more to build than to run.
        """
        try:
            params = [int(pk), int(user_id)]
        except (TypeError, ValueError):
            return None
        pulka, membership = Pulka._meta.db_table, Membership._meta.db_table
        sql = (
            f"SELECT p.version FROM {pulka} p JOIN {membership} m ON m.club_id = p.club_id "
            "WHERE p.id = %s AND m.user_id = %s"
        )
        with connections[self.db].cursor() as cursor:
            cursor.execute(sql, params)
            row = cursor.fetchone()
        return None if row is None else int(row[0])

    def version_for_session(
        self, pk: int, user_id: Any, session_key: str
    ) -> tuple[int, str] | None:
        """The pulka's version and the member's password hash, if ``user_id`` belongs to
        its club, is active and ``session_key`` is a live session; else None.

        The poll's one query when the device shows a ticket (``tickets``): the password
        hash lets the caller check the ticket's seal, so a ticket dies with its session
        or with a password change, at no extra query.
        """
        try:
            params: list[Any] = [session_key, timezone.now(), int(pk), int(user_id)]
        except (TypeError, ValueError):
            return None
        pulka, membership = Pulka._meta.db_table, Membership._meta.db_table
        user = get_user_model()._meta.db_table
        sql = (
            f"SELECT p.version, u.password FROM {pulka} p "
            f"JOIN {membership} m ON m.club_id = p.club_id "
            f"JOIN {user} u ON u.id = m.user_id "
            f"JOIN {Session._meta.db_table} s ON s.session_key = %s AND s.expire_date > %s "
            "WHERE p.id = %s AND m.user_id = %s AND u.is_active"
        )
        with connections[self.db].cursor() as cursor:
            cursor.execute(sql, params)
            row = cursor.fetchone()
        return None if row is None else (int(row[0]), str(row[1]))

    def visible_to(self, user: Any) -> PulkaQuerySet:
        """Pulkas of the clubs the user belongs to: every lookup goes through this."""
        if not user.is_authenticated:
            return self.none()
        return self.filter(club__memberships__user=user)


class Pulka(ConventionSnapshot):
    class Status(models.TextChoices):
        RUNNING = "running", _("running")
        FINISHED = "finished", _("finished")
        ARCHIVED = "archived", _("archived")

    club = models.ForeignKey(
        Club, on_delete=models.PROTECT, related_name="pulkas", verbose_name=_("club")
    )
    title = models.CharField(_("title"), max_length=120, blank=True)
    title_parts = models.JSONField(_("title parts"), null=True, blank=True, editable=False)
    player_names = models.JSONField(
        _("players in seat order"),
        help_text=_("Names as the deal log spells them, clockwise from the first seat."),
    )
    target = models.PositiveIntegerField(_("pulya target"))
    stake = models.DecimalField(
        _("stake per whist"), max_digits=10, decimal_places=4, null=True, blank=True
    )
    first_dealer = models.PositiveSmallIntegerField(_("first dealer's seat"), default=0)
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.RUNNING
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        related_name="+",
        verbose_name=_("created by"),
    )
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    # Changes with every record, so devices can ask cheaply "anything new?".
    version = models.PositiveIntegerField(_("version"), default=0)
    # A table of a tournament round (prefscore.tournaments); None for a club game. Set by
    # the draw only: moving a pulka between tournaments would change their standings.
    tournament = models.ForeignKey(
        "tournaments.Tournament",
        null=True,
        blank=True,
        editable=False,
        on_delete=models.PROTECT,
        related_name="pulkas",
        verbose_name=_("tournament"),
    )
    round_number = models.PositiveSmallIntegerField(
        _("round"), null=True, blank=True, editable=False
    )

    objects = PulkaQuerySet.as_manager()

    class Meta:
        verbose_name = _("pulka")
        verbose_name_plural = _("pulkas")
        ordering = ["-created_at"]

    def __str__(self) -> str:  # a tournament table's title worded now (titles.py)
        return table_title(self.title_parts) or self.title or ", ".join(self.player_names)

    @property
    def is_frozen(self) -> bool:
        return self.status != self.Status.RUNNING

    @property
    def stake_decimal(self) -> Decimal | None:
        return None if self.stake is None else Decimal(self.stake)


class PulkaSeat(models.Model):
    """Which club player sits in which seat (seat 0 is the first in clockwise order)."""

    pulka = models.ForeignKey(Pulka, on_delete=models.CASCADE, related_name="seats")
    seat = models.PositiveSmallIntegerField(_("seat"))
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="seats")

    class Meta:
        ordering = ["seat"]
        constraints = [
            models.UniqueConstraint(fields=["pulka", "seat"], name="one_player_per_seat"),
            models.UniqueConstraint(fields=["pulka", "player"], name="one_seat_per_player"),
        ]

    def __str__(self) -> str:
        return f"{self.pulka_id} seat {self.seat}"


class DealQuerySet(models.QuerySet["Deal"]):
    def current(self) -> DealQuerySet:
        """The deals that stand: not withdrawn by a pencil change or undo."""
        return self.filter(withdrawn_at__isnull=True)


class SentEntry(models.Model):
    """An action of the table (an undo, a correction, a consent…) that the page's outbox
    sent with its client id (static/js/outbox.js), carried out or being carried out, by
    the account that sent it (``replays.py``): sent again after a lost answer, it is
    answered as its success, not carried out twice (docs/design.md, "Never lose a deal").
    A deal keeps its own (``Deal.client_id``)."""

    pulka = models.ForeignKey(Pulka, on_delete=models.CASCADE, related_name="+")
    # Null only for rows from before an entry named its account: nobody's, pruned in a day.
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, null=True, related_name="+"
    )
    client_id = models.UUIDField(_("client id"))
    at = models.DateTimeField(_("sent"), auto_now_add=True)
    # False while the action runs (the claim); True once it wrote its audit line.
    carried_out = models.BooleanField(_("carried out"), default=True)

    class Meta:
        verbose_name = _("sent entry")
        verbose_name_plural = _("sent entries")
        constraints = [
            models.UniqueConstraint(
                fields=["pulka", "user", "client_id"], name="one_sent_entry_per_account_and_id"
            )
        ]
        indexes = [models.Index(fields=["user", "at"], name="sent_entries_by_account")]

    def __str__(self) -> str:
        return f"{self.pulka_id} {self.client_id}"


class Deal(models.Model):
    """One deal's facts as the players reported them (docs/protocol.md, a deal)."""

    pulka = models.ForeignKey(Pulka, on_delete=models.PROTECT, related_name="deals")
    number = models.PositiveIntegerField(_("number"))
    facts = models.JSONField(_("facts"))
    entered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        related_name="+",
        verbose_name=_("entered by"),
    )
    entered_at = models.DateTimeField(_("entered"), auto_now_add=True)
    withdrawn_at = models.DateTimeField(_("withdrawn"), null=True, blank=True)
    withdrawn_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("withdrawn by"),
    )
    # The id the recording device gave its entry (static/js/outbox.js; views/sheet.py,
    # ``record``): a replay of the same entry is told by it from another device's deal of
    # the same number.
    client_id = models.UUIDField(_("client id"), null=True, blank=True, editable=False)

    objects = DealQuerySet.as_manager()

    class Meta:
        verbose_name = _("deal")
        verbose_name_plural = _("deals")
        ordering = ["number", "entered_at"]
        constraints = [
            # Two devices posting the same deal number: the database keeps exactly one.
            models.UniqueConstraint(
                fields=["pulka", "number"],
                condition=Q(withdrawn_at__isnull=True),
                name="one_standing_deal_per_number",
            ),
            # An entry sent again after a lost answer is recorded once, never twice.
            models.UniqueConstraint(
                # An id is its account's: another's, sent for the next deal, is no replay.
                fields=["pulka", "entered_by", "client_id"],
                condition=Q(client_id__isnull=False),
                name="one_deal_per_account_and_client_id",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.pulka_id} #{self.number}"


class Correction(models.Model):
    """A correction of a recorded deal (Кодекс 4.2.7–4.2.9, 4.2.16): a new record.

    The corrected deal's row is never edited: the engine folds these facts in its place
    from the point the correction was made."""

    class Kind(models.TextChoices):
        CORRECTION = "correction", _("correction (4.2.7)")
        VOLUNTARY = "voluntary", _("voluntary correction by the favoured player (4.2.9)")
        ARBITER = "arbiter", _("arbiter's decision (4.2.16)")

    pulka = models.ForeignKey(Pulka, on_delete=models.PROTECT, related_name="corrections")
    deal_number = models.PositiveIntegerField(_("deal corrected"))
    # How many deals stood when it was made: its place in the log.
    after_deal = models.PositiveIntegerField(_("made after deal"))
    facts = models.JSONField(_("corrected facts"))
    kind = models.CharField(_("kind"), max_length=12, choices=Kind.choices)
    penalise = models.BooleanField(_("penalty by 4.2.7"), default=True)
    reason = models.TextField(_("reason"), blank=True)
    asked_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        related_name="+",
        verbose_name=_("asked by"),
    )
    created_at = models.DateTimeField(_("made"), auto_now_add=True)

    class Meta:
        verbose_name = _("correction")
        verbose_name_plural = _("corrections")
        ordering = ["created_at", "pk"]

    def __str__(self) -> str:
        return f"{self.pulka_id} correction of #{self.deal_number}"


class TableProposal(models.Model):
    """A question put to the whole table (Кодекс 4.2.10): who proposed it and when, and
    when it was settled. Each seat answers on its own sign-in (:class:`TableAnswer`)."""

    proposed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        related_name="+",
        verbose_name=_("proposed by"),
    )
    created_at = models.DateTimeField(_("proposed"), auto_now_add=True)
    resolved_at = models.DateTimeField(_("resolved"), null=True, blank=True)

    class Meta:
        abstract = True
        ordering = ["created_at", "pk"]


class TableAnswer(models.Model):
    """One seat's answer to a :class:`TableProposal`, given on the player's own sign-in
    or, for a guest without an account, by a member seated at the table."""

    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    agreed = models.BooleanField(_("agreed"))
    answered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    answered_at = models.DateTimeField(_("answered"), auto_now_add=True)

    class Meta:
        abstract = True

    def __str__(self) -> str:
        return f"{self.player_id}: {'yes' if self.agreed else 'no'}"


class ForgottenDeal(TableProposal):
    """A forgotten deal proposed for the sheet (Кодекс 4.2.10).

    It is added once every player at the table agrees on his own device; one refusal
    drops it, and so does the next deal being recorded."""

    class Status(models.TextChoices):
        PENDING = "pending", _("waiting for consent")
        ADDED = "added", _("added")
        REFUSED = "refused", _("refused")
        LAPSED = "lapsed", _("lapsed: the next deal was recorded")

    pulka = models.ForeignKey(Pulka, on_delete=models.PROTECT, related_name="forgotten_deals")
    number = models.PositiveIntegerField(_("deal number it would take"))
    facts = models.JSONField(_("facts"))
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.PENDING
    )

    class Meta(TableProposal.Meta):
        verbose_name = _("forgotten deal")
        verbose_name_plural = _("forgotten deals")

    def __str__(self) -> str:
        return f"{self.pulka_id} forgotten #{self.number} ({self.status})"


class Consent(TableAnswer):
    """One player's answer to a forgotten deal, given on his own sign-in."""

    proposal = models.ForeignKey(ForgottenDeal, on_delete=models.PROTECT, related_name="consents")

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["proposal", "player"], name="one_answer_per_player")
        ]


class AuditEvent(models.Model):
    """Everything that happened to a pulka's sheet, with who and when. Never deleted."""

    class Action(models.TextChoices):
        RECORDED = "recorded", _("recorded a deal")
        CHANGED = "changed", _("changed the last deal (pencil rule)")
        UNDONE = "undone", _("undid the last deal (pencil rule)")
        CORRECTED = "corrected", _("corrected a deal")
        WARNED = "warned", _("warning")
        PENALISED = "penalised", _("penalty")
        PROPOSED = "proposed", _("proposed a forgotten deal")
        CONSENTED = "consented", _("agreed to a forgotten deal")
        REFUSED = "refused", _("refused a forgotten deal")
        ADDED = "added", _("forgotten deal added")
        LAPSED = "lapsed", _("forgotten deal lapsed")
        ARBITER = "arbiter", _("arbiter's decision")
        FINISHED = "finished", _("pulka finished")
        IMPORTED = "imported", _("imported from a file")
        TO_ABANDON = "to_abandon", _("proposed abandoning the pulka")
        ABANDON_ANSWER = "abandon_ans", _("answered about abandoning the pulka")
        ABANDON_LAPSED = "abandon_off", _("abandoning lapsed")
        ABANDONED = "abandoned", _("pulka abandoned")
        SHARED = "shared", _("made the result public by a link")
        UNSHARED = "unshared", _("took the result's public link back")

    pulka = models.ForeignKey(Pulka, on_delete=models.PROTECT, related_name="audit_events")
    action = models.CharField(_("action"), max_length=12, choices=Action.choices)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        related_name="+",
        verbose_name=_("who"),
    )
    at = models.DateTimeField(_("when"), auto_now_add=True)
    deal_number = models.PositiveIntegerField(_("deal"), null=True, blank=True)
    details = models.JSONField(_("details"), default=dict, blank=True)

    class Meta:
        verbose_name = _("audit event")
        verbose_name_plural = _("audit events")
        ordering = ["at", "pk"]

    def __str__(self) -> str:
        return f"{self.pulka_id} {self.action} at {self.at:%Y-%m-%d %H:%M}"


class Abandonment(TableProposal):
    """A pulka started by mistake, to be abandoned: archived, frozen and listed apart.

    A club admin abandons at once; the players at the table propose it and each agrees
    on his own sign-in (as for a forgotten deal, Кодекс 4.2.10), a seated member
    answering for guests without an account. One refusal keeps the pulka, and so does
    recording the next deal.
    """

    class Status(models.TextChoices):
        PENDING = "pending", _("waiting for consent")
        ABANDONED = "abandoned", _("abandoned")
        KEPT = "kept", _("kept: a player refused")
        LAPSED = "lapsed", _("lapsed: the next deal was recorded")

    pulka = models.ForeignKey(Pulka, on_delete=models.PROTECT, related_name="abandonments")
    reason = models.CharField(_("reason"), max_length=200, blank=True)
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.PENDING
    )

    class Meta(TableProposal.Meta):
        verbose_name = _("abandonment")
        verbose_name_plural = _("abandonments")

    def __str__(self) -> str:
        return f"{self.pulka_id} abandonment ({self.status})"


class AbandonConsent(TableAnswer):
    """One seat's answer to abandoning a pulka, given on its own sign-in or for a guest."""

    abandonment = models.ForeignKey(Abandonment, on_delete=models.PROTECT, related_name="consents")

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["abandonment", "player"], name="one_abandon_answer_per_player"
            )
        ]


def _link_code() -> str:
    # 16 random bytes (128 bits): nobody guesses it, and the QR code stays small.
    return secrets.token_urlsafe(16)


class TableLinks(models.Model):
    """A pulka's links for people away from the first phone.

    ``join_code`` opens the sheet to the club's members and the way to ask for
    membership to anyone else; ``spectator_code`` (None: no link) shows the sheet
    read-only to anyone; ``result_code`` (None: not shared) a finished pulka's result
    and its card. Each is a random code behind a signed link (``games.joining``);
    changing the code kills the old link. Who changed each, and when, is kept here.
    """

    pulka = models.OneToOneField(
        Pulka, on_delete=models.CASCADE, primary_key=True, related_name="links"
    )
    join_code = models.CharField(_("join code"), max_length=32, unique=True, default=_link_code)
    join_changed_at = models.DateTimeField(_("join link made"), default=timezone.now)
    join_changed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("join link made by"),
    )
    spectator_code = models.CharField(
        _("spectator code"), max_length=32, unique=True, null=True, blank=True
    )
    spectator_changed_at = models.DateTimeField(_("spectator link changed"), null=True, blank=True)
    spectator_changed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("spectator link changed by"),
    )
    # Who shared the result and took it back: the audit trail (games/sharing.py).
    result_code = models.CharField(
        _("result code"), max_length=32, unique=True, null=True, blank=True
    )

    class Meta:
        verbose_name = _("table links")
        verbose_name_plural = _("table links")

    def __str__(self) -> str:
        return f"links of {self.pulka_id}"
