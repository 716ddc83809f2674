"""``manage.py summarise [--check]``: write every finished pulka's summary rows and rating.

The rows are kept in step as pulkas finish (``prefscore.stats.summaries``); this
writes them for pulkas finished before, and ``--check`` only compares: it exits 1 when
a stored rating differs from the one computed from scratch (docs/rating.md).
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from prefscore.clubs.models import Club
from prefscore.games.models import Pulka
from prefscore.stats import ratings, summaries


class Command(BaseCommand):
    help = "Write the statistics' summary rows and the club ratings from the pulkas."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--check", action="store_true", help="Compare only; exit 1 if stale.")

    def handle(self, *args: Any, **options: Any) -> None:
        if options["check"]:
            stale = [
                c.slug for c in Club.objects.all() if ratings.stored(c.pk) != ratings.computed(c.pk)
            ]
            if stale:
                raise CommandError(
                    f"stored ratings differ from a recomputation: {', '.join(stale)}"
                )
            self.stdout.write("ratings equal a recomputation")
            return
        pulkas = Pulka.objects.filter(status=Pulka.Status.FINISHED).values_list("pk", flat=True)
        for pk in pulkas:
            summaries.summarise(pk)
        for club in Club.objects.all():
            ratings.recompute_club(club.pk)
        self.stdout.write(f"summarised {len(pulkas)} finished pulkas")
