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


# --- a request's writes in one round trip (SharedRedisCache.deferred_writes) -----------


class _FakeRedis:
    """RedisCache's own reads and writes, recorded: no server needed."""

    def __init__(self) -> None:
        self.stored: dict[str, object] = {}
        self.calls: list[str] = []


def _faked(monkeypatch: pytest.MonkeyPatch) -> tuple[SharedRedisCache, _FakeRedis]:
    from django.core.cache.backends.redis import RedisCache

    fake = _FakeRedis()

    def set_one(self, key, value, timeout=None, version=None):  # noqa: ANN001
        fake.calls.append(f"set {key}")
        fake.stored[key] = value

    def set_many(self, data, timeout=None, version=None):  # noqa: ANN001
        fake.calls.append(f"set_many {sorted(data)}")
        fake.stored.update(data)
        return []

    def get(self, key, default=None, version=None):  # noqa: ANN001
        fake.calls.append(f"get {key}")
        return fake.stored.get(key, default)

    def get_many(self, keys, version=None):  # noqa: ANN001
        fake.calls.append(f"get_many {sorted(keys)}")
        return {k: fake.stored[k] for k in keys if k in fake.stored}

    def delete(self, key, version=None):  # noqa: ANN001
        fake.calls.append(f"delete {key}")
        return fake.stored.pop(key, None) is not None

    for name, method in [("set", set_one), ("set_many", set_many), ("get", get),
                         ("get_many", get_many), ("delete", delete)]:  # fmt: skip
        monkeypatch.setattr(RedisCache, name, method)
    return _backend("redis://127.0.0.1:1/0"), fake


def test_writes_in_a_block_go_together_at_its_end_and_are_read_inside(monkeypatch):
    cache, fake = _faked(monkeypatch)
    with cache.deferred_writes():
        cache.set("a", "<svg/>")
        cache.set_many({"b": 2, "c": 3})
        assert fake.calls == []  # nothing sent yet
        assert cache.get("a") == "<svg/>"
        assert cache.get_many(["a", "b", "z"]) == {"a": "<svg/>", "b": 2}
        assert cache.has_key("c")
        assert not cache.add("c", 4)
    assert fake.calls == ["get_many ['z']", "set_many ['a', 'b', 'c']"]
    assert fake.stored == {"a": "<svg/>", "b": 2, "c": 3}


def test_outside_a_block_every_write_goes_at_once(monkeypatch):
    cache, fake = _faked(monkeypatch)
    cache.set("a", 1)
    assert fake.calls == ["set a"]


def test_what_a_failed_block_kept_is_still_sent(monkeypatch):
    cache, fake = _faked(monkeypatch)
    with pytest.raises(RuntimeError), cache.deferred_writes():
        cache.set("a", 1)
        raise RuntimeError
    assert fake.stored == {"a": 1}


def test_a_block_inside_another_sends_nothing_of_its_own(monkeypatch):
    cache, fake = _faked(monkeypatch)
    with cache.deferred_writes():
        with cache.deferred_writes():
            cache.set("a", 1)
        assert fake.calls == []
    assert fake.calls == ["set_many ['a']"]


def test_each_thread_keeps_its_own_writes(monkeypatch):
    import threading

    cache, fake = _faked(monkeypatch)
    seen: list[object] = []
    with cache.deferred_writes():
        cache.set("a", 1)
        other = threading.Thread(target=lambda: seen.append(cache.get("a")))
        other.start()
        other.join()
    assert seen == [None]  # the other thread asked Redis, where nothing was yet


def test_a_request_writes_once_and_its_answer_follows(monkeypatch, rf):
    from django.http import HttpResponse

    from prefscore.cache import DeferredCacheWritesMiddleware

    cache, fake = _faked(monkeypatch)
    monkeypatch.setattr("prefscore.cache.caches", {"default": cache})

    def view(request):  # noqa: ANN001
        cache.set("a", 1)
        cache.set("b", 2)
        return HttpResponse("ok")

    response = DeferredCacheWritesMiddleware(view)(rf.get("/"))

    assert response.content == b"ok"
    assert fake.calls == ["set_many ['a', 'b']"]


def test_deferred_writes_reach_a_real_server(redis_url: str) -> None:
    cache = _backend(redis_url)
    with cache.deferred_writes():
        cache.set("prefscore.test.late", {"sheet": "<svg/>"})
        cache.set("prefscore.test.short", "x", timeout=60)
        assert cache.get("prefscore.test.late") == {"sheet": "<svg/>"}
    other = _backend(redis_url)  # another worker
    assert other.get("prefscore.test.late") == {"sheet": "<svg/>"}
    assert other.get("prefscore.test.short") == "x"
    ttl = other._cache.get_client().ttl(other.make_key("prefscore.test.short"))
    assert 0 < ttl <= 60


# --- reads ahead in one round trip (SharedRedisCache.prefetch) --------------------------


def test_what_a_block_read_ahead_is_read_again_with_no_round_trip(monkeypatch):
    cache, fake = _faked(monkeypatch)
    fake.stored.update({"a": 1, "b": 2})
    with cache.deferred_writes():
        cache.prefetch(["a", "b", "z"])
        assert fake.calls == ["get_many ['a', 'b', 'z']"]
        assert (cache.get("a"), cache.get("b"), cache.get("z", "none")) == (1, 2, "none")
        assert cache.get_many(["a", "z"]) == {"a": 1}
        assert fake.calls == ["get_many ['a', 'b', 'z']"]  # nothing more asked of Redis
        cache.prefetch(["a", "c"])  # only what the block has not read yet
        assert fake.calls[-1] == "get_many ['c']"


def test_a_key_written_in_the_block_is_not_read_ahead_and_its_write_wins(monkeypatch):
    cache, fake = _faked(monkeypatch)
    fake.stored["a"] = "old"
    with cache.deferred_writes():
        cache.set("a", "new")
        cache.prefetch(["a"])
        assert fake.calls == []
        assert cache.get("a") == "new"
        cache.prefetch(["b"])
        cache.set("b", "made here")  # read ahead as missing, then made by this request
        assert cache.get("b") == "made here"


def test_a_key_deleted_in_the_block_is_asked_again(monkeypatch):
    cache, fake = _faked(monkeypatch)
    fake.stored["a"] = 1
    with cache.deferred_writes():
        cache.prefetch(["a"])
        cache.delete("a")
        assert cache.get("a") is None
    assert fake.calls[-2:] == ["delete a", "get a"]


def test_outside_a_block_nothing_is_read_ahead_or_kept(monkeypatch):
    cache, fake = _faked(monkeypatch)
    fake.stored["a"] = 1
    cache.prefetch(["a"])
    assert fake.calls == []
    with cache.deferred_writes():
        cache.prefetch(["a"])
    assert cache.get("a") == 1  # the block's reads went with it
    assert fake.calls == ["get_many ['a']", "get a"]


def test_reads_ahead_come_from_a_real_server(redis_url: str) -> None:
    cache = _backend(redis_url)
    cache.set("prefscore.test.ahead", {"sheet": "<svg/>"})
    with cache.deferred_writes():
        cache.prefetch(["prefscore.test.ahead", "prefscore.test.none"])
        assert cache.get("prefscore.test.ahead") == {"sheet": "<svg/>"}
        assert cache.get("prefscore.test.none") is None
