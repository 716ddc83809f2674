"""Solve the fair mixed-field schedules that scoring/engine/seating_fair_data.py ships.

    .venv/bin/python bench/tournament_fair.py [--players 13 15 21] [--effort 60] [--write]
    .venv/bin/python bench/tournament_fair.py --measure [--seeds 20] [--root DIR]

For each mixed field (tables of 4 and of 3, as ``table_plan(N, 4)`` makes it) and its
rounds: the smallest spread of seats at a table of 4 that a schedule with no repeat can
have (CP-SAT, scoring/engine/seating_solver.py: 1, else 2, …, each smaller spread proved
INFEASIBLE), with the first dealer spread within one; the shares also kept after every
round where the solver finds that too. Prints one line per field with the solve times;
``--write`` rewrites the data module from the results (deterministic: the same run gives
the same file).

``--measure``: for each field, over ``--seeds`` seeds, the repeats and the spreads of the
seats at tables of 4 and of the first dealer's chair, for the live draw (round after
round, ``draw_round``) and the planned schedule (``manage.py seat``), with the time a
first draw takes. ``--root`` measures the engine of another checkout (e.g. the commit
before this work, unpacked with ``git archive``) with the same code.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


# The fields and their rounds: the longest schedules without a repeat known
# (docs/tournaments.md §3).
FIELDS = {13: 4, 14: 4, 15: 5, 17: 5, 18: 5, 21: 6}
DATA = ROOT / "scoring" / "engine" / "seating_fair_data.py"


def solve(players: int, rounds: int, effort: float) -> dict[str, object] | None:
    """The fairest schedule found, with how each smaller spread was ruled out."""
    from scoring.engine.seating import table_plan
    from scoring.engine.seating_solver import solve_fair

    plan = table_plan(players, 4)
    fours, threes = plan.count(4), plan.count(3)
    ruled_out: list[tuple[int, str, float]] = []
    for spread in range(1, rounds + 1):
        for prefix in (True, False):
            started = time.perf_counter()
            found = solve_fair(
                players, fours, threes, rounds, spread=spread, prefix=prefix, effort=effort
            )
            took = time.perf_counter() - started
            print(
                f"  {players}x{rounds} spread {spread} prefix {prefix}: {found.status} {took:.2f}s",
                flush=True,
            )
            if found.status == "found":
                return {
                    "spread": spread,
                    "prefix": prefix,
                    "rounds": found.rounds,
                    "ruled_out": ruled_out,
                }
            if not prefix:
                ruled_out.append((spread, found.status, took))
    return None


def _spread(counts: list[int]) -> int:
    return max(counts) - min(counts)


def measure(players: int, rounds: int, seeds: int) -> str:
    """Repeats and spreads of today's live draw and planned schedule (module docstring)."""
    from scoring.engine import seating
    from scoring.engine.seating_plan import plan_schedule

    names = [f"p{i:02d}" for i in range(players)]
    live, planned, first = [], [], []
    for seed in range(seeds):
        history: list[list[tuple[str, ...]]] = []
        fours = dict.fromkeys(names, 0)
        dealt = dict.fromkeys(names, 0)
        repeats = 0
        for number in range(rounds):
            started = time.perf_counter()
            draw = seating.draw_round(names, history, 4, seed, dealt_first=dict(dealt))
            if number == 0:
                first.append(time.perf_counter() - started)
            repeats += draw.repeats
            for table in draw.tables:
                if len(table.players) == 4:
                    dealt[table.players[table.first_dealer]] += 1
                    for name in table.players:
                        fours[name] += 1
            history.append([table.players for table in draw.tables])
        live.append((repeats, _spread(list(fours.values())), _spread(list(dealt.values()))))
        plan = seating.table_plan(players, 4)
        schedule = plan_schedule(players, plan, rounds, seed)
        counts = [0] * players
        for tables in schedule:
            for table in tables:
                if len(table) == 4:
                    for p in table:
                        counts[p] += 1
        numbered = [[list(t) for t in tables] for tables in schedule]
        total = sum(seating.repeats_of(numbered[:r], numbered[r]) for r in range(len(numbered)))
        planned.append((total, _spread(counts)))

    def worst(rows: list[tuple[int, ...]], index: int) -> str:
        values = [row[index] for row in rows]
        return f"{min(values)}-{max(values)}"

    return (
        f"{players}x{rounds}: live repeats {worst(live, 0)}, 4-seat spread {worst(live, 1)}, "
        f"dealer spread {worst(live, 2)}, first draw {max(first):.2f}s; "
        f"seat repeats {worst(planned, 0)}, 4-seat spread {worst(planned, 1)}"
    )


def main() -> None:
    try:
        import ortools  # noqa: F401
    except ImportError:
        sys.exit(
            "bench/tournament_fair.py solves with OR-Tools, the seating extra: "
            ".venv/bin/pip install -e '.[seating]' (make test installs it)."
        )
    parser = argparse.ArgumentParser()
    parser.add_argument("--players", type=int, nargs="*", default=list(FIELDS))
    parser.add_argument("--effort", type=float, default=60.0)
    parser.add_argument("--write", action="store_true")
    parser.add_argument("--measure", action="store_true")
    parser.add_argument("--seeds", type=int, default=20)
    parser.add_argument("--root", type=Path, default=ROOT)
    options = parser.parse_args()
    if options.measure:
        sys.path.insert(0, str(options.root.resolve()))
        for players in options.players:
            print(measure(players, FIELDS[players], options.seeds), flush=True)
        return
    write(options)


def write(options: argparse.Namespace) -> None:
    from scoring.engine import seating_fair

    results = dict(seating_fair.SCHEDULES)
    for players in options.players:
        rounds = FIELDS[players]
        result = solve(players, rounds, options.effort)
        if result is None:
            print(f"{players}x{rounds}: nothing found")
            continue
        results[players] = seating_fair.encode(result["rounds"])  # type: ignore[arg-type]
        print(
            f"{players}x{rounds}: spread {result['spread']}, prefix {result['prefix']}, "
            f"ruled out {result['ruled_out']}"
        )
    if options.write:
        lines = [
            '"""Fair mixed-field schedules, written by bench/tournament_fair.py: do not edit.',
            "",
            "Each is checked by tests/engine/test_seating_fair.py (docs/tournaments.md §4.3).",
            '"""',
            "",
            "SCHEDULES: dict[int, tuple[str, ...]] = {",
        ]
        for players, code in sorted(results.items()):
            lines.append(f"    {players}: (")
            lines += [f'        "{day}",' for day in code]
            lines.append("    ),")
        lines += ["}", ""]
        DATA.write_text("\n".join(lines), encoding="utf-8")


if __name__ == "__main__":
    main()
