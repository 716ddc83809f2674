"""CPU time of one fresh render of the table screen's drawn sheet and status line.

    .venv/bin/python bench/sheet_render.py [--repeat 200] [--profile DEALS] [--top 30]
                                          [--database-url URL]

The sheet region (``games/sheet.html#sheet``: the SVG, the hidden table, the balance
chart) and the status line are what the first request of a new version (the record's
own answer) renders from scratch. This bench builds the table context of a 10-deal and
a 100-deal pulka (three players, bench/harness's cycle of deals) once, then renders the
two partials ``--repeat`` times with a cache that keeps nothing (so every
``{% cache %}`` renders), and prints the median CPU milliseconds of the presenters
(the paper, the drawing, the rows, the balance) and of the templates apart, against
rendering a one-line template in the same run. ``--profile 100`` prints cProfile's table
of the 100-deal render.
"""

from __future__ import annotations

import argparse
import importlib
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import cpu  # noqa: E402  (bench/cpu.py: the same settings and data)


def contexts(sizes: tuple[int, ...]) -> dict[int, tuple[Any, dict[str, Any], Any]]:
    """A request and the table context of a pulka of each size, scored once."""
    from django.contrib.auth import get_user_model
    from django.contrib.sessions.backends.base import SessionBase as SessionStore
    from django.test import RequestFactory
    from harness.deals import NAMES
    from harness.seed import running_pulka

    from prefscore.clubs.models import Club, Membership, Player, Role
    from prefscore.games.presenters.table import table_context

    user = get_user_model().objects.create_user("render", password=None)
    club = Club.objects.create(name="Render", slug="render")
    Membership.objects.create(club=club, user=user, role=Role.MEMBER)
    players = [Player.objects.create(club=club, name=name) for name in NAMES]
    found = {}
    for size in sizes:
        pulka = running_pulka(club, players, size, user)
        request = RequestFactory().get(f"/pulkas/{pulka.pk}/")
        request.user = user
        request.session = SessionStore()
        found[size] = (request, table_context(request, pulka), pulka)
    return found


Part = Callable[[], Any] | tuple[Callable[[], Any], Callable[[], Any]]


def timed(part: Part, repeat: int) -> float:
    """Median CPU milliseconds of a call, or of ``(before, call)``'s call after ``before``."""
    before, call = part if isinstance(part, tuple) else (None, part)
    spent = []
    for _ in range(repeat):
        if before is not None:
            before()
        started = time.process_time()
        call()
        spent.append(time.process_time() - started)
    return statistics.median(spent) * 1000


def parts(request: Any, context: dict[str, Any], pulka: Any) -> dict[str, Part]:
    """Each piece of a fresh render: the presenters apart, the templates apart (from
    view models made once), then the two partials whole, their ``{% cache %}`` missed:
    in a worker that has kept nothing, in one that rendered the version before (the
    record's own answer at a table whose phones poll), and the same version again."""
    from itertools import count

    from django.template.loader import get_template

    from prefscore.games import recording, services
    from prefscore.games.presenters import numbers
    from prefscore.games.presenters import sheet as presenter
    from prefscore.games.presenters.manual import manual_notes
    from prefscore.games.presenters.regions import balance_of
    from prefscore.games.presenters.sheet import draw_sheet, paper_of

    # The same bench runs on the code before the sheet's figures were kept (``rows``).
    table_key, sheet_table = (
        ("sheet_figures", presenter.sheet_table)
        if hasattr(presenter, "sheet_table")
        else ("rows", presenter.sheet_rows)  # type: ignore[attr-defined]
    )
    remembered = getattr(numbers, "_signed_in", None)

    def balance_cold() -> Any:
        if remembered is not None:
            remembered.cache_clear()  # no figure formatted before, as in a new process
        return balance_of(scored)

    scored = recording.log_of(pulka).scored
    deals = services.load_deals(pulka)
    previous = services.score(pulka, deals[:-1], [])
    paper = paper_of(scored)
    try:  # the sheet's pieces kept by their content (not in the code before them)
        kept: Any = importlib.import_module("prefscore.games.fragments").store
    except ImportError:
        kept = None

    forget_fits = getattr(presenter, "forget_fits", None)

    def forget() -> None:  # a worker that has rendered nothing yet
        if kept is not None:
            kept.clear()
        if remembered is not None:
            remembered.cache_clear()
        if forget_fits is not None:
            forget_fits()

    made = {
        **context,
        "drawn": draw_sheet(scored, paper),
        table_key: sheet_table(scored, paper),
        "balance": balance_of(scored),
        "manual_notes": manual_notes(scored),
    }
    keys = count()

    def template(name: str) -> Callable[[], str]:
        found = get_template(name)
        return lambda: found.render(made, request)

    def region(partial: str, of: Any = scored) -> Callable[[], str]:
        found = get_template(f"games/sheet.html#{partial}")

        def render() -> str:
            fresh = dict(context)
            if partial == "sheet":  # every presenter again, as a new version's first render
                own = paper_of(of)
                fresh["drawn"] = draw_sheet(of, own)
                fresh[table_key] = sheet_table(of, own)
                fresh["balance"] = balance_of(of)
                fresh["manual_notes"] = manual_notes(of)
            fresh[f"{partial}_key"] = f"bench-{pulka.pk}-{next(keys)}"  # a miss every time
            return found.render(fresh, request)

        return render

    def after_the_version_before() -> None:
        forget()
        region("sheet", previous)()

    return {
        "paper_of": lambda: paper_of(scored),
        "draw_sheet": lambda: draw_sheet(scored, paper),
        "sheet_table": lambda: sheet_table(scored, paper),
        "balance_of": lambda: balance_of(scored),
        "balance_of, cold": balance_cold,
        "_sheet_svg.html": template("games/_sheet_svg.html"),
        "_sheet_table.html": template("games/_sheet_table.html"),
        "_balance_chart.html": template("games/_balance_chart.html"),
        "sheet region, cold": (forget, region("sheet")),
        "sheet region, next": (after_the_version_before, region("sheet")),
        "sheet region, again": region("sheet"),
        "status line": region("status"),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=200)
    parser.add_argument("--profile", type=int, choices=(10, 100), help="cProfile one size")
    parser.add_argument("--top", type=int, default=30)
    parser.add_argument("--database-url", help="an empty database instead of SQLite")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="prefscore-sheet-") as folder:
        cpu.setup(folder, args.database_url)
        from django.template import Context, Template
        from django.utils import translation

        translation.activate("en")
        found = contexts((10, 100))
        baseline = Template("<p>{{ one }}</p>")
        bare = timed(lambda: baseline.render(Context({"one": 1})), args.repeat)
        if args.profile:
            request, context, pulka = found[args.profile]
            cpu.profile(parts(request, context, pulka)["sheet region, whole"], args.top)
            return 0
        one, five, _ = os.getloadavg()
        print(f"load average {one:.2f}, {five:.2f} on {os.cpu_count()} cores; median CPU of "
              f"{args.repeat} renders; a one-line template takes {bare * 1000:.1f} µs")  # fmt: skip
        print(f"{'part':24} {'10 deals ms':>11} {'100 deals ms':>12}")
        measured = {size: parts(*found[size]) for size in found}
        for name in measured[10]:
            cells = [timed(measured[size][name], args.repeat) for size in (10, 100)]
            print(f"{name:24} {cells[0]:11.3f} {cells[1]:12.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
