"""bench/load.py's report: latencies, the demand on the workers, their CPU and memory,
the rendered regions' cache in each worker, the machine's load.

Everything the README's figures need is printed here, in one place: p50/p95/p99 and
errors of each kind of request, the worker-seconds used per table-hour, the resident
memory of each worker and the entries and bytes its cache holds against its bound.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .client import Series
from .tally import each_worker

CACHE_STATS = "/bench/cache/"  # bench/webapp/urls.py: one worker's cache, and its pid


def machine_load() -> str:
    one, five, fifteen = os.getloadavg()
    return f"load average {one:.2f}, {five:.2f}, {fifteen:.2f} on {os.cpu_count()} cores"


def print_capacity(rows: list[Series], seconds: float) -> None:
    bare = rows[0].throughput or float("nan")
    print(f"\n1. capacity: closed-loop clients, {seconds:.0f} s each")
    print(
        f"{'request':22} {'req/s':>8} {'× bare':>7} {'p50 ms':>7} {'p95 ms':>7} "
        f"{'p99 ms':>7} {'errors':>6}"
    )
    for row in rows:
        print(
            f"{row.name:22} {row.throughput:8.1f} {row.throughput / bare:7.2f} "
            f"{row.percentile(50):7.1f} {row.percentile(95):7.1f} {row.percentile(99):7.1f} "
            f"{row.error_count:6d}"
        )


def print_demand(
    tally: dict[str, Series], seconds: float, rows: list[Series], workers: int
) -> None:
    """What the evening asked of the workers, from each request's cost when measured alone.

    A worker's cost of one request is ``workers / capacity``; the evening's demand is the
    sum over requests of rate × cost, in worker-seconds per second: above ``workers``
    the requests queue, and latency grows with the queue whatever the code does.
    """
    cost = {row.name: workers / row.throughput for row in rows if row.throughput}
    cost["record again (409)"] = cost.get("record", 0.0)
    asked = {
        kind.name: len(kind.latencies) / seconds * cost[kind.name]
        for kind in tally.values()
        if kind.name in cost
    }
    parts = ", ".join(f"{name} {value:.2f}" for name, value in asked.items())
    total = sum(asked.values())
    print(
        f"demand: {total:.2f} worker-seconds per second of {workers} available "
        f"({total / workers:.0%}): {parts}"
    )


def print_evening(tally: dict[str, Series], seconds: float, tables: int) -> None:
    bare = tally["bare view"]
    b50, b95 = bare.percentile(50), bare.percentile(95)
    print(f"\n2. the evening: {tables} tables, {seconds:.0f} s; latency ratios to the bare "
          "view measured alongside")  # fmt: skip
    print(
        f"{'request':22} {'count':>6} {'req/s':>7} {'p50 ms':>7} {'p95 ms':>7} {'p99 ms':>7} "
        f"{'p50×bare':>8} {'p95×bare':>8}  errors"
    )
    for kind in tally.values():
        p50, p95 = kind.percentile(50), kind.percentile(95)
        errors = ", ".join(f"{k} ×{n}" for k, n in kind.errors.items()) or "0"
        print(
            f"{kind.name:22} {len(kind.latencies):6d} {len(kind.latencies) / seconds:7.1f} "
            f"{p50:7.1f} {p95:7.1f} {kind.percentile(99):7.1f} {p50 / b50:8.1f} "
            f"{p95 / b95:8.1f}  {errors}"
        )


def print_fault(faults: Any) -> None:
    """How a fault (bench/load.py ``--fault``) showed: requests failed, then recovery."""
    if faults.name is None:
        return
    after = [t - faults.struck_at for t in faults.failed_at if t >= faults.struck_at - 1]
    recovered = f"{max(after):.1f} s" if after else "at once"
    print(
        f"fault: {faults.what}; {len(faults.failed_at)} requests failed and said so "
        f"(an error status or a cut connection, never a false 200); the last failure "
        f"came {recovered} after the fault, then every table carried on"
    )


def workers_of(master: int) -> list[int]:
    """The gunicorn master's worker processes (Linux /proc)."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == master:
            found.append(int(stat.parent.name))
    return found


def usage(pids: list[int]) -> dict[int, tuple[float, int]]:
    """Each process's CPU seconds (user + system) and resident memory in KiB."""
    tick = os.sysconf("SC_CLK_TCK")
    seen = {}
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            status = Path(f"/proc/{pid}/status").read_text()
        except OSError:
            continue
        rss = next((int(line.split()[1]) for line in status.splitlines()
                    if line.startswith("VmRSS:")), 0)  # fmt: skip
        seen[pid] = ((int(fields[11]) + int(fields[12])) / tick, rss)
    return seen


