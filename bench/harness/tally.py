"""Where the workers' CPU went in bench/load.py's evening, by kind of request.

Each worker keeps its own tallies (bench/webapp/tally.py: each request's thread CPU
and cache calls, by view and status) and answers them at /bench/tally/. This module
asks every worker, merges their answers and prints, per kind: how many, the mean and
95th percentile CPU, the cache's gets, misses and sets per request, and what the kind
costs per deal recorded; and, below, the workers' CPU the middleware did not see
(gunicorn's own work around each request).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from .client import ERRORS, Client

TALLY = "/bench/tally/"  # bench/webapp/urls.py: one worker's tallies, and its pid


@dataclass
class KindCost:
    """Every worker's requests of one kind, merged."""

    name: str
    cpu_ms: list[float] = field(default_factory=list)
    gets: int = 0
    misses: int = 0
    sets: int = 0

    @property
    def count(self) -> int:
        return len(self.cpu_ms)

    @property
    def total_ms(self) -> float:
        return sum(self.cpu_ms)

    @property
    def mean_ms(self) -> float:
        return self.total_ms / self.count if self.count else 0.0

    def percentile_ms(self, p: float) -> float:
        if not self.cpu_ms:
            return 0.0
        ordered = sorted(self.cpu_ms)
        return ordered[min(len(ordered) - 1, int(p / 100 * len(ordered)))]

    def per_request(self, calls: int) -> float:
        return calls / self.count if self.count else 0.0


def each_worker(port: int, workers: int, path: str) -> dict[int, dict[str, Any]]:
    """``path``'s JSON answer from each worker, asked on new connections until every
    worker has answered once (sync workers take connections in turn), or 20 tries each.
    The answer names its worker (``pid``)."""
    seen: dict[int, dict[str, Any]] = {}
    for _ in range(20 * workers):
        if len(seen) >= workers:
            break
        try:
            answer = Client(port).request("GET", path)
        except ERRORS:
            continue
        if answer.status == 200:
            found = json.loads(answer.body)
            seen[int(found["pid"])] = found
    return seen


def reset_tallies(port: int, workers: int) -> int:
    """Start every worker's tallies anew (after the capacity phase); how many answered."""
    return len(each_worker(port, workers, TALLY + "?reset=1"))


def read_tallies(port: int, workers: int) -> dict[str, KindCost]:
    return merge(each_worker(port, workers, TALLY).values())


def merge(answers: Iterable[Mapping[str, Any]]) -> dict[str, KindCost]:
    """The workers' tallies of each kind added up, the costliest kind in all first."""
    merged: dict[str, KindCost] = {}
    for answer in answers:
        for name, kind in answer["kinds"].items():
            into = merged.setdefault(name, KindCost(name))
            into.cpu_ms += kind["cpu_ms"]
            into.gets += kind["gets"]
            into.misses += kind["misses"]
            into.sets += kind["sets"]
    return dict(sorted(merged.items(), key=lambda item: -item[1].total_ms))


def per_deal_ms(kinds: Mapping[str, KindCost], deals: int) -> float:
    """The CPU the middleware measured, all kinds together, per deal recorded."""
    return sum(kind.total_ms for kind in kinds.values()) / deals if deals else float("nan")


def print_tally(
    kinds: Mapping[str, KindCost], deals: int, workers_cpu_seconds: float, reset: int, workers: int
) -> None:
    """The per-kind table; ``workers_cpu_seconds`` is the workers' process CPU meanwhile,
    ``reset`` how many of the ``workers`` started their tallies anew before the evening."""
    if not kinds:
        print("CPU by kind: no worker answered the tally probe")
        return
    print(
        f"\nCPU by kind of request in the evening: thread CPU inside Django's middleware, "
        f"{deals} deals; tallies reset on {reset} of {workers} workers after the capacity phase"
    )
    print(
        f"{'kind':22} {'count':>6} {'/deal':>6} {'mean ms':>8} {'p95 ms':>7} "
        f"{'gets/req':>8} {'miss/req':>8} {'sets/req':>8} {'ms/deal':>8} {'share':>6}"
    )
    measured = sum(kind.total_ms for kind in kinds.values())
    for kind in kinds.values():
        print(
            f"{kind.name:22} {kind.count:6d} {kind.count / max(deals, 1):6.2f} "
            f"{kind.mean_ms:8.2f} {kind.percentile_ms(95):7.2f} "
            f"{kind.per_request(kind.gets):8.2f} {kind.per_request(kind.misses):8.2f} "
            f"{kind.per_request(kind.sets):8.2f} {kind.total_ms / max(deals, 1):8.1f} "
            f"{kind.total_ms / measured if measured else 0:6.0%}"
        )
    outside = workers_cpu_seconds * 1000 - measured
    print(
        f"per deal: {per_deal_ms(kinds, deals):.1f} ms in requests, {outside / max(deals, 1):.1f} "
        f"ms outside them (gunicorn, the middleware's callers; the workers' process CPU "
        f"{workers_cpu_seconds:.1f} s less the requests' {measured / 1000:.1f} s)"
    )
