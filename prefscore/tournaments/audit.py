"""Every state a director's decision leaves, proved against its record (§4.15, §7.12).

A table closed or archived, a player out of the tournament or back in it, a stage's
field, a reopened tournament, a fine on a sheet: each has its ``TournamentEvent`` (who,
when, why), written with the state (``journal.py``). ``check_tournament`` runs
:func:`unexplained`, which names a state without its decision, and a decision whose
state is gone or differs (a closing deleted, a table archived, the arbiter's figures
changed, behind the audit), in the reader's language.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.utils import timezone
from django.utils.translation import gettext as _

from prefscore.games.models import Pulka

from . import journal, stages
from .models import Round, TableClosure, Tournament, TournamentEntry, TournamentEvent
from .recount import Sheet

Action = TournamentEvent.Action
State = TournamentEntry.State


@dataclass(frozen=True)
class Context:
    """What the checks read once: the sheets (archived ones too) folded, each live
    table's label, the players' names, the rounds, entries and decisions."""

    tournament: Tournament
    sheets: Mapping[int, Sheet]
    label: Callable[[Pulka], str]
    name: Callable[[str], str]
    rounds: Sequence[Round]
    entries: Sequence[TournamentEntry]
    events: Sequence[TournamentEvent]


def unexplained(context: Context) -> list[str]:
    """Each state without the decision that must explain it, one line each."""
    return [
        *_closings(context),
        *_archived_and_unfinished(context),
        *_players(context),
        *_cuts(context),
        *_reopened(context),
        *_fines(context),
    ]


def _closure(pulka: Pulka) -> TableClosure | None:
    try:
        return pulka.closure
    except TableClosure.DoesNotExist:
        return None


def _closings(context: Context) -> list[str]:
    """Each closing has its decision, each closing decided is still there, and the
    arbiter's figures are the last the record gave (Кодекс 4.2.16)."""
    problems = []
    closed = [e for e in context.events if e.action == Action.TABLE_CLOSED]
    decided = {int((e.details or {}).get("pulka") or 0): e for e in closed}
    corrected: dict[int, list[int]] = {}
    for event in context.events:
        if event.action == Action.CLOSURE_CORRECTED:
            corrected[int((event.details or {}).get("pulka") or 0)] = (event.details or {}).get(
                "after"
            ) or []
    for pk, one in context.sheets.items():
        closure = _closure(one.pulka)
        record = decided.get(pk)
        if closure is not None and record is None:
            problems.append(
                _("%(table)s: closed (%(reason)s) with no decision in the record")
                % {"table": context.label(one.pulka), "reason": closure.get_reason_display()}
            )
        if closure is None and record is not None:
            problems.append(
                _(
                    "%(table)s: the record says %(who)s closed it on %(when)s, but the closing is gone"
                )
                % {
                    "table": context.label(one.pulka),
                    "who": _who(record),
                    # The server's clock, as the pages say it (TIME_ZONE), not UTC.
                    "when": timezone.localtime(record.at).strftime("%Y-%m-%d %H:%M"),
                }
            )
        if closure is not None and record is not None and closure.whists is not None:
            expected = corrected.get(pk, (record.details or {}).get("whists"))
            if expected is not None and list(expected) != list(closure.whists):
                problems.append(
                    _("%(table)s: the arbiter's figures are %(now)s, the record says %(record)s")
                    % {
                        "table": context.label(one.pulka),
                        "now": _figures(closure.whists),
                        "record": _figures(expected),
                    }
                )
    return problems


def _figures(values: Any) -> str:
    return ", ".join(str(value) for value in values) if isinstance(values, list) else str(values)


def _who(event: TournamentEvent) -> str:
    return event.user.get_username() if event.user is not None else _("the site")


def _archived_and_unfinished(context: Context) -> list[str]:
    """An archived sheet was re-seated after a drop (its closing says so), and a table
    that is over before its sheet ends was closed by somebody (§4.9)."""
    problems = []
    for one in context.sheets.values():
        pulka = one.pulka
        closure = _closure(pulka)
        if pulka.status == Pulka.Status.ARCHIVED and (
            closure is None or closure.reason != TableClosure.Reason.DROP
        ):
            problems.append(
                _("%(table)s: archived, and no drop's closing explains it")
                % {"table": context.label(pulka)}
            )
        unfinished = pulka.status == Pulka.Status.FINISHED and not one.over and not one.error
        if unfinished and closure is None:
            problems.append(
                _("%(table)s: over before its sheet is finished, and no closing explains it")
                % {"table": context.label(pulka)}
            )
    return problems


