"""How fast the standings of a big field are computed, against a baseline.

    .venv/bin/python bench/tournament_standings.py [--players 1000] [--rounds 10] [--repeat 7]

The standings half of ``bench/tournament.py`` (the seating half is there): a field of
``--players`` at tables of 4 (and 3 where the field does not divide) over ``--rounds``
rounds, each table's whists random but adding up to zero, ranked by
``scoring.engine.ranking.standings`` with the default regulations (raw whists and the
Кодекс 4.1.3 tie-breaks), then with the opponents' score and head-to-head as
tie-breaks, and with place points. The baseline is sorting the same number of random
tuples. Goal: under 100 ms for 1,000 players over 10 rounds with the default rules.

:func:`bench_standings` is what ``bench/tournament.py`` calls; run alone, this file
prints the same table.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from scoring.engine import ranking  # noqa: E402

GOAL_MS = 100.0


def field_results(players: int, rounds: int, seed: int = 1) -> list[ranking.TableResult]:
    """Random tables of 4 (the rest of 3) for every round, whists adding up to zero."""
    rng = random.Random(seed)
    keys = [str(n) for n in range(1, players + 1)]
    threes = (4 - players % 4) % 4
    results = []
    for number in range(1, rounds + 1):
        rng.shuffle(keys)
        sizes = [3] * threes + [4] * ((players - 3 * threes) // 4)
        start = 0
        for size in sizes:
            seats = tuple(keys[start : start + size])
            start += size
            whists = [rng.randrange(-120, 121) for _ in range(size - 1)]
            whists.append(-sum(whists))
            stats = tuple(
                ranking.PlayerStats(rng.randrange(3), rng.randrange(6), rng.randrange(3), 0)
                for _ in seats
            )
            results.append(ranking.TableResult(number, seats, tuple(whists), stats))
    return results


def _best(run: Callable[[], Any], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        began = time.perf_counter()
        run()
        times.append(time.perf_counter() - began)
    return min(times) * 1000


def bench_standings(players: int = 1000, rounds: int = 10, repeat: int = 7) -> list[dict[str, Any]]:
    """Best milliseconds of the standings for each set of rules, and the baseline."""
    results = field_results(players, rounds)
    keys = [str(n) for n in range(1, players + 1)]
    rng = random.Random(2)
    rows = [tuple(rng.random() for _ in range(6)) for _ in range(players * rounds)]
    cases = {
        "baseline: sort players × rounds tuples": lambda: sorted(rows),
        "default rules (raw whists, Кодекс 4.1.3 tie-breaks)": lambda: ranking.standings(
            results, keys, ranking.Rules()
        ),
        "with head-to-head and opponents' score": lambda: ranking.standings(
            results,
            keys,
            ranking.Rules(tie_breaks=("whists", "head_to_head", "opponents", "best_round")),
        ),
        "place points": lambda: ranking.standings(results, keys, ranking.Rules("places")),
    }
    baseline = _best(cases.pop("baseline: sort players × rounds tuples"), repeat)
    report = [{"case": "baseline: sort players × rounds tuples", "ms": baseline, "ratio": 1.0}]
    for name, run in cases.items():
        best = _best(run, repeat)
        report.append({"case": name, "ms": best, "ratio": best / baseline})
    return report


def print_standings(report: list[dict[str, Any]], players: int, rounds: int) -> bool:
    print(f"standings of {players} players over {rounds} rounds (best ms)")
    print("| case | ms | × baseline |")
    print("|---|---:|---:|")
    for row in report:
        print(f"| {row['case']} | {row['ms']:.1f} | {row['ratio']:.1f} |")
    default = report[1]["ms"]
    met = default < GOAL_MS
    print(f"goal: default rules under {GOAL_MS:.0f} ms: {'met' if met else 'NOT met'}")
    return met


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--repeat", type=int, default=7)
    args = parser.parse_args()
    report = bench_standings(args.players, args.rounds, args.repeat)
    return 0 if print_standings(report, args.players, args.rounds) else 1


if __name__ == "__main__":
    sys.exit(main())
