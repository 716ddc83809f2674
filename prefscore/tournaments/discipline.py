"""Discipline: cards, whist fines and the disqualification threshold (docs/tournaments.md §4.9).

The director gives a player a yellow or a red card, each with its reason, or fines him
whists. A fine is written on the sheet of the table he plays at as manual lines
(docs/rules.md §3.11): each opponent writes the fine in whists on him, so the sheet
still adds up to zero and the standings count it like any line.

The regulations' threshold (the online championship's rule, docs/tournaments.md §1):
``Tournament.yellow_cards_limit`` yellow cards disqualify (two by default), a red card
disqualifies at once, and a round that ends below ``Tournament.round_floor`` whists
(−1000 by default) gives the player a yellow card. Every card, fine and disqualification
is a :class:`~.models.TournamentEvent` about the player's entry: who, when, why.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from prefscore.games import manual_entries
from prefscore.games import services as games
from prefscore.games.models import Pulka, PulkaSeat
from scoring.engine import ranking
from scoring.engine.errors import DealError
from scoring.engine.manual import MAX_REASON

from . import entries, results, tables
from .decisions import REASON_LENGTH
from .models import Round, Tournament, TournamentEntry, TournamentEvent
from .services import TournamentError, closure_of, live_pulkas

Action = TournamentEvent.Action
State = TournamentEntry.State
# A fine is at most what one manual line takes (scoring.engine.manual.MAX_POINTS).
MAX_FINE = 1_000


def _user(user: Any) -> Any:
    return user if getattr(user, "is_authenticated", False) else None


def _why(reason: str) -> str:
    text = reason.strip()
    if not text:
        raise TournamentError(_("State the reason for the decision."))
    return text[:REASON_LENGTH]


def _entry(tournament: Tournament, entry_id: int) -> TournamentEntry:
    if tournament.finished:
        raise TournamentError(_("The tournament is finished: its results are final."))
    entry = (
        TournamentEntry.objects.select_related("player")
        .filter(pk=entry_id, tournament=tournament)
        .first()
    )
    if entry is None:
        raise TournamentError(_("There is no such entry."))
    return entry


def give_card(
    tournament: Tournament, entry_id: int, action: str, reason: str, user: Any, **details: Any
) -> TournamentEvent:
    """A yellow or red card for the player, with its reason; the threshold applied (§4.9)."""
    if action not in TournamentEvent.CARDS:
        raise TournamentError(_("Choose a card or a fine."))
    why = _why(reason)
    entry = _entry(tournament, entry_id)
    with transaction.atomic():  # the card and the disqualification it brings, or neither
        event = TournamentEvent.objects.create(
            tournament=tournament,
            entry=entry,
            action=action,
            reason=why,
            details={"player": entry.player.name, **details},
            user=_user(user),
        )
        _apply_threshold(tournament, entry, user)
    return event


def _apply_threshold(tournament: Tournament, entry: TournamentEntry, user: Any) -> None:
    """Disqualify by the regulations: a red card, or the yellow cards' limit reached."""
    if entry.state not in (State.REGISTERED, State.CHECKED_IN, State.PLAYING):
        return
    cards = list(
        entry.events.filter(action__in=TournamentEvent.CARDS).values_list("action", flat=True)
    )
    limit = tournament.yellow_cards_limit
    yellow = cards.count(Action.YELLOW_CARD)
    if Action.RED_CARD in cards:
        why = _("a red card")
    elif limit and yellow >= limit:
        why = _("%(count)s yellow cards") % {"count": yellow}
    else:
        return
    # The disqualification is written down by the move, with the regulations' reason.
    entries.move(tournament, entry.pk, "disqualify", user, why)


def playing_table(tournament: Tournament, entry: TournamentEntry) -> Pulka | None:
    """The running table the player sits at now, if any."""
    return (
        live_pulkas(tournament)
        .filter(status=Pulka.Status.RUNNING, seats__player_id=entry.player_id)
        .first()
    )


def fine(
    tournament: Tournament, entry_id: int, points: int, reason: str, user: Any
) -> TournamentEvent:
    """Fine the player ``points`` whists at his running table: manual lines (§3.11).

    Each opponent writes ``points`` whists on him, in one transaction with the audit.
    """
    # The sheet's line takes a shorter reason than the audit (scoring.engine.manual).
    why = _why(reason)[:MAX_REASON]
    if not 1 <= points <= MAX_FINE:
        raise TournamentError(_("A fine is from 1 to %(high)s whists.") % {"high": MAX_FINE})
    entry = _entry(tournament, entry_id)
    pulka = playing_table(tournament, entry)
    if pulka is None:
        raise TournamentError(_("This player has no table in play: a fine is written there."))
    seats = list(pulka.seats.order_by("seat").values_list("player_id", flat=True))
    names = list(pulka.player_names)
    fined = names[seats.index(entry.player_id)]
    try:
        with transaction.atomic():
            number = len(games.standing_deals(pulka))
            for opponent in (name for name in names if name != fined):
                number += 1
                line = {"player": opponent, "section": "whists", "on": fined}
                facts = {"manual": {**line, "points": points, "reason": why}}
                manual_entries.record_manual(pulka.pk, facts, user, number)
            event = TournamentEvent.objects.create(
                tournament=tournament,
                entry=entry,
                action=Action.FINE,
                reason=why,
                details={
                    "player": entry.player.name,
                    "points": points,
                    "pulka": pulka.pk,
                    "round": pulka.round_number,
                },
                user=_user(user),
            )
    except (games.NotAllowed, games.Conflict, DealError) as error:
        raise TournamentError(
            _("The fine could not be written on the sheet: %(why)s")
            % {"why": str(error) or _("the sheet changed meanwhile, try again")}
        ) from error
    return event