def _players(context: Context) -> list[str]:
    """A player out of the tournament was put out by a decision, one back in was taken
    back, and one who forfeited a round left his table by a decision (§4.2, §4.9)."""
    last: dict[int, TournamentEvent] = {}
    left: set[int] = set()
    for event in context.events:
        if event.entry_id is None:
            continue
        if event.action in TournamentEvent.LEAVING or event.action == Action.REINSTATED:
            last[event.entry_id] = event
        if event.action in (Action.DROPPED, Action.DISQUALIFIED):
            left.add(event.entry_id)
    problems = []
    for entry in context.entries:
        name = context.name(str(entry.player_id))
        record = last.get(entry.pk)
        decided = TournamentEvent.LEAVING.get(record.action) if record is not None else None
        if entry.state in TournamentEntry.OUT and decided != entry.state:
            problems.append(
                _("%(player)s is %(state)s with no decision in the record")
                % {"player": name, "state": entry.get_state_display()}
            )
        elif entry.state not in TournamentEntry.OUT and decided is not None:
            problems.append(
                _("%(player)s is %(state)s, but the record's last decision put him out")
                % {"player": name, "state": entry.get_state_display()}
            )
        if entry.forfeited_round is not None and entry.pk not in left:
            problems.append(
                _("%(player)s forfeited round %(round)s with no drop in the record")
                % {"player": name, "round": entry.forfeited_round}
            )
    return problems


def _cuts(context: Context) -> list[str]:
    """Each stage after a cut seats the players the cut took, or the next in the
    standings for one of them who left (§4.10)."""
    cuts = {(e.details or {}).get("stage"): e for e in context.events if e.action == Action.CUT}
    out = {str(e.player_id) for e in context.entries if e.state in TournamentEntry.OUT}
    problems, seen = [], set()
    for round_ in sorted(context.rounds, key=lambda r: r.number):
        if round_.stage == Round.Stage.QUALIFYING or round_.stage in seen:
            continue
        seen.add(round_.stage)
        if round_.method == "seeded":  # a season's final, seated by its seeds (§4.10)
            continue
        stage = round_.get_stage_display()
        record = cuts.get(round_.stage)
        if record is None:
            problems.append(
                _("round %(round)s: the %(stage)s has no cut in the record")
                % {"round": round_.number, "stage": stage}
            )
            continue
        taken = {str(key) for key in (record.details or {}).get("players") or ()}
        seated = set(journal.stage_field(round_))
        strangers = sorted(seated - taken)
        replaced = taken - seated
        if len(strangers) > len(replaced & out):
            problems.append(
                _("round %(round)s: the %(stage)s seats %(players)s, whom the cut did not take")
                % {
                    "round": round_.number,
                    "stage": stage,
                    "players": ", ".join(context.name(key) for key in strangers),
                }
            )
    return problems


def _reopened(context: Context) -> list[str]:
    """A tournament whose final is over is finished, unless an arbiter reopened it
    (§4.10); one marked finished says when."""
    tournament = context.tournament
    if tournament.finished:
        if tournament.finished_at is None:
            return [_("the tournament is finished, with no time it finished")]
        return []
    if not stages.is_over(tournament):
        return []
    reopened = any(e.action == Action.REOPENED for e in context.events)
    if reopened:
        return []
    return [
        _("the final is over, yet the tournament is not finished and no reopening is in the record")
    ]


def _fines(context: Context) -> list[str]:
    """Each fine in the record is on its sheet: a manual line from each opponent on the
    fined player, for the whists fined (docs/rules.md §3.11)."""
    lines: dict[int, list[dict[str, Any]]] = defaultdict(list)
    for pk, one in context.sheets.items():
        for deal in one.pulka.standing_deals:  # type: ignore[attr-defined]
            manual = (deal.facts or {}).get("manual") if isinstance(deal.facts, dict) else None
            if isinstance(manual, dict):
                lines[pk].append(manual)
    problems = []
    for event in context.events:
        if event.action != Action.FINE:
            continue
        details = event.details or {}
        pk = int(details.get("pulka") or 0)
        fined = context.sheets.get(pk)
        player, points = details.get("player"), details.get("points")
        written = [
            line
            for line in lines.get(pk, ())
            if line.get("on") == player and line.get("points") == points
        ]
        if fined is None or len(written) < len(fined.players) - 1:
            where = context.label(fined.pulka) if fined is not None else _("a table gone")
            problems.append(
                _("%(player)s's fine of %(points)s whists is not on the sheet of %(table)s")
                % {"player": player, "points": points, "table": where}
            )
    return problems
