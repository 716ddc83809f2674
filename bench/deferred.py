"""Deferred work: the organiser's and player's requests that hand their work to the task
worker (docs/tasks.md), against the same requests doing it themselves, in one run.

    .venv/bin/python bench/deferred.py [--only settle|season|divisions|tournament]
                                       [--repeat 7]
                                       [--players 200] [--evenings 40]
                                       [--tournament-players 1000] [--rounds 5]

Two parts, each in a temporary SQLite database with the bench settings (DEBUG off):

- **settle**: a club of ``--players`` players over ``--evenings`` evenings (200 × 40:
  2,000 finished pulkas, bench/season_table.py's club) with two seasons over them, one by
  place points and one by the rating change. The request measured is the one that
  records a pulka's last deal (htmx, through the whole middleware), on a fresh pulka of
  the seasons' period each time. *Before*: the recount (summaries, club rating, seasons)
  runs inside the request after its commit, as it did before it was deferred (the
  recount task called by a ``sheet_settled`` receiver: the same work the old receivers
  did). *Now*: the request queues it; the worker's run is timed on its own. The two take
  turns, round by round; medians.
- **season**: the same club; the organiser saves a season's settings (each of the two
  seasons). *Before*: the table counted inside the request (``standings.refresh``, as
  the form did). *Now*: the count queued (``seasons.counts.ask``); the worker's run is
  timed on its own. Taking turns; medians.
- **divisions**: the same club, its place-points season split into two divisions (the
  players in two halves) and counted. The organiser opens the divisions page, whose
  preview of promotion and relegation reads the stored table (*now*), against the same
  request whose preview counts the table again (*before*: ``counted_preview``, as the
  page did). Taking turns; medians.
- **tournament**: a tournament of ``--tournament-players`` over ``--rounds`` rounds
  (1,000 × 5: 15,000 deals, the file 4 MB), through the test client. The JSON export
  request *now* (it answers with the job's page) against the same request writing the
  file itself (*before*: ``INLINE_DEALS`` above the tournament's deals), then the job in
  the worker; the import request of the same file (it hands the file to the worker),
  then the job. The standings page is the yardstick.

Goals (docs/benchmarks.md, "Deferred work"): the finishing request at most 0.2 of its
time before; the season's save under 200 ms; the export and the import requests under 1 s of wall time.
"""

from __future__ import annotations

import argparse
import datetime
import json
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

import cpu  # noqa: E402  (bench/cpu.py: the bench settings on a fresh database)

GOAL_RATIO = 0.2
GOAL_REQUEST_SECONDS = 1.0
NINE = {"contract": "9S", "declarer": 0, "whists": {1: "pass", 2: "pass"}}


def timed(call: Callable[[], Any]) -> tuple[float, float, Any]:
    """Wall and CPU seconds of ``call()``, and what it gave."""
    wall, used = time.perf_counter(), time.process_time()
    value = call()
    return time.perf_counter() - wall, time.process_time() - used, value


# --- the settle ---------------------------------------------------------------------------


def finishing_pulka(world: dict[str, Any]) -> Any:
    """A running pulka of three of the club's players, to 2, started in the seasons'
    period: one 9♠ made with both passing closes it."""
    from harness.seed import running_pulka

    from prefscore.games.models import Pulka

    club, players = world["club"], world["players"]
    pulka = running_pulka(club, players[:3], 0, world["user"])
    started = world["season"].starts_on + datetime.timedelta(days=7)
    moment = datetime.datetime.combine(started, datetime.time(20), tzinfo=datetime.UTC)
    Pulka.objects.filter(pk=pulka.pk).update(target=2, created_at=moment)
    return pulka


def finishing_form(pulka: Any) -> dict[str, str]:
    from harness.deals import entry_form

    names = list(pulka.player_names)
    facts = {
        "contract": NINE["contract"],
        "declarer": names[0],
        "whists": {names[1]: "pass", names[2]: "pass"},
    }
    return entry_form(facts, names, 1)


