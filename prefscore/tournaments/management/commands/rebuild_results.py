"""`manage.py rebuild_results [SLUG…]`: count every table's stored result again.

Each tournament table keeps its settled figures (``prefscore.tournaments.results``),
written after every change of its sheet. This writes them all again from the sheets:
for the tournaments named (``slug`` or ``club/slug``), or every tournament. Run it
after restoring a database from elsewhere, or when ``check_tournament`` reports a
stored result that differs from its sheet. Exits 2 for an unknown tournament.
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from prefscore.shell import find
from prefscore.tournaments import results
from prefscore.tournaments.models import Tournament


class Command(BaseCommand):
    help = "Count every tournament table's stored result again from its sheet."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("slugs", nargs="*", help="slug or club/slug; none: every tournament")

    def handle(self, *args: Any, **options: Any) -> None:
        if options["slugs"]:
            tournaments = [find(Tournament.objects.all(), slug) for slug in options["slugs"]]
        else:
            tournaments = list(Tournament.objects.select_related("club").order_by("pk"))
        for tournament in tournaments:
            count = results.rebuild(tournament)
            self.stdout.write(f"{tournament.club.slug}/{tournament.slug}: {count} tables counted")
