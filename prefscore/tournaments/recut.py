"""A cut that a later correction would change, and redoing it (docs/tournaments.md §4.10).

The cut takes the top of the standings as they were (its ``CUT`` decision lists whom).
A correction of a qualifying table afterwards (an arbiter's correction of a deal, a
corrected final sheet) can change who that would have been. The director is told
(:func:`cut_change`, on the tournament page), and while no deal of the stage after the
cut has been played he may redo the cut (:func:`redo_cut`): its unplayed tables go, and
the stage is drawn again from the standings as they are now, as a draft, the redone cut
written down with his reason.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.db.models import ProtectedError
from django.utils.translation import gettext as _

from prefscore.games.models import Deal, Pulka
from scoring.engine import ranking

from .models import Round, Tournament, TournamentEvent
from .rounds import _locked, draw_stage
from .services import TournamentError, standings

Action = TournamentEvent.Action


@dataclass(frozen=True)
class CutChange:
    """Who the last cut took that the standings before it would no longer take, and who
    they would take instead; ``may_redo`` while the stage after it has no deal."""

    stage: str
    round_number: int
    size: int
    dropped_out: tuple[str, ...]
    came_in: tuple[str, ...]
    may_redo: bool


def cut_change(tournament: Tournament) -> CutChange | None:
    """The last cut, if the standings before it would now cut differently."""
    rounds = list(tournament.rounds.exclude(stage=Round.Stage.QUALIFYING).order_by("number"))
    if not rounds or tournament.finished:
        return None
    stage = rounds[-1].stage
    first = next(r for r in rounds if r.stage == stage)
    events = list(tournament.events.filter(action__in=[Action.CUT, *TournamentEvent.LEAVING]))
    cut = next((e for e in reversed(events) if e.action == Action.CUT and _stage(e) == stage), None)
    if cut is None:
        return None
    taken = [str(key) for key in (cut.details or {}).get("players") or ()]
    size = int((cut.details or {}).get("size") or len(taken))
    # Who was out when the cut was made never advanced; who left since did advance.
    out_then = {e.entry_id for e in events if e.action in TournamentEvent.LEAVING and e.at < cut.at}
    out_keys = {
        str(player)
        for pk, player in tournament.entries.values_list("pk", "player_id")
        if pk in out_then
    }
    before = standings(tournament, before_round=first.number)
    lines = [line for line in before.lines if line.player not in out_keys]
    now = list(ranking.cut(lines, size)) if lines else []
    if set(now) == set(taken):
        return None
    names = before.players
    return CutChange(
        stage=stage,
        round_number=first.number,
        size=size,
        dropped_out=tuple(_name(names, key) for key in taken if key not in now),
        came_in=tuple(_name(names, key) for key in now if key not in taken),
        may_redo=not _started(tournament, [r.number for r in rounds if r.stage == stage]),
    )


def _stage(event: TournamentEvent) -> str:
    return str((event.details or {}).get("stage") or "")


def _name(players: Any, key: str) -> str:
    player = players.get(key)
    return player.name if player is not None else key


def _started(tournament: Tournament, numbers: list[int]) -> bool:
    """Whether any table of these rounds has seen a deal (standing or withdrawn)."""
    tables = tournament.pulkas.filter(round_number__in=numbers)
    return Deal.objects.filter(pulka__in=tables).exists()


def redo_cut(tournament_id: int, user: Any, reason: str) -> Round:
    """Draw the last stage again from the standings as they are now (§4.10).

    Refused once a deal of the stage was played, or when the cut stands as it is. The
    stage's unplayed tables and rounds go; the new draw is a draft, and its cut is
    written down with ``reason`` (``rounds.draw_stage``).
    """
    why = reason.strip()
    if not why:
        raise TournamentError(_("State the reason for the decision."))
    with transaction.atomic():
        tournament = _locked(tournament_id)
        change = cut_change(tournament)
        if change is None:
            raise TournamentError(_("The cut stands: the standings would take the same players."))
        if not change.may_redo:
            raise TournamentError(
                _("The stage after the cut has begun: its tables have deals, the cut stays.")
            )
        stage_rounds = tournament.rounds.filter(stage=change.stage)
        numbers = list(stage_rounds.values_list("number", flat=True))
        try:
            Pulka.objects.filter(tournament=tournament, round_number__in=numbers).delete()
        except ProtectedError:
            raise TournamentError(
                _("The stage after the cut has begun: its tables have deals, the cut stays.")
            ) from None
        stage_rounds.delete()
        tournament.status = Tournament.Status.RUNNING
        tournament.save(update_fields=["status"])
        return draw_stage(tournament.pk, change.size, change.stage, user, reason=why)
