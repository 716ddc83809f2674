"""Whether ``recording._prime`` pays: CPU of a deal at a table, with and without it.

    .venv/bin/python bench/prime.py [--rounds 5] [--deals 8] [--start 10,60]

``recording._prime`` puts the new version's log (and what the screens read of it: the
sheet's state, the last deal, the pending proposals) into the cache as a record
makes it, so that the other phones' polls at the new version read no deal and fold
nothing. Without it the first request at the new version that needs the log (a phone's
poll, the next record) reads the deals and folds them again.

One deal at a table, as push makes it at a real table's pace: a phone records it (htmx),
then the three other phones, woken by the change signal, each ask the poll for the new
version's regions (200). The CPU time of those four requests is one deal's cost. Tables
start with ``--start`` deals (a fresh table and one late in the evening); each table
takes ``--deals`` deals in a row. The arms alternate, ``--rounds`` times, each on fresh
tables, in one process, with bench/cpu.py's settings (DEBUG off, each worker's own
local-memory cache, SQLite): the figure is the median CPU per deal, and its ratio
without to with.

At a real table's pace the deals are a minute or more apart instead of back to back;
nothing a deal leaves in the cache expires in that time (``CACHE_SECONDS``), so the cost
of a deal is the same, and an hour of play is 20 to 60 of them.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

PHONES = ("boris", "vera", "gleb")  # the phones that did not record the deal


_WORLD: dict[str, Any] = {}


def world_users() -> tuple[Any, list[Any], dict[str, Any], dict[str, str]]:
    """The club, its players and four members signed in (made once per process)."""
    if not _WORLD:
        from django.contrib.auth import get_user_model
        from harness.deals import NAMES
        from harness.seed import signed_in_session

        from prefscore.clubs.models import Club, Membership, Player, Role

        club = Club.objects.create(name="Prime", slug="prime")
        players = [Player.objects.create(club=club, name=name) for name in NAMES]
        users = {}
        for name in ("anna", *PHONES):
            users[name] = get_user_model().objects.create_user(name, password=None)
            Membership.objects.create(club=club, user=users[name], role=Role.MEMBER)
        sessions = {name: signed_in_session(user) for name, user in users.items()}
        _WORLD.update(club=club, players=players, users=users, sessions=sessions)
    return _WORLD["club"], _WORLD["players"], _WORLD["users"], _WORLD["sessions"]


def table(start: int) -> dict[str, Any]:
    """A table of ``start`` deals, its recorder's and three other phones' clients, each
    having loaded the sheet page (its poll ticket), as at a table in play."""
    from django.conf import settings
    from django.test import Client
    from harness.client import TICKET
    from harness.seed import running_pulka

    club, players, users, sessions = world_users()
    pulka = running_pulka(club, players, start, users["anna"])
    clients = {}
    tickets = {}
    for name, session in sessions.items():
        client = Client()
        client.cookies[settings.SESSION_COOKIE_NAME] = session
        found = TICKET.search(client.get(f"/pulkas/{pulka.pk}/").content)
        if found is None:
            raise SystemExit("the sheet page shows no poll ticket")
        clients[name], tickets[name] = client, found.group(1).decode()
    return {"pk": pulka.pk, "deals": start, "clients": clients, "tickets": tickets}


def one_deal(at: dict[str, Any]) -> float:
    """CPU seconds of one deal: its record, then the other phones' polls answering 200."""
    from harness.deals import cycle_form

    hx = {"HX-Request": "true"}
    pk, shown = at["pk"], at["deals"]
    started = time.process_time()
    answer = at["clients"]["anna"].post(f"/pulkas/{pk}/deals/", cycle_form(shown + 1), headers=hx)
    if answer.status_code != 200:
        raise SystemExit(f"the record answered {answer.status_code}")
    for name in PHONES:
        url = f"/pulkas/{pk}/poll/?v={shown}&t={at['tickets'][name]}"
        polled = at["clients"][name].get(url, headers=hx)
        if polled.status_code != 200:
            raise SystemExit(f"a poll answered {polled.status_code}")
    spent = time.process_time() - started
    at["deals"] = shown + 1
    return spent


def run_arm(prime: bool, start: int, deals: int) -> list[float]:
    from prefscore.games import recording

    original = recording._prime
    if not prime:
        recording._prime = lambda *args, **kwargs: None  # type: ignore[assignment]
    try:
        at = table(start)
        return [one_deal(at) for _ in range(deals)]
    finally:
        recording._prime = original  # type: ignore[assignment]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--deals", type=int, default=8)
    parser.add_argument("--start", default="10,60")
    args = parser.parse_args()
    from cpu import setup

    with tempfile.TemporaryDirectory() as folder:
        setup(folder)
        for start in (int(s) for s in args.start.split(",")):
            run_arm(True, start, 2)  # warm: imports, templates
            spent: dict[bool, list[float]] = {True: [], False: []}
            for k in range(args.rounds):
                for prime in (True, False) if k % 2 == 0 else (False, True):
                    spent[prime] += run_arm(prime, start, args.deals)
            with_, without = (statistics.median(spent[p]) * 1000 for p in (True, False))
            print(
                f"table of {start:3} deals: CPU per deal (record + 3 polls answering 200), "
                f"median of {len(spent[True])}: with _prime {with_:6.2f} ms, "
                f"without {without:6.2f} ms, without / with {without / with_:.2f}"
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