def print_workers(
    before: dict[int, tuple[float, int]],
    after: dict[int, tuple[float, int]],
    seconds: float,
    tables: int,
    pace: str,
    deals: int = 0,
    deal_seconds: float = 3.0,
) -> float:
    """The workers' measured CPU in the evening, per table-hour, and their memory after;
    returns the worker-seconds per table-hour."""
    spent = sum(cpu - before.get(pid, (0.0, 0))[0] for pid, (cpu, _rss) in after.items())
    per_table_hour = spent / tables * 3600 / seconds
    rss = ", ".join(f"{kib / 1024:.0f}" for _cpu, kib in after.values())
    print(
        f"workers: {spent:.1f} CPU seconds in {seconds:.0f} s for {tables} tables = "
        f"{per_table_hour:.1f} worker-seconds per table-hour as the tables went; "
        f"{spent / seconds:.2f} cores busy on average; resident memory after the "
        f"evening, MiB: {rss}"
    )
    if deals < tables:
        print("per deal: too few deals acknowledged (fewer than the tables) to price one")
    else:
        # Tables that wait for slow answers record fewer deals than the pace asks: the
        # cost of a deal with its polls, times the pace's deals, is the table-hour then.
        per_deal = spent / deals
        per_table_hour = per_deal * 3600 / deal_seconds
        print(
            f"per deal (with the polls around it): {per_deal * 1000:.0f} worker-ms; at the "
            f"pace ({pace}) {per_table_hour:.1f} worker-seconds per table-hour"
        )
    return per_table_hour


def machine_busy() -> tuple[float, float]:
    """CPU seconds every core of the machine spent busy and in all, since boot (/proc/stat)."""
    fields = [int(x) for x in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    tick = os.sysconf("SC_CLK_TCK")
    idle = fields[3] + (fields[4] if len(fields) > 4 else 0)  # idle + iowait
    return (sum(fields) - idle) / tick, sum(fields) / tick


def postgres_pids(data: Path | None) -> list[int]:
    """The throwaway PostgreSQL's postmaster and its backends ([] with DATABASE_URL)."""
    try:
        master = int((data / "postmaster.pid").read_text().split()[0]) if data else 0
    except (OSError, ValueError, IndexError):
        return []
    return [master, *workers_of(master)] if master else []


@dataclass
class Split:
    """Who used the CPU in the evening: the workers, PostgreSQL, this load generator
    (every thread of it), and everything else the machine ran meanwhile."""

    workers: float
    postgres: float
    generator: float
    busy: float
    total: float

    @classmethod
    def now(cls, master: int, pg_data: Path | None) -> Split:
        own = os.times()
        busy, total = machine_busy()
        return cls(
            sum(cpu for cpu, _rss in usage(workers_of(master)).values()),
            sum(cpu for cpu, _rss in usage(postgres_pids(pg_data)).values()),
            own.user + own.system,
            busy,
            total,
        )


def print_split(before: Split, after: Split, seconds: float) -> None:
    """The evening's CPU by who used it, in cores (CPU seconds per second)."""
    cores = os.cpu_count() or 1
    workers = (after.workers - before.workers) / seconds
    postgres = (after.postgres - before.postgres) / seconds
    generator = (after.generator - before.generator) / seconds
    busy = (after.busy - before.busy) / seconds
    others = max(0.0, busy - workers - postgres - generator)
    print(
        f"CPU in the evening, cores: workers {workers:.2f}, PostgreSQL {postgres:.2f}, "
        f"load generator {generator:.2f}, the rest of the machine {others:.2f}; busy "
        f"{busy:.2f} of {cores} (idle {max(0.0, cores - busy):.2f})"
    )


def print_sizing(per_table_hour: float, workers: int) -> None:
    """What the measured cost means for a club's server: cores for N tables at once."""
    cores = ", ".join(f"{n:,} tables {n * per_table_hour / 3600:.1f}" for n in (50, 200, 500, 5000))
    print(
        f"sizing: cores of worker CPU at this pace (worker-seconds per table-hour × tables "
        f"/ 3600): {cores}; this run had {workers} workers on {os.cpu_count()} cores, "
        "shared with PostgreSQL and the load generator"
    )


def cache_stats(port: int, workers: int) -> dict[int, dict[str, Any]]:
    """Each worker's cache (entries, bytes, bound): see ``tally.each_worker``."""
    return each_worker(port, workers, CACHE_STATS)


def print_cache(stats: dict[int, dict[str, Any]], url: str, seconds_kept: str) -> None:
    if not stats:
        print("cache: no worker answered the cache probe")
        return
    shared = url.startswith(("db://", "redis://"))
    held = list(stats.values())[:1] if shared else stats.values()
    parts = ", ".join(f"{s['entries']} entries / {s['bytes'] / 2**20:.1f} MiB" for s in held)
    first = next(iter(stats.values()))
    if "evicted" in first:  # Redis: its own figures (INFO memory, INFO stats, DBSIZE)
        parts += (
            f" (used_memory; peak {first['peak_bytes'] / 2**20:.1f} MiB, "
            f"{first['evicted']} keys evicted)"
        )
    kind = " (one cache, shared)" if shared else " (each worker's own)"
    bound = first["max_entries"]
    bound = f"at most {bound} entries" if isinstance(bound, int) else f"bounded by {bound}"
    print(
        f"cache: {url}{kind}, {bound}, each kept "
        f"{seconds_kept} s at most; after the evening: {parts}"
    )


__all__ = [
    "cache_stats",
    "machine_load",
    "print_cache",
    "print_capacity",
    "print_demand",
    "print_evening",
    "print_fault",
    "print_sizing",
    "print_split",
    "Split",
    "print_workers",
    "usage",
    "workers_of",
]
