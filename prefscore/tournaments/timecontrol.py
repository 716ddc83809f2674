"""Time control (docs/tournaments.md §4.9; Кодекс 4.2.3): a round's scheduled start, and
what happens when its time is up.

The round's clock runs from its scheduled start (``Round.starts_at``), else from its
publishing (``presenters.room.room_round``). When the regulations' minutes are over, by
``Tournament.at_time``: the tables are only flagged (the clock says the time is up and
the organiser closes them), or each table is closed as it stands after the deal in
play: the first deal recorded once the time is up closes it by the time limit.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from prefscore.games.models import Pulka

from .models import Round, TableClosure, Tournament
from .services import TournamentError


def round_start(round_: Round) -> datetime | None:
    """When the round's clock starts: its scheduled start, else its publishing."""
    return round_.starts_at or round_.published_at


def schedule(tournament: Tournament, number: int, starts_at: datetime) -> Round:
    """Set the round's scheduled start (a draft's, or a published round's not yet over)."""
    with transaction.atomic():
        locked = Tournament.objects.select_for_update().get(pk=tournament.pk)
        if locked.finished:
            raise TournamentError(_("The tournament is finished: its results are final."))
        round_ = locked.rounds.filter(number=number).first()
        if round_ is None:
            raise TournamentError(_("There is no such round."))
        round_.starts_at = starts_at
        round_.save(update_fields=["starts_at"])
    return round_


def time_is_up(tournament: Tournament, round_: Round, now: datetime | None = None) -> bool:
    """Whether the round's minutes (the regulations') are over."""
    start = round_start(round_)
    if start is None or not tournament.round_minutes:
        return False
    elapsed = (now or timezone.now()) - start
    return elapsed.total_seconds() >= tournament.round_minutes * 60


def close_if_time_is_up(pulka_id: int, now: datetime | None = None) -> bool:
    """After a deal: close the table as it stands if the time is up and the regulations
    say so (``at_time == close``); True when it was closed."""
    from .tables import close_table  # tables lean on stages, which lean on the games' events

    pulka = Pulka.objects.select_related("tournament").filter(pk=pulka_id).first()
    if pulka is None or pulka.tournament is None or pulka.status != Pulka.Status.RUNNING:
        return False
    if pulka.round_number is None:
        return False
    tournament = pulka.tournament
    if tournament.at_time != Tournament.AtTime.CLOSE or tournament.finished:
        return False
    round_ = tournament.rounds.filter(number=pulka.round_number).first()
    if round_ is None or not time_is_up(tournament, round_, now):
        return False
    note = _("closed at the time limit after the deal in play")
    try:
        close_table(pulka.pk, tournament, TableClosure.Reason.TIME, None, note=note)
    except TournamentError:
        return False  # closed meanwhile (by the organiser or another request)
    return True


def _on_table_changed(sender: Any, pulka_id: int, **kwargs: Any) -> None:
    close_if_time_is_up(pulka_id)


def connect() -> None:
    """Look at the clock whenever a running table's sheet changes (games tells, we look)."""
    from prefscore.games.events import table_changed

    table_changed.connect(_on_table_changed, dispatch_uid="tournaments.close_at_time")
