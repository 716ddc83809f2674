"""Clubs, their players and who may do what in them (roles)."""

from __future__ import annotations

import secrets
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, cast

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

if TYPE_CHECKING:
    from django.contrib.auth.models import AbstractBaseUser, AnonymousUser, User


class ClubQuerySet(models.QuerySet["Club"]):
    def for_user(self, user: AbstractBaseUser | AnonymousUser) -> ClubQuerySet:
        """The clubs this user belongs to: the only clubs any view may show him."""
        if not user.is_authenticated:
            return self.none()
        # AUTH_USER_MODEL is django.contrib.auth's User: an authenticated user is one.
        return self.filter(memberships__user=cast("User", user))


class Club(models.Model):
    name = models.CharField(_("name"), max_length=200)
    slug = models.SlugField(_("short name for links"), max_length=60, unique=True)
    pencil_minutes = models.PositiveSmallIntegerField(
        _("pencil window, minutes"),
        default=2,
        help_text=_(
            "How long whoever recorded the last deal may change or undo it without "
            "penalty (Кодекс 4.2.8, правило карандаша)."
        ),
    )
    created_at = models.DateTimeField(_("created"), auto_now_add=True)

    # Off, every spectator link of the club's tables stops
    # (docs/design.md, "Joining a table, and watching it").
    allow_spectators = models.BooleanField(
        _("spectator links"),
        default=True,
        help_text=_("Whether the club's tables may have read-only links for people outside it."),
    )
    # The club's public results page (prefscore/public/; docs/design.md, "Sharing a result").
    public_page = models.BooleanField(
        _("public results page"),
        default=False,
        help_text=_(
            "Whether anyone may see the club's page of finished tournaments, public seasons "
            "and public leaderboard."
        ),
    )
    search_engines = models.BooleanField(
        _("indexed by search engines"),
        default=False,
        help_text=_("Whether search engines may list the club's public results page."),
    )

    objects = ClubQuerySet.as_manager()

    class Meta:
        verbose_name = _("club")
        verbose_name_plural = _("clubs")
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name

    def role_of(self, user: AbstractBaseUser | AnonymousUser) -> str | None:
        """The user's role in this club, or None for an outsider."""
        if not user.is_authenticated:
            return None
        # AUTH_USER_MODEL is django.contrib.auth's User: an authenticated user is one.
        # One query: a related manager's ``only("role")`` row would load its club_id again.
        roles = Membership.objects.filter(club_id=self.pk, user=cast("User", user))
        return roles.order_by("pk").values_list("role", flat=True).first()


class Role(models.TextChoices):
    MEMBER = "member", _("member")
    ORGANISER = "organiser", _("organiser")
    ADMIN = "admin", _("admin")


class Membership(models.Model):
    club = models.ForeignKey(
        Club, on_delete=models.CASCADE, related_name="memberships", verbose_name=_("club")
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="memberships",
        verbose_name=_("user"),
    )
    role = models.CharField(_("role"), max_length=12, choices=Role.choices, default=Role.MEMBER)

    class Meta:
        verbose_name = _("membership")
        verbose_name_plural = _("memberships")
        constraints = [
            models.UniqueConstraint(fields=["club", "user"], name="one_membership_per_club")
        ]

    def __str__(self) -> str:
        return f"{self.user} @ {self.club} ({self.role})"


class Player(models.Model):
    """Someone who sits at a table: a member with an account, or a guest by name."""

    club = models.ForeignKey(
        Club, on_delete=models.CASCADE, related_name="players", verbose_name=_("club")
    )
    name = models.CharField(_("display name"), max_length=200)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="players",
        verbose_name=_("account"),
    )

    class Meta:
        verbose_name = _("player")
        verbose_name_plural = _("players")
        ordering = ["name"]
        constraints = [
            models.UniqueConstraint(fields=["club", "name"], name="unique_player_name_in_club"),
            # An account is one person: one player in each club (prefscore/clubs/players.py).
            models.UniqueConstraint(
                fields=["club", "user"],
                condition=models.Q(user__isnull=False),
                name="one_player_per_account_in_club",
            ),
        ]

    def __str__(self) -> str:
        return self.name


def _invitation_token() -> str:
    # 32 random bytes: a link nobody can guess, short enough to paste into a chat.
    return secrets.token_urlsafe(32)


def _default_expiry() -> datetime:
    return timezone.now() + timedelta(days=getattr(settings, "INVITATION_DAYS", 7))


class InvitationQuerySet(models.QuerySet["Invitation"]):
    def pending(self) -> InvitationQuerySet:
        """Not used and not expired: the links an admin may still hand out."""
        return self.filter(used_at__isnull=True, expires_at__gt=timezone.now())


