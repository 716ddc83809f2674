"""The director's settings and decisions in the tournament file (docs/tournaments.md §6.4).

Besides the tables, the round trip keeps: the discipline regulations (the yellow cards
that disqualify, the round floor, what happens at time), the pairs kept apart and each
player's home club (§4.3), each round's scheduled start, and every card, fine and
disqualification (§4.9) with who gave it, when and why. Players are named in the file
(their ids differ on another site), and a decision about a table names it by round and
table number. Each writer here pairs with its reader below it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.contrib.auth import get_user_model
from django.utils.translation import gettext as _

from prefscore.clubs.models import Player

from . import journal
from .constraints import MAX_PAIRS
from .file_fields import as_list, as_object, choice, moment, refuse, text, whole
from .models import Tournament, TournamentEntry, TournamentEvent

Action = TournamentEvent.Action
# The discipline's decisions (§4.9), under ``discipline``: each about a player.
DISCIPLINE = (Action.YELLOW_CARD, Action.RED_CARD, Action.FINE, Action.DISQUALIFIED)
# The director's other decisions (§4.15), under ``decisions``: an import keeps the
# history that explains each state (``audit.py``). A player's own check-in is not one.
DECISIONS = (
    Action.REOPENED,
    Action.TABLE_CLOSED,
    Action.CLOSURE_CORRECTED,
    Action.CUT,
    Action.NO_SHOW,
    Action.DROPPED,
    Action.REINSTATED,
)
# Details that name a table by its pulka id: in the file, by round and table number.
TABLE_KEYS = ("pulka", "floor_pulka")
# A cut's details name its players by club player id: in the file, by name.
PLAYER_LISTS: dict[str, str] = {Action.CUT: "players"}
# The details that are lists: a closing's figures and names, a cut's players.
LIST_KEYS = ("whists", "players", "before", "after")
MAX_EVENTS = 10_000
MAX_DETAILS = 12
MAX_LIST = 2_000
MAX_FIGURE = 1_000_000_000
REASON_LENGTH = TournamentEvent._meta.get_field("reason").max_length or 300
HOME_CLUB_LENGTH = TournamentEntry._meta.get_field("home_club").max_length or 80

# --- writing ----------------------------------------------------------------------------


def regulations_json(tournament: Tournament) -> dict[str, Any]:
    """The discipline and time-control options (§4.9), and the pairs kept apart by name."""
    return {
        "yellow_cards_limit": tournament.yellow_cards_limit,
        "round_floor": tournament.round_floor,
        "at_time": tournament.at_time,
        "forfeit_whists": tournament.forfeit_whists,
        "after_drop": tournament.after_drop,
    }


def pairs_json(tournament: Tournament, names: Mapping[int, str]) -> list[list[str]]:
    """The pairs kept apart (§4.3), each by its two names in order, the pairs in order."""
    pairs = (
        sorted(names.get(int(p), str(p)) for p in pair) for pair in tournament.forbidden_pairs or ()
    )
    return sorted(pairs)


Places = Mapping[int, tuple[int, int, int]]  # a pulka's round, table number and sheet


def discipline_json(tournament: Tournament, tables: Places) -> list[dict[str, Any]]:
    """Every card, fine and disqualification, oldest first (one query); ``tables``: each
    exported pulka's round and table number by its id."""
    events = tournament.events.filter(action__in=DISCIPLINE, entry__isnull=False)
    return _events_json(events, tables, {})


def decisions_json(
    tournament: Tournament, tables: Places, names: Mapping[int, str]
) -> list[dict[str, Any]]:
    """The director's other decisions, oldest first (one query): closings, corrections
    of them, cuts, reopenings, players put out and taken back (§4.15)."""
    return _events_json(tournament.events.filter(action__in=DECISIONS), tables, names)


def _events_json(events: Any, tables: Places, names: Mapping[int, str]) -> list[dict[str, Any]]:
    return [
        {
            "action": event.action,
            "player": event.entry.player.name if event.entry else None,
            "reason": event.reason,
            "at": event.at.isoformat(),
            "by": event.user.get_username() if event.user else None,
            "details": _details_out(event.action, event.details or {}, tables, names),
        }
        for event in events.select_related("entry__player", "user").order_by("at", "pk")
    ]


def _place(round_number: int, table: int, sheet: int) -> dict[str, int]:
    """A table in the file: its round and number, and ``sheet`` 2 for the sheet of three
    it played on with after a drop (§4.9), which has the same number."""
    place = {"round": round_number, "table": table}
    return {**place, "sheet": sheet} if sheet != 1 else place


