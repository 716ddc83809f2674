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

from .constraints import MAX_PAIRS
from .file_fields import as_list, as_object, choice, moment, refuse, text, whole
from .models import Tournament, TournamentEntry, TournamentEvent

Action = TournamentEvent.Action
# The decisions the file keeps: the discipline's (§4.9). Check-ins, withdrawals and
# reopenings are the history of this site's running of it, not the results.
DISCIPLINE = (Action.YELLOW_CARD, Action.RED_CARD, Action.FINE, Action.DISQUALIFIED)
# Details that name a table by its pulka id: in the file, by round and table number.
TABLE_KEYS = ("pulka", "floor_pulka")
MAX_EVENTS = 10_000
MAX_DETAILS = 12
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


def discipline_json(
    tournament: Tournament, tables: Mapping[int, tuple[int, int]]
) -> list[dict[str, Any]]:
    """Every card, fine and disqualification, oldest first (one query); ``tables``: each
    exported pulka's round and table number by its id."""
    events = (
        tournament.events.filter(action__in=DISCIPLINE, entry__isnull=False)
        .select_related("entry__player", "user")
        .order_by("at", "pk")
    )
    return [
        {
            "action": event.action,
            "player": event.entry.player.name,  # type: ignore[union-attr]
            "reason": event.reason,
            "at": event.at.isoformat(),
            "by": event.user.get_username() if event.user else None,
            "details": _details_out(event.details or {}, tables),
        }
        for event in events
    ]


def _details_out(
    details: Mapping[str, Any], tables: Mapping[int, tuple[int, int]]
) -> dict[str, Any]:
    out = dict(details)
    for key in TABLE_KEYS:
        if key in out:
            place = tables.get(out[key]) if isinstance(out[key], int) else None
            out[key] = None if place is None else {"round": place[0], "table": place[1]}
    return out


# --- reading ----------------------------------------------------------------------------


@dataclass(frozen=True)
class EventFile:
    action: str
    player: str
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
    return Extras(
        _read_home_clubs(data.get("players")),
        _read_pairs(data.get("tournament"), names),
        tuple(
            _read_event(item, f"discipline → {index}", names)
            for index, item in enumerate(
                as_list(data.get("discipline", []), "discipline", MAX_EVENTS), start=1
            )
        ),
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


def _read_event(item: Any, place: str, names: set[str]) -> EventFile:
    item = as_object(item, place)
    player = text(item, "player", place, 200)
    if player not in names:
        raise refuse(place, _("%(name)s is not among the players.") % {"name": player})
    return EventFile(
        action=choice(item, "action", place, DISCIPLINE),
        player=player,
        reason=text(item, "reason", place, REASON_LENGTH, blank=True),
        at=moment(item, "at", place),
        by=text(item, "by", place, 150, blank=True) if item.get("by") else "",
        details=_read_details(item.get("details", {}), f"{place} → details"),
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
        elif isinstance(item, int) and not isinstance(item, bool):
            whole(details, key, place, -MAX_FIGURE, MAX_FIGURE)
        elif isinstance(item, str):
            text(details, key, place, REASON_LENGTH, blank=True)
        elif item is not None and not isinstance(item, bool):
            raise refuse(here, _("must be a number, text, true or false."))
    return dict(details)


# --- storing ----------------------------------------------------------------------------


def store_extras(
    tournament: Tournament,
    extras: Extras,
    players: Mapping[str, Player],
    tables: Mapping[tuple[int, int], int],
) -> None:
    """Home clubs, pairs and decisions into the new tournament; ``tables``: each stored
    pulka's id by round and table number."""
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


def _store_events(
    tournament: Tournament, events: Sequence[EventFile], tables: Mapping[tuple[int, int], int]
) -> None:
    entries = {e.player.name: e for e in tournament.entries.select_related("player")}
    members = get_user_model().objects.filter(memberships__club=tournament.club)
    wanted = {event.by for event in events if event.by}
    users = {u.get_username(): u for u in members.filter(username__in=wanted)}
    rows = TournamentEvent.objects.bulk_create(
        TournamentEvent(
            tournament=tournament,
            entry=entries[event.player],
            action=event.action,
            reason=event.reason,
            details=_details_in(event.details, tables),
            user=users.get(event.by),
        )
        for event in events
    )
    # ``at`` is set to now on insert: the file's moments instead (bulk_update keeps them).
    for row, event in zip(rows, events, strict=True):
        row.at = event.at or row.at
    TournamentEvent.objects.bulk_update(rows, ["at"], batch_size=1000)


def _details_in(
    details: Mapping[str, Any], tables: Mapping[tuple[int, int], int]
) -> dict[str, Any]:
    out = dict(details)
    for key in TABLE_KEYS:
        place = out.get(key)
        if isinstance(place, dict):
            out[key] = tables.get((place["round"], place["table"]))
    return out
