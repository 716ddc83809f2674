"""What the organiser's controls show: entries and their states, the draft, the bracket."""

from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from prefscore.clubs.names import display_name, isolate
from prefscore.games.models import Pulka

from .. import recut
from ..entries import MOVES
from ..models import RegulationChange, Round, Tournament, TournamentEntry
from ..services import Standings, stage_pulkas

MOVE_LABELS = {
    "check_in": gettext_lazy("Check in"),
    "check_out": gettext_lazy("Not arrived"),
    "drop": gettext_lazy("Drop"),
    "disqualify": gettext_lazy("Disqualify"),
    "reinstate": gettext_lazy("Take back"),
}


@dataclass(frozen=True)
class EntryRow:
    entry: TournamentEntry
    name: str
    state: str
    out: bool
    late: str
    moves: tuple[tuple[str, str], ...]
    # Cards and fines (docs/tournaments.md §4.9), e.g. "1 yellow card · fined 20 whists".
    discipline: str = ""
    yellow: int = 0
    red: int = 0
    # The seed he came with from above the tournament (a season's final, seeds.py).
    seed: str = ""


def discipline_line(yellow: int, red: int, fined: int) -> str:
    """A player's cards and fines in words, for his line; blank when he has none."""
    parts = []
    if yellow:
        parts.append(
            ngettext("%(count)s yellow card", "%(count)s yellow cards", yellow) % {"count": yellow}
        )
    if red:
        parts.append(_("red card"))
    if fined:
        parts.append(_("fined %(points)s whists") % {"points": fined})
    return " · ".join(parts)


def entry_rows(
    entries: list[TournamentEntry],
    open_: bool,
    marks: dict[int, Any] | None = None,
    seeds: dict[int, int] | None = None,
) -> tuple[EntryRow, ...]:
    """Each entry with its state and the buttons that change it (docs/tournaments.md §4.2).

    ``marks``: each entry's cards and fines by entry id (``discipline.marks``);
    ``seeds``: each player's seed from above the tournament by player id (``seeds.py``).
    """
    rows = []
    marks = marks or {}
    seeds = seeds or {}
    for entry in entries:
        late = ""
        if entry.joined_round:
            late = _("late entry from round %(number)s") % {"number": entry.joined_round}
        moves = tuple((m, str(MOVE_LABELS[m])) for m in MOVES[entry.state]) if open_ else ()
        mark = marks.get(entry.pk)
        yellow, red, fined = (mark.yellow, mark.red, mark.fined) if mark else (0, 0, 0)
        rows.append(
            EntryRow(
                entry,
                entry.player.name,
                entry.get_state_display(),
                entry.dropped,
                late,
                moves,
                discipline_line(yellow, red, fined),
                yellow,
                red,
                _seed_label(seeds.get(entry.player_id)),
            )
        )
    return tuple(rows)


def _seed_label(seed: int | None) -> str:
    return _("seed %(seed)s") % {"seed": seed} if seed else ""


@dataclass(frozen=True)
class DraftTable:
    number: int
    names: tuple[str, ...]
    first_dealer: str
    short: bool


@dataclass(frozen=True)
class DraftView:
    round: Round
    title: str
    tables: tuple[DraftTable, ...]
    seated: tuple[tuple[int, str], ...]
    summary: str


def draft_view(
    round_: Round | None, names: dict[str, str], summary: str, title: str = ""
) -> DraftView | None:
    """The draft round's tables by name, and the players the swap form offers.

    ``title``: the round's title (titles.py), else its stage's own name.
    """
    if round_ is None:
        return None
    tables: list[DraftTable] = []
    seated: list[tuple[int, str]] = []
    for number, table in enumerate(round_.tables, start=1):
        keys = list(table["players"])
        shown = tuple(names.get(key, key) for key in keys)
        dealer = shown[table["first_dealer"] % len(shown)] if shown else ""
        tables.append(DraftTable(number, shown, dealer, len(keys) < 3))
        seated.extend((int(key), names.get(key, key)) for key in keys)
    return DraftView(
        round_,
        title or stage_title(round_),
        tuple(tables),
        tuple(sorted(seated, key=lambda item: item[1])),
        summary,
    )


def stage_title(round_: Round) -> str:
    if round_.stage == Round.Stage.FINAL:
        return _("Final")
    if round_.stage == Round.Stage.SEMIFINAL:
        return _("Semi-final")
    return _("Round %(number)s") % {"number": round_.number}


@dataclass(frozen=True)
class ChangeRow:
    setting: str
    before: str
    after: str
    by: str
    at: str