# --- the round floor --------------------------------------------------------------------


def round_whists(pulka: Pulka) -> dict[int, int]:
    """The table's whole whists by club player id, the arbiter's figures if he gave them."""
    seats = list(pulka.seats.order_by("seat").values_list("player_id", flat=True))
    closure = closure_of(pulka)
    if closure is not None and closure.whists is not None:
        figures = [int(value) for value in closure.whists]
    else:
        keys = tuple(str(key) for key in seats)
        result = ranking.table_result(games.score(pulka), pulka.round_number or 0, keys)
        figures = [int(value) for value in result.whists]
    return dict(zip(seats, figures, strict=False))


def check_floor(pulka_id: int) -> int:
    """Give a yellow card to each player whose table ended below the floor; how many."""
    pulka = Pulka.objects.select_related("tournament").filter(pk=pulka_id).first()
    if pulka is None or pulka.tournament is None or pulka.status == Pulka.Status.RUNNING:
        return 0
    tournament = pulka.tournament
    floor = tournament.round_floor
    if floor is None or tournament.finished or pulka.status == Pulka.Status.ARCHIVED:
        return 0
    given = 0
    for player_id, whists in _whole_round(pulka).items():
        if whists >= floor:
            continue
        entry = tournament.entries.filter(player_id=player_id).first()
        if entry is None or _floor_card_given(entry, pulka.pk):
            continue
        reason = _("round %(round)s ended at %(whists)s whists, below %(floor)s") % {
            "round": pulka.round_number,
            "whists": whists,
            "floor": floor,
        }
        give_card(tournament, entry.pk, Action.YELLOW_CARD, reason, None, floor_pulka=pulka.pk)
        given += 1
    return given


def _whole_round(pulka: Pulka) -> dict[int, int]:
    """The round's whists at this table by player id. A table of 4 a player left is
    played on at a sheet of three (docs/tournaments.md §4.9): its first sheet ends the
    round for the leaver only, and the three's sheet adds to it."""
    number = pulka.round_number or 0
    round_ = Round.objects.filter(tournament=pulka.tournament, number=number).first()
    continued = results.continued([round_] if round_ is not None else [])
    whists = round_whists(pulka)
    later = next((new for new, first in continued.items() if first == pulka.pk), None)
    if later is not None:
        playing_on = set(
            PulkaSeat.objects.filter(pulka_id=later).values_list("player_id", flat=True)
        )
        return {key: value for key, value in whists.items() if key not in playing_on}
    first = Pulka.objects.filter(pk=continued.get(pulka.pk, 0)).first()
    if first is not None:
        for player_id, earlier in round_whists(first).items():
            if player_id in whists:
                whists[player_id] += earlier
    return whists


def _floor_card_given(entry: TournamentEntry, pulka_id: int) -> bool:
    details = entry.events.filter(action=Action.YELLOW_CARD).values_list("details", flat=True)
    return any((item or {}).get("floor_pulka") == pulka_id for item in details)


def _on_sheet_settled(sender: Any, pulka_id: int, **kwargs: Any) -> None:
    check_floor(pulka_id)


def connect() -> None:
    """Check the floor whenever a table's sheet is settled (games tells, we look) and
    whenever the director closes a table (``tables.closed``)."""
    from prefscore.games.events import sheet_settled

    sheet_settled.connect(_on_sheet_settled, dispatch_uid="tournaments.check_floor")
    tables.closed.connect(_on_sheet_settled, dispatch_uid="tournaments.check_floor_closed")


# --- what the pages show ------------------------------------------------------------------


@dataclass(frozen=True)
class DisciplineMarks:
    """A player's cards and fines, for his line on the tournament page."""

    yellow: int = 0
    red: int = 0
    fined: int = 0

    @property
    def any(self) -> bool:
        return bool(self.yellow or self.red or self.fined)


def marks(tournament: Tournament, *, by_player: bool = False) -> dict[Any, DisciplineMarks]:
    """Each entry's cards and whists fined, by entry id (or by the standings' player key,
    the club player's id as text): one query."""
    key = "entry__player_id" if by_player else "entry_id"
    rows = tournament.events.filter(
        entry__isnull=False, action__in=(*TournamentEvent.CARDS, Action.FINE)
    ).values_list(key, "action", "details")
    counts: dict[Any, list[int]] = {}
    for entry_id, action, details in rows:
        tally = counts.setdefault(entry_id, [0, 0, 0])
        if action == Action.YELLOW_CARD:
            tally[0] += 1
        elif action == Action.RED_CARD:
            tally[1] += 1
        else:
            tally[2] += int((details or {}).get("points", 0))
    return {
        (str(key) if by_player else key): DisciplineMarks(*value) for key, value in counts.items()
    }
