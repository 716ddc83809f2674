"""Closing a table, and what a drop does to the table the player sat at.

The organiser closes a table that cannot finish (docs/tournaments.md §4.9, §7.3): by the
time limit or the deal limit its sheet counts as it stands (Кодекс 4.2.3: settled as if
the players stopped); or he enters its final sheet as the arbiter (Кодекс 4.2.16),
whole whists per player that must add up to zero, and those figures count. Each
closing is a :class:`~.models.TableClosure` row: who, when, why.

A closed table's sheet may end a player's round below the regulations' floor: ``closed``
is sent once the closing is written, before the tournament may finish, and discipline
answers with the floor's yellow cards (``discipline.connect``). Tables name no
discipline: discipline leans on entries and decisions, which lean on tables.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from django.db import transaction
from django.db.models import F
from django.dispatch import Signal
from django.utils.translation import gettext as _

from prefscore.games import events
from prefscore.games.models import Pulka
from prefscore.games.titles import continued_by
from scoring.engine.conventions import Convention

from . import journal, results, stages
from .models import Round, TableClosure, Tournament, TournamentEntry, TournamentEvent
from .rounds import repeats_in, start_table
from .services import (
    TournamentError,
    closure_of,
    current_standings,
    history,
    live_pulkas,
    numbered,
    seatings,
    table_numbers,
)

MAX_WHISTS = 1_000_000
# Sent with ``pulka_id`` once a table's closing is written (the module's docstring).
closed = Signal()


def _finish(pulka: Pulka, status: str = Pulka.Status.FINISHED) -> None:
    # The version moves on so that the table's open sheets see the change at their poll.
    Pulka.objects.filter(pk=pulka.pk).update(status=status, version=F("version") + 1)
    events.announce(pulka.pk)


def close_table(
    pulka_id: int,
    tournament: Tournament,
    reason: str,
    user: Any,
    whists: Sequence[int] | None = None,
    note: str = "",
) -> TableClosure:
    """Close a running table of ``tournament`` (docs/tournaments.md §4.9; Кодекс 4.2.16).

    ``reason``: ``time`` or ``deal_limit`` (the sheet counts as it stands), or
    ``arbiter`` with ``whists``, one whole figure per seat in seat order, adding up to
    zero. Raises :class:`TournamentError` with the reason when refused.
    """
    with transaction.atomic():
        pulka = live_pulkas(tournament).select_for_update().filter(pk=pulka_id).first()
        if pulka is None:
            raise TournamentError(_("There is no such table."))
        if tournament.status == Tournament.Status.FINISHED:
            raise TournamentError(_("The tournament is finished: its results are final."))
        if closure_of(pulka) is not None or pulka.status != Pulka.Status.RUNNING:
            raise TournamentError(_("This table is already over."))
        if reason not in TableClosure.Reason.values:
            raise TournamentError(_("Choose why the table is closed."))
        figures = None
        if reason == TableClosure.Reason.ARBITER:
            figures = checked_whists(pulka, whists)
        closure = TableClosure.objects.create(
            pulka=pulka, reason=reason, whists=figures, note=note[:300], closed_by=_user(user)
        )
        _record_closing(tournament, pulka, closure, user)
        _finish(pulka)
    # A player below the regulations' floor gets his yellow card (discipline.py answers
    # ``closed``) before the last table of the final closed ends the tournament (stages.py).
    closed.send(sender=TableClosure, pulka_id=pulka.pk)
    stages.finish_if_over(tournament.pk)
    return closure


def _record_closing(
    tournament: Tournament, pulka: Pulka, closure: TableClosure, user: Any, archived: bool = False
) -> None:
    """The closing in the tournament's audit: who, why, and the figures (§4.15)."""
    journal.record(
        tournament,
        TournamentEvent.Action.TABLE_CLOSED,
        user,
        closure.note,
        pulka=pulka.pk,
        round=pulka.round_number,
        kind=closure.reason,
        whists=closure.whists,
        players=list(pulka.player_names),
        archived=archived,
    )