class Invitation(models.Model):
    """A single-use link that makes whoever opens it a member of a club with a role."""

    club = models.ForeignKey(
        Club, on_delete=models.CASCADE, related_name="invitations", verbose_name=_("club")
    )
    token = models.CharField(_("token"), max_length=64, unique=True, default=_invitation_token)
    role = models.CharField(_("role"), max_length=12, choices=Role.choices, default=Role.MEMBER)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        related_name="+",
        verbose_name=_("created by"),
    )
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    expires_at = models.DateTimeField(_("expires"), default=_default_expiry)
    used_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("used by"),
    )
    used_at = models.DateTimeField(_("used"), null=True, blank=True)
    # The guest the link is for: only its invitee may say she is that guest.
    guest = models.ForeignKey(
        "Player",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("for the guest"),
    )

    objects = InvitationQuerySet.as_manager()

    class Meta:
        verbose_name = _("invitation")
        verbose_name_plural = _("invitations")
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"{self.club} ({self.role}) {self.created_at:%Y-%m-%d}"

    @property
    def is_used(self) -> bool:
        return self.used_at is not None

    @property
    def is_expired(self) -> bool:
        return self.expires_at <= timezone.now()


class SignInCounter(models.Model):
    """Failed sign-ins counted under one key, for the limits of prefscore/clubs/ratelimit.py.

    One row per key, updated under a row lock, so that concurrent attempts are counted
    one after another and the limit is never overshot. In the database rather than a
    per-process cache, so that several app servers count the same failures.
    """

    class Scope(models.TextChoices):
        PAIR = "pair", _("username from one address")
        USERNAME = "username", _("username from unknown addresses")
        ADDRESS = "address", _("address, any username")
        SIGNUP = "signup", _("sign-ups from one address")
        RESET = "reset", _("password resets from one address")
        INVITE = "invite", _("invitations from one address")

    scope = models.CharField(_("counted per"), max_length=8, choices=Scope.choices)
    key = models.CharField(_("key"), max_length=200)
    failures = models.PositiveIntegerField(_("failures in the window"), default=0)
    window_started_at = models.DateTimeField(_("window started"), default=timezone.now)
    strikes = models.PositiveIntegerField(_("times challenged"), default=0)
    # Named when a limit locked; it now asks for a mailed code until then (ratelimit.py).
    locked_until = models.DateTimeField(_("code asked until"), null=True, blank=True)
    trusted = models.BooleanField(
        _("trusted"),
        default=False,
        help_text=_("The account has signed in from this address: other keys do not challenge it."),
    )

    class Meta:
        verbose_name = _("sign-in counter")
        verbose_name_plural = _("sign-in counters")
        constraints = [
            models.UniqueConstraint(fields=["scope", "key"], name="signin_counter_scope_key")
        ]

    def __str__(self) -> str:
        return f"{self.scope} {self.key}: {self.failures}"


class OutgoingMail(models.Model):
    """One mail to one recipient, queued in the request and sent after it
    (prefscore/clubs/mail_queue.py): kept until sent, so a restart neither loses nor doubles it."""

    to = models.EmailField(_("to"), max_length=254, db_index=True)
    message = models.JSONField(_("message"))
    created_at = models.DateTimeField(_("queued"), default=timezone.now, db_index=True)
    claimed_until = models.DateTimeField(_("being sent until"), null=True, blank=True)
    attempts = models.PositiveSmallIntegerField(_("attempts"), default=0)
    sent_at = models.DateTimeField(_("sent"), null=True, blank=True)
    error = models.TextField(_("last error"), blank=True)

    class Meta:
        verbose_name = _("outgoing mail")
        verbose_name_plural = _("outgoing mail")
        indexes = [models.Index(fields=["sent_at", "claimed_until"], name="outgoing_mail_due")]

    def __str__(self) -> str:
        return f"{self.to} {self.created_at:%Y-%m-%d %H:%M}"


class PlayerEvent(models.Model):
    """A change to who a club's players are (prefscore/clubs/players.py). Never deleted.

    Names are kept in ``details`` as they were at the time: a merged player's row is
    gone afterwards, and an account may be renamed.
    """

    class Action(models.TextChoices):
        JOINED = "joined", _("became a player on joining")
        CLAIMED = "claimed", _("claimed a guest on joining")
        LINKED = "linked", _("linked a guest to an account")
        UNLINKED = "unlinked", _("unlinked a player from an account")
        MERGED = "merged", _("merged two players")

    club = models.ForeignKey(
        Club, on_delete=models.CASCADE, related_name="player_events", verbose_name=_("club")
    )
    action = models.CharField(_("action"), max_length=10, choices=Action.choices)
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("who"),
    )
    at = models.DateTimeField(_("when"), auto_now_add=True)
    player = models.ForeignKey(
        Player,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="events",
        verbose_name=_("player"),
    )
    account = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("account"),
    )
    details = models.JSONField(_("details"), default=dict, blank=True)

    class Meta:
        verbose_name = _("player change")
        verbose_name_plural = _("player changes")
        ordering = ["-at", "-pk"]

    def __str__(self) -> str:
        return f"{self.club_id} {self.action} at {self.at:%Y-%m-%d %H:%M}"