def settle_part(options: argparse.Namespace) -> dict[str, float]:
    from django.test import Client
    from season_table import season_world

    from prefscore.clubs.models import Player
    from prefscore.deferred.worker import run_due
    from prefscore.games.events import sheet_settled
    from prefscore.stats import recounts
    from prefscore.stats.models import PulkaSummary

    world = season_world(options.players, options.evenings)
    world["players"] = list(Player.objects.filter(club=world["club"]).order_by("pk"))
    from django.contrib.auth import get_user_model

    world["user"] = get_user_model().objects.get(username="season-bench")
    client: Client = world["client"]
    club_id = world["club"].pk
    pulkas = PulkaSummary.objects.filter(club_id=club_id).values("pulka").distinct().count()
    print(f"\nthe settle: a club of {pulkas} finished pulkas, 2 seasons (points, rating)")

    def recount_in_request(sender: Any, pulka_id: int, **kwargs: Any) -> None:
        recounts.recount_club.call(club_id)

    def finish(inline: bool) -> tuple[float, float]:
        pulka = finishing_pulka(world)
        if inline:
            sheet_settled.connect(recount_in_request, dispatch_uid="bench-inline")
        try:
            wall, used, response = timed(
                lambda: client.post(
                    f"/pulkas/{pulka.pk}/deals/",
                    finishing_form(pulka),
                    headers={"HX-Request": "true"},
                )
            )
        finally:
            sheet_settled.disconnect(dispatch_uid="bench-inline")
        assert response.status_code == 200, response.status_code
        assert PulkaSummary.objects.filter(pulka=pulka).exists() == inline
        return wall, used

    finish(True), run_due(), finish(False), run_due()  # warmed: templates, imports
    spent: dict[str, list[float]] = {"before": [], "now": [], "worker": []}
    cpu_spent: dict[str, list[float]] = {"before": [], "now": [], "worker": []}
    for _ in range(options.repeat):
        wall, used = finish(True)
        run_due()  # the marker of the inline run, cleared
        spent["before"].append(wall), cpu_spent["before"].append(used)
        wall, used = finish(False)
        spent["now"].append(wall), cpu_spent["now"].append(used)
        wall, used, ran = timed(run_due)
        assert ran == 1, ran
        spent["worker"].append(wall), cpu_spent["worker"].append(used)
    page = statistics.median(
        timed(lambda: client.get(f"/clubs/{world['club'].slug}/rating/"))[0]
        for _ in range(options.repeat)
    )
    figures = {name: statistics.median(values) for name, values in spent.items()}
    cpus = {name: statistics.median(values) for name, values in cpu_spent.items()}
    print(f"  {'':52}{'wall ms':>10}{'CPU ms':>10}")
    rows = (
        ("the finishing request, recount inside (before)", "before"),
        ("the finishing request, recount queued (now)", "now"),
        ("the recount in the worker", "worker"),
    )
    for label, name in rows:
        print(f"  {label:52}{figures[name] * 1000:10.1f}{cpus[name] * 1000:10.1f}")
    print(f"  {'the leaderboard page (yardstick)':52}{page * 1000:10.1f}")
    ratio = figures["now"] / figures["before"]
    met = "met" if ratio <= GOAL_RATIO else "NOT met"
    print(f"  now / before: {ratio:.3f} wall, {cpus['now'] / cpus['before']:.3f} CPU")
    print(f"  goal: at most {GOAL_RATIO} of the time before: {met}")
    return {"ratio": ratio}


# --- a season saved --------------------------------------------------------------------------


def season_form(season: Any) -> dict[str, Any]:
    """The season's settings as its form posts them, unchanged."""
    from prefscore.seasons.forms import SeasonForm

    form = SeasonForm(instance=season, club=season.club)
    data: dict[str, Any] = {}
    for name in form.fields:
        value = form[name].value()
        if value is None:
            continue
        data[name] = [str(v) for v in value] if isinstance(value, list | tuple) else str(value)
    return data


def season_part(options: argparse.Namespace) -> dict[str, float]:
    """The organiser saves a season's settings: *before* the table counted inside the
    request (``standings.refresh``, as the form did), *now* the count queued for the
    worker (``seasons.counts.ask``), whose run is timed on its own. Both seasons of the
    settle's club (place points, the rating change), taking turns; medians."""
    from django.test import Client
    from season_table import season_world

    from prefscore.clubs.models import Membership, Role
    from prefscore.deferred.worker import run_due
    from prefscore.seasons import counts, standings

    world = season_world(options.players, options.evenings)
    Membership.objects.filter(club=world["club"]).update(role=Role.ORGANISER)
    client: Client = world["client"]
    asked = counts.ask
    print(f"\na season saved: {options.players} players x {options.evenings} evenings")

    def save(season: Any, inline: bool) -> tuple[float, float]:
        counts.ask = standings.refresh if inline else asked  # type: ignore[assignment]
        url = f"/clubs/{world['club'].slug}/seasons/{season.slug}/edit/"
        try:
            wall, used, response = timed(lambda: client.post(url, season_form(season)))
        finally:
            counts.ask = asked  # type: ignore[assignment]
        assert response.status_code == 302, response.status_code
        return wall, used

    results: dict[str, float] = {}
    print(f"  {'':52}{'wall ms':>10}{'CPU ms':>10}")
    for label, season in (("place points", world["season"]), ("rating", world["rated"])):
        save(season, True), save(season, False), run_due()  # warmed
        spent: dict[str, list[float]] = {"before": [], "now": [], "worker": []}
        cpu_spent: dict[str, list[float]] = {"before": [], "now": [], "worker": []}
        for _ in range(options.repeat):
            wall, used = save(season, True)
            spent["before"].append(wall), cpu_spent["before"].append(used)
            wall, used = save(season, False)
            spent["now"].append(wall), cpu_spent["now"].append(used)
            wall, used, ran = timed(run_due)
            assert ran == 1, ran
            spent["worker"].append(wall), cpu_spent["worker"].append(used)
        figures = {name: statistics.median(values) for name, values in spent.items()}
        cpus = {name: statistics.median(values) for name, values in cpu_spent.items()}
        for row, name in (
            (f"saved, counted inside (before), {label}", "before"),
            (f"saved, count queued (now), {label}", "now"),
            (f"the count in the worker, {label}", "worker"),
        ):
            print(f"  {row:52}{figures[name] * 1000:10.1f}{cpus[name] * 1000:10.1f}")
        ratio = figures["now"] / figures["before"]
        print(f"  now / before: {ratio:.3f} wall, {cpus['now'] / cpus['before']:.3f} CPU")
        results[label] = ratio
    page = statistics.median(
        timed(lambda: client.get(f"/clubs/{world['club'].slug}/rating/"))[0]
        for _ in range(options.repeat)
    )
    print(f"  {'the leaderboard page (yardstick)':52}{page * 1000:10.1f}")
    return results


