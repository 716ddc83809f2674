"""Who may see or change a pulka, and who is looking: always through the club that owns it.

Every games view looks its pulka up here, so no view can leak another club's data:
unknown id → 404, a pulka of a club the user is not in → 403. Clubs themselves are
looked up by ``prefscore.clubs.permissions`` (``club_for``, ``club_and_role_for``),
named here too for the views that need both. Here too: the viewer's role, asked once
per request; the sheet's one query; who sits where; the poll's tickets; the pencil rule
(Кодекс 4.2.8); who applies an arbiter's decision (4.2.16) and writes manual entries
(docs/rules.md §3.11.8).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any
from urllib.parse import urlencode

from django.core.exceptions import PermissionDenied
from django.core.signing import BadSignature, TimestampSigner
from django.db import connection
from django.db.models import Field, Model, OuterRef, Subquery
from django.http import Http404, HttpRequest
from django.shortcuts import get_object_or_404
from django.urls import reverse
from django.utils import timezone
from django.utils.crypto import constant_time_compare, salted_hmac
from django.utils.translation import gettext as _

from prefscore.clubs.models import Club, Membership, Player, Role
from prefscore.clubs.permissions import club_and_role_for, club_for

from .models import Deal, Pulka, PulkaSeat


def pulka_for(request: HttpRequest, pk: int, *, change: bool = False) -> Pulka:
    """The pulka if the signed-in user belongs to its club, else 404/403.

    ``change`` asks for the right to record: any member may record in his club's
    pulkas (README.md, "Accounts, roles and security": a member "records and views the
    club's pulkas").
    """
    rows = Pulka.objects.select_related("club")
    if request.user.is_authenticated:  # the role in the same query
        rows = rows.annotate(viewer_role=viewer_role_of(request.user))
    pulka = get_object_or_404(rows, pk=pk)
    if request.user.is_authenticated:
        remember_role(request, pulka.club, pulka.viewer_role)  # type: ignore[attr-defined]
    return _checked(request, pulka, change)


def pulka_and_seats_for(
    request: HttpRequest, pk: int, *, change: bool = False
) -> tuple[Pulka, tuple[PulkaSeat, ...]]:
    """:func:`pulka_for`'s pulka and checks (``change`` too), with its links and its
    seats: one query for the sheet's every request and for a record, which answers
    with the screen (``read_sheet``)."""
    if not request.user.is_authenticated:
        pulka = pulka_for(request, pk, change=change)
        return pulka, tuple(PulkaSeat.objects.filter(pulka=pulka).select_related("player"))
    found = read_sheet(request.user.pk, pk)
    if found is None:
        raise Http404
    pulka, seats, role = found
    remember_role(request, pulka.club, role)
    return _checked(request, pulka, change), seats


def _checked(request: HttpRequest, pulka: Pulka, change: bool) -> Pulka:
    role = role_in_club(request, pulka.club)  # asked once per request
    if role is None:
        raise PermissionDenied(_("This pulka belongs to a club you are not a member of."))
    if change and pulka.status == Pulka.Status.ARCHIVED:
        raise PermissionDenied(_("This pulka is archived."))
    return pulka


# --- who is looking, asked once per request --------------------------------------
#
# The sheet's screen asks the viewer's role in the pulka's club in several places (the
# access check, the abandon panel, the join panel); each asking was a query. The answer
# is kept on the request, so it is asked once per request and never outlives it: a role
# changed by another request is seen on the next one.

_MEMO = "_prefscore_roles"


def role_in_club(request: HttpRequest, club: Club) -> str | None:
    """The signed-in user's role in ``club`` (``Club.role_of``), one query per request."""
    memo: dict[tuple[Any, Any], str | None] = request.__dict__.setdefault(_MEMO, {})
    key = (club.pk, getattr(request.user, "pk", None))
    if key not in memo:
        memo[key] = club.role_of(request.user)
    return memo[key]


def viewer_role_of(user: Any) -> Subquery:
    """The user's role in the club of the pulka a query reads, as a column of that query
    (``Club.role_of``'s answer, without a query of its own)."""
    roles = Membership.objects.filter(club_id=OuterRef("club_id"), user_id=user.pk)
    return Subquery(roles.order_by("pk").values("role")[:1])


def remember_role(request: HttpRequest, club: Club, role: str | None) -> None:
    """What a query read of the user's role in ``club`` (``viewer_role_of``)."""
    memo: dict[tuple[Any, Any], str | None] = request.__dict__.setdefault(_MEMO, {})
    memo[(club.pk, getattr(request.user, "pk", None))] = role


# --- the sheet's one query ------------------------------------------------------------
#
# The sheet page and the poll's 200 read the pulka, its club, its links, the viewer's
# role and the seats with their players on every request. Through the ORM that is three
# queries, and building them costs far more CPU than the database's answer (about
# 8 ms of a 12 ms page). So they are one SQL statement, made once per process from
# the models' own fields, its rows turned into model instances with the ORM's own
# converters (``Model.from_db``), as a queryset would: the same objects, without
# compiling a query each time.


@dataclass(frozen=True)
class _Part:
    model: type[Model]
    alias: str
    fields: tuple[Field[Any, Any], ...]


_PARTS: dict[str, tuple[str, tuple[_Part, ...]]] = {}


def _parts() -> tuple[_Part, ...]:
    from .models import TableLinks

    models = ((Pulka, "p"), (Club, "c"), (TableLinks, "l"), (PulkaSeat, "s"), (Player, "pl"))
    return tuple(_Part(m, alias, tuple(m._meta.concrete_fields)) for m, alias in models)


def _statement() -> tuple[str, tuple[_Part, ...]]:
    """The statement for this connection's database, made once."""
    found = _PARTS.get(connection.vendor)
    if found is None:
        parts = _parts()
        quote = connection.ops.quote_name
        columns = ", ".join(
            f"{part.alias}.{quote(str(field.column))}" for part in parts for field in part.fields
        )
        tables = {part.alias: quote(part.model._meta.db_table) for part in parts}
        membership = quote(Membership._meta.db_table)
        sql = (
            f"SELECT {columns}, (SELECT m.role FROM {membership} m WHERE m.club_id = p.club_id"
            " AND m.user_id = %s ORDER BY m.id LIMIT 1)"
            f" FROM {tables['p']} p JOIN {tables['c']} c ON c.id = p.club_id"
            f" LEFT JOIN {tables['l']} l ON l.pulka_id = p.id"
            f" LEFT JOIN {tables['s']} s ON s.pulka_id = p.id"
            f" LEFT JOIN {tables['pl']} pl ON pl.id = s.player_id"
            " WHERE p.id = %s ORDER BY s.seat"
        )
        found = _PARTS[connection.vendor] = (sql, parts)
    return found


@dataclass(frozen=True)
class _Reader:
    """How one model's columns become an instance: the ORM's converters of each."""

    part: _Part
    converters: tuple[tuple[int, tuple[Any, ...], Any], ...]  # (position, converters, col)
    names: tuple[str, ...]
    key: int  # the primary key's position

    @classmethod
    def of(cls, part: _Part) -> _Reader:
        found = []
        for position, field in enumerate(part.fields):
            col = field.get_col(part.alias)
            made = (*connection.ops.get_db_converters(col), *col.get_db_converters(connection))
            if made:
                found.append((position, made, col))
        key = [field.primary_key for field in part.fields].index(True)
        return cls(part, tuple(found), tuple(f.attname for f in part.fields), key)

    def instance(self, values: Sequence[Any]) -> Any:
        """The instance, converted as a queryset converts it; None for a LEFT JOIN that
        found nothing (its primary key is NULL)."""
        if values[self.key] is None:
            return None
        row = list(values)
        for position, converters, col in self.converters:
            for convert in converters:
                row[position] = convert(row[position], col, connection)
        return self.part.model.from_db(connection.alias, list(self.names), row)


_READERS: dict[str, tuple[_Reader, ...]] = {}


def read_sheet(user_id: Any, pk: int) -> tuple[Any, tuple[Any, ...], str | None] | None:
    """The pulka ``pk`` with its club and links cached on it, its seats in order with
    their players, and the user's role in its club: one query. None: no such pulka."""
    sql, parts = _statement()
    readers = _READERS.get(connection.vendor)
    if readers is None:
        readers = _READERS[connection.vendor] = tuple(_Reader.of(part) for part in parts)
    with connection.cursor() as cursor:
        cursor.execute(sql, [user_id, pk])
        rows = cursor.fetchall()
    if not rows:
        return None
    spans, start = [], 0
    for part in parts:
        spans.append((start, start + len(part.fields)))
        start += len(part.fields)

    def made(index: int, row: Sequence[Any]) -> Any:
        first, last = spans[index]
        return readers[index].instance(row[first:last])

    pulka, club, links = (made(i, rows[0]) for i in range(3))
    Pulka.club.field.set_cached_value(pulka, club)
    Pulka.links.related.set_cached_value(pulka, links)  # None: the table has none yet
    if links is not None:
        type(links).pulka.field.set_cached_value(links, pulka)
    seats = []
    for row in rows:
        seat, player = made(3, row), made(4, row)
        if seat is not None:
            PulkaSeat.player.field.set_cached_value(seat, player)
            PulkaSeat.pulka.field.set_cached_value(seat, pulka)
            seats.append(seat)
    return pulka, tuple(seats), rows[0][-1]


# --- who sits where --------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Seating:
    """The pulka's seats with their players' accounts: one query, read many times."""

    seats: tuple[PulkaSeat, ...]

    @classmethod
    def of(cls, pulka: Pulka) -> Seating:
        return cls(tuple(PulkaSeat.objects.filter(pulka=pulka).select_related("player")))

    def of_user(self, user: Any) -> list[int]:
        """The seats the user's linked players hold (``corrections.seats_of``, no query)."""
        if not getattr(user, "is_authenticated", False):
            return []
        return [row.seat for row in self.seats if row.player.user_id == user.pk]

    def guests(self) -> list[int]:
        """Seats of players without an account: a seated member answers for them."""
        return [row.seat for row in self.seats if row.player.user_id is None]

    def seat_of_player(self, player_id: int) -> int | None:
        for row in self.seats:
            if row.player_id == player_id:
                return row.seat
        return None

    def user_of(self, name: str) -> int | None:
        for row in self.seats:
            if row.player.name == name:
                return row.player.user_id
        return None


# --- poll tickets (docs/design.md, "How a deal flows", step 6) -------------------
#
# How a device asks "anything new?" without loading its session. A ticket is signed for
# one user and one pulka when the sheet is shown, and lives a playing evening at most.
# It is also sealed to the session it was shown in and to the account's password: the
# seal is an HMAC of the session key (the device's cookie, never put in the URL) and the
# password hash. The poll's one query reads both, so a ticket stops giving answers the
# moment its session ends (signing out, expiry) or its password changes, and a copied
# ticket is worthless without the session cookie beside it.

POLL_TICKET_SALT = "prefscore.poll"
POLL_TICKET_AGE = 12 * 60 * 60
SEAL_SALT = "prefscore.poll.seal"


@dataclass(frozen=True)
class Claim:
    """What a valid ticket says: whose it is, and the seal of its session and password."""

    user_id: str
    seal: str


def seal(session_key: str, password_hash: str) -> str:
    return salted_hmac(SEAL_SALT, f"{session_key}:{password_hash}").hexdigest()[:24]


def issue(pulka: Pulka, user_id: object, session_key: str, password_hash: str) -> str:
    """A ticket for ``user_id`` on ``pulka``, sealed to this session and password."""
    value = f"{pulka.pk}.{user_id}.{seal(session_key, password_hash)}"
    return TimestampSigner(salt=POLL_TICKET_SALT).sign(value)


def ticket_for(request: HttpRequest, pulka: Pulka) -> str:
    """The ticket of the signed-in user of ``request``, for the sheet being shown."""
    user = request.user
    key = request.session.session_key or ""
    return issue(pulka, user.pk, key, getattr(user, "password", ""))


def poll_url(pulka: Pulka, ticket: str) -> str:
    """The poll address with the version shown and this device's signed ticket."""
    query = urlencode({"v": pulka.version, "t": ticket})
    return f"{reverse('games:poll', args=[pulka.pk])}?{query}"


def claim(ticket: str, pk: int) -> Claim | None:
    """What a valid, unexpired ticket for pulka ``pk`` claims, else None."""
    try:
        value = TimestampSigner(salt=POLL_TICKET_SALT).unsign(ticket, max_age=POLL_TICKET_AGE)
    except BadSignature:
        return None
    pulka_id, user_id, sealed = (value.split(".") + ["", ""])[:3]
    if pulka_id != str(pk) or not user_id.isdigit() or not sealed:
        return None
    return Claim(user_id, sealed)


def holds(claim: Claim, session_key: str, password_hash: str) -> bool:
    """Whether the ticket was sealed to this session and this password."""
    return constant_time_compare(claim.seal, seal(session_key, password_hash))


# --- the pencil rule (Кодекс 4.2.8) ----------------------------------------------
#
# Whoever recorded the last deal holds the pencil until the next deal is recorded or the
# club's pencil window passes. Until he puts it down the error does not exist yet: he
# changes or undoes the deal freely, and nobody corrects it. Every screen and service
# that asks about the pencil asks here, so the window is decided in one place.


def result_locked(pulka: Pulka) -> bool:
    """A tournament table's result is locked once the table is over (docs/tournaments.md
    §4.9): its players no longer correct or undo, only the arbiter changes it (4.2.16)."""
    return pulka.tournament_id is not None and pulka.is_frozen


def locked_message() -> str:
    return _("This tournament table is closed: its result is locked, only an arbiter changes it.")


def pencil_until(pulka: Pulka, deal: Deal) -> datetime:
    """When the pencil window of Кодекс 4.2.8 closes on the last deal."""
    return deal.entered_at + timedelta(minutes=pulka.club.pencil_minutes)


def pencil_holder(pulka: Pulka, deals: Sequence[Deal]) -> Deal | None:
    """The last deal while its recorder still holds the pencil on it, else None.

    ``deals`` are the standing deals in order. An archived pulka has no pencil, nor
    has a deal without a recorder, nor a closed tournament table: its result is locked
    (docs/tournaments.md §4.9), the arbiter's alone.
    """
    if pulka.status == Pulka.Status.ARCHIVED or not deals or result_locked(pulka):
        return None
    last = deals[-1]
    if last.entered_by_id is None or timezone.now() > pencil_until(pulka, last):
        return None
    return last


def pencil_deal(pulka: Pulka, user: Any, deals: Sequence[Deal]) -> Deal | None:
    """The last deal if ``user`` holds its pencil: he may still change or undo it."""
    held = pencil_holder(pulka, deals)
    if held is None or not user.is_authenticated or held.entered_by_id != user.pk:
        return None
    return held


def undone_facts(pulka: Pulka, user: Any, number: int | None, standing: int) -> dict[str, Any]:
    """The facts of deal ``number`` if ``user`` himself undid it under the pencil and it
    is still the next deal to record (``standing`` deals stand), else nothing.

    Without JavaScript the undo redirects to the sheet with ``?undone=N`` (the page has
    no other way to carry the form): the sheet reads the withdrawn row back, for its own
    undoer only, so the number in a shared or replayed link shows nobody else's deal.
    """
    if number is None or number != standing + 1 or not user.is_authenticated:
        return {}
    # The latest withdrawal of that number, and it must be his: a later undo by another
    # recorder of the same number shows nothing of the first.
    row = (
        pulka.deals.filter(number=number, withdrawn_at__isnull=False)
        .order_by("-withdrawn_at")
        .values_list("facts", "withdrawn_by")
        .first()
    )
    if row is None or row[1] != user.pk:
        return {}
    return dict(row[0])


# --- who applies decisions and writes manual entries -----------------------------


def may_arbitrate(pulka: Pulka, user: Any) -> bool:
    """In tournament pulkas organisers and admins apply arbiters' decisions (4.2.16)."""
    return pulka.tournament_id is not None and pulka.club.role_of(user) in (
        Role.ORGANISER,
        Role.ADMIN,
    )


def may_write_as(pulka: Pulka, role: str | None) -> bool:
    """Whether a member of ``role`` may write manual entries in this pulka (§3.11.8)."""
    if role == Role.ADMIN:
        return True
    return pulka.tournament_id is not None and role == Role.ORGANISER


__all__ = ["Http404", "club_and_role_for", "club_for", "pulka_and_seats_for", "pulka_for"]
