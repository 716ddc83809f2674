"""The sheet page against a Django view with no middleware, and the private reads against
the plain ORM: side by side, in one run, in this process.

    .venv/bin/python bench/sheet_page.py [--rounds 8] [--slice 0.5] [--deals 25]

The data of bench/cpu.py (its settings: DEBUG off, the cached template loader, each
worker's local-memory cache; a temporary SQLite database), with a member signed in and
a pulka of ``--deals`` deals (25: an evening's pulka half played). Every scenario is
requested once to warm it, then the scenarios take turns, ``--rounds`` times, each for
``--slice`` seconds of wall time; each turn counts its requests per second, and each
round's ratio is taken within the round, so that the machine's other work weighs on
both sides alike. Every answer's status is checked (the sheet page: 200).

1. **The sheet page × a bare view** (docs/benchmarks.md, "The sheet page"): the sheet
   page through the whole middleware stack against a view that returns "ok" through
   none (a handler made with ``MIDDLEWARE = []``). Goal: at least 0.1.
2. **The private reads × the plain ORM**: prefscore reads three things on most requests
   in plain SQL made once from the models' metadata, its rows turned into instances
   with ``Model.from_db`` (``games/sheet_read.py``: the pulka, its club, links, seats
   and the viewer's role; ``web/auth.py``: the signed-in user; ``web/sessions.py``: the
   session). Each is swapped here for the plain ORM (``select_related``,
   ``prefetch_related``, Django's own backend and session store), alone and all three
   at once, on the sheet page (its regions in the cache, as every load after the
   version's first) and on the poll (304 and 200, what every phone asks every 2 s and
   after each deal). At a real table's pace (docs/benchmarks.md's sizing: four phones,
   a poll every 2 s, a deal a minute or two) the difference is turned into CPU
   milliseconds per table-hour.
"""

from __future__ import annotations

import argparse
import contextlib
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

GOAL = 0.1
# A real table's hour (docs/benchmarks.md, "Sizing"): four phones each poll every 2 s;
# 30 deals, each answered by a poll answering 200 on the three other phones; a sheet
# page opened by each phone a few times (a reload, a phone woken up).
REAL_HOUR = {"poll304": 4 * 1800, "poll200": 30 * 3, "sheet": 4 * 3}


def world(deals: int) -> dict[str, Any]:
    from django.contrib.auth import get_user_model
    from harness.deals import NAMES
    from harness.seed import running_pulka, signed_in_session

    from prefscore.clubs.models import Club, Membership, Player, Role

    user = get_user_model().objects.create_user("sheet", password=None)
    club = Club.objects.create(name="Bench", slug="sheet")
    Membership.objects.create(club=club, user=user, role=Role.MEMBER)
    players = [Player.objects.create(club=club, name=name) for name in NAMES]
    pulka = running_pulka(club, players, deals, user)
    return {"pulka": pulka.pk, "deals": deals, "session": signed_in_session(user)}


# --- the plain ORM, in place of each private read -------------------------------------

CALLS = [0]  # how many times a swapped read ran: a request that makes none is not timed


def orm_read_sheet(user_id: Any, pk: int) -> tuple[Any, tuple[Any, ...], str | None] | None:
    """``sheet_read.read_sheet`` through the ORM: the pulka with its club, links and the
    viewer's role (one query), its seats with their players (a second)."""
    from django.db.models import OuterRef, Prefetch, Subquery

    from prefscore.clubs.models import Membership
    from prefscore.games.models import Pulka, PulkaSeat

    CALLS[0] += 1
    role = Membership.objects.filter(club_id=OuterRef("club_id"), user_id=user_id)
    seats = PulkaSeat.objects.select_related("player").order_by("seat")
    rows = (
        Pulka.objects.select_related("club", "links")
        .annotate(viewer_role=Subquery(role.order_by("pk").values("role")[:1]))
        .prefetch_related(Prefetch("seats", queryset=seats))
    )
    pulka = rows.filter(pk=pk).first()
    if pulka is None:
        return None
    return pulka, tuple(pulka.seats.all()), pulka.viewer_role


def orm_get_user(backend: Any, user_id: Any) -> Any:
    """``PlainUserRead.get_user`` as Django's ``ModelBackend`` has it."""
    from django.contrib.auth.backends import ModelBackend

    CALLS[0] += 1
    return ModelBackend.get_user(backend, user_id)


def orm_session(store: Any) -> Any:
    """The session's read as Django's database store has it."""
    from django.contrib.sessions.backends import db

    CALLS[0] += 1
    return db.SessionStore._get_session_from_db(store)


@contextlib.contextmanager
def swapped(parts: frozenset[str]) -> Iterator[None]:
    """The named private reads replaced by the ORM's for the block."""
    from prefscore.games import access
    from prefscore.web import auth, sessions

    saved = (
        access.read_sheet,
        auth.PlainUserRead.get_user,
        sessions.SessionStore._get_session_from_db,
    )
    try:
        if "sheet" in parts:
            access.read_sheet = orm_read_sheet  # type: ignore[assignment]
        if "user" in parts:
            auth.PlainUserRead.get_user = orm_get_user  # type: ignore[method-assign]
        if "session" in parts:
            sessions.SessionStore._get_session_from_db = orm_session  # type: ignore[method-assign]
        yield
    finally:
        access.read_sheet = saved[0]
        auth.PlainUserRead.get_user = saved[1]  # type: ignore[method-assign]
        sessions.SessionStore._get_session_from_db = saved[2]  # type: ignore[method-assign]


ARMS = {
    "private": frozenset(),
    "ORM: sheet read": frozenset({"sheet"}),
    "ORM: user read": frozenset({"user"}),
    "ORM: session read": frozenset({"session"}),
    "ORM: all three": frozenset({"sheet", "user", "session"}),
}


