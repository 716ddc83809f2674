"""Tournaments at scale: the standings pages and the import, against baselines in the same run.

    .venv/bin/python bench/tournament.py --only scale [--players 1000] [--rounds 5] [--deals 12]

The section ``scale`` of ``bench/tournament.py``. It makes a temporary SQLite database,
a random tournament of ``--players`` players over ``--rounds`` rounds, each table playing
``--deals`` deals (``prefscore.tournaments.generator``, the file ``manage.py
random_tournament`` writes), and measures in one process:

- **import**: the file read and stored by today's bulk path (``imports.read_file`` and
  ``import_tournament``), against the baseline of the same file stored a pulka at a time
  as before (``games.io.import_file`` per table, each finished table's statistics
  written on its own signal); the organiser's request that hands a large file to a job
  (``jobs``, a task for the worker), and the job itself; the peak memory the process reached;
- **pages**: the standings page, the projector, the tournament page and the printed
  standings, best of ``--repeat`` through Django's test client, against the baseline of
  the same page with every table's sheet folded on each read (the stored results
  ignored: what the standings did before they were kept);
- **requests** (``--only-requests`` times only these, and the caches): the organiser's
  requests one by one; drawing and publishing a round each also in turns against the
  code as it was (``BEFORE_DRAW``, ``BEFORE_PUBLISH``, loaded from git), rolled back
  after each try, the draw's tables checked to be the same both ways.

Goals (docs/benchmarks.md, "Tournaments at scale"): the standings and the projector under
1 s, the import under 10 s, no request over 2 s. The machine is shared: the load average
is printed, and each figure has its baseline measured beside it.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
GOAL_PAGE_SECONDS = 1.0
GOAL_IMPORT_SECONDS = 10.0
GOAL_REQUEST_SECONDS = 2.0


def _django(directory: str) -> None:
    os.environ["DEBUG"] = "1"
    os.environ["DATABASE_URL"] = f"sqlite:///{directory}/bench.sqlite3"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "prefscore.settings")
    sys.path.insert(0, str(ROOT))
    import django
    from django.core.management import call_command

    django.setup()
    call_command("migrate", verbosity=0)


def _timed(run: Callable[[], Any]) -> tuple[Timing, Any]:
    wall, cpu = time.perf_counter(), time.process_time()
    value = run()
    return Timing(time.perf_counter() - wall, time.process_time() - cpu), value


def _best(run: Callable[[], Any], repeat: int) -> Timing:
    return min((_timed(run)[0] for _ in range(repeat)), key=lambda t: t.wall)


@dataclass(frozen=True, order=True)
class Timing:
    """Seconds on the clock and of this process's CPU: on a shared machine the first
    waits for the others, the second says what the work itself costs."""

    wall: float
    cpu: float

    def __str__(self) -> str:
        return f"{self.wall:7.2f} s ({self.cpu:.2f} s CPU)"


def _old_import(club: Any, file: Any, user: Any) -> Any:
    """The import as it was: each table through ``games.io.import_file`` (the baseline)."""
    from django.db import transaction

    from prefscore.games import io
    from prefscore.tournaments import imports
    from prefscore.tournaments.models import Round, Tournament, TournamentEntry

    fields = dict(file.fields)
    fields.pop("slug")
    with transaction.atomic():
        tournament = Tournament.objects.create(club=club, slug="baseline", **fields)
        players = imports._club_players(club, [name for name, _state in file.players])
        TournamentEntry.objects.bulk_create(
            TournamentEntry(tournament=tournament, player=players[name], state=state)
            for name, state in file.players
        )
        for round_file in file.rounds:
            round_ = Round.objects.create(tournament=tournament, **round_file.fields)
            for table in round_file.tables:
                pulka = io.import_file(club, table.file, user)
                pulka.tournament, pulka.round_number = tournament, round_.number
                pulka.status = table.status
                pulka.save(update_fields=["tournament", "round_number", "status"])
    return tournament


def _import(options: argparse.Namespace, club: Any, user: Any) -> Any:
    from django.core.files.uploadedfile import SimpleUploadedFile
    from django.test import Client

    from prefscore.tournaments import generator, imports, jobs
    from prefscore.tournaments.models import ImportJob

    data = generator.tournament_file(options.players, options.rounds, options.deals)
    text = json.dumps(data, ensure_ascii=False)
    size = len(text.encode())
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    bulk, tournament = _timed(
        lambda: imports.import_tournament(club, imports.read_file(text), user)
    )
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    print(f"\nimport of {size / 1e6:.1f} MB ({options.players} players × {options.rounds} rounds)")
    print(f"  bulk path (read + store):   {bulk}   goal < {GOAL_IMPORT_SECONDS:.0f} s")
    grew = (peak - before) / 1024
    print(f"  peak memory of the process: {peak / 1024:7.0f} MB (+{grew:.0f} MB)")
    # The organiser's request hands it to a job (a task for the worker); the job runs
    # here, timed on its own.
    client = Client()
    client.force_login(user)
    url = f"/tournaments/{club.slug}/new/import/"
    upload = SimpleUploadedFile("big.json", text.encode(), content_type="application/json")
    request, response = _timed(
        lambda: client.post(url, {"file": upload, "slug": "by-request"}, HTTP_HOST="127.0.0.1")
    )
    assert response.status_code == 302, response.status_code
    job = ImportJob.objects.order_by("-pk").first()
    goal = f"goal < {GOAL_REQUEST_SECONDS:.0f} s"
    print(f"  the organiser's request:    {request}   {goal}")
    if job is None:
        print("  (a file this small is imported within the request)")
    else:
        job_seconds, _ = _timed(lambda: jobs.run(job.pk))
        job.refresh_from_db()
        print(f"  the job it hands over:      {job_seconds}   ({job.status})")
    if not options.no_baseline:
        file = imports.read_file(text)
        old, _ = _timed(lambda: _old_import(club, file, user))
        ratio = f"bulk/baseline {bulk.wall / old.wall:.2f} ({bulk.cpu / old.cpu:.2f} CPU)"
        print(f"  baseline, a pulka at a time: {old}   {ratio}")
    return tournament


@contextmanager
def _patched(module: Any, **values: Any) -> Iterator[None]:
    """``module``'s attributes set to ``values`` for the baseline, then restored."""
    kept = {name: getattr(module, name) for name in values}
    for name, value in values.items():
        setattr(module, name, value)
    try:
        yield
    finally:
        for name, value in kept.items():
            setattr(module, name, value)