class MembershipRequestQuerySet(models.QuerySet["MembershipRequest"]):
    def pending(self) -> MembershipRequestQuerySet:
        return self.filter(status=MembershipRequest.Status.PENDING)


class MembershipRequest(models.Model):
    """Someone outside a club asking to join it, from a table's join link.

    A club admin approves (the requester becomes a member) or declines. The rows are
    never deleted: with who decided and when, they are the record of who asked to join.
    """

    class Status(models.TextChoices):
        PENDING = "pending", _("waiting")
        APPROVED = "approved", _("approved")
        DECLINED = "declined", _("declined")

    club = models.ForeignKey(
        Club,
        on_delete=models.CASCADE,
        related_name="membership_requests",
        verbose_name=_("club"),
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="membership_requests",
        verbose_name=_("user"),
    )
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.PENDING
    )
    created_at = models.DateTimeField(_("asked"), auto_now_add=True)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("decided by"),
    )
    decided_at = models.DateTimeField(_("decided"), null=True, blank=True)

    objects = MembershipRequestQuerySet.as_manager()

    class Meta:
        verbose_name = _("membership request")
        verbose_name_plural = _("membership requests")
        ordering = ["created_at", "pk"]
        constraints = [
            # Asking twice is asking once: the database keeps one pending request.
            models.UniqueConstraint(
                fields=["club", "user"],
                condition=Q(status="pending"),
                name="one_pending_membership_request",
            )
        ]

    def __str__(self) -> str:
        return f"{self.user} → {self.club} ({self.status})"


class OwnerLink(models.Model):
    """The one-time link that makes a new server's owner (prefscore/clubs/owner.py).

    Only the token's digest is kept: the link is printed once on the server's terminal
    and is worth nothing to whoever reads the database. A link works once; a new start
    without an owner makes a new link and ends the older ones.
    """

    digest = models.CharField(_("token digest"), max_length=64, unique=True)
    created_at = models.DateTimeField(_("made"), default=timezone.now)
    used_at = models.DateTimeField(_("used"), null=True, blank=True)
    used_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("owner made"),
    )

    class Meta:
        verbose_name = _("owner link")
        verbose_name_plural = _("owner links")

    def __str__(self) -> str:
        return f"owner link {self.created_at:%Y-%m-%d %H:%M}"


class SignInApprovalQuerySet(models.QuerySet["SignInApproval"]):
    def waiting(self) -> SignInApprovalQuerySet:
        """Asked with the right password, not yet decided, not expired."""
        return self.filter(
            user__isnull=False,
            status=SignInApproval.Status.WAITING,
            expires_at__gt=timezone.now(),
        )


class SignInApproval(models.Model):
    """A challenged sign-in waiting to be confirmed by a person (prefscore/clubs/approvals.py).

    Every challenged attempt makes one, whatever its password, so that its answer tells
    nothing; ``user`` is set only when the password was right, and only those rows are
    ever shown to anyone who may approve. The waiting device keeps a secret in its
    session (its digest here) and shows ``code``, which the approver types in.
    """

    class Status(models.TextChoices):
        WAITING = "waiting", _("waiting")
        APPROVED = "approved", _("approved")
        REFUSED = "refused", _("refused")
        USED = "used", _("signed in")

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("account"),
    )
    username = models.CharField(_("username typed"), max_length=150)
    address = models.GenericIPAddressField(_("address"), null=True, blank=True)
    code = models.CharField(_("code shown"), max_length=8)
    secret_digest = models.CharField(_("secret digest"), max_length=64)
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.WAITING
    )
    created_at = models.DateTimeField(_("asked"), default=timezone.now)
    expires_at = models.DateTimeField(_("expires"))
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("decided by"),
    )
    decided_at = models.DateTimeField(_("decided"), null=True, blank=True)

    objects = SignInApprovalQuerySet.as_manager()

    class Meta:
        verbose_name = _("sign-in approval")
        verbose_name_plural = _("sign-in approvals")
        indexes = [models.Index(fields=["status", "expires_at"], name="signin_approval_waiting")]

    def __str__(self) -> str:
        return f"{self.username} {self.status} {self.created_at:%Y-%m-%d %H:%M}"
