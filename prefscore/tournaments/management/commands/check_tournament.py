"""`manage.py check_tournament CLUB/SLUG`: re-validate a whole tournament (docs/tournaments.md §7.12).

``CLUB/SLUG`` as the tournament's pages name it (or its short name alone, where only
one club has it). Prints each violation on a line and exits 1 if there is any; prints
one line and exits 0 when the tournament is sound. It speaks the shell's language
(``LC_ALL``, ``LC_MESSAGES``, ``LANG``) and, whatever the data, prints no traceback. An
unknown or ambiguous tournament exits 2. The checks are ``prefscore.tournaments.checks``.
"""

from __future__ import annotations

import sys
from typing import Any

from django.core.management.base import BaseCommand, CommandParser
from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from prefscore.shell import find, shell_language
from prefscore.tournaments.checks import check
from prefscore.tournaments.models import Tournament


class Command(BaseCommand):
    help = "Re-validate a tournament: its tables, its results recounted, its decisions."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("address", help="the tournament as club/slug (or its slug alone)")

    def handle(self, *args: Any, **options: Any) -> None:
        with translation.override(shell_language()):
            self._check(options["address"])

    def _check(self, address: str) -> None:
        tournament: Tournament = find(Tournament.objects.all(), address)
        try:
            problems = check(tournament)
        except Exception as error:  # noqa: BLE001 - a corrupt tournament is reported, never a traceback
            problems = [_("the checks could not finish: %(error)r") % {"error": error}]
        for problem in problems:
            self.stdout.write(problem)
        where = f"{tournament.club.slug}/{tournament.slug}"
        if problems:
            self.stderr.write(
                ngettext(
                    "%(where)s: %(count)s violation",
                    "%(where)s: %(count)s violations",
                    len(problems),
                )
                % {"where": where, "count": len(problems)}
            )
            sys.exit(1)
        rounds = tournament.rounds.count()
        self.stdout.write(
            ngettext(
                "%(where)s: sound (%(count)s round checked)",
                "%(where)s: sound (%(count)s rounds checked)",
                rounds,
            )
            % {"where": where, "count": rounds}
        )
