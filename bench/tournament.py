"""Tournament benchmarks: seating; at scale, the standings pages and the import.

    .venv/bin/python bench/tournament.py [--only seating] [--seeds 10] [--quick]

**At scale** (``--only scale``, ``bench/tournament_scale.py``): a random tournament of
1,000 players over 5 rounds (``--players``, ``--rounds``, ``--deals``) imported by
today's bulk path against a pulka at a time, and the standings pages against the same
pages folding every table's sheet on each read.

Each section is a function registered in ``SECTIONS``; ``main`` runs them all, or the
one named by ``--only``, and each prints its own figures with a baseline measured in
the same run.

**Seating.** The baseline is the seating engine before today's (``BEFORE``, read from
git and run beside today's), so the ratios travel between machines:

- the time to seat one round of 200 players in a mixed field (goal: under 2 s), rounds
  1 to 5 in turn, and of 202 (49 tables of 4 and 2 of 3: the share of the 4-tables
  then counts), against the old draw on the same history (it always ran 40
  restarts, 14–21 s);
- for each case of the issue, the rounds reached without a repeat (the schedules of
  §3), by today's live draw (round after round, ``draw_round``), by the planned
  schedule (``manage.py seat``) and by the old draw, over ``--seeds`` seeds;
- 12 players at tables of 4 over 3 rounds: the repeats, against the bound of 6.
"""

from __future__ import annotations

import argparse
import importlib.util
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import tournament_scale  # noqa: E402  (bench/ is on the path: run as a script)

from scoring.engine import seating  # noqa: E402
from scoring.engine.seating_plan import plan_schedule  # noqa: E402

# The last commit before today's seating engine (docs/tournaments.md §3): the baseline.
BEFORE = "ca90872"
GOAL_SECONDS = 2.0

# --- seating ---------------------------------------------------------------------------