def checked_whists(pulka: Pulka, whists: Sequence[int] | None) -> list[int]:
    """The arbiter's figures: one per seat, whole, and adding up to zero (Кодекс 4.2.12)."""
    if whists is None or len(whists) != len(pulka.player_names):
        raise TournamentError(_("Enter the whists of every player at the table."))
    if any(abs(value) > MAX_WHISTS for value in whists):
        raise TournamentError(_("These whists are beyond any pulka."))
    if sum(whists) != 0:
        raise TournamentError(
            _("The whists add up to %(sum)s: a final sheet adds up to zero.") % {"sum": sum(whists)}
        )
    return list(whists)


def _user(user: Any) -> Any:
    return user if getattr(user, "is_authenticated", False) else None


@dataclass(frozen=True)
class Leaving:
    """What a drop or disqualification does at the player's table now (§4.5, §4.9): the
    one decision :func:`leave_table` carries out and the confirmation says beforehand.

    ``how``: ``draft`` (taken off the draft), ``none`` (no table in play), ``play_on``
    (the table closed as it stands, the other three on at a sheet of three), ``close``
    (closed as it stands), ``substitute`` (the next in the standings takes the seat),
    ``reseat`` (the table started again without him). ``forfeit``: he leaves a table in
    play, a forfeit of the round.
    """

    how: str
    pulka: Pulka | None = None
    round: Round | None = None
    rest: tuple[str, ...] = ()
    forfeit: bool = False
    substitute: str | None = None
    draft: Round | None = None


def leaving(tournament: Tournament, entry: TournamentEntry) -> Leaving:
    """What leaving would do now (see :func:`leave_table`); nothing is changed."""
    key = str(entry.player_id)
    draft = tournament.rounds.filter(status=Round.Status.DRAFT).first()
    if draft is not None and any(key in table["players"] for table in draft.tables):
        return Leaving("draft", draft=draft)
    pulka = (
        live_pulkas(tournament)
        .filter(status=Pulka.Status.RUNNING, seats__player_id=entry.player_id)
        .first()
    )
    if pulka is None:
        return Leaving("none")
    round_ = tournament.rounds.get(number=pulka.round_number or 0)
    keys = [str(seat.player_id) for seat in pulka.seats.order_by("seat")]
    rest = tuple(k for k in keys if k != key)
    # A sheet of three that played on after a drop continues a table already in play.
    played = pulka.pk in results.continued([round_])
    played = played or pulka.deals.filter(withdrawn_at__isnull=True).exists()
    plan = Leaving("close", pulka, round_, rest, forfeit=played)
    after_cut = round_.stage != Round.Stage.QUALIFYING
    playing_on = after_cut or tournament.after_drop == Tournament.AfterDrop.PLAY_ON
    if played and len(rest) == 3 and playing_on:
        return replace(plan, how="play_on")
    if played or (len(rest) < 3 and not after_cut):
        return plan
    substitute = next_in_standings(tournament, round_.stage) if after_cut else None
    if substitute is not None:
        return replace(plan, how="substitute", substitute=substitute)
    return plan if len(rest) < 3 else replace(plan, how="reseat")


