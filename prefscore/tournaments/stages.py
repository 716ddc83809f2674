"""Stages after a cut and the end of a tournament (docs/tournaments.md §7.5, §7.6).

A semi-final or a final plays as many rounds as the regulations say
(``Tournament.stage_rounds``, docs/tournaments.md §4.10), each seated by standing: the
stage's players in the order of the standings so far, the best together. The
tournament is finished when the final's last round has every table over (finished or
closed by the organiser), or when the organiser finishes it by hand; from then on
nothing is drawn, no table is closed, no entry changes, and the standings are final.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from prefscore.games.events import sheet_settled, sheets_settled
from prefscore.games.models import Pulka
from scoring.engine import seating

from .models import Round, Tournament, TournamentEntry
from .rounds import _locked, _next_number, _stored, draw_next_round, guard, seating_message
from .services import TournamentError, current_standings, live_pulkas


def last_stage(tournament: Tournament) -> tuple[str, list[Round]]:
    """The stage played last and its rounds, oldest first (qualifying before any cut)."""
    rounds = list(tournament.rounds.order_by("number"))
    if not rounds:
        return Round.Stage.QUALIFYING, []
    stage = rounds[-1].stage
    return stage, [r for r in rounds if r.stage == stage]


def rounds_left(tournament: Tournament) -> int:
    """Rounds the stage after a cut still has to draw (0 in qualifying: no fixed count)."""
    stage, rounds = last_stage(tournament)
    if stage == Round.Stage.QUALIFYING:
        return 0
    return max(0, tournament.stage_rounds - len(rounds))


def draw_next(tournament_id: int, user: Any = None) -> Round:
    """The next round: a qualifying round, or the next round of the stage after a cut."""
    tournament = Tournament.objects.get(pk=tournament_id)
    if tournament.finished:
        raise TournamentError(_("The tournament is finished: nothing more is drawn."))
    stage, _rounds = last_stage(tournament)
    if stage == Round.Stage.QUALIFYING:
        return draw_next_round(tournament_id, user)
    return draw_stage_round(tournament_id)


def draw_stage_round(tournament_id: int) -> Round:
    """The next round of the stage after a cut, seated by standing (§4.10), as a draft."""
    with transaction.atomic():
        tournament = _locked(tournament_id)
        guard(tournament)
        stage, rounds = last_stage(tournament)
        if stage == Round.Stage.QUALIFYING:
            raise TournamentError(_("There is no stage after a cut yet."))
        if len(rounds) >= tournament.stage_rounds:
            raise TournamentError(_("Every round of this stage has been drawn."))
        first = rounds[0]
        players = {key for table in first.tables for key in table["players"]}
        out = {str(e.player_id) for e in tournament.entries.filter(state__in=TournamentEntry.OUT)}
        ranked = [
            line.player
            for line in current_standings(tournament).lines
            if line.player in players and line.player not in out
        ]
        try:
            tables = seating.tables_by_standing(
                ranked, tournament.table_size, tournament.seed + len(rounds)
            )
        except seating.SeatingError:
            raise TournamentError(seating_message(len(ranked), tournament)) from None
        return Round.objects.create(
            tournament=tournament,
            number=_next_number(tournament),
            seed=tournament.seed,
            is_final=True,
            stage=stage,
            method="standing",
            tables=_stored(tables),
        )


def is_over(tournament: Tournament) -> bool:
    """The final has all its rounds published and no table of the tournament plays."""
    stage, rounds = last_stage(tournament)
    if stage != Round.Stage.FINAL or len(rounds) < tournament.stage_rounds:
        return False
    if any(r.status != Round.Status.PUBLISHED for r in rounds):
        return False
    return not live_pulkas(tournament).filter(status=Pulka.Status.RUNNING).exists()


def finish_if_over(tournament_id: int) -> bool:
    """Mark the tournament finished once its final is over; True if it is now finished."""
    with transaction.atomic():
        tournament = Tournament.objects.select_for_update().get(pk=tournament_id)
        if tournament.finished:
            return True
        if not is_over(tournament):
            return False
        _finish(tournament, None, by_hand=False)
    return True


def finish_by_hand(tournament_id: int, user: Any) -> Tournament:
    """The organiser ends the tournament now (§4.10): no draft, no table still playing."""
    with transaction.atomic():
        tournament = _locked(tournament_id)
        if tournament.finished:
            raise TournamentError(_("The tournament is already finished."))
        if not tournament.rounds.filter(status=Round.Status.PUBLISHED).exists():
            raise TournamentError(_("Play at least one round before finishing."))
        guard(tournament)
        _finish(tournament, user, by_hand=True)
    return tournament


def _finish(tournament: Tournament, user: Any, *, by_hand: bool) -> None:
    tournament.status = Tournament.Status.FINISHED
    tournament.finished_at = timezone.now()
    tournament.finished_by = user if getattr(user, "is_authenticated", False) else None
    tournament.finished_by_hand = by_hand
    tournament.save(update_fields=["status", "finished_at", "finished_by", "finished_by_hand"])


def _on_sheet_settled(sender: Any, pulka_id: int, **kwargs: Any) -> None:
    """A table of a final finished: the tournament may be over (games tells, we look)."""
    tournament_id = (
        Pulka.objects.filter(pk=pulka_id).values_list("tournament_id", flat=True).first()
    )
    if tournament_id is not None:
        finish_if_over(tournament_id)


def _on_sheets_settled(sender: Any, pulka_ids: list[int], **kwargs: Any) -> None:
    """Many tables settled at once (an import): each tournament looks once."""
    found = Pulka.objects.filter(pk__in=pulka_ids[:1000], tournament__isnull=False)
    for tournament_id in set(found.values_list("tournament_id", flat=True)):
        finish_if_over(tournament_id)


def connect() -> None:
    sheet_settled.connect(_on_sheet_settled, dispatch_uid="tournaments.finish_if_over")
    sheets_settled.connect(_on_sheets_settled, dispatch_uid="tournaments.finish_if_over_many")
