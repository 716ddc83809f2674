"""What a cache of ``presenters/bidi.isolate`` would save: a call, and a 100-deal sheet page.

    .venv/bin/python bench/bidi.py [--rounds 7] [--calls 20000] [--repeat 30]

``isolate`` wraps a name in the Unicode isolates unless it is left-to-right letters only
(docs/design.md, "Names, languages and taps": names are data); it reads the name's every
character's bidi class. An ``lru_cache`` could keep its answer per name (it did, until this bench showed
it saves about 1% of a fresh sheet: docs/benchmarks.md, "Names isolated: no cache").
This bench measures, in one run and alternating, ``isolate`` as it is and behind an
``lru_cache`` (warm, as in a worker that has seen the table):

1. one call, in ns, on names of a real club: Latin, Cyrillic, Arabic, Hebrew and a
   60-character one;
2. the 100-deal sheet page of bench/cpu.py, its players named in Cyrillic, Arabic and
   60 characters, through the whole middleware stack: as a phone asks it again (the
   version's regions kept), and fresh (every cache emptied first, untimed: every region
   rendered, every name isolated);
3. the calls a fresh page makes (the names it asked, noted once), timed alone: what
   the cache can save of item 2 at the most, free of the page's noise.

Ratios are of medians of CPU time in this process, measured in the same run.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import lru_cache
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import cpu  # noqa: E402  (bench/cpu.py: the same settings)

LONG = "Александра Константиновна Преображенская-Рождественская, Москва"[:60]
NAMES = {
    "Latin": "Anna",
    "Cyrillic": "Вера Павловна",
    "Arabic": "أحمد الفلاني",
    "Hebrew": "אברהם",
    "60 characters": LONG,
}
TABLE = ("Вера Павловна", "أحمد الفلاني", LONG)  # the page's players
DEALS = 100
USERS = ("protocol", "trail", "sheet", "entry")  # presenters that import ``isolate``


def calls_ns(isolate: Callable[[str], str], names: list[str]) -> float:
    """CPU ns of calling ``isolate`` on each of ``names``, copied first (as names loaded
    from the database are: new strings, their hash not yet kept)."""
    copies = [(name + ".")[:-1] for name in names]
    started = time.process_time()
    for name in copies:
        isolate(name)
    return (time.process_time() - started) * 1e9


@contextmanager
def isolating(inner: Callable[[str], str], asked: list[str] | None = None) -> Iterator[None]:
    """The presenters call ``inner`` for ``isolate`` (noting each name asked in
    ``asked``, if given: not while timing)."""
    import importlib

    def counting(name: str) -> str:
        asked.append(name)  # type: ignore[union-attr]
        return inner(name)

    modules = [importlib.import_module(f"prefscore.games.presenters.{m}") for m in USERS]
    kept = [module.isolate for module in modules]  # type: ignore[attr-defined]
    for module in modules:
        module.isolate = inner if asked is None else counting  # type: ignore[attr-defined]
    try:
        yield
    finally:
        for module, original in zip(modules, kept, strict=True):
            module.isolate = original  # type: ignore[attr-defined]


def sheet_page() -> tuple[Callable[[], Any], Callable[[], None]]:
    """A GET of the 100-deal sheet page, and what empties every cache before a fresh one."""
    from django.conf import settings
    from django.contrib.auth import get_user_model
    from django.core.cache import caches
    from django.test import Client
    from harness.deals import cycle_deal
    from harness.seed import running_pulka, signed_in_session

    from prefscore.clubs.models import Club, Membership, Player, Role

    user = get_user_model().objects.create_user("bidi", password=None)
    club = Club.objects.create(name="Bidi", slug="bidi")
    Membership.objects.create(club=club, user=user, role=Role.MEMBER)
    players = [Player.objects.create(club=club, name=name) for name in TABLE]
    pulka = running_pulka(club, players, DEALS, user, lambda n: cycle_deal(n, TABLE))
    client = Client()
    client.cookies[settings.SESSION_COOKIE_NAME] = signed_in_session(user)

    def forget() -> None:
        for cache in caches.all():
            cache.clear()

    return (lambda: client.get(f"/pulkas/{pulka.pk}/")), forget


def page_ms(get: Callable[[], Any], before: Callable[[], None] | None, repeat: int) -> float:
    spent = []
    for _ in range(repeat):
        if before is not None:
            before()
        started = time.process_time()
        response = get()
        spent.append(time.process_time() - started)
        if response.status_code != 200:
            raise SystemExit(f"the sheet page answered {response.status_code}")
    return statistics.median(spent) * 1000


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=7, help="alternations of A and B")
    parser.add_argument("--calls", type=int, default=20000, help="calls a name per round")
    parser.add_argument("--repeat", type=int, default=30, help="page requests per round")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="prefscore-bidi-") as folder:
        cpu.setup(folder)
        from django.utils import translation

        from prefscore.games.presenters import bidi

        translation.activate("ru")
        get, forget = sheet_page()
        plain = getattr(bidi.isolate, "__wrapped__", bidi.isolate)  # the code before too
        kinds = {"cached": lru_cache(maxsize=4096)(plain), "uncached": plain}
        asked: dict[str, list[str]] = {}
        for label, before in (("again", None), ("fresh", forget)):  # untimed; warms too
            get()
            asked[label] = []
            with isolating(plain, asked[label]):
                page_ms(get, before, 1)
        rows: dict[str, dict[str, list[float]]] = {}
        for _ in range(args.rounds):
            for kind, isolate in kinds.items():
                for script, name in NAMES.items():
                    isolate(name)  # the cache warm, as in a worker that has seen the table
                    ns = calls_ns(isolate, [name] * args.calls) / args.calls
                    rows.setdefault(f"one call, {script}, ns", {}).setdefault(kind, []).append(ns)
                own = statistics.median(
                    calls_ns(isolate, asked["fresh"]) / 1e6 for _ in range(args.repeat)
                )
                rows.setdefault("a fresh page's own calls, ms", {}).setdefault(kind, []).append(own)
                with isolating(isolate):
                    get()  # the version's regions kept again
                    again = page_ms(get, None, args.repeat)
                    fresh = page_ms(get, forget, args.repeat)
                rows.setdefault("sheet page again, CPU ms", {}).setdefault(kind, []).append(again)
                rows.setdefault("sheet page fresh, CPU ms", {}).setdefault(kind, []).append(fresh)
        one, five, _ = os.getloadavg()
        print(f"load average {one:.2f}, {five:.2f} on {os.cpu_count()} cores; "
              f"{args.rounds} alternating rounds, medians of the rounds' medians")  # fmt: skip
        print(f"calls of isolate a request: {len(asked['again'])} asked again, "
              f"{len(asked['fresh'])} fresh")  # fmt: skip
        print(f"{'measure':34} {'cached':>9} {'uncached':>9} {'cached/uncached':>16}")
        for label, figures in rows.items():
            a, b = statistics.median(figures["cached"]), statistics.median(figures["uncached"])
            print(f"{label:34} {a:9.2f} {b:9.2f} {a / b:16.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