def _pages(options: argparse.Namespace, tournament: Any, user: Any) -> None:
    from django.test import Client

    from prefscore.games.models import Pulka
    from prefscore.tournaments import results
    from prefscore.tournaments.presenters import paging

    def folding(tournament_: Any, tables: Any) -> dict[int, Any]:
        """Before: every table's sheet folded on each read."""
        fresh = results.recount(list(Pulka.objects.filter(pk__in=[t.pk for t in tables])))
        return {row.pulka_id: results.Stored(row.version, row.whists, row.stats) for row in fresh}

    # Each page and its baseline: the standings folding every sheet on each read; the
    # tournament page with every table of its round and every player on one page.
    folded = lambda: _patched(results, table_results=folding)  # noqa: E731
    whole = lambda: _patched(paging, TABLES_PER_PAGE=10**6, ENTRIES_PER_PAGE=10**6)  # noqa: E731
    pages = {
        "standings": ("standings/", folded),
        "projector": ("projector/?show=standings", folded),
        "tournament page": ("", whole),
        "printed standings": ("print/standings/", folded),
    }
    client = Client()
    client.force_login(user)
    base = f"/tournaments/{tournament.club.slug}/{tournament.slug}/"
    tables = Pulka.objects.filter(tournament=tournament).count()
    print(f"\npages ({tables} tables), best of {options.repeat}")
    print(f"  {'page':<18}{'now':>24}{'baseline':>24}{'ratio':>7}{'bytes':>9}{'before':>9}")
    for name, (path, baseline) in pages.items():
        get = lambda path=path: client.get(base + path, HTTP_HOST="127.0.0.1")  # noqa: E731
        size = len(get().content)
        now = _best(get, options.repeat)
        with baseline():
            size_before = len(get().content)
            before = _best(get, max(1, options.repeat // 2))
        ratio = now.wall / before.wall
        print(f"  {name:<18}{now!s:>24}{before!s:>24}{ratio:7.2f}{size:9d}{size_before:9d}")
    print(f"  goal: standings and projector < {GOAL_PAGE_SECONDS:.0f} s")


def _operation(client: Any, method: str, url: str, data: Any = None) -> tuple[Timing, Any]:
    """One organiser request, timed; a refusal or an error stops the bench."""
    send = client.post if method == "POST" else client.get
    timing, response = _timed(lambda: send(url, data or {}, HTTP_HOST="127.0.0.1"))
    assert response.status_code in (200, 302), (url, response.status_code)
    return timing, response


def _body(response: Any) -> int:
    """The bytes of an answer, streamed or not (read outside the timing: see _download)."""
    if getattr(response, "streaming", False):
        return sum(len(part) for part in response.streaming_content)
    return len(response.content)


def _download(client: Any, url: str) -> tuple[Timing, int]:
    """A download as a worker serves it: the request and every byte of its answer."""

    def whole() -> int:
        return _body(client.get(url, HTTP_HOST="127.0.0.1"))

    timing, size = _timed(whole)
    return timing, size


def _close_running(tournament: Any) -> None:
    """Every table still playing closed as it stands, so the next draw may go (not timed)."""
    from prefscore.games.models import Pulka

    Pulka.objects.filter(tournament=tournament, status=Pulka.Status.RUNNING).update(
        status=Pulka.Status.FINISHED
    )


# The last commit before the export and the bracket were reworked: their baselines.
BEFORE_REQUESTS = "e72b5cf"
# Publishing as it was before its bulk inserts: a pulka, its seats and its title saved
# per table (rounds.start_table through games.io.create_pulka).
BEFORE_PUBLISH = "ca223f7"


# Drawing as it was before its search and reads were made cheaper: the engine's exact
# search read every free player for each table, and the draw read the field as models.
BEFORE_DRAW = "b574e80"


def _module_at(commit: str, path: str, package: str, uses: dict[str, Any] | None = None) -> Any:
    """``path`` as it was at ``commit``, loaded beside today's (None if git cannot say);
    ``uses``: modules its imports find instead of today's (by full name), for names
    that have gone since."""
    import importlib.util
    import subprocess

    try:
        source = subprocess.run(
            ["git", "-C", str(ROOT), "show", f"{commit}:{path}"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout
    except (OSError, subprocess.CalledProcessError):
        return None
    spec = importlib.util.spec_from_loader(f"{package}._before_{Path(path).stem}", loader=None)
    assert spec is not None
    module = importlib.util.module_from_spec(spec)
    module.__package__ = package
    sys.modules[spec.name] = module  # dataclasses look their module up by name
    today = {name: sys.modules[name] for name in uses or {}}
    sys.modules.update(uses or {})
    try:
        exec(compile(source, f"{commit}:{path}", "exec"), module.__dict__)  # noqa: S102
    finally:
        sys.modules.update(today)
    return module


def _prefetched(tournament: Any) -> list[Any]:
    """The tables as the export read them before: deals and corrections by prefetch."""
    from django.db.models import Prefetch

    from prefscore.games.models import Correction, Deal, PulkaSeat
    from prefscore.tournaments.services import live_pulkas

    return list(
        live_pulkas(tournament)
        .select_related("closure", "closure__closed_by")
        .order_by("round_number", "pk")
        .prefetch_related(
            Prefetch("seats", queryset=PulkaSeat.objects.select_related("player")),
            Prefetch(
                "deals",
                queryset=Deal.objects.current().order_by("number"),
                to_attr="standing_deals",
            ),
            Prefetch("corrections", queryset=Correction.objects.all(), to_attr="all_corrections"),
        )
    )


class _Unremembered:
    """``exports.Conventions`` without its memory: each table reads its snapshot."""

    def of(self, pulka: Any) -> tuple[Any, dict[str, Any]]:
        convention = pulka.convention
        return convention, convention.to_options()


def _export_baselines(tournament: Any) -> dict[str, Timing]:
    """The export before (as at ``BEFORE_REQUESTS``), and today's without the memo."""
    from types import SimpleNamespace

    from prefscore.tournaments import exports, services

    runs: dict[str, Callable[[], Any]] = {"now": lambda: exports.export_text(tournament)}
    old = _module_at(BEFORE_REQUESTS, "prefscore/tournaments/exports.py", "prefscore.tournaments")
    if old is not None:
        old.services = SimpleNamespace(
            **{name: getattr(services, name) for name in dir(services) if not name.startswith("__")}
        )
        old.services.tournament_pulkas = _prefetched
        runs["before"] = lambda: old.export_text(tournament)

    def unremembered() -> Any:
        with _patched(exports, Conventions=_Unremembered):
            return exports.export_text(tournament)

    runs["no memo"] = unremembered
    # Best of three, taken in turn, so that a busy spell of the machine hits all alike.
    timings: dict[str, list[Timing]] = {name: [] for name in runs}
    for _ in range(3):
        for name, run in runs.items():
            timings[name].append(_timed(run)[0])
    return {name: min(found, key=lambda t: t.cpu) for name, found in timings.items()}


def _bracket_before() -> Any:
    """The bracket presenter as at ``BEFORE_REQUESTS``: it read every table with its seats."""
    from django.db.models import Prefetch

    from prefscore.games.models import PulkaSeat
    from prefscore.tournaments import services

    seats = PulkaSeat.objects.select_related("player")

    old = _module_at(BEFORE_REQUESTS, "prefscore/tournaments/control.py", "prefscore.tournaments")
    if old is None:
        return None

    class WithEveryTable:
        def __init__(self, standings: Any) -> None:
            self._standings = standings

        def __getattr__(self, name: str) -> Any:
            return getattr(self._standings, name)

        @property
        def pulkas(self) -> list[Any]:
            return list(
                services.live_pulkas(self._standings.tournament)
                .select_related("closure")
                .order_by("round_number", "pk")
                .prefetch_related(Prefetch("seats", queryset=seats))
            )

    return lambda tournament, standings: old.bracket(tournament, WithEveryTable(standings))


@contextmanager
def _collections() -> Iterator[list[float]]:
    """The seconds the garbage collector spent inside the block, summed into the list's
    one item: a full collection of the imported tournament's objects may land in any
    request, and is no cost of that request's own work."""
    import gc

    spent = [0.0]
    started = [0.0]

    def hook(phase: str, _info: dict[str, int]) -> None:
        if phase == "start":
            started[0] = time.process_time()
        else:
            spent[0] += time.process_time() - started[0]

    gc.callbacks.append(hook)
    try:
        yield spent
    finally:
        gc.callbacks.remove(hook)


def _publish_before() -> Callable[..., Any] | None:
    """``rounds.publish_round`` as it was at ``BEFORE_PUBLISH``, with that day's
    ``games.io`` and ``services`` (None if git cannot say)."""
    old_io = _module_at(BEFORE_PUBLISH, "prefscore/games/io.py", "prefscore.games")
    package = "prefscore.tournaments"
    services = _module_at(BEFORE_PUBLISH, "prefscore/tournaments/services.py", package)
    if services is None:
        return None
    uses = {f"{package}.services": services}
    old = _module_at(BEFORE_PUBLISH, "prefscore/tournaments/rounds.py", package, uses)
    if old is None or old_io is None:
        return None
    old.io = old_io
    return old.publish_round


def _publish_ab(client: Any, url: str, repeat: int) -> tuple[Timing, Timing | None]:
    """The publish request now and as it was, in turns, each rolled back so that the same
    draft is published each time; the best of ``repeat`` of each."""
    from django.db import transaction

    from prefscore.tournaments import rounds

    old = _publish_before()

    def rolled_back() -> Timing:
        with transaction.atomic():
            timing, _response = _operation(client, "POST", url)
            transaction.set_rollback(True)
        return timing

    now: list[Timing] = []
    before: list[Timing] = []
    for _ in range(repeat):
        now.append(rolled_back())
        if old is not None:
            with _patched(rounds, publish_round=old):
                before.append(rolled_back())
    return min(now), min(before) if before else None


def _draw_before() -> dict[str, Any] | None:
    """What the draw request called as it was at ``BEFORE_DRAW``: the engine's exact
    search, its round and its draw, and the tournament's reads (``services``), each
    loaded from git beside today's; the names to patch into ``rounds`` (None if git
    cannot say)."""
    engine = "scoring.engine"
    exact = _module_at(BEFORE_DRAW, "scoring/engine/seating_exact.py", engine)
    round_ = _module_at(BEFORE_DRAW, "scoring/engine/seating_round.py", engine)
    seating = _module_at(BEFORE_DRAW, "scoring/engine/seating.py", engine)
    services = _module_at(BEFORE_DRAW, "prefscore/tournaments/services.py", "prefscore.tournaments")
    if None in (exact, round_, seating, services):
        return None
    round_.seating_exact = exact
    seating.seating_round = round_
    services.seating = seating

    def seated_players(tournament: Any) -> list[str]:
        return [str(entry.player_id) for entry in services.seated_entries(tournament)]

    return {"seated_players": seated_players, "seat_round": services.seat_round}


def _draw_ab(
    client: Any, tournament: Any, url: str, repeat: int
) -> tuple[tuple[Timing, float], tuple[Timing, float] | None]:
    """The draw request now and as it was, in turns, each rolled back so that the same
    round is drawn each time; the best of ``repeat`` of each, with the seconds of
    garbage collection inside it. Each run starts after a full collection, so that
    neither inherits the other's garbage. Both must draw the same tables, seats and
    first dealers."""
    import gc

    from django.db import transaction

    from prefscore.tournaments import rounds

    old = _draw_before()
    number = tournament.rounds.count() + 1
    drawn: list[Any] = []

    def rolled_back() -> tuple[Timing, float]:
        gc.collect()
        with transaction.atomic(), _collections() as collecting:
            timing, _response = _operation(client, "POST", url)
            drawn.append(tournament.rounds.get(number=number).tables)
            transaction.set_rollback(True)
        return timing, collecting[0]

    now: list[tuple[Timing, float]] = []
    before: list[tuple[Timing, float]] = []
    for _ in range(repeat):
        now.append(rolled_back())
        if old is not None:
            with _patched(rounds, **old):
                before.append(rolled_back())
    assert all(tables == drawn[0] for tables in drawn), "the draw changed"
    return min(now), min(before) if before else None


def _operations(options: argparse.Namespace, tournament: Any, user: Any) -> None:
    """The organiser's requests at this size, each against the goal of 2 s of CPU, with
    baselines of this run: the export and the bracket as they were at
    ``BEFORE_REQUESTS`` (the export also without today's convention memo); the
    standings page is the yardstick for the rest."""
    from django.test import Client

    from prefscore.tournaments.presenters import control

    client = Client()
    client.force_login(user)
    base = f"/tournaments/{tournament.club.slug}/{tournament.slug}/"
    yardstick = _best(lambda: client.get(base + "standings/", HTTP_HOST="127.0.0.1"), 3)
    print(f"\norganiser's requests, each once (goal < {GOAL_REQUEST_SECONDS:.0f} s CPU)")
    print(f"  standings page (yardstick): {yardstick}")
    print(f"  {'request':<30}{'now':>24}{'baseline':>24}{'CPU ratio':>10}{'× standings':>12}")

    def line(name: str, now: Timing, before: Timing | None = None) -> None:
        ratio = f"{now.cpu / before.cpu:10.2f}" if before else f"{'':10}"
        shown = f"{before!s:>24}" if before else f"{'':>24}"
        print(f"  {name:<30}{now!s:>24}{shown}{ratio}{now.cpu / yardstick.cpu:12.1f}")

    export, size = _download(client, base + "export.json")
    line(f"JSON export ({size / 1e6:.1f} MB)", export)
    built = _export_baselines(tournament)
    line("  its file, built", built["now"], built.get("before"))
    line("  its file, no convention memo", built["no memo"], built["now"])
    old = _bracket_before()
    bracket = _best(lambda: client.get(base + "bracket/", HTTP_HOST="127.0.0.1"), 3)
    before_bracket = None
    if old is not None:
        with _patched(control, bracket=old):
            before_bracket = _best(lambda: client.get(base + "bracket/", HTTP_HOST="127.0.0.1"), 3)
    line("bracket page", bracket, before_bracket)
    _close_running(tournament)
    number = tournament.rounds.count() + 1
    (now, now_gc), was = _draw_ab(client, tournament, base + "rounds/", options.repeat)
    line(f"draw round {number}, A/B", now, was[0] if was else None)
    collected = f"{now_gc:>17.2f} s CPU" + (f"{was[1]:>17.2f} s CPU" if was else "")
    print(f"  {'  of which garbage collection':<30}{collected}")
    with _collections() as collecting:
        drawn, _r = _operation(client, "POST", base + "rounds/")
    line(f"draw round {number}", drawn)
    print(f"  {'  of which garbage collection':<30}{collecting[0]:>17.2f} s CPU")
    now, before = _publish_ab(client, base + f"rounds/{number}/publish/", options.repeat)
    line(f"publish round {number}, A/B", now, before)
    with _collections() as collecting:
        published, _r = _operation(client, "POST", base + f"rounds/{number}/publish/")
    line(f"publish round {number}", published)
    print(f"  {'  of which garbage collection':<30}{collecting[0]:>17.2f} s CPU")
    _close_running(tournament)
    cut, _r = _operation(client, "POST", base + "cut/", {"size": 16, "stage": "final"})
    line("cut to a final of 16", cut)
    final, _r = _operation(client, "POST", base + f"rounds/{number + 1}/publish/")
    line("publish the final", final)
    after = _best(lambda: client.get(base + "bracket/", HTTP_HOST="127.0.0.1"), 3)
    before_after = None
    if old is not None:
        with _patched(control, bracket=old):
            before_after = _best(lambda: client.get(base + "bracket/", HTTP_HOST="127.0.0.1"), 3)
    line("bracket page after the cut", after, before_after)


def _caches(options: argparse.Namespace, tournament: Any, user: Any) -> None:
    """Two memories, each with and without in this run (docs/benchmarks.md):

    - the standings' ``presenters.tournament._formatted`` cache of formatted figures: the
      standings page and the projector, best of ``--repeat``, against the same with the
      plain function (``__wrapped__``);
    - the bulk import's naming of a table's own convention (``scoring.conventions.name_of``,
      when a table plays a preset other than the tournament's): once for the file, as
      the ``_ConventionNames`` memo did, against once per table, as the import does now.
    """
    from django.test import Client

    from prefscore.tournaments.presenters import tournament as shown
    from scoring.conventions import name_of
    from scoring.engine.conventions import PRESET_NAMES, preset

    client = Client()
    client.force_login(user)
    base = f"/tournaments/{tournament.club.slug}/{tournament.slug}/"
    print(f"\ncaches, each with and without, best of {options.repeat}")
    print(f"  {'what':<40}{'with':>24}{'without':>24}{'CPU ratio':>10}")
    plain = shown._formatted.__wrapped__
    for name, path in (
        ("standings page", "standings/"),
        ("projector", "projector/?show=standings"),
    ):
        get = lambda path=path: client.get(base + path, HTTP_HOST="127.0.0.1")  # noqa: E731
        get()
        cached = _best(get, options.repeat)
        with _patched(shown, _formatted=plain):
            uncached = _best(get, options.repeat)
        label = f"_formatted: {name}"
        print(f"  {label:<40}{cached!s:>24}{uncached!s:>24}{cached.cpu / uncached.cpu:7.2f}")
    own = next(preset(n) for n in PRESET_NAMES if preset(n) != tournament.convention)
    tables = tournament.pulkas.count()
    once = _best(lambda: name_of(own), options.repeat)
    each = _best(lambda: [name_of(own) for _ in range(tables)], options.repeat)
    label = f"naming {tables} tables' own convention"
    print(f"  {label:<40}{once!s:>24}{each!s:>24}{once.cpu / max(each.cpu, 1e-9):7.3f}")
    print("  (with: once for the file, as _ConventionNames did; without: for each table)")


def scale_section(options: argparse.Namespace) -> None:
    print(f"load average before: {os.getloadavg()[0]:.2f}")
    with tempfile.TemporaryDirectory() as directory:
        _django(directory)
        from django.contrib.auth import get_user_model

        from prefscore.clubs.models import Club, Membership, Role

        user = get_user_model().objects.create_user("bench-organiser", password="bench-pw-1234")
        club = Club.objects.create(name="Bench club", slug="bench")
        Membership.objects.create(club=club, user=user, role=Role.ORGANISER)
        tournament = _import(options, club, user)
        if not options.only_requests:
            _pages(options, tournament, user)
        _caches(options, tournament, user)
        _operations(options, tournament, user)
    print(f"load average after: {os.getloadavg()[0]:.2f}")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--players", type=int, default=1000, help="scale: players")
    parser.add_argument("--rounds", type=int, default=5, help="scale: rounds")
    parser.add_argument("--deals", type=int, default=12, help="scale: deals per table")
    parser.add_argument("--repeat", type=int, default=3, help="scale: reads of each page")
    parser.add_argument("--no-baseline", action="store_true", help="scale: skip the old import")
    parser.add_argument(
        "--only-requests", action="store_true", help="scale: skip the pages, time the requests"
    )