def leave_table(tournament: Tournament, entry: TournamentEntry, user: Any) -> str:
    """What a drop or disqualification does to the player's table now (§4.5, §4.9).

    In a draft he is taken off his table (the organiser redraws if it falls below 3);
    in the draft of a stage after a cut the next in the standings takes his seat. At a
    running table of a published round with no deal recorded only that table is
    re-seated: after a cut with the next in the standings in his seat, else without him,
    playing short (a 4-table plays as 3). A qualifying table with deals, or one that
    would fall below 3, is closed as it stands: the deals played stand; at a table of 4,
    if the regulations say so (``Tournament.after_drop``), the other three then play on
    at a sheet of three for the same table (:func:`_play_on_short`). After a cut a table
    of 4 with deals always goes on as a sheet of three, so that the stage goes on; a
    table of 3 there is closed as it stands (two cannot play). Either way the player
    leaves his seat: no sheet in play names him. The case is :func:`leaving`'s. Returns
    what happened, to show.
    """
    plan = leaving(tournament, entry)
    if plan.how == "draft" and plan.draft is not None:
        return _leave_draft(tournament, plan.draft, str(entry.player_id))
    pulka, round_ = plan.pulka, plan.round
    if pulka is None or round_ is None:
        return ""
    if plan.forfeit:  # he leaves a table in play: a forfeit of this round (§4.9)
        entry.forfeited_round = pulka.round_number
        entry.save(update_fields=["forfeited_round"])
    rest = list(plan.rest)
    if plan.how == "play_on":
        _play_on_short(tournament, round_, pulka, rest, user)
        return _("the table was closed as it stands; the other three play on at a new sheet")
    if plan.how == "close":
        close_table(pulka.pk, tournament, TableClosure.Reason.DROP, user)
        return _("the table was closed as it stands")
    if plan.how == "substitute" and plan.substitute is not None:
        keys = [str(seat.player_id) for seat in pulka.seats.order_by("seat")]
        seated = [plan.substitute if k == str(entry.player_id) else k for k in keys]
        _reseat(tournament, round_, pulka, seated, pulka.first_dealer, user)
        return _("%(name)s, next in the standings, takes the seat") % {
            "name": _name(tournament, plan.substitute)
        }
    _reseat(tournament, round_, pulka, rest, 0, user)
    return _("the table was re-seated without the player")


def _leave_draft(tournament: Tournament, draft: Round, key: str) -> str:
    """Off the draft; in a stage after a cut the next in the standings takes the seat.

    The repeats are counted again for the tables as they are now (§4.5).
    """
    substitute = None
    if draft.stage != Round.Stage.QUALIFYING:
        substitute = next_in_standings(tournament, draft.stage)
    for table in draft.tables:
        if key in table["players"]:
            if substitute is not None:
                table["players"] = [substitute if k == key else k for k in table["players"]]
            else:
                table["players"] = [k for k in table["players"] if k != key]
    past = history(seatings(tournament))
    draft.repeats = repeats_in(past, [tuple(t["players"]) for t in draft.tables])
    draft.save(update_fields=["tables", "repeats"])
    if substitute is None:
        return _("taken off the draft")
    return _("%(name)s, next in the standings, takes the seat in the draft") % {
        "name": _name(tournament, substitute)
    }


def next_in_standings(tournament: Tournament, stage: str) -> str | None:
    """The best player still in the tournament not seated in ``stage`` (§4.10), if any."""
    seated = {
        key
        for round_ in tournament.rounds.filter(stage=stage)
        for table in round_.tables
        for key in table.get("players", [])
    }
    seated |= {
        str(player)
        for player in live_pulkas(tournament)
        .filter(round_number__in=tournament.rounds.filter(stage=stage).values("number"))
        .values_list("seats__player_id", flat=True)
    }
    for line in current_standings(tournament).lines:
        if not line.out and line.player not in seated:
            return line.player
    return None


def _name(tournament: Tournament, key: str) -> str:
    found = tournament.entries.filter(player_id=int(key)).values_list("player__name", flat=True)
    return found.first() or key


def _reseat(
    tournament: Tournament,
    round_: Round,
    pulka: Pulka,
    keys: list[str],
    first_dealer: int,
    user: Any,
) -> Pulka:
    """Archive the table's pulka and start it again with ``keys``; it keeps its number."""
    players = _names(tournament)
    number = _table_number(tournament, round_, pulka)
    _draw_of(tournament, round_)
    with transaction.atomic():
        closure = TableClosure.objects.create(
            pulka=pulka, reason=TableClosure.Reason.DROP, closed_by=_user(user)
        )
        _record_closing(tournament, pulka, closure, user, archived=True)
        _finish(pulka, Pulka.Status.ARCHIVED)
        table = {"players": keys, "first_dealer": first_dealer}
        new = start_table(tournament, round_, number, table, players, user)
        # After a cut the stage's next round seats the players of its first (stages.py).
        _renumber(round_, number, new, keys if round_.stage != Round.Stage.QUALIFYING else None)
    return new