def _old_seating() -> ModuleType | None:
    """The seating module as it was at ``BEFORE``, loaded beside today's (or None)."""
    try:
        source = subprocess.run(
            ["git", "-C", str(ROOT), "show", f"{BEFORE}:scoring/engine/seating.py"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout
    except (OSError, subprocess.CalledProcessError):
        return None
    name = "scoring.engine._seating_before"
    spec = importlib.util.spec_from_loader(name, loader=None)
    assert spec is not None
    module = importlib.util.module_from_spec(spec)
    module.__package__ = "scoring.engine"
    sys.modules[name] = module
    exec(compile(source, f"{BEFORE}:seating.py", "exec"), module.__dict__)  # noqa: S102
    return module


def _names(count: int) -> list[str]:
    return [f"p{i:03d}" for i in range(count)]


def _live(draw: Callable[..., Any], count: int, size: int, rounds: int, seed: int, **kw: Any):
    history: list[list[tuple[str, ...]]] = []
    repeats = []
    for _ in range(rounds):
        result = draw(_names(count), history, size, seed, **kw)
        history.append([table.players for table in result.tables])
        repeats.append(result.repeats)
    return repeats


def _clean_rounds(repeats: list[int]) -> int:
    """Rounds played before the first repeat."""
    return next((i for i, r in enumerate(repeats) if r), len(repeats))


def _planned(count: int, plan: tuple[int, ...], rounds: int, seed: int) -> list[int]:
    schedule = plan_schedule(count, plan, rounds, seed)
    numbered = [[list(t) for t in tables] for tables in schedule]
    return [seating.repeats_of(numbered[:r], numbered[r]) for r in range(len(numbered))]


CASES = [
    # name, players, size (4: mixed), fours only, rounds asked (the best known)
    ("21 in threes", 21, 3, False, 10),
    ("12 in threes", 12, 3, False, 4),
    ("13 mixed", 13, 4, False, 4),
    ("15 mixed", 15, 4, False, 5),
    ("21 mixed", 21, 4, False, 6),
]


def seating_section(options: argparse.Namespace) -> None:
    old = _old_seating()
    print("## Seating")
    print(f"baseline: the seating engine at {BEFORE} ({'loaded' if old else 'not found'})")
    _speed(old, options)
    _schedules(old, options)


def _speed(old: ModuleType | None, options: argparse.Namespace) -> None:
    for count in (200, 202):
        _speed_of(count, old, options)


def _speed_of(count: int, old: ModuleType | None, options: argparse.Namespace) -> None:
    names = _names(count)
    history: list[list[tuple[str, ...]]] = []
    plan = seating.table_plan(count, 4)
    shape = f"{plan.count(4)} × 4 + {plan.count(3)} × 3"
    print(f"\n{count} players, mixed tables ({shape}): seconds to draw each round")
    print("| round | today | before | before / today |")
    print("|---:|---:|---:|---:|")
    worst = 0.0
    for number in range(1, 6):
        start = time.perf_counter()
        draw = seating.draw_round(names, history, 4, 7)
        today = time.perf_counter() - start
        worst = max(worst, today)
        before = ""
        ratio = ""
        if old is not None and (number in (1, 2) or not options.quick):
            start = time.perf_counter()
            old.draw_round(names, history, 4, 7)
            elapsed = time.perf_counter() - start
            before, ratio = f"{elapsed:.2f}", f"{elapsed / today:.0f}"
        print(f"| {number} | {today:.3f} (repeats {draw.repeats}) | {before} | {ratio} |")
        history.append([table.players for table in draw.tables])
    verdict = "met" if worst < GOAL_SECONDS else "NOT met"
    print(f"slowest round today {worst:.3f} s; goal under {GOAL_SECONDS} s: {verdict}")


def _schedules(old: ModuleType | None, options: argparse.Namespace) -> None:
    seeds = range(options.seeds)
    print(f"\nRounds without a repeat, over {options.seeds} seeds (best known in brackets)")
    print("| case | live draw today: min / median | planned (`seat`) | before: min / median |")
    print("|---|---:|---:|---:|")
    for name, count, size, fours_only, best in CASES:
        plan = seating.table_plan(count, size, fours_only=fours_only)
        live = [_clean_rounds(_live(seating.draw_round, count, size, best, s)) for s in seeds]
        start = time.perf_counter()
        planned = [_clean_rounds(_planned(count, plan, best, s)) for s in seeds]
        per_plan = (time.perf_counter() - start) / len(seeds)
        before = "—"
        if old is not None:
            was = [_clean_rounds(_live(old.draw_round, count, size, best, s)) for s in seeds]
            before = f"{min(was)} / {statistics.median(was):g}"
        print(
            f"| {name} ({best}) | {min(live)} / {statistics.median(live):g} | "
            f"{min(planned)} / {statistics.median(planned):g} ({per_plan:.1f} s) | {before} |"
        )
    fours = [sum(_planned(12, (4, 4, 4), 3, s)) for s in seeds]
    live4 = [sum(_live(seating.draw_round, 12, 4, 3, s)) for s in seeds]
    was4 = [sum(_live(old.draw_round, 12, 4, 3, s)) for s in seeds] if old else []
    print(
        f"\n12 at tables of 4, 3 rounds, total repeats (bound 6): planned max {max(fours)}, "
        f"live max {max(live4)}" + (f", before min {min(was4)} max {max(was4)}" if was4 else "")
    )


# --- at scale: the standings pages and the import (bench/tournament_scale.py) -------------

SECTIONS: dict[str, Callable[[argparse.Namespace], None]] = {
    "seating": seating_section,
    "scale": tournament_scale.scale_section,
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", choices=sorted(SECTIONS), help="run one section")
    parser.add_argument("--seeds", type=int, default=10, help="seeds per seating case")
    parser.add_argument("--quick", action="store_true", help="time the old 200-player draw twice")
    tournament_scale.add_arguments(parser)
    options = parser.parse_args()
    for name, section in SECTIONS.items():
        if options.only in (None, name):
            section(options)


if __name__ == "__main__":
    main()
