"""Seating constraints the organiser sets (docs/tournaments.md §4.3): each player's home
club, kept apart from his clubmates in round 1 when the draw can, and pairs of players
who never sit at one table (a hard rule of every qualifying draw; a draw that cannot keep
them apart is refused with the reason). ``services.seat_round`` hands both to the engine.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from django.db import transaction
from django.utils.translation import gettext as _

from .models import Tournament, TournamentEntry
from .services import TournamentError

MAX_PAIRS = 200


def _open(tournament_id: int) -> Tournament:
    tournament = Tournament.objects.select_for_update().get(pk=tournament_id)
    if tournament.finished:
        raise TournamentError(_("The tournament is finished: its results are final."))
    return tournament


def set_home_clubs(tournament: Tournament, clubs: Mapping[int, str]) -> int:
    """Write each entry's home club (by entry id); how many changed."""
    changed = 0
    with transaction.atomic():
        _open(tournament.pk)
        entries = tournament.entries.select_for_update().filter(pk__in=list(clubs))
        for entry in entries:
            club = clubs[entry.pk].strip()
            if entry.home_club != club:
                entry.home_club = club
                entry.save(update_fields=["home_club"])
                changed += 1
    return changed


def forbid(tournament: Tournament, first: int, second: int) -> None:
    """Keep two entered players (club player ids) from ever sitting at one table."""
    if first == second:
        raise TournamentError(_("Choose two different players."))
    with transaction.atomic():
        locked = _open(tournament.pk)
        entered = set(
            locked.entries.filter(player_id__in=(first, second)).values_list("player_id", flat=True)
        )
        if entered != {first, second}:
            raise TournamentError(_("Both players must be entered in this tournament."))
        pair = sorted((first, second))
        pairs = [sorted(p) for p in locked.forbidden_pairs or ()]
        if pair in pairs:
            raise TournamentError(_("These two are already kept apart."))
        if len(pairs) >= MAX_PAIRS:
            raise TournamentError(_("Too many pairs kept apart."))
        locked.forbidden_pairs = [*pairs, pair]
        locked.save(update_fields=["forbidden_pairs"])


def allow(tournament: Tournament, first: int, second: int) -> None:
    """Let a pair kept apart sit together again."""
    with transaction.atomic():
        locked = _open(tournament.pk)
        pair = sorted((first, second))
        pairs = [sorted(p) for p in locked.forbidden_pairs or ()]
        if pair not in pairs:
            raise TournamentError(_("These two are not kept apart."))
        pairs.remove(pair)
        locked.forbidden_pairs = pairs
        locked.save(update_fields=["forbidden_pairs"])


@dataclass(frozen=True)
class PairRow:
    first: int
    second: int
    names: str


def pair_rows(tournament: Tournament, entries: list[TournamentEntry]) -> tuple[PairRow, ...]:
    """The pairs kept apart, by name (the entries already read)."""
    names = {entry.player_id: entry.player.name for entry in entries}
    rows = []
    for first, second in tournament.forbidden_pairs or ():
        label = f"{names.get(first, first)} — {names.get(second, second)}"
        rows.append(PairRow(first, second, label))
    return tuple(rows)