# --- the divisions page --------------------------------------------------------------------


def counted_preview(season: Any, count: int) -> Any:
    """The divisions preview as it was: the season's table counted again in the request."""
    from prefscore.seasons import divisions, standings
    from scoring.engine import season as engine

    chosen = list(season.divisions.order_by("order").prefetch_related("players"))
    division_of = {p.pk: d.order for d in chosen for p in d.players.all()}
    split = engine.divided(standings.compute(season), division_of, season.policy)
    names = {d.order: d.name for d in chosen}
    players = {p.pk: p.name for d in chosen for p in d.players.all()}
    lowest = max((d.order for d in chosen), default=0)
    return divisions.Preview(engine.promotions(split, count, lowest), names, players)


def divisions_part(options: argparse.Namespace) -> dict[str, float]:
    """The divisions page: its preview from the stored table (now) against the table
    counted in the request (before), in turns; medians."""
    from django.test import Client
    from season_table import season_world

    from prefscore.clubs.models import Membership, Player, Role
    from prefscore.deferred.worker import run_due
    from prefscore.seasons import divisions

    world = season_world(options.players, options.evenings)
    Membership.objects.filter(club=world["club"]).update(role=Role.ORGANISER)
    client: Client = world["client"]
    season = world["season"]
    people = list(Player.objects.filter(club=world["club"]).order_by("name"))
    half = len(people) // 2
    divisions.replace(season, [("Masters", people[:half]), ("Amateurs", people[half:])])
    assert run_due() == 1
    url = f"/clubs/{world['club'].slug}/seasons/{season.slug}/divisions/?count=3"
    stored = divisions.preview
    assert counted_preview(season, 3) == stored(season, 3)  # the same moves either way

    def page(before: bool) -> tuple[float, float]:
        divisions.preview = counted_preview if before else stored  # type: ignore[assignment]
        try:
            wall, used, response = timed(lambda: client.get(url))
        finally:
            divisions.preview = stored  # type: ignore[assignment]
        assert response.status_code == 200 and b"Masters" in response.content
        return wall, used

    print(f"\nthe divisions page: {options.players} players x {options.evenings} evenings")
    page(True), page(False)  # warmed
    walls: dict[str, list[float]] = {"before": [], "now": []}
    cpus: dict[str, list[float]] = {"before": [], "now": []}
    for _ in range(options.repeat):
        for name in ("before", "now"):
            wall, used = page(name == "before")
            walls[name].append(wall), cpus[name].append(used)
    print(f"  {'':52}{'wall ms':>10}{'CPU ms':>10}")
    for row, name in (
        ("preview counted in the request (before)", "before"),
        ("preview from the stored table (now)", "now"),
    ):
        wall, used = statistics.median(walls[name]), statistics.median(cpus[name])
        print(f"  {row:52}{wall * 1000:10.1f}{used * 1000:10.1f}")
    ratio = statistics.median(cpus["now"]) / statistics.median(cpus["before"])
    print(f"  now / before: {ratio:.3f} CPU")
    return {"divisions": ratio}


# --- the tournament's export and import -----------------------------------------------------


