"""``python manage.py seat --players N --tables 3|4|mixed --rounds R [--seed S]``.

Prints a planned schedule as JSON so organisers can plan and anyone can check it
(docs/tournaments.md §3): ``{"rounds": [[[1, 5, 9], …], …], "repeats": [0, …]}``,
players numbered 1..N, ``repeats[r]`` the pairs at round r's tables who had already sat
together, and ``dealers[r]`` the first dealer of each table of 4 in round r, in table
order (he sits out the most deals: spread evenly, docs/tournaments.md §4.3). The same
seed gives the same schedule. An impossible plan: one line on
stderr, exit 2. Pure: it reads no database, so it runs without SECRET_KEY (manage.py).
"""

from __future__ import annotations

import json
import sys
from typing import Any

from django.core.management.base import BaseCommand, CommandParser, no_translations

from scoring.engine import seating_fair
from scoring.engine.errors import ScoringError
from scoring.engine.seating import repeats_of, table_plan
from scoring.engine.seating_plan import plan_schedule

MODES = {"3": (3, False), "4": (4, True), "mixed": (4, False)}
MAX_PLAYERS = 1000
MAX_ROUNDS = 100


class Command(BaseCommand):
    help = "Plan a tournament's seating and print it as JSON (docs/tournaments.md §3)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--players", required=True, help="the field, N players")
        parser.add_argument("--tables", required=True, help="3, 4 or mixed")
        parser.add_argument("--rounds", required=True, help="how many rounds")
        parser.add_argument("--seed", default="0", help="the draw's seed (default 0)")

    # English, like the engine's own messages that it passes on (as `score`).
    @no_translations
    def handle(self, *args: Any, **options: Any) -> None:
        try:
            players = _whole(options["players"], "--players", 1, MAX_PLAYERS)
            rounds = _whole(options["rounds"], "--rounds", 1, MAX_ROUNDS)
            seed = _whole(options["seed"], "--seed", 0, 2**63)
            if options["tables"] not in MODES:
                raise _InputError("--tables must be 3, 4 or mixed")
            size, fours_only = MODES[options["tables"]]
            plan = table_plan(players, size, fours_only=fours_only)
        except (ScoringError, _InputError) as error:
            self.stderr.write(str(error))
            sys.exit(2)
        schedule = plan_schedule(players, plan, rounds, seed)
        shipped = seating_fair.shipped(players, plan) if len(set(plan)) > 1 else None
        dealt = seating_fair.with_dealers(players, schedule, len(shipped or ()))
        numbered = [
            [sorted(p + 1 for p in table) for table in sorted(tables, key=min)]
            for tables in schedule
        ]
        repeats = [repeats_of(numbered[:r], numbered[r]) for r in range(len(numbered))]
        dealers = [
            [table[0] + 1 for table in sorted(tables, key=min) if len(table) == 4]
            for tables in dealt
        ]
        self.stdout.write(json.dumps({"rounds": numbered, "repeats": repeats, "dealers": dealers}))


class _InputError(Exception):
    pass


def _whole(text: str, name: str, low: int, high: int) -> int:
    try:
        value = int(text)
    except ValueError:
        raise _InputError(f"{name} must be a whole number, got {text!r}") from None
    if not low <= value <= high:
        raise _InputError(f"{name} must be from {low} to {high}, got {value}")
    return value
