"""`manage.py check_tournament SLUG`: re-validate a whole tournament (docs/tournaments.md §7.12).

``SLUG`` is the tournament's short name, or ``club/slug`` where two clubs use the same
one. Prints each violation on a line and exits 1 if there is any; prints one line and
exits 0 when the tournament is sound. Whatever the data, it prints no traceback. An unknown or ambiguous tournament exits 2.
The checks are ``prefscore.tournaments.checks``.
"""

from __future__ import annotations

import sys
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from prefscore.tournaments.checks import check
from prefscore.tournaments.models import Tournament


class Command(BaseCommand):
    help = "Re-validate a tournament: seating, table sizes, zero sums, standings, repeats."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("slug", help="the tournament's short name, or club/slug")

    def handle(self, *args: Any, **options: Any) -> None:
        tournament = _find(options["slug"])
        try:
            problems = check(tournament)
        except Exception as error:  # noqa: BLE001 - a corrupt tournament is reported, never a traceback
            problems = [f"the checks could not finish: {error!r}"]
        for problem in problems:
            self.stdout.write(problem)
        if problems:
            self.stderr.write(f"{tournament.slug}: {len(problems)} violation(s)")
            sys.exit(1)
        rounds = tournament.rounds.count()
        self.stdout.write(f"{tournament.slug}: sound ({rounds} rounds checked)")


def _find(slug: str) -> Tournament:
    club, _, name = slug.rpartition("/")
    found = Tournament.objects.filter(slug=name)
    if club:
        found = found.filter(club__slug=club)
    tournaments = list(found.select_related("club")[:2])
    if not tournaments:
        raise CommandError(f"no tournament {slug!r}", returncode=2)
    if len(tournaments) > 1:
        raise CommandError(f"{slug!r} is in several clubs: give club/slug", returncode=2)
    return tournaments[0]
