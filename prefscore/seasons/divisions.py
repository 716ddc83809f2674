"""Promotion and relegation between a season's divisions: previewed, then confirmed (§10).

``preview`` asks the engine for the moves from the stored division tables;
``confirm`` gives the next season the same divisions with their new members and writes
every move down with who confirmed it (docs/seasons.md §10).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db import transaction

from scoring.engine import season as engine

from . import counts, standings
from .models import Division, DivisionMove, Season


@dataclass(frozen=True)
class Preview:
    moves: tuple[engine.Move, ...]
    names: dict[int, str]  # division order -> name
    players: dict[int, str]  # player id -> name


def preview(season: Season, count: int) -> Preview:
    """The moves the season's stored table gives with ``count`` up and down (docs/seasons.md
    §10). The table is read as stored, not counted again (0.5 s and more for a big club):
    while its count waits (``counts.state``), the page says so and ``confirm`` refuses."""
    divisions = list(season.divisions.order_by("order").prefetch_related("players"))
    split = standings.stored_divided(season)
    lowest = max((d.order for d in divisions), default=0)
    names = {d.order: d.name for d in divisions}
    players = {p.pk: p.name for d in divisions for p in d.players.all()}
    return Preview(engine.promotions(split, count, lowest), names, players)


class DivisionError(Exception):
    """The next season cannot take the divisions; the message says why."""


def confirm(season: Season, next_season: Season, count: int, user: Any) -> int:
    """The next season's divisions with their members after the moves; how many moved."""
    if next_season.pk == season.pk or next_season.club_id != season.club_id:
        raise DivisionError("other_season")
    if next_season.divisions.exists():
        raise DivisionError("has_divisions")
    if counts.state(season):  # the stored table is not this season's table yet
        raise DivisionError("counting")
    shown = preview(season, count)
    moved = {move.player: move.to for move in shown.moves}
    with transaction.atomic():
        for division in season.divisions.order_by("order").prefetch_related("players"):
            Division.objects.create(season=next_season, name=division.name, order=division.order)
        fresh = {d.order: d for d in next_season.divisions.all()}
        for division in season.divisions.prefetch_related("players"):
            for player in division.players.all():
                fresh[moved.get(player.pk, division.order)].players.add(player)
        DivisionMove.objects.bulk_create(
            DivisionMove(
                season=season,
                next_season=next_season,
                player_id=move.player,
                from_division=shown.names[move.from_],
                to_division=shown.names[move.to],
                confirmed_by=user,
            )
            for move in shown.moves
        )
        counts.ask(next_season)
    return len(shown.moves)


def replace(season: Season, chosen: list[tuple[str, list[Any]]]) -> None:
    """The season's divisions as the organiser wrote them, the highest first (§10)."""
    with transaction.atomic():
        season.divisions.all().delete()
        for order, (name, players) in enumerate(chosen):
            Division.objects.create(season=season, name=name, order=order).players.set(players)
        counts.ask(season)
