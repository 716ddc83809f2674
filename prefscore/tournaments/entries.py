"""Player states: registered → checked in → playing, or dropped / disqualified (§4.2).

Registration stays open through the qualifying: a late entry waits for the next
round drawn (or for a redraw of the draft), and is checked in at once, since the
organiser enters someone who is there. A drop or disqualification after a round was
published touches only the player's own table (``tables.leave_table``).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from prefscore.clubs.models import Player

from . import journal
from .models import Round, Tournament, TournamentEntry, TournamentEvent
from .services import TournamentError
from .tables import leave_table

State = TournamentEntry.State
Action = TournamentEvent.Action

# What the organiser may do from each state, by the name of the button.
MOVES: dict[str, tuple[str, ...]] = {
    State.REGISTERED: ("check_in", "drop", "disqualify"),
    State.CHECKED_IN: ("check_out", "drop", "disqualify"),
    State.PLAYING: ("drop", "disqualify"),
    State.DROPPED: ("reinstate",),
    State.DISQUALIFIED: ("reinstate",),
    State.ABSENT: ("reinstate",),
}


def _published(tournament: Tournament) -> int:
    last = (
        tournament.rounds.filter(status=Round.Status.PUBLISHED)
        .order_by("-number")
        .values_list("number", flat=True)
        .first()
    )
    return last or 0


def _not_finished(tournament: Tournament) -> None:
    if tournament.status == Tournament.Status.FINISHED:
        raise TournamentError(_("The tournament is finished: its results are final."))


def register(tournament: Tournament, players: Iterable[Player]) -> int:
    """Enter club players; after round 1 was published they are late entries (§4.2)."""
    _not_finished(tournament)
    if tournament.rounds.exclude(stage=Round.Stage.QUALIFYING).exists():
        raise TournamentError(_("The field has been cut: no more entries."))
    published = _published(tournament)
    late = published > 0
    rows = [
        TournamentEntry(
            tournament=tournament,
            player=player,
            state=State.CHECKED_IN if late else State.REGISTERED,
            joined_round=published + 1 if late else None,
        )
        for player in players
    ]
    with transaction.atomic():
        made = TournamentEntry.objects.bulk_create(rows, ignore_conflicts=True)
    return len(made)


def move(tournament: Tournament, entry_id: int, action: str, user: Any, reason: str = "") -> str:
    """Change one entry's state by the organiser's ``action`` (a name of :data:`MOVES`).

    A drop, a disqualification and taking a player back are decisions: each is written
    down with ``reason`` and what it did at his table (``journal``, §4.15). Returns a
    note on what happened at the player's table, if anything did.
    """
    _not_finished(tournament)
    with transaction.atomic():
        entry = (
            TournamentEntry.objects.select_for_update()
            .select_related("player")
            .filter(pk=entry_id, tournament=tournament)
            .first()
        )
        if entry is None:
            raise TournamentError(_("There is no such entry."))
        if action not in MOVES[entry.state]:
            raise TournamentError(_("This cannot be done to a player in this state."))
        if action in ("drop", "disqualify"):
            entry.state = State.DROPPED if action == "drop" else State.DISQUALIFIED
            entry.left_after_round = _published(tournament)
            entry.save(update_fields=["state", "left_after_round"])
            note = leave_table(tournament, entry, user)
            decided = Action.DROPPED if action == "drop" else Action.DISQUALIFIED
            journal.record(
                tournament, decided, user, reason, entry, player=entry.player.name, table=note
            )
            return note
        if action == "reinstate":
            journal.record(
                tournament, Action.REINSTATED, user, reason, entry, player=entry.player.name
            )
            played = tournament.pulkas.filter(seats__player_id=entry.player_id).exists()
            published = _published(tournament)
            later = State.CHECKED_IN if published else State.REGISTERED
            if entry.state == State.ABSENT and published:  # he came late: from the next round
                entry.joined_round = published + 1
            entry.state = State.PLAYING if played else later
            entry.left_after_round = None
        else:
            entry.state = State.CHECKED_IN if action == "check_in" else State.REGISTERED
        entry.save(update_fields=["state", "left_after_round", "joined_round"])
    return ""
