"""What the confirmation of a drop or disqualification says (docs/tournaments.md §4.9).

Before the organiser drops or disqualifies a player, the page says what that does at
his table now, in the words of the one decision ``tables.leaving`` makes (and
``tables.leave_table`` then carries out): the table closed as it stands, the other
three playing on, the next in the standings in the seat, or nothing at the tables;
and whether the round is a forfeit for him, and what it counts.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import gettext as _

from prefscore.games.presenters import format_result

from .. import results, services
from ..models import Tournament, TournamentEntry
from ..tables import Leaving, leaving


@dataclass(frozen=True)
class LeavingView:
    action: str  # "drop" or "disqualify"
    heading: str
    lines: tuple[str, ...]
    button: str
    closes: bool


def confirmation(tournament: Tournament, entry: TournamentEntry, action: str) -> LeavingView:
    """The confirmation of ``action`` (drop, disqualify) for ``entry``, as of now."""
    plan = leaving(tournament, entry)
    name = entry.player.name
    closes = plan.how in ("close", "play_on")
    if action == "disqualify":
        heading = _("Disqualify %(name)s?") % {"name": name}
        button = _("Disqualify and close the table") if closes else _("Disqualify")
    else:
        heading = _("Drop %(name)s?") % {"name": name}
        button = _("Drop and close the table") if closes else _("Drop")
    lines = [_at_the_table(tournament, plan, name)]
    if plan.forfeit and plan.round is not None:
        lines.append(_forfeit(tournament, plan.round.number, name))
    return LeavingView(action, heading, tuple(lines), button, closes)


def _table(tournament: Tournament, plan: Leaving) -> dict[str, object]:
    assert plan.pulka is not None and plan.round is not None
    live = list(services.live_pulkas(tournament).filter(round_number=plan.round.number))
    number = results.table_numbers(plan.round, live).get(plan.pulka.pk, "?")
    return {"table": number, "round": plan.round.number}


def _at_the_table(tournament: Tournament, plan: Leaving, name: str) -> str:
    if plan.how == "draft" and plan.draft is not None:
        return _("%(name)s is taken off the draft of round %(round)s.") % {
            "name": name,
            "round": plan.draft.number,
        }
    if plan.how == "none":
        return _("%(name)s has no table in play: nothing changes at the tables.") % {"name": name}
    words = {**_table(tournament, plan), "name": name}
    if plan.how == "play_on":
        return (
            _(
                "Table %(table)s of round %(round)s is closed as it stands: its deals count. "
                "The other three play on at a new sheet for the same table, for the deals "
                "the round has left."
            )
            % words
        )
    if plan.how == "close":
        return (
            _(
                "Table %(table)s of round %(round)s is closed as it stands: its deals count, "
                "and the others at it play no more this round."
            )
            % words
        )
    if plan.how == "substitute" and plan.substitute is not None:
        words["next"] = tournament.entries.get(player_id=int(plan.substitute)).player.name
        return (
            _(
                "No deal has been played at table %(table)s of round %(round)s: "
                "%(next)s, next in the standings, takes the seat."
            )
            % words
        )
    return (
        _(
            "No deal has been played at table %(table)s of round %(round)s: "
            "it starts again without %(name)s."
        )
        % words
    )


def _forfeit(tournament: Tournament, number: int, name: str) -> str:
    words: dict[str, object] = {"name": name, "round": number}
    if tournament.forfeit_whists is None:
        return (
            _("Round %(round)s is a forfeit for %(name)s: his table counts as it stands.") % words
        )
    words["cap"] = format_result(tournament.forfeit_whists)
    return (
        _(
            "Round %(round)s is a forfeit for %(name)s: his table counts at most %(cap)s "
            "whists for him, by the regulations."
        )
        % words
    )
