"""Closing a table, and what a drop does to the table the player sat at (issue 14).

The organiser closes a table that cannot finish (docs/tournaments.md §4.9): by the
time limit or the deal limit its sheet counts as it stands (Кодекс 4.2.3: settled as if
the players stopped); or he enters its final sheet as the arbiter (Кодекс 4.2.16),
whole whists per player that must add up to zero, and those figures count. Each
closing is a :class:`~.models.TableClosure` row: who, when, why.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.db import transaction
from django.db.models import F
from django.utils.translation import gettext as _

from prefscore.games import changes
from prefscore.games.models import Pulka

from . import stages
from .models import Round, TableClosure, Tournament, TournamentEntry
from .rounds import start_table
from .services import TournamentError, closure_of, live_pulkas

MAX_WHISTS = 1_000_000


def _finish(pulka: Pulka, status: str = Pulka.Status.FINISHED) -> None:
    # The version moves on so that the table's open sheets see the change at their poll.
    Pulka.objects.filter(pk=pulka.pk).update(status=status, version=F("version") + 1)
    changes.announce(pulka.pk)


def close_table(
    pulka_id: int,
    tournament: Tournament,
    reason: str,
    user: Any,
    whists: Sequence[int] | None = None,
    note: str = "",
) -> TableClosure:
    """Close a running table of ``tournament`` (docs/tournaments.md §4.9; Кодекс 4.2.16).

    ``reason``: ``time`` or ``deal_limit`` (the sheet counts as it stands), or
    ``arbiter`` with ``whists``, one whole figure per seat in seat order, adding up to
    zero. Raises :class:`TournamentError` with the reason when refused.
    """
    with transaction.atomic():
        pulka = live_pulkas(tournament).select_for_update().filter(pk=pulka_id).first()
        if pulka is None:
            raise TournamentError(_("There is no such table."))
        if tournament.status == Tournament.Status.FINISHED:
            raise TournamentError(_("The tournament is finished: its results are final."))
        if closure_of(pulka) is not None or pulka.status != Pulka.Status.RUNNING:
            raise TournamentError(_("This table is already over."))
        if reason not in TableClosure.Reason.values:
            raise TournamentError(_("Choose why the table is closed."))
        figures = None
        if reason == TableClosure.Reason.ARBITER:
            figures = _checked_whists(pulka, whists)
        closure = TableClosure.objects.create(
            pulka=pulka, reason=reason, whists=figures, note=note[:300], closed_by=_user(user)
        )
        _finish(pulka)
    # The last table of the final closed: the tournament is over (stages.py).
    stages.finish_if_over(tournament.pk)
    return closure


def _checked_whists(pulka: Pulka, whists: Sequence[int] | None) -> list[int]:
    """The arbiter's figures: one per seat, whole, and adding up to zero (Кодекс 4.2.12)."""
    if whists is None or len(whists) != len(pulka.player_names):
        raise TournamentError(_("Enter the whists of every player at the table."))
    if any(abs(value) > MAX_WHISTS for value in whists):
        raise TournamentError(_("These whists are beyond any pulka."))
    if sum(whists) != 0:
        raise TournamentError(
            _("The whists add up to %(sum)s: a final sheet adds up to zero.") % {"sum": sum(whists)}
        )
    return list(whists)


def _user(user: Any) -> Any:
    return user if getattr(user, "is_authenticated", False) else None


def leave_table(tournament: Tournament, entry: TournamentEntry, user: Any) -> str:
    """What a drop or disqualification does to the player's table now (§4.5, §4.9).

    In a draft he is taken off his table (the organiser redraws if it falls below 3).
    At a running table of a published round with no deal recorded, only that table is
    re-seated: its pulka is archived and a new one started with the others, playing
    short (a 4-table plays as 3). A table with deals, or one that would fall below 3,
    is closed as it stands: the deals played stand. Returns what happened, to show.
    """
    key = str(entry.player_id)
    draft = tournament.rounds.filter(status=Round.Status.DRAFT).first()
    if draft is not None:
        for table in draft.tables:
            if key in table["players"]:
                table["players"] = [k for k in table["players"] if k != key]
                draft.save(update_fields=["tables"])
                return _("taken off the draft")
    pulka = (
        live_pulkas(tournament)
        .filter(status=Pulka.Status.RUNNING, seats__player_id=entry.player_id)
        .first()
    )
    if pulka is None:
        return ""
    keys = [str(seat.player_id) for seat in pulka.seats.order_by("seat")]
    rest = [k for k in keys if k != key]
    if pulka.deals.filter(withdrawn_at__isnull=True).exists() or len(rest) < 3:
        close_table(pulka.pk, tournament, TableClosure.Reason.DROP, user)
        return _("the table was closed as it stands")
    round_ = tournament.rounds.get(number=pulka.round_number or 0)
    players = {str(e.player_id): e.player for e in tournament.entries.select_related("player")}
    number = _table_number(tournament, pulka)
    with transaction.atomic():
        TableClosure.objects.create(
            pulka=pulka, reason=TableClosure.Reason.DROP, closed_by=_user(user)
        )
        _finish(pulka, Pulka.Status.ARCHIVED)
        start_table(tournament, round_, number, {"players": rest, "first_dealer": 0}, players, user)
    return _("the table was re-seated without the player")


def _table_number(tournament: Tournament, pulka: Pulka) -> int:
    ids = list(
        tournament.pulkas.filter(round_number=pulka.round_number)
        .order_by("pk")
        .values_list("pk", flat=True)
    )
    return ids.index(pulka.pk) + 1
