"""`manage.py random_tournament CLUB`: a seeded random tournament of any size (§4.14).

Makes a tournament file (docs/tournaments.md §6.4) of ``--players`` players over
``--rounds`` rounds, every table playing ``--deals`` random deals the engine accepts
(``prefscore.tournaments.generator``), and imports it into the club ``CLUB`` (its slug),
as the import page would; or, with ``--output FILE``, writes the file and stores
nothing. The same ``--seed`` gives the same tournament. Exits 2 for an unknown club or
a size the seating cannot make.
"""

from __future__ import annotations

import json
import time
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from prefscore.clubs.models import Club
from prefscore.tournaments import generator, imports


class Command(BaseCommand):
    help = "Make a seeded random tournament of any size, imported into a club or written out."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("club", help="the club's slug (ignored with --output)")
        parser.add_argument("--players", type=int, default=40)
        parser.add_argument("--rounds", type=int, default=3)
        parser.add_argument("--deals", type=int, default=12, help="deals per table")
        parser.add_argument("--table-size", type=int, choices=(3, 4), default=4)
        parser.add_argument("--seed", type=int, default=1)
        parser.add_argument("--output", help="write the tournament file here, store nothing")

    def handle(self, *args: Any, **options: Any) -> None:
        players, rounds, deals = options["players"], options["rounds"], options["deals"]
        if not 3 <= players <= imports.MAX_PLAYERS or players == 5:
            raise CommandError(
                f"--players must be 3 to {imports.MAX_PLAYERS}; 5 cannot sit at tables of 3 and 4",
                returncode=2,
            )
        if not 1 <= rounds <= imports.MAX_ROUNDS or not 1 <= deals <= 200:
            raise CommandError("--rounds 1 to 100 and --deals 1 to 200", returncode=2)
        if options["table_size"] == 3 and players % 3:
            raise CommandError("at tables of 3, --players must divide by 3", returncode=2)
        data = generator.tournament_file(
            players, rounds, deals, options["table_size"], options["seed"]
        )
        text = json.dumps(data, ensure_ascii=False)
        if options["output"]:
            with open(options["output"], "w", encoding="utf-8") as out:
                out.write(text)
            self.stdout.write(f"{options['output']}: {len(text.encode())} bytes")
            return
        club = Club.objects.filter(slug=options["club"]).first()
        if club is None:
            raise CommandError(f"no club {options['club']!r}", returncode=2)
        began = time.perf_counter()
        tournament = imports.import_tournament(club, imports.read_file(text), None)
        seconds = time.perf_counter() - began
        self.stdout.write(
            f"{club.slug}/{tournament.slug}: {players} players, {rounds} rounds "
            f"({seconds:.1f} s to import)"
        )
