"""Check-in: the organiser ticks several players at once, or players check in themselves
(docs/tournaments.md §4.2).

Check-in is open until round 1 is published (then whoever is still only registered is
absent, ``rounds._withdraw_no_shows``). A player checks in himself with the signed link
of the tournament's QR code (on its page): signed in, he checks in his own entry only,
and the check-in is kept as a :class:`~.models.TournamentEvent`. The signature makes the
link unguessable, so holding it means having seen the code in the room.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.core import signing
from django.db import transaction
from django.utils.translation import gettext as _

from .models import Round, Tournament, TournamentEntry, TournamentEvent
from .services import TournamentError

State = TournamentEntry.State
SALT = "prefscore.tournaments.check-in"


def is_open(tournament: Tournament) -> bool:
    """Check-in runs until round 1 is published, and never in a finished tournament."""
    if tournament.finished:
        return False
    return not tournament.rounds.filter(status=Round.Status.PUBLISHED).exists()


def _refuse_unless_open(tournament: Tournament) -> None:
    if not is_open(tournament):
        raise TournamentError(_("Check-in is closed: round 1 has been published."))


def check_in_many(tournament: Tournament, entry_ids: Iterable[int]) -> int:
    """Check in the ticked entries still only registered; how many were checked in."""
    with transaction.atomic():
        locked = Tournament.objects.select_for_update().get(pk=tournament.pk)
        _refuse_unless_open(locked)
        ids = set(entry_ids)
        return TournamentEntry.objects.filter(
            tournament=locked, pk__in=ids, state=State.REGISTERED
        ).update(state=State.CHECKED_IN)


def token(tournament: Tournament) -> str:
    """The signed part of the tournament's check-in link (its QR code).

    The same on every page and print: no timestamp in it, so a QR code shown or printed
    earlier stays good while check-in is open (``is_open`` bounds it, not the age)."""
    return signing.Signer(salt=SALT).sign(str(tournament.pk))


def token_is_valid(tournament: Tournament, value: str) -> bool:
    try:
        return signing.Signer(salt=SALT).unsign(value) == str(tournament.pk)
    except signing.BadSignature:
        return False


def own_entry(tournament: Tournament, user: Any) -> TournamentEntry | None:
    """The entry of the club player whose account is ``user``, if he is registered."""
    if not getattr(user, "is_authenticated", False):
        return None
    return (
        tournament.entries.select_related("player")
        .filter(player__club_id=tournament.club_id, player__user=user)
        .first()
    )


def check_in_self(tournament: Tournament, user: Any) -> TournamentEntry:
    """Check in the user's own entry (the link's signature was checked by the view)."""
    with transaction.atomic():
        locked = Tournament.objects.select_for_update().get(pk=tournament.pk)
        _refuse_unless_open(locked)
        entry = own_entry(locked, user)
        if entry is None:
            raise TournamentError(_("You are not registered in this tournament."))
        if entry.state == State.CHECKED_IN:
            return entry
        if entry.state != State.REGISTERED:
            raise TournamentError(_("Your entry cannot be checked in: ask the organiser."))
        entry.state = State.CHECKED_IN
        entry.save(update_fields=["state"])
        TournamentEvent.objects.create(
            tournament=locked,
            entry=entry,
            action=TournamentEvent.Action.CHECKED_IN,
            details={"player": entry.player.name},
            user=user,
        )
    return entry