def tournament_part(options: argparse.Namespace) -> None:
    from django.contrib.auth import get_user_model
    from django.core.files.uploadedfile import SimpleUploadedFile
    from django.test import Client

    from prefscore.clubs.models import Club, Membership, Role
    from prefscore.deferred.worker import run_due
    from prefscore.games.models import Deal
    from prefscore.tournaments import export_jobs, generator, imports, jobs
    from prefscore.tournaments.models import ExportJob, ImportJob

    user = get_user_model().objects.create_user("bench-organiser", password=None)
    club = Club.objects.create(name="Bench club", slug="bench")
    Membership.objects.create(club=club, user=user, role=Role.ORGANISER)
    data = generator.tournament_file(options.tournament_players, options.rounds, 12)
    text = json.dumps(data, ensure_ascii=False)
    tournament = imports.import_tournament(club, imports.read_file(text), user)
    deals = Deal.objects.filter(pulka__tournament=tournament).count()
    print(
        f"\nthe tournament: {options.tournament_players} players × {options.rounds} rounds, "
        f"{deals} deals, the file {len(text.encode()) / 1e6:.1f} MB"
    )
    client = Client()
    client.force_login(user)
    base = f"/tournaments/{club.slug}/{tournament.slug}/"

    def get(path: str) -> Any:
        response = client.get(base + path)
        assert response.status_code in (200, 302), (path, response.status_code)
        return response

    get("standings/")
    standings = min(timed(lambda: get("standings/"))[:2] for _ in range(3))
    print(f"  {'request':52}{'wall s':>9}{'CPU s':>9}{'× standings':>12}")

    def line(label: str, wall: float, used: float) -> None:
        print(f"  {label:52}{wall:9.2f}{used:9.2f}{wall / standings[0]:12.1f}")

    line("standings page (yardstick)", *standings)
    csv_wall, csv_cpu, _csv = timed(lambda: get("export.csv"))
    line("standings CSV, within the request (as before)", csv_wall, csv_cpu)

    def download() -> int:
        return len(get("export.json").content)

    before_limit = export_jobs.INLINE_DEALS
    export_jobs.INLINE_DEALS = deals + 1  # before: the request writes the file itself
    wall, used, size = timed(download)
    export_jobs.INLINE_DEALS = before_limit
    line(f"JSON export, written in the request (before, {size / 1e6:.1f} MB)", wall, used)
    inline_wall = wall
    wall, used, response = timed(lambda: get("export.json"))
    assert response.status_code == 302, response.status_code
    line("JSON export, handed to the worker (now)", wall, used)
    job = ExportJob.objects.get()
    page = timed(lambda: client.get(response["Location"], headers={"HX-Request": "true"}))
    line("  its job page, asked every second", page[0], page[1])
    worker = timed(run_due)
    line("  the job, in the worker", worker[0], worker[1])
    job.refresh_from_db()
    assert job.status == ExportJob.Status.DONE, job.message
    file_url = f"{base}export/{job.pk}/file/"
    fetched = timed(lambda: len(client.get(file_url).content))
    line(f"  the file, downloaded ({fetched[2] / 1e6:.1f} MB)", fetched[0], fetched[1])
    print(f"  export request now / before: {wall / inline_wall:.3f}")

    # Into another club of the organiser's: in this one the file is a tournament already.
    other = Club.objects.create(name="Bench club 2", slug="bench-2")
    Membership.objects.create(club=other, user=user, role=Role.ORGANISER)
    upload = SimpleUploadedFile("big.json", text.encode(), content_type="application/json")
    url = f"/tournaments/{other.slug}/new/import/"
    imported = timed(lambda: client.post(url, {"file": upload, "slug": "again"}))
    assert imported[2].status_code == 302, imported[2].status_code
    line("import request, the file handed to the worker (now)", imported[0], imported[1])
    job_run = timed(run_due)
    line("  the job, in the worker", job_run[0], job_run[1])
    done = ImportJob.objects.get()
    assert done.status == ImportJob.Status.DONE, done.message
    assert jobs.INLINE_BYTES < len(text.encode())
    slowest = max(wall, imported[0])
    met = "met" if slowest < GOAL_REQUEST_SECONDS else "NOT met"
    print(f"  goal: the export and import requests under {GOAL_REQUEST_SECONDS:.0f} s: {met}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", choices=("settle", "season", "divisions", "tournament"))
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--players", type=int, default=200)
    parser.add_argument("--evenings", type=int, default=40)
    parser.add_argument("--tournament-players", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=5)
    options = parser.parse_args()
    print(f"load average before: {os.getloadavg()[0]:.2f}")
    with tempfile.TemporaryDirectory() as folder:
        cpu.setup(folder)
        if options.only in (None, "settle"):
            settle_part(options)
        if options.only in (None, "season"):
            season_part(options)
        if options.only in (None, "divisions"):
            divisions_part(options)
        if options.only in (None, "tournament"):
            tournament_part(options)
    print(f"load average after: {os.getloadavg()[0]:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
