"""The director's decisions after a result was final (docs/tournaments.md §4.9, §4.10, §4.15).

A tournament table's result is locked once the table is over: its players no longer
correct or undo (``games.corrections.result_locked``); an arbiter changes it with a
reason (a correction, Кодекс 4.2.16, or here a corrected final sheet). Once the
tournament is finished even that is refused until the arbiter reopens it, explicitly.
Each decision is a :class:`~.models.TournamentEvent` (who, when, why, before and after),
listed on the tournament page with the arbiters' corrections of closed tables.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db import transaction
from django.db.models import F
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from prefscore.clubs.names import display_name, isolate
from prefscore.games.models import AuditEvent, Pulka
from prefscore.games.presenters.numbers import signed
from prefscore.games.titles import table_title

from .models import Round, TableClosure, Tournament, TournamentEvent
from .services import TournamentError, live_pulkas
from .tables import checked_whists

REASON_LENGTH = 300


def _user(user: Any) -> Any:
    return user if getattr(user, "is_authenticated", False) else None


def _reason(reason: str) -> str:
    text = reason.strip()
    if not text:
        raise TournamentError(_("State the reason for the decision."))
    return text[:REASON_LENGTH]


def reopen(tournament_id: int, user: Any, reason: str) -> Tournament:
    """Reopen a finished tournament for an arbiter's change (docs/tournaments.md §4.10).

    The status goes back to the final (or the rounds in play without one); the tournament
    finishes again by itself when its final's tables are over, or by the organiser's hand.
    """
    why = _reason(reason)
    with transaction.atomic():
        tournament = Tournament.objects.select_for_update().get(pk=tournament_id)
        if not tournament.finished:
            raise TournamentError(_("The tournament is not finished."))
        details = {
            "finished_at": tournament.finished_at.isoformat() if tournament.finished_at else None,
            "finished_by_hand": tournament.finished_by_hand,
        }
        final = tournament.rounds.filter(stage=Round.Stage.FINAL).exists()
        tournament.status = Tournament.Status.FINAL if final else Tournament.Status.RUNNING
        tournament.finished_at, tournament.finished_by = None, None
        tournament.finished_by_hand = False
        tournament.save(update_fields=["status", "finished_at", "finished_by", "finished_by_hand"])
        TournamentEvent.objects.create(
            tournament=tournament,
            action=TournamentEvent.Action.REOPENED,
            reason=why,
            details=details,
            user=_user(user),
        )
    return tournament


def correct_closure(
    pulka_id: int, tournament: Tournament, user: Any, whists: Sequence[int], reason: str
) -> TableClosure:
    """Correct the arbiter's final sheet of a closed table (Кодекс 4.2.16), with a reason.

    The same checks as the closing (one whole figure per seat, adding up to zero); the
    figures before and after are kept in the tournament's audit.
    """
    why = _reason(reason)
    with transaction.atomic():
        locked = Tournament.objects.select_for_update().get(pk=tournament.pk)
        if locked.finished:
            raise TournamentError(
                _("The tournament is finished: its results are final. Reopen it to change them.")
            )
        pulka = live_pulkas(locked).filter(pk=pulka_id).select_related("closure").first()
        closure: TableClosure | None = getattr(pulka, "closure", None) if pulka else None
        if pulka is None or closure is None or closure.reason != TableClosure.Reason.ARBITER:
            raise TournamentError(_("This table has no final sheet entered by the arbiter."))
        figures = checked_whists(pulka, whists)
        if figures == list(closure.whists or ()):
            raise TournamentError(_("These are the figures that stand: change what was wrong."))
        before = list(closure.whists or ())
        closure.whists = figures
        closure.save(update_fields=["whists"])
        TournamentEvent.objects.create(
            tournament=locked,
            action=TournamentEvent.Action.CLOSURE_CORRECTED,
            reason=why,
            details={
                "pulka": pulka.pk,
                "round": pulka.round_number,
                "before": before,
                "after": figures,
                "players": list(pulka.player_names),
            },
            user=_user(user),
        )
        # The table's open sheets and the room see the change at their next poll.
        Pulka.objects.filter(pk=pulka.pk).update(version=F("version") + 1)
    return closure


# --- what the tournament page lists -----------------------------------------------------


@dataclass(frozen=True)
class DecisionRow:
    at: datetime
    what: str
    detail: str
    reason: str
    by: str


def _name(user: Any) -> str:
    """Who decided, as the page names people (his name at the table; the finish line's)."""
    return display_name(user) if user is not None else "—"


def decision_rows(tournament: Tournament) -> tuple[DecisionRow, ...]:
    """The director's decisions and the arbiters' corrections, oldest first: two queries."""
    rows = []
    # A player's own check-in is kept, but it decides nothing: not listed here.
    events = tournament.events.exclude(action=TournamentEvent.Action.CHECKED_IN)
    for event in events.select_related("user"):
        rows.append(
            DecisionRow(
                event.at,
                event.get_action_display(),
                _event_detail(event),
                event.reason,
                _name(event.user),
            )
        )
    arbiter = AuditEvent.objects.filter(
        pulka__tournament=tournament, action=AuditEvent.Action.ARBITER
    ).select_related("user", "pulka")
    for audit in arbiter:
        detail = _("%(table)s, deal %(number)s") % {
            "table": table_title(audit.pulka.title_parts) or audit.pulka.title or audit.pulka.pk,
            "number": audit.deal_number,
        }
        reason = str((audit.details or {}).get("reason", ""))
        rows.append(
            DecisionRow(audit.at, _("arbiter's correction"), detail, reason, _name(audit.user))
        )
    return tuple(sorted(rows, key=lambda row: row.at))


def _event_detail(event: TournamentEvent) -> str:
    details = event.details or {}
    if event.action == TournamentEvent.Action.CLOSURE_CORRECTED:
        players = details.get("players") or []
        before = details.get("before") or []
        after = details.get("after") or []
        figures = ", ".join(
            f"{isolate(str(name))} {_signed(old)} → {_signed(new)}"
            for name, old, new in zip(players, before, after, strict=False)
        )
        return _("round %(round)s: %(figures)s") % {
            "round": details.get("round"),
            "figures": figures,
        }
    if event.action == TournamentEvent.Action.TABLE_CLOSED:
        return _closing(details)
    if event.action == TournamentEvent.Action.CUT:
        return _cut(details)
    if event.action == TournamentEvent.Action.FINE:
        return _("%(player)s, %(points)s whists at round %(round)s") % {
            "player": isolate(details.get("player", "")),
            "points": details.get("points", ""),
            "round": details.get("round", ""),
        }
    return str(details.get("player", ""))


def _closing(details: dict[str, Any]) -> str:
    """A closing as the list says it: its round, its players (with the arbiter's figures
    when he entered the final sheet) and how it was closed (§4.9, §4.15)."""
    players = [str(name) for name in details.get("players") or ()]
    whists = details.get("whists")
    if isinstance(whists, list) and len(whists) == len(players):
        pairs = zip(players, whists, strict=True)
        seats = [f"{isolate(name)} {_signed(value)}" for name, value in pairs]
    else:
        seats = [isolate(name) for name in players]
    kind = details.get("kind")
    how = TableClosure.Reason(kind).label if kind in TableClosure.Reason.values else ""
    return _("round %(round)s: %(table)s (%(how)s)") % {
        "round": details.get("round", ""),
        "table": ", ".join(seats),
        "how": how,
    }


def _signed(value: Any) -> str:
    return signed(value, None) if isinstance(value, int) else str(value)


def _cut(details: dict[str, Any]) -> str:
    """A cut as the list says it: the stage it made and how many it took (§4.10)."""
    stage = details.get("stage")
    label = Round.Stage(stage).label if stage in Round.Stage.values else str(stage or "")
    size = details.get("size")
    count = size if isinstance(size, int) else len(details.get("players") or ())
    return ngettext(
        "the %(stage)s: %(count)s player", "the %(stage)s: %(count)s players", count
    ) % {"stage": label, "count": count}
