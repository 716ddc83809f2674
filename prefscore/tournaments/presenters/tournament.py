"""What the tournament page shows: the standings table, the rounds' tables, the
regulations' lines. Computed here so that templates compute nothing."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

from django.utils.html import escape
from django.utils.safestring import mark_safe
from django.utils.translation import get_language, ngettext
from django.utils.translation import gettext as _

from prefscore.games.models import Pulka
from prefscore.games.presenters import format_result
from scoring.conventions import convention_label

from .. import discipline
from ..forms.tournament import TIE_BREAK_LABELS
from ..models import Round, Tournament
from ..services import Standings, closure_of
from .control import discipline_line


@dataclass(frozen=True)
class StandingRow:
    place: int
    name: str
    points: str
    negative: bool
    whists: str
    rounds: int
    tie_breaks: tuple[str, ...]
    by_round: tuple[str, ...]
    finalist: bool
    dropped: bool
    out_label: str = ""  # "dropped" or "disqualified": a disqualified player is not "выбыл"
    # After a cut (docs/tournaments.md §4.10): the figures that decided the order.
    qualifying: str = ""
    carried: str = ""
    stage_points: str = ""
    # Cards and fines (docs/tournaments.md §4.9), e.g. "1 yellow card · fined 10 whists".
    discipline: str = ""
    # The page's cells, made once here so that its loop over a big field asks each row
    # for few things and writes its plain figures with one filter, not a loop of their
    # own (docs/benchmarks.md, "Large exports and imports"): the place as written; the
    # plain cells before the strong one (after a cut: qualifying, carried, stage
    # points); the strong one (the points when there is a points column, else the
    # whists) and its class; the plain cells after it (the whists after the points,
    # the tie-breaks, the rounds). ``marked``: a tag follows the name.
    place_text: str = ""
    lead: tuple[str, ...] = ()
    strong: str = ""
    strong_class: str = ""
    rest: tuple[str, ...] = ()
    marked: bool = False


@dataclass(frozen=True)
class StandingsTable:
    """The standings as the page draws them; every criterion is a column (§4.8)."""

    rows: tuple[StandingRow, ...]
    columns: tuple[str, ...]
    round_numbers: tuple[int, ...]
    normalised: bool
    final: bool
    unfinished: int
    cut: bool = False
    live: bool = False
    finished: bool = False
    # Somebody is out: the page says why he stands below lower scores (§7 item 4).
    anybody_out: bool = False
    # A points column before the whists (normalised points, or a cut's total): the
    # strong figure is the points, else the whists.
    points_column: bool = False


def _out_label(player: str, out: bool, standings: Standings) -> str:
    if not out:
        return ""
    return _("disqualified") if player in standings.disqualified else _("dropped")


def _number(value: Fraction | int | None) -> str:
    """A figure as the sheet writes it; blank when there is none."""
    return "" if value is None else _formatted(get_language(), value)


@lru_cache(maxsize=16384)
def _formatted(language: str | None, value: Fraction | int) -> str:
    # A standings page of 1,000 players writes 11,000 figures, many of them alike, and
    # the projector writes them again every 10 s: each figure is formatted once per
    # language (``format_result`` and the language look-up are the dear part). A figure
    # is digits, a sign and separators: found to have nothing to escape once here, it is
    # marked safe, so that the page does not escape its 11,000 figures again each time.
    text = format_result(value)
    return mark_safe(text) if escape(text) == text else text


# The strong figure's class: the points (or the whists when there are no points), in
# red when below zero.
STRONG = "num--strong"
STRONG_MINUS = "num--minus num--strong"


def _marks_line(mark: discipline.DisciplineMarks | None) -> str:
    if mark is None:
        return ""
    return discipline_line(mark.yellow, mark.red, mark.fined)


def standings_table(tournament: Tournament, standings: Standings) -> StandingsTable:
    """The standings as rows; ``live`` while any round may still change them (defect 6).

    The page keeps asking for fresh standings while the tournament runs, not only when
    tables were playing at the moment it was loaded.
    """
    # Until the tournament is finished any round may still change them (a final of
    # several rounds too); once it is, they are final and the page stops asking.
    live = not tournament.finished
    language = get_language()

    def number(value: Fraction | int | None) -> str:
        return "" if value is None else _formatted(language, value)

    tie_breaks = [name for name in tournament.tie_breaks if name != "whists"]
    marks = discipline.marks(tournament, by_player=True)
    numbers = tuple(r.number for r in standings.rounds)
    points_column = tournament.normalisation != Tournament.Normalisation.RAW or standings.cut
    rows = []
    for line in standings.lines:
        values = {
            "allpass_won": line.allpass_won,
            "allpass_tricks": line.allpass_tricks,
            "remizes": line.remizes,
            "misere_tricks": line.misere_tricks,
            "best_round": line.best_round,
            "head_to_head": line.head_to_head,
            "opponents": line.opponents,
        }
        player = standings.players.get(line.player)
        breaks = tuple(number(values[name]) for name in tie_breaks)
        by_round = tuple(number(line.by_round.get(n)) for n in numbers)
        cut = (number(line.qualifying), number(line.carried), number(line.stage_points))
        points, whists = number(line.points), number(line.whists)
        discipline_text = _marks_line(marks.get(line.player))
        rows.append(
            StandingRow(
                place=line.place,
                name=player.name if player else line.player,
                points=points,
                negative=line.points < 0,
                whists=whists,
                rounds=line.rounds,
                tie_breaks=breaks,
                by_round=by_round,
                finalist=line.finalist,
                dropped=line.out,
                out_label=_out_label(line.player, line.out, standings),
                qualifying=cut[0],
                carried=cut[1],
                stage_points=cut[2],
                discipline=discipline_text,
                place_text=number(line.place),
                lead=cut if standings.cut else (),
                strong=points if points_column else whists,
                strong_class=STRONG_MINUS if line.points < 0 else STRONG,
                rest=((whists,) if points_column else ()) + breaks + by_round,
                marked=line.out or bool(discipline_text),
            )
        )
    return StandingsTable(
        rows=tuple(rows),
        columns=tuple(str(TIE_BREAK_LABELS[name]) for name in tie_breaks),
        round_numbers=numbers,
        normalised=tournament.normalisation != Tournament.Normalisation.RAW,
        final=standings.final,
        unfinished=standings.unfinished,
        cut=standings.cut,
        live=live,
        finished=tournament.finished,
        anybody_out=any(row.dropped for row in rows),
        points_column=points_column,
    )


@dataclass(frozen=True)
class TableView:
    number: int
    pulka: Pulka
    names: tuple[str, ...]
    first_dealer: str
    deals: int
    running: bool
    ended: str = ""
    arbiter: bool = False  # closed on the arbiter's final sheet: it can be corrected
    # The sheet of three a table of 4 went on with after a drop (§4.9): both show under
    # the table's one number, and this says which is which.
    plays_on: bool = False


@dataclass(frozen=True)
class RoundView:
    round: Round
    tables: tuple[TableView, ...]
    summary: str
    title: str = ""


@dataclass(frozen=True)
class Leaver:
    """Who left a table closed by a drop (§4.9): named on its card, with his forfeit."""

    name: str
    disqualified: bool
    forfeit: bool


def _table(
    number: int, pulka: Pulka, plays_on: bool = False, left: Leaver | None = None
) -> TableView:
    names = tuple(seat.player.name for seat in pulka.seats.all())
    return TableView(
        number=number,
        pulka=pulka,
        names=names,
        first_dealer=names[pulka.first_dealer] if names else "",
        deals=pulka.deal_count,  # type: ignore[attr-defined]
        running=pulka.status == Pulka.Status.RUNNING,
        ended=_ended(pulka, left),
        arbiter=getattr(closure_of(pulka), "reason", "") == "arbiter",
        plays_on=plays_on,
    )


def _ended(pulka: Pulka, left: Leaver | None = None) -> str:
    """How a table that is over ended: by the organiser (and why), or by its sheet; a
    drop names who left and whether it cost him the round (a forfeit, §4.9)."""
    if pulka.status == Pulka.Status.RUNNING:
        return ""
    closure = closure_of(pulka)
    if closure is None:
        return str(_("finished"))
    if left is not None and closure.reason == "drop":
        return _left_words(left)
    return _("closed: %(reason)s") % {"reason": closure.get_reason_display()}


def _left_words(left: Leaver) -> str:
    words = {"name": left.name}
    if left.disqualified and left.forfeit:
        return _("closed: %(name)s disqualified, a forfeit (§4.9)") % words
    if left.disqualified:
        return _("closed: %(name)s disqualified") % words
    if left.forfeit:
        return _("closed: %(name)s left, a forfeit (§4.9)") % words
    return _("closed: %(name)s left") % words


def summary(round_: Round) -> str:
    """How the draw met the no-repeat rule (docs/tournaments.md §4.4)."""
    if round_.stage == Round.Stage.SEMIFINAL:
        return _("Semi-final tables, seated by standing.")
    if round_.is_final:
        return _("Final tables, seated by standing.")
    if round_.method == "seeded":
        return _("Tables seated by the players' seeds, the best together.")
    if not round_.repeats:
        return _("Nobody meets an opponent a second time.")
    count = round_.repeats
    if round_.repeats_forced:
        return ngettext(
            "%(count)s pair meets again: with this many players and tables that cannot be avoided.",
            "%(count)s pairs meet again: with this many players and tables that cannot be avoided.",
            count,
        ) % {"count": count}
    return ngettext(
        "%(count)s pair meets again (as few as the draw could find).",
        "%(count)s pairs meet again (as few as the draw could find).",
        count,
    ) % {"count": count}


def settings_lines(tournament: Tournament) -> list[tuple[str, str]]:
    """The regulations in short (docs/tournaments.md §4.1): label and value."""
    tie_breaks = ", ".join(str(TIE_BREAK_LABELS[name]) for name in tournament.tie_breaks)
    minutes = tournament.round_minutes
    return [
        (_("Convention"), convention_label(tournament.convention_name)),
        (_("Players per table"), str(tournament.table_size)),
        (_("Pulya target"), str(tournament.target)),
        (_("Deals per round"), _deals_line(tournament)),
        (_("Minutes per round"), str(minutes) if minutes else _("no time limit")),
        (_("When the time is up"), str(tournament.get_at_time_display())),
        (_("Rounds per stage after a cut"), str(tournament.stage_rounds)),
        (_("Round scores"), str(tournament.get_normalisation_display())),
        (_("Tables of 3 and of 4"), _size_treatment(tournament)),
        (_("Tie-breaks"), tie_breaks or _("lot only")),
        (_("Qualifying points in the final"), str(tournament.get_carry_display())),
        (_("Seed of the draws"), str(tournament.seed)),
        (_("Yellow cards that disqualify"), _limit(tournament.yellow_cards_limit)),
        (_("Floor of a round, in whists"), _limit(tournament.round_floor)),
        (_("A forfeit counts at most, in whists"), _forfeit(tournament.forfeit_whists)),
        (_("When a player leaves a table of 4 in play"), str(tournament.get_after_drop_display())),
    ]


def _forfeit(whists: int | None) -> str:
    return _("as the sheet stands") if whists is None else format_result(whists)


def _deals_line(tournament: Tournament) -> str:
    """The deals per round, and whether the target may end a table first (rules §3.5)."""
    deals = tournament.deals_per_round
    if not deals:
        return _("to the target")
    if (tournament.convention_options or {}).get("end") != "deals":
        return _("%(deals)s, or the target if it comes first") % {"deals": deals}
    return str(deals)


def _limit(value: int | None) -> str:
    """A limit as the standings write figures: a floor of −1000 with a true minus sign."""
    return _("none") if value is None else format_result(value)


def _size_treatment(tournament: Tournament) -> str:
    """How tables of 3 and of 4 compare (docs/tournaments.md §4.7)."""
    if tournament.normalisation == Tournament.Normalisation.PLACES:
        return _("place points run from 3 to 0 at either size: 3, 2, 1, 0 at 4 and 3, 1½, 0 at 3")
    if tournament.normalisation == Tournament.Normalisation.SERBIAN:
        return _(
            "the Serbian points at either size; the fourth at a table of 4 scores 0, "
            "and a table where nobody is ahead shares its points evenly"
        )
    return _("whists count alike at either size")