def _play_on_short(
    tournament: Tournament, round_: Round, pulka: Pulka, rest: list[str], user: Any
) -> Pulka:
    """The table of 4 a player left after deals plays on as a table of three (§4.9).

    A pulka cannot change its players, so its sheet is closed as it stands (the deals
    played stand, the leaver's forfeit counted as the regulations say) and the three
    start a sheet of three at the same table, which keeps its number; the deal passes
    on as it would have. The draw's table names both (``continues``), and the
    standings count the two sheets as that table's one result for the round
    (``results.join_continued``).
    """
    number = _table_number(tournament, round_, pulka)
    # A manual line (a fine) is dealt by nobody and counts toward no limit (rules §3.11).
    played = pulka.deals.filter(withdrawn_at__isnull=True).exclude(facts__has_key="manual").count()
    seats = [str(seat.player_id) for seat in pulka.seats.order_by("seat")]
    dealer = (pulka.first_dealer + played) % len(seats)
    while seats[dealer] not in rest:  # the leaver would have dealt: the next one deals
        dealer = (dealer + 1) % len(seats)
    _draw_of(tournament, round_)
    players = _names(tournament)
    with transaction.atomic():
        table = {"players": rest, "first_dealer": rest.index(seats[dealer])}
        new = start_table(
            tournament,
            round_,
            number,
            table,
            players,
            user,
            continues=pulka.pk,
            convention=_deals_left(pulka.convention, played),
        )
        # The first sheet links to the new one: set before the closing moves its version,
        # so that its open sheets see both at their poll (games/titles.py).
        if pulka.title_parts:
            first = continued_by(pulka.title_parts, new.pk)
            Pulka.objects.filter(pk=pulka.pk).update(title_parts=first)
        tables = list(round_.tables)
        tables[number - 1] = {**tables[number - 1], "pulka": new.pk, "continues": pulka.pk}
        round_.tables = tables
        round_.save(update_fields=["tables"])
        # Closed once the draw names its sheet of three: the round is not over for them
        # yet, so no floor card is given on the first sheet alone (discipline.py).
        close_table(pulka.pk, tournament, TableClosure.Reason.DROP, user)
    return new


def _deals_left(convention: Convention, played: int) -> Convention:
    """The round's rules for a sheet of three that plays on (§4.9): the deals the round
    has left, not a full round again (at least one: it was in play)."""
    if convention.deal_limit is None:
        return convention
    return replace(convention, deal_limit=max(convention.deal_limit - played, 1))


def _draw_of(tournament: Tournament, round_: Round) -> None:
    """An imported round keeps no draw: its tables as they are now become it (unsaved)."""
    if round_.tables:
        return
    live = live_pulkas(tournament).filter(round_number=round_.number).prefetch_related("seats")
    round_.tables = [
        {
            "players": [str(s.player_id) for s in p.seats.all()],
            "first_dealer": p.first_dealer,
            "pulka": p.pk,
        }
        for _n, p in numbered(round_, list(live))
    ]


def _table_number(tournament: Tournament, round_: Round, pulka: Pulka) -> int:
    live = list(live_pulkas(tournament).filter(round_number=round_.number))
    return table_numbers(round_, live)[pulka.pk]


def _renumber(round_: Round, number: int, pulka: Pulka, keys: list[str] | None) -> None:
    """The re-seated table's new pulka takes the draw's table: it keeps its number."""
    tables = list(round_.tables)
    tables[number - 1] = {**tables[number - 1], "pulka": pulka.pk}
    if keys is not None:
        tables[number - 1]["players"] = list(keys)
    round_.tables = tables
    round_.save(update_fields=["tables"])


def _names(tournament: Tournament) -> dict[str, str]:
    """Each entered player's name by his key, as ``rounds.start_table`` seats them."""
    rows = tournament.entries.values_list("player_id", "player__name")
    return {str(pk): name for pk, name in rows}
