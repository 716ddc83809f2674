"""prefscore/cache.py: a worker's cache stays under its byte bound, least recently read first."""

from __future__ import annotations

import itertools

from prefscore.cache import BoundedLocMemCache

_names = itertools.count()


def cache(max_bytes: int, max_entries: int = 1000) -> BoundedLocMemCache:
    # A name of its own per test: LocMemCache shares entries between caches of one name.
    options = {"MAX_BYTES": max_bytes, "MAX_ENTRIES": max_entries}
    return BoundedLocMemCache(f"bound-test-{next(_names)}", {"OPTIONS": options})


def test_the_pickled_total_never_passes_the_bound_and_the_least_read_go_first() -> None:
    regions = cache(max_bytes=10_000)
    for number in range(40):
        regions.set(f"page-{number}", "x" * 1000)
        regions.get("page-0")  # one table's page read on every poll

        assert regions.total_bytes <= 10_000
    assert regions.get("page-0") is not None
    assert regions.get("page-39") is not None
    assert regions.get("page-10") is None
    assert regions.total_bytes == sum(regions._sizes.values())


def test_replacing_deleting_and_clearing_keep_the_count_exact() -> None:
    regions = cache(max_bytes=1_000_000)
    regions.set("a", "x" * 500)
    first = regions.total_bytes
    regions.set("a", "x" * 100)
    assert regions.total_bytes < first
    before_b = regions.total_bytes
    regions.set("b", "y" * 100)
    size_b = regions.total_bytes - before_b
    regions.delete("a")
    assert regions.total_bytes == size_b
    regions.clear()
    assert regions.total_bytes == 0 and regions.get("b") is None


def test_an_entry_larger_than_the_bound_is_kept_alone() -> None:
    regions = cache(max_bytes=100)
    regions.set("small", "s")
    regions.set("page", "x" * 1000)
    assert regions.get("page") == "x" * 1000
    assert regions.get("small") is None


def test_the_entry_count_still_bounds_it_and_the_sizes_follow_the_cull() -> None:
    regions = cache(max_bytes=1_000_000, max_entries=10)
    for number in range(25):
        regions.set(f"k{number}", number)

    assert len(regions._cache) <= 10
    assert set(regions._sizes) == set(regions._cache)
    assert regions.total_bytes == sum(regions._sizes.values())


def test_an_expired_entry_read_again_is_forgotten() -> None:
    regions = cache(max_bytes=1_000_000)
    regions.set("gone", "x" * 50, timeout=-1)
    assert regions.get("gone") is None
    assert regions.total_bytes == 0
