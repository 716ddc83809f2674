"""bench/load.py's accounting: the workers' CPU and cache calls by kind of request
(bench/webapp/tally.py in each worker, merged and printed by bench/harness/tally.py),
and its throwaway Redis (bench/harness/redis.py)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.test import Client, override_settings

from bench.harness import redis as bench_redis
from bench.harness.tally import KindCost, merge, per_deal_ms, print_tally
from bench.webapp import tally

# --- merging the workers' answers -----------------------------------------------------


def answer(pid: int, **kinds: tuple[list[float], int, int, int]) -> dict[str, object]:
    """One worker's /bench/tally/ answer: per kind, its CPU ms and its gets, misses, sets."""
    return {
        "pid": pid,
        "kinds": {
            name.replace("_", " "): {"cpu_ms": cpu, "gets": gets, "misses": misses, "sets": sets}
            for name, (cpu, gets, misses, sets) in kinds.items()
        },
    }


def test_the_workers_tallies_add_up_per_kind_costliest_first() -> None:
    merged = merge(
        [
            answer(1, poll_304=([0.5] * 10, 0, 0, 0), record_200=([20.0, 30.0], 24, 14, 24)),
            answer(2, poll_304=([1.5] * 10, 0, 0, 0), poll_200=([10.0, 12.0, 2.0], 30, 6, 6)),
        ]
    )

    assert list(merged) == ["record 200", "poll 200", "poll 304"]
    record, poll, quiet = merged["record 200"], merged["poll 200"], merged["poll 304"]
    assert (record.count, record.total_ms, record.mean_ms) == (2, 50.0, 25.0)
    assert record.per_request(record.misses) == 7.0
    assert (poll.count, poll.per_request(poll.gets), poll.per_request(poll.sets)) == (3, 10, 2)
    assert quiet.count == 20 and quiet.mean_ms == 1.0
    assert per_deal_ms(merged, deals=2) == (50 + 24 + 20) / 2


def test_the_95th_percentile_is_of_the_merged_requests() -> None:
    kind = KindCost("poll 200", cpu_ms=[float(ms) for ms in range(100, 0, -1)])

    assert kind.percentile_ms(95) == 96.0
    assert kind.percentile_ms(50) == 51.0
    assert KindCost("none").percentile_ms(95) == 0.0
    assert KindCost("none").per_request(5) == 0.0


def test_the_table_prints_each_kind_and_the_cpu_outside_the_requests(capsys) -> None:
    merged = merge([answer(1, record_200=([20.0, 40.0], 24, 14, 24), poll_304=([1.0], 0, 0, 0))])

    # The workers' process CPU was 0.081 s: 61 ms in requests, 20 ms around them.
    print_tally(merged, deals=2, workers_cpu_seconds=0.081, reset=4, workers=4)

    out = capsys.readouterr().out
    record = next(line for line in out.splitlines() if line.startswith("record 200"))
    # count, per deal, mean, p95, gets/misses/sets per request, ms per deal, share
    assert record.split()[2:] == "2 1.00 30.00 40.00 12.00 7.00 12.00 30.0 98%".split()
    assert "per deal: 30.5 ms in requests, 10.0 ms outside them" in out
    assert "reset on 4 of 4 workers" in out


# --- the worker side: the middleware and the counted cache ----------------------------


@pytest.fixture
def counted() -> tally.CountedLocMem:
    return tally.CountedLocMem("tally-test", {"OPTIONS": {"MAX_BYTES": 1_000_000}})


def calls() -> tuple[int, int, int]:
    return tally.CALLS.gets, tally.CALLS.misses, tally.CALLS.sets


def test_the_counted_cache_counts_each_call_once(counted) -> None:
    tally.CALLS.gets = tally.CALLS.misses = tally.CALLS.sets = 0

    assert counted.get("a") is None
    assert counted.get("a", "absent") == "absent"
    counted.set("a", None)  # a cached None is a hit, not a miss
    assert counted.get("a", "absent") is None
    assert calls() == (3, 2, 1)
    # The base set_many calls set once a key: counted as the two sets it is, not four.
    counted.set_many({"b": 1, "c": 2})
    assert counted.get_many(["b", "c", "d"]) == {"b": 1, "c": 2}
    assert calls() == (6, 3, 3)
    assert tally.CALLS.depth == 0


BENCH_URLS = override_settings(
    ROOT_URLCONF="bench.webapp.urls",
    MIDDLEWARE=["bench.webapp.tally.CpuTallyMiddleware", *settings.MIDDLEWARE],
)


@BENCH_URLS
def test_each_request_is_tallied_by_view_and_status_and_the_probe_is_not() -> None:
    tally.reset()
    browser = Client()

    browser.get("/bench/bare/")
    browser.get("/bench/bare/")
    browser.get("/no-such-page/")
    found = json.loads(browser.get("/bench/tally/?reset=1").content)

    kinds = found["kinds"]
    assert set(kinds) == {"bare 200", "unresolved 404"}
    assert len(kinds["bare 200"]["cpu_ms"]) == 2
    assert all(ms >= 0 for ms in kinds["bare 200"]["cpu_ms"])
    assert json.loads(browser.get("/bench/tally/").content)["kinds"] == {}


def test_the_bench_settings_tally_only_when_asked(monkeypatch) -> None:
    """BENCH_TALLY (bench/load.py) installs the middleware and the counted backend."""
    source = (Path(__file__).parents[1] / "bench/webapp/settings.py").read_text(encoding="utf-8")
    namespace: dict[str, Any] = {}
    monkeypatch.setenv("BENCH_TALLY", "1")
    exec(compile(source, "settings.py", "exec"), namespace)

    assert namespace["MIDDLEWARE"][0] == "bench.webapp.tally.CpuTallyMiddleware"
    assert namespace["CACHES"]["default"]["BACKEND"] in namespace["COUNTED"].values()


# --- the throwaway Redis ---------------------------------------------------------------


def test_a_machine_without_redis_server_is_told_what_to_install(monkeypatch, tmp_path) -> None:
    monkeypatch.setattr(bench_redis.shutil, "which", lambda name: None)

    with pytest.raises(
        SystemExit, match=r"^redis-server is not on this machine: apt-get install redis-server$"
    ):
        with bench_redis.throwaway_redis(tmp_path):
            pass


def test_redis_listens_on_loopback_only_and_keeps_nothing_on_disk(tmp_path) -> None:
    command = bench_redis.redis_command("redis-server", 6399, tmp_path)
    options = dict(zip(command[1::2], command[2::2], strict=True))

    assert options["--bind"] == "127.0.0.1"
    assert options["--save"] == "" and options["--appendonly"] == "no"
    assert options["--maxmemory-policy"] == "allkeys-lru"
    assert options["--dir"] == str(tmp_path)


@pytest.mark.skipif(shutil.which("redis-server") is None, reason="needs redis-server")
def test_the_throwaway_redis_answers_while_the_block_runs_then_stops(tmp_path) -> None:
    with bench_redis.throwaway_redis(tmp_path) as url:
        port = int(url.rsplit(":", 1)[1].split("/")[0])
        assert url.startswith("redis://127.0.0.1:")
        assert bench_redis.ping(port)
    assert not bench_redis.ping(port)
