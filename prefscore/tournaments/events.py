"""A tournament's change signal, for the room screens (docs/push.md;
docs/tournaments.md §4.11).

The dashboard, the projector and "my table now" each keep one Server-Sent Events stream
open, as a table's sheet does (the one stream of ``prefscore/games/streams.py``; the
screens' checks are in ``views/events.py``). It says only "the tournament's version is
now V"; the page (``static/js/room-push.js``) then asks its ordinary poll for its region,
so who may see what stays in the ordinary views.

The version changes when any table of the tournament changes its own (a deal, a
correction, a closing), when a round is drawn, published, rescheduled or discarded, when
a table is closed, and when the tournament's status moves on (a cut, the finish). A
stream watches, through ``games.events``' fan-out, the tournament's own key
(``"tournament:<id>"``: announced on PostgreSQL by :func:`connect`'s signals, read by the
SQLite watcher through :func:`round_states`) and each of its tables still being played
(:func:`room_state`).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Any

from django.db import connection
from django.db.models.signals import post_delete, post_save

from prefscore.games import events as pulka_events
from prefscore.games.models import Pulka

from .models import Round, TableClosure, Tournament

KIND = "tournament"


def key(tournament_id: int) -> str:
    return f"{KIND}:{int(tournament_id)}"


def round_states(tournament_ids: list[int]) -> dict[int, object]:
    """Per tournament, a value that changes with its status, its rounds and its closed
    tables (the SQLite watcher's reader; three queries for all of them)."""
    found: dict[int, list[Any]] = {
        pk: [status, []]
        for pk, status in Tournament.objects.filter(pk__in=tournament_ids).values_list(
            "pk", "status"
        )
    }
    rounds = Round.objects.filter(tournament_id__in=tournament_ids).order_by("pk")
    fields = ("tournament_id", "pk", "status", "stage", "published_at", "starts_at", "tables")
    for tournament_id, *row in rounds.values_list(*fields):
        found.setdefault(tournament_id, [None, []])[1].append(row)
    closed = TableClosure.objects.filter(pulka__tournament_id__in=tournament_ids)
    for tournament_id, pk in closed.values_list("pulka__tournament_id", "pk").order_by("pk"):
        found.setdefault(tournament_id, [None, []]).append(pk)
    return {pk: repr(value) for pk, value in found.items()}


def read_round_states(ids: list[str]) -> dict[str, object]:
    """``round_states`` for the watcher, whose keys name the tournaments as text."""
    found = round_states([int(name) for name in ids if name.isdigit()])
    return {str(pk): value for pk, value in found.items()}


def _announce(sender: type, instance: Any, **kwargs: Any) -> None:
    if connection.vendor != "postgresql":
        return  # the watcher reads the round state (round_states)
    tournament_id = instance.pk if isinstance(instance, Tournament) else None
    if isinstance(instance, Round):
        tournament_id = instance.tournament_id
    elif isinstance(instance, TableClosure):
        tournament_id = (
            Pulka.objects.filter(pk=instance.pulka_id)
            .values_list("tournament_id", flat=True)
            .first()
        )
    if tournament_id is not None:
        pulka_events.announce(key(tournament_id))


def connect() -> None:
    """Announce the tournament's key wherever its round state is written (PostgreSQL's
    ``NOTIFY``, delivered at the commit), and let the SQLite watcher read it."""
    pulka_events.register(KIND, read_round_states)
    for model in (Tournament, Round, TableClosure):
        uid = f"tournaments.events.{model.__name__}"
        post_save.connect(_announce, sender=model, dispatch_uid=f"{uid}.save")
        post_delete.connect(_announce, sender=model, dispatch_uid=f"{uid}.delete")


@dataclass(frozen=True)
class RoomState:
    version: str  # changes with any table's version and the round state
    live: frozenset[int]  # the tables still being played, each watched by the stream


def room_state(tournament_id: int) -> RoomState:
    """The tournament's version now: two queries (its pulkas and its round state)."""
    pulkas = Pulka.objects.filter(tournament_id=tournament_id).order_by("pk")
    rows = list(pulkas.values_list("pk", "version", "status"))
    state = round_states([tournament_id]).get(tournament_id)
    digest = hashlib.sha256(repr((rows, state)).encode()).hexdigest()[:16]
    live = frozenset(pk for pk, _version, status in rows if status == Pulka.Status.RUNNING)
    return RoomState(digest, live)
