"""The shared Redis backend keeps one client per connection pool (prefscore/cache.py).

Django's own client builds a ``redis.Redis`` (and its table of response callbacks) for
every cache call; ours makes it once. These tests need no Redis server: making a client
connects to nothing, and the round trip is checked against a server only where one can
be started (bench/harness/redis.py does it for bench/load.py).
"""

from __future__ import annotations

import shutil
import socket
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from prefscore.cache import SharedRedisCache
from prefscore.settings import cache_config


def _backend(url: str) -> SharedRedisCache:
    config = cache_config({"CACHE_URL": url})
    assert config["BACKEND"] == "prefscore.cache.SharedRedisCache"
    return SharedRedisCache(config["LOCATION"], {"TIMEOUT": config["TIMEOUT"]})


def test_every_call_gets_the_same_client_of_its_pool() -> None:
    cache = _backend("redis://127.0.0.1:1/0")
    client = cache._cache.get_client("a", write=True)
    assert cache._cache.get_client("b", write=False) is client
    assert cache._cache.get_client("c", write=True) is client
    assert len(cache._cache._pools) == 1


def test_a_replica_has_a_client_of_its_own() -> None:
    cache = _backend("redis://127.0.0.1:1/0,redis://127.0.0.1:2/0")
    writer = cache._cache.get_client(write=True)
    reader = cache._cache.get_client(write=False)  # the only replica, index 1
    assert reader is not writer
    assert cache._cache.get_client(write=False) is reader
    assert writer.connection_pool.connection_kwargs["port"] == 1
    assert reader.connection_pool.connection_kwargs["port"] == 2


@pytest.fixture
def redis_url(tmp_path: Path) -> Iterator[str]:
    server = shutil.which("redis-server")
    if server is None:
        pytest.skip("redis-server is not on this machine")
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    process = subprocess.Popen(
        [server, "--port", str(port), "--bind", "127.0.0.1", "--save", "",
         "--appendonly", "no", "--dir", str(tmp_path)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )  # fmt: skip
    try:
        for _ in range(100):
            with socket.socket() as attempt:
                if attempt.connect_ex(("127.0.0.1", port)) == 0:
                    break
            time.sleep(0.05)
        yield f"redis://127.0.0.1:{port}/0"
    finally:
        process.terminate()
        process.wait(10)


def test_values_go_through_a_real_server(redis_url: str) -> None:
    cache = _backend(redis_url)
    cache.set("prefscore.test.one", {"sheet": "<svg/>"})
    cache.set_many({"prefscore.test.two": 2, "prefscore.test.three": "три"})
    assert cache.get("prefscore.test.one") == {"sheet": "<svg/>"}
    assert cache.get_many(["prefscore.test.two", "prefscore.test.three", "missing"]) == {
        "prefscore.test.two": 2,
        "prefscore.test.three": "три",
    }
    assert cache.get("missing") is None
