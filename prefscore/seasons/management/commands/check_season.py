"""Recompute a season table from its events and compare it with the stored one.

Exits 1 when they differ (each differing player on stderr), 2 when no season has the
short name given (docs/seasons.md §1, §8).
"""

from __future__ import annotations

import sys
from typing import Any

from django.core.management.base import BaseCommand, CommandParser
from django.utils.translation import gettext as _

from prefscore.seasons import standings
from prefscore.seasons.models import Season


class Command(BaseCommand):
    help = "Recompute a season's table from its events and compare it with the stored table."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("slug", help="the season's short name")
        parser.add_argument("--club", help="the club's short name, when two clubs share it")

    def handle(self, *args: Any, **options: Any) -> None:
        seasons = Season.objects.filter(slug=options["slug"]).select_related("club")
        if options.get("club"):
            seasons = seasons.filter(club__slug=options["club"])
        found = list(seasons)
        if len(found) != 1:
            self.stderr.write(
                _("No single season is named “%(slug)s”.") % {"slug": options["slug"]}
            )
            sys.exit(2)
        season = found[0]
        stored = standings.stored_as_compared(season)
        fresh = standings.compared(standings.as_rows(season, standings.compute(season, fresh=True)))
        if stored == fresh:
            self.stdout.write(
                _("The table of %(name)s agrees with its events.") % {"name": season.name}
            )
            return
        names = dict(season.club.players.values_list("pk", "name"))
        for before, after in _differences(stored, fresh):
            self.stderr.write(
                _("%(player)s: stored %(stored)s, recomputed %(fresh)s")
                % {
                    "player": names.get(before or after, "?"),
                    "stored": stored_text(before, stored),
                    "fresh": stored_text(after, fresh),
                }
            )
        sys.exit(1)


def _differences(
    stored: list[tuple[Any, ...]], fresh: list[tuple[Any, ...]]
) -> list[tuple[Any, Any]]:
    by_player_stored = {row[0]: row for row in stored}
    by_player_fresh = {row[0]: row for row in fresh}
    players = sorted(set(by_player_stored) | set(by_player_fresh))
    return [
        (p if p in by_player_stored else None, p if p in by_player_fresh else None)
        for p in players
        if by_player_stored.get(p) != by_player_fresh.get(p)
    ]


def stored_text(player: int | None, rows: list[tuple[Any, ...]]) -> str:
    row = next((r for r in rows if r[0] == player), None)
    return "—" if row is None else f"#{row[3] or '–'} {row[4]}"
