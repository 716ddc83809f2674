"""A big field's results: the standings, drawing a round and the checker, against a yardstick.

    .venv/bin/python bench/tournament_results.py [--players 1000] [--rounds 5] [--deals 12]
                                                 [--repeat 3] [--profile standings|page|csv|draw|check] [--sort tottime]

Makes a temporary SQLite database and imports a random tournament into it (what
``manage.py random_tournament`` makes: ``--players`` over ``--rounds`` rounds, each table
playing ``--deals`` deals), then times, best of ``--repeat``, in one process:

- **standings**: ``services.standings`` (what the standings page, the projector, the CSV
  and a season read), and the standings page through Django's test client;
- **draw**: drawing the next round (``rounds.draw_next_round``, a draft), discarded after
  each try so that each try draws the same round;
- **check**: ``checks.check``, what ``manage.py check_tournament`` runs.

Each figure is wall-clock seconds and, in brackets, the CPU seconds of the process, and
its ratio to a yardstick measured in the same run: ``json.loads`` of the tournament
file, a fixed amount of work that no change of prefscore moves, so that the ratios
travel between machines and loads. The goals: standings under 0.5 s, a draw under 1 s,
the checker under 5 s. The machine is shared: the load average is printed before and
after.

The script reads nothing of prefscore but ``services.standings``, ``rounds`` and
``checks.check``, so a copy of it runs on an older tree too (``--root``): that is how the
figures before a change are measured, beside the ones after, on the same machine.
"""

from __future__ import annotations

import argparse
import cProfile
import json
import os
import pstats
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

GOALS = {"standings": 0.5, "standings page": 0.5, "draw": 1.0, "check": 5.0}


@dataclass(frozen=True)
class Timing:
    wall: float
    cpu: float

    def __str__(self) -> str:
        return f"{self.wall:6.2f} s ({self.cpu:5.2f} s CPU)"


def best(run: Callable[[], Any], repeat: int, after: Callable[[], Any] | None = None) -> Timing:
    """The best wall and the best CPU time of ``repeat`` runs (``after`` each, untimed)."""
    walls, cpus = [], []
    for _ in range(repeat):
        wall, cpu = time.perf_counter(), time.process_time()
        run()
        walls.append(time.perf_counter() - wall)
        cpus.append(time.process_time() - cpu)
        if after is not None:
            after()
    return Timing(min(walls), min(cpus))


def setup(root: Path, directory: str) -> None:
    os.environ["DEBUG"] = "1"
    os.environ["DATABASE_URL"] = f"sqlite:///{directory}/bench.sqlite3"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "prefscore.settings")
    sys.path.insert(0, str(root))
    import django
    from django.core.management import call_command

    django.setup()
    call_command("migrate", verbosity=0)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--players", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--deals", type=int, default=12)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--root", default=str(Path(__file__).resolve().parent.parent))
    parser.add_argument("--sort", default="cumulative", help="cProfile's order (tottime)")
    parser.add_argument("--profile", choices=["standings", "page", "csv", "draw", "check"])
    options = parser.parse_args()
    print(f"load average before: {os.getloadavg()[0]:.2f}  (tree: {options.root})")
    with tempfile.TemporaryDirectory() as directory:
        setup(Path(options.root), directory)
        run(options)
    print(f"load average after: {os.getloadavg()[0]:.2f}")