def _details_out(
    action: str,
    details: Mapping[str, Any],
    tables: Places,
    names: Mapping[int, str],
) -> dict[str, Any]:
    out = dict(details)
    for key in TABLE_KEYS:
        if key in out:
            place = tables.get(out[key]) if isinstance(out[key], int) else None
            out[key] = None if place is None else _place(*place)
    listed = PLAYER_LISTS.get(action)
    if listed and isinstance(out.get(listed), list):
        out[listed] = [names.get(int(key), str(key)) for key in out[listed]]
    return out


# --- reading ----------------------------------------------------------------------------


@dataclass(frozen=True)
class EventFile:
    action: str
    player: str  # empty for a decision about the tournament or a table
    reason: str
    at: datetime | None
    by: str
    details: dict[str, Any]


@dataclass(frozen=True)
class Extras:
    """What the file says besides the tables: read, not yet stored."""

    home_clubs: Mapping[str, str] = field(default_factory=dict)
    pairs: tuple[tuple[str, str], ...] = ()
    events: tuple[EventFile, ...] = ()
    # The file carries the director's decisions (``decisions``); a file written before
    # it did has its states' records rebuilt on import (``journal.reconstruct``).
    decisions: bool = False


def read_regulations(data: Mapping[str, Any], place: str) -> dict[str, Any]:
    """The options; a file from before them gives the defaults (two cards, −1000, flag)."""
    given = {
        "yellow_cards_limit": 2,
        "round_floor": -1000,
        "at_time": "flag",
        "after_drop": "close",
        **data,
    }
    return {
        "yellow_cards_limit": None
        if given["yellow_cards_limit"] is None
        else whole(given, "yellow_cards_limit", place, 1, 100),
        "round_floor": None
        if given["round_floor"] is None
        else whole(given, "round_floor", place, -MAX_FIGURE, 0),
        "at_time": choice(given, "at_time", place, Tournament.AtTime.values),
        "after_drop": choice(given, "after_drop", place, Tournament.AfterDrop.values),
        "forfeit_whists": None
        if given.get("forfeit_whists") is None
        else whole(given, "forfeit_whists", place, -MAX_FIGURE, 0),
    }


def read_extras(data: Mapping[str, Any], names: set[str]) -> Extras:
    """Home clubs, pairs kept apart and the discipline's decisions, each checked."""
    events = [
        _read_event(item, f"{key} → {index}", names, actions)
        for key, actions in (("discipline", DISCIPLINE), ("decisions", DECISIONS))
        for index, item in enumerate(as_list(data.get(key, []), key, MAX_EVENTS), start=1)
    ]
    return Extras(
        _read_home_clubs(data.get("players")),
        _read_pairs(data.get("tournament"), names),
        tuple(sorted(events, key=lambda event: (event.at is None, event.at or 0))),
        "decisions" in data,
    )


def _read_home_clubs(players: Any) -> dict[str, str]:
    found = {}
    for index, item in enumerate(players if isinstance(players, list) else [], start=1):
        club = text(item, "home_club", f"players → {index}", HOME_CLUB_LENGTH, blank=True)
        if club.strip():
            found[item["name"].strip()] = club.strip()
    return found


def _read_pairs(data: Any, names: set[str]) -> tuple[tuple[str, str], ...]:
    place = "tournament → forbidden_pairs"
    pairs = as_list((data or {}).get("forbidden_pairs", []), place, MAX_PAIRS)
    found = []
    for index, pair in enumerate(pairs, start=1):
        here = f"{place} → {index}"
        pair = as_list(pair, here, 2)
        if len(pair) != 2 or pair[0] == pair[1] or not all(name in names for name in pair):
            raise refuse(here, _("two different players among the players."))
        found.append((pair[0], pair[1]))
    return tuple(found)


def _read_event(
    item: Any, place: str, names: set[str], actions: Sequence[str] = DISCIPLINE
) -> EventFile:
    item = as_object(item, place)
    action = choice(item, "action", place, actions)
    about_a_player = (
        action in DISCIPLINE or action in TournamentEvent.LEAVING or (action == Action.REINSTATED)
    )
    player = text(item, "player", place, 200) if about_a_player else ""
    if about_a_player and player not in names:
        raise refuse(place, _("%(name)s is not among the players.") % {"name": player})
    details = _read_details(item.get("details", {}), f"{place} → details")
    listed = PLAYER_LISTS.get(action)
    strangers = [n for n in details.get(listed, ()) if n not in names] if listed else []
    if strangers:
        raise refuse(place, _("%(name)s is not among the players.") % {"name": strangers[0]})
    return EventFile(
        action=action,
        player=player,
        reason=text(item, "reason", place, REASON_LENGTH, blank=True),
        at=moment(item, "at", place),
        by=text(item, "by", place, 150, blank=True) if item.get("by") else "",
        details=details,
    )