# --- the requests ---------------------------------------------------------------------


def requests(data: dict[str, Any]) -> dict[str, tuple[Callable[[], Any], int]]:
    from django.conf import settings
    from django.test import Client, override_settings
    from harness.client import TICKET

    pk = data["pulka"]
    member = Client()
    member.cookies[settings.SESSION_COOKIE_NAME] = data["session"]
    page = member.get(f"/pulkas/{pk}/")
    if page.status_code != 200:
        raise SystemExit(f"the sheet page answered {page.status_code}")
    found = TICKET.search(page.content)
    if found is None:
        raise SystemExit("the sheet page shows no poll ticket")
    ticket = found.group(1).decode()
    bare = Client()
    with override_settings(MIDDLEWARE=[]):  # the handler loads its middleware once
        if bare.get("/bench/bare/").status_code != 200:
            raise SystemExit("the bare view did not answer 200")
    hx = {"HX-Request": "true"}
    version = data["deals"]
    return {
        "bare": (lambda: bare.get("/bench/bare/"), 200),
        "sheet": (lambda: member.get(f"/pulkas/{pk}/"), 200),
        "poll304": (
            lambda: member.get(f"/pulkas/{pk}/poll/?v={version}&t={ticket}", headers=hx),
            304,
        ),
        "poll200": (
            lambda: member.get(f"/pulkas/{pk}/poll/?v={version - 1}&t={ticket}", headers=hx),
            200,
        ),
    }


def turn(call: Callable[[], Any], expected: int, seconds: float) -> tuple[float, float]:
    """Requests per second over ``seconds`` of wall time, and CPU ms per request."""
    count = 0
    cpu, began = time.process_time(), time.perf_counter()
    while True:
        response = call()
        if response.status_code != expected:
            raise SystemExit(f"HTTP {response.status_code}, expected {expected}")
        count += 1
        elapsed = time.perf_counter() - began
        if elapsed >= seconds:
            return count / elapsed, (time.process_time() - cpu) / count * 1000


def queries(call: Callable[[], Any]) -> int:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as captured:
        call()
    return len(captured.captured_queries)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=8)
    parser.add_argument("--slice", type=float, default=0.5, help="seconds per turn")
    parser.add_argument("--deals", type=int, default=25)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        from cpu import setup

        setup(folder)
        data = world(args.deals)
        calls = requests(data)
        run(calls, args.rounds, args.slice, args.deals)


def run(
    calls: dict[str, tuple[Callable[[], Any], int]], rounds: int, seconds: float, deals: int
) -> None:
    import os

    print(f"load average before: {os.getloadavg()[0]:.1f}")
    turns = [("bare", "private")] + [
        (scenario, arm) for scenario in ("sheet", "poll304", "poll200") for arm in ARMS
    ]
    for scenario, arm in turns:  # warm each, and count its queries
        with swapped(ARMS[arm]):
            calls[scenario][0]()
    untouched = set()
    for scenario, arm in turns:
        CALLS[0] = 0
        with swapped(ARMS[arm]):
            made = queries(calls[scenario][0])
        if ARMS[arm] and not CALLS[0]:  # the request makes none of these reads
            untouched.add((scenario, arm))
        print(f"  {scenario:8} {arm:18} {made} queries{' (none of its reads)' * (not CALLS[0])}")
    turns = [t for t in turns if t not in untouched]
    rps: dict[tuple[str, str], list[float]] = {t: [] for t in turns}
    cpu: dict[tuple[str, str], list[float]] = {t: [] for t in turns}
    ratio: list[float] = []
    for number in range(rounds):
        order = turns[number % len(turns) :] + turns[: number % len(turns)]
        found: dict[tuple[str, str], float] = {}
        for scenario, arm in order:
            call, expected = calls[scenario]
            with swapped(ARMS[arm]):
                per_second, ms = turn(call, expected, seconds)
            found[scenario, arm] = per_second
            rps[scenario, arm].append(per_second)
            cpu[scenario, arm].append(ms)
        ratio.append(found["sheet", "private"] / found["bare", "private"])
    print(f"load average after: {os.getloadavg()[0]:.1f}")
    bare = statistics.median(rps["bare", "private"])
    sheet = statistics.median(rps["sheet", "private"])
    print(
        f"\nsheet page, {deals} deals: {sheet:,.0f} req/s; bare view, no middleware: "
        f"{bare:,.0f} req/s; ratio per round {', '.join(f'{r:.3f}' for r in ratio)}; "
        f"median {statistics.median(ratio):.3f} (goal ≥ {GOAL})"
    )
    print("\nprivate reads × the ORM: median req/s, CPU ms per request, ORM / private CPU")
    extra: dict[str, float] = {arm: 0.0 for arm in ARMS}
    for scenario in ("sheet", "poll304", "poll200"):
        own = statistics.median(cpu[scenario, "private"])
        for arm in ARMS:
            if (scenario, arm) in untouched:
                continue
            ms = statistics.median(cpu[scenario, arm])
            extra[arm] += (ms - own) * REAL_HOUR[scenario]
            print(
                f"  {scenario:8} {arm:18} {statistics.median(rps[scenario, arm]):8,.0f} req/s"
                f"  {ms:6.2f} ms  {ms / own:5.2f}×"
            )
    print(
        "\nat a real table's pace (per table-hour: "
        + ", ".join(f"{n} {s}" for s, n in REAL_HOUR.items())
        + "):"
    )
    for arm in ARMS:
        if arm != "private":
            print(f"  {arm:18} {extra[arm] / 1000:+.2f} CPU seconds against the private reads")


if __name__ == "__main__":
    main()