def run(options: argparse.Namespace) -> None:
    from django.contrib.auth import get_user_model
    from django.test import Client

    from prefscore.clubs.models import Club, Membership, Role
    from prefscore.tournaments import checks, generator, imports, rounds, services

    user = get_user_model().objects.create_user("bench-organiser", password="bench-pw-1234")
    club = Club.objects.create(name="Bench club", slug="bench")
    Membership.objects.create(club=club, user=user, role=Role.ORGANISER)
    data = generator.tournament_file(options.players, options.rounds, options.deals)
    text = json.dumps(data, ensure_ascii=False)
    tournament = imports.import_tournament(club, imports.read_file(text), user)
    tables = tournament.pulkas.count()
    print(f"{options.players} players × {options.rounds} rounds: {tables} tables")
    client = Client()
    client.force_login(user)
    page = f"/tournaments/{club.slug}/{tournament.slug}/standings/"
    csv = f"/tournaments/{club.slug}/{tournament.slug}/export.csv"
    number = tournament.rounds.count() + 1

    def draw() -> None:
        rounds.draw_next_round(tournament.pk)

    def discard() -> None:
        rounds.discard_draft(tournament.pk, number)

    cases: dict[str, tuple[Callable[[], Any], Callable[[], Any] | None]] = {
        "standings": (lambda: services.standings(tournament), None),
        "standings page": (lambda: client.get(page, HTTP_HOST="127.0.0.1"), None),
        "page": (lambda: client.get(page, HTTP_HOST="127.0.0.1"), None),
        "csv": (lambda: client.get(csv, HTTP_HOST="127.0.0.1"), None),
        "draw": (draw, discard),
        "check": (lambda: checks.check(tournament), None),
    }
    if options.profile:
        work, after = cases[options.profile]
        profiler = cProfile.Profile()
        profiler.runcall(work)
        if after is not None:
            after()
        pstats.Stats(profiler).sort_stats(options.sort).print_stats(30)
        return
    problems = checks.check(tournament)
    print(
        f"check_tournament finds {len(problems)} problem(s)"
        + (f": {problems[:3]}" if problems else "")
    )
    yardstick = best(lambda: json.loads(text), max(options.repeat, 5))
    print(f"yardstick, json.loads of the {len(text) / 1e6:.1f} MB file: {yardstick}")
    print(
        f"  {'what':<16}{'best of ' + str(options.repeat):>26}{'goal':>8}{'÷ yardstick (CPU)':>20}"
    )
    for name, (work, after) in cases.items():
        work()  # once to warm the caches a real server keeps warm
        if after is not None:
            after()
        timing = best(work, options.repeat, after)
        ratio = timing.cpu / max(yardstick.cpu, 1e-9)
        print(f"  {name:<16}{timing!s:>26}{GOALS[name]:>7.1f}s{ratio:>20.1f}")
    if hasattr(services, "seatings"):
        draw_parts(tournament, options.repeat)
        check_memo(tournament, options.repeat)


def check_memo(tournament: Any, repeat: int) -> None:
    """The checker's fold of every sheet, with each distinct convention snapshot read
    once for the check (``exports.Conventions``) and without (each table reading its
    own snapshot into the engine's convention), in this run."""
    from prefscore.tournaments import exports, recount, services

    live = services.tournament_pulkas(tournament)

    def memo() -> Any:
        conventions = exports.Conventions()
        return [recount.fold(pulka, conventions) for pulka in live]

    def each() -> Any:
        return [recount.fold(pulka) for pulka in live]

    assert memo() == each()
    was, now = best(each, max(repeat, 3)), best(memo, max(repeat, 3))
    print(
        f"  {'fold of ' + str(len(live)) + ' sheets':<30} without memo {was}  with {now}"
        f"  CPU with/without {now.cpu / was.cpu:.2f}"
    )


def draw_parts(tournament: Any, repeat: int) -> None:
    """The draw's two reads that were its hot spots, each beside what it replaced, in
    this run: the Swiss preference of the whole field (each player's partners by
    distance in the standings), sorted by key as before against interleaved by slices;
    the past tables' seats, a model per pulka and seat as before against plain rows."""
    import random

    from prefscore.tournaments import services
    from scoring.engine import seating_round

    players = tournament.entries.count()
    standings = list(range(players))
    random.Random(1).shuffle(standings)
    rank = {p: i for i, p in enumerate(standings)}

    def sorted_by_key() -> list[list[int]]:
        return [
            sorted(range(players), key=lambda q, p=p: (abs(rank[q] - rank[p]), rank[q]))
            for p in range(players)
        ]

    def interleaved() -> list[list[int]]:
        return [seating_round._nearest(standings, rank[p]) for p in range(players)]

    assert sorted_by_key() == interleaved()

    def models() -> Any:
        return services.history(list(services.live_pulkas(tournament).prefetch_related("seats")))

    def rows() -> Any:
        return services.history(services.seatings(tournament))

    assert models() == rows()
    print(f"  the draw's parts, each beside what it replaced, best of {max(repeat, 3)}")
    for name, before, after in (
        (f"Swiss preference of {players}", sorted_by_key, interleaved),
        ("past tables' seats", models, rows),
    ):
        was, now = best(before, max(repeat, 3)), best(after, max(repeat, 3))
        print(f"  {name:<30} before {was}  now {now}  CPU now/before {now.cpu / was.cpu:.2f}")


if __name__ == "__main__":
    main()