def _read_details(value: Any, place: str) -> dict[str, Any]:
    details = as_object(value, place)
    if len(details) > MAX_DETAILS:
        raise refuse(place, _("at most %(count)s items.") % {"count": MAX_DETAILS})
    for key, item in details.items():
        here = f"{place} → {key}"
        if key in TABLE_KEYS and item is not None:
            item = as_object(item, here)
            whole(item, "round", here, 1, 100)
            whole(item, "table", here, 1, 1000)
            whole({"sheet": 1, **item}, "sheet", here, 1, 2)
        elif key in LIST_KEYS and isinstance(item, list):
            _read_list(item, here)
        elif isinstance(item, int) and not isinstance(item, bool):
            whole(details, key, place, -MAX_FIGURE, MAX_FIGURE)
        elif isinstance(item, str):
            text(details, key, place, REASON_LENGTH, blank=True)
        elif item is not None and not isinstance(item, bool):
            raise refuse(here, _("must be a number, text, true or false."))
    return dict(details)


def _read_list(items: list[Any], place: str) -> None:
    """A list in a decision's details: whole figures (whists) or short texts (names)."""
    as_list(items, place, MAX_LIST)
    for index, item in enumerate(items):
        if isinstance(item, int) and not isinstance(item, bool):
            whole({"item": item}, "item", f"{place} → {index + 1}", -MAX_FIGURE, MAX_FIGURE)
        elif isinstance(item, str):
            text({"item": item}, "item", f"{place} → {index + 1}", 200, blank=True)
        else:
            raise refuse(f"{place} → {index + 1}", _("must be a number or a text."))


# --- storing ----------------------------------------------------------------------------


def store_extras(
    tournament: Tournament,
    extras: Extras,
    players: Mapping[str, Player],
    tables: Mapping[tuple[int, int, int], int],
) -> None:
    """Home clubs, pairs and decisions into the new tournament; ``tables``: each stored
    pulka's id by round, table number and sheet."""
    if extras.home_clubs:
        entries = list(tournament.entries.select_related("player"))
        for entry in entries:
            entry.home_club = extras.home_clubs.get(entry.player.name, "")
        TournamentEntry.objects.bulk_update(entries, ["home_club"], batch_size=1000)
    if extras.pairs:
        tournament.forbidden_pairs = sorted(
            sorted(players[name].pk for name in pair) for pair in extras.pairs
        )
        tournament.save(update_fields=["forbidden_pairs"])
    if extras.events:
        _store_events(tournament, extras.events, tables)
    if not extras.decisions:  # a file from before the decisions travelled with it
        journal.reconstruct(tournament)


def _store_events(
    tournament: Tournament,
    events: Sequence[EventFile],
    tables: Mapping[tuple[int, int, int], int],
) -> None:
    entries = {e.player.name: e for e in tournament.entries.select_related("player")}
    members = get_user_model().objects.filter(memberships__club=tournament.club)
    wanted = {event.by for event in events if event.by}
    users = {u.get_username(): u for u in members.filter(username__in=wanted)}
    ids = {name: entry.player_id for name, entry in entries.items()}
    rows = TournamentEvent.objects.bulk_create(
        TournamentEvent(
            tournament=tournament,
            entry=entries[event.player] if event.player else None,
            action=event.action,
            reason=event.reason,
            details=_details_in(event.action, event.details, tables, ids),
            user=users.get(event.by),
        )
        for event in events
    )
    # ``at`` is set to now on insert: the file's moments instead (bulk_update keeps them).
    for row, event in zip(rows, events, strict=True):
        row.at = event.at or row.at
    TournamentEvent.objects.bulk_update(rows, ["at"], batch_size=1000)


def _details_in(
    action: str,
    details: Mapping[str, Any],
    tables: Mapping[tuple[int, int, int], int],
    ids: Mapping[str, int],
) -> dict[str, Any]:
    out = dict(details)
    for key in TABLE_KEYS:
        place = out.get(key)
        if isinstance(place, dict):
            out[key] = tables.get((place["round"], place["table"], place.get("sheet", 1)))
    listed = PLAYER_LISTS.get(action)
    if listed and isinstance(out.get(listed), list):
        out[listed] = [str(ids[name]) for name in out[listed]]
    return out