def _local(moment: datetime) -> str:
    """A moment as the club's clock shows it (settings.TIME_ZONE, the machine's own zone by
    default), as the pencil's time and the audit trail show theirs: not in UTC."""
    return timezone.localtime(moment).strftime("%Y-%m-%d %H:%M")


def change_rows(changes: list[RegulationChange]) -> tuple[ChangeRow, ...]:
    """The log of changes to frozen regulations (docs/tournaments.md §4.1, §4.15)."""
    labels = {
        "normalisation": _("Round scores"),
        "tie_breaks": _("Tie-breaks"),
        "carry": _("Qualifying points in the final"),
        "round_minutes": _("Minutes per round"),
    }
    return tuple(
        ChangeRow(
            setting=str(labels.get(c.field, c.field)),
            before=c.before,
            after=c.after,
            by=display_name(c.changed_by) if c.changed_by else "",
            at=_local(c.changed_at),
        )
        for c in changes
    )


@dataclass(frozen=True)
class BracketTable:
    number: int
    seats: tuple[tuple[str, bool], ...]  # each player's name and whether he went on


@dataclass(frozen=True)
class BracketStage:
    title: str
    rounds: int
    tables: tuple[BracketTable, ...]
    advanced: tuple[str, ...]


def bracket(tournament: Tournament, standings: Standings) -> tuple[BracketStage, ...]:
    """The stages, their tables and who went on from each (docs/tournaments.md §4.10).

    Qualifying lists who advanced to the next stage in standing order; each stage after
    a cut shows its tables with those who went on marked.
    """
    stage_of = {r.number: r.stage for r in standings.rounds}
    by_stage: dict[str, list[Pulka]] = defaultdict(list)
    for pulka in stage_pulkas(tournament, standings.rounds):
        by_stage[stage_of[pulka.round_number or 0]].append(pulka)
    seated_in = {
        stage: {str(seat.player_id) for p in at for seat in p.seats.all()}
        for stage, at in by_stage.items()
    }
    rounds_of = Counter(stage_of.values())
    order = [s for s in standings.stages]
    stages = []
    for index, stage in enumerate(order):
        following = seated_in.get(order[index + 1], set()) if index + 1 < len(order) else set()
        rounds = rounds_of[stage]
        tables: tuple[BracketTable, ...] = ()
        if stage != Round.Stage.QUALIFYING:
            tables = tuple(
                BracketTable(
                    number,
                    tuple(
                        (seat.player.name, str(seat.player_id) in following)
                        for seat in p.seats.all()
                    ),
                )
                for number, p in enumerate(by_stage[stage], start=1)
            )
        advanced = tuple(
            standings.players[line.player].name
            for line in standings.lines
            if line.player in following and line.player in standings.players
        )
        stages.append(BracketStage(_stage_name(stage), rounds, tables, advanced))
    return tuple(stages)


def _stage_name(stage: str) -> str:
    return str(Round.Stage(stage).label).capitalize()


def finished_line(tournament: Tournament) -> str:
    """How and when the tournament ended, as its page says it (docs/tournaments.md §4.10)."""
    when = _local(tournament.finished_at) if tournament.finished_at else ""
    if tournament.finished_by_hand:
        who = isolate(display_name(tournament.finished_by)) if tournament.finished_by else "—"
        return _("Finished by %(user)s on %(when)s: the standings are final.") % {
            "user": who,
            "when": when,
        }
    return _(
        "Finished on %(when)s, when the last table of the final was over: the standings are final."
    ) % {"when": when}


@dataclass(frozen=True)
class CutChangeView:
    """What the director is told when a correction changed who the last cut would take."""

    text: str
    then: str
    may_redo: bool


def cut_change_view(tournament: Tournament) -> CutChangeView | None:
    """The warning of a cut a later correction would change (§4.10), or None."""
    change = recut.cut_change(tournament)
    if change is None:
        return None
    words = {
        "stage": Round.Stage(change.stage).label,
        "came": ", ".join(change.came_in),
        "went": ", ".join(change.dropped_out),
    }
    text = (
        _(
            "A correction since the cut changes who goes through to the %(stage)s: by the "
            "standings now, %(came)s instead of %(went)s."
        )
        % words
    )
    if change.may_redo:
        then = _(
            "No deal of it has been played: you may redo the cut, and its tables are drawn "
            "again from the standings as they are now."
        )
    else:
        then = _("Deals of it have been played: the cut stands, and the decision is the arbiter's.")
    return CutChangeView(text, then, change.may_redo)
