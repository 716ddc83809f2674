"""Deferred work as an organiser sees it (docs/tasks.md), in English and in Russian, with
production's worker loop in a thread of the live server's process:

- a large tournament's export answers at once with its job page, which shows the job
  waiting, then the tables written, then offers the file (the worker writes it);
- the last deal of a pulka finishes it at once; the club rating says "updating…" until
  the worker's recount lands, and then shows the players without a reload.

Sizes are small: "large" is lowered to a few deals, and each table of the export is
slowed so that the count is seen between the waiting and the file.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from playwright.sync_api import expect

from prefscore.clubs.models import Player
from prefscore.games.models import Pulka
from prefscore.stats.models import PendingRecount
from prefscore.tournaments import export_jobs, exports, rounds
from tests.browser.support import axe_violations, fill_deal, sign_in
from tests.web import fixtures_corrections
from tests.web.fixtures_tournaments import enter, make_tournament, play_round_deals

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

seated_world = fixtures_corrections.seated_world

WORDS = {
    "en-US": {
        "waiting": "Waiting to begin",
        "written": "Tables written:",
        "ready": "The file is ready.",
        "updating": "updating…",
    },
    "ru-RU": {
        "waiting": "Ждёт начала",
        "written": "Записано столов:",
        "ready": "Файл готов.",
        "updating": "обновляется…",
    },
}
NINE = {"contract": "9S", "declarer": "Anna", "whists": {"Boris": "pass", "Vera": "pass"}}


@contextmanager
def worker_running(settings: Any) -> Iterator[None]:
    """Production's worker loop (prefscore/deferred/worker.py) in a thread, from now on."""
    from prefscore.deferred.worker import TaskWorker

    settings.BACKUP_EVERY_HOURS = 0  # no backup of the test database into data/
    worker = TaskWorker(interval=0.1)
    thread = threading.Thread(target=worker.run, name="test-task-worker", daemon=True)
    thread.start()
    try:
        yield
    finally:
        worker.running = False
        thread.join(timeout=30)


@pytest.mark.parametrize("locale", ["ru-RU"])  # one walk, one language: CONTRIBUTING.md, "Tests"
def test_a_large_export_and_a_finished_pulka_answer_at_once_then_show_their_results(
    live_server, new_context, seated_world, settings, monkeypatch, locale
):
    words = WORDS[locale]
    club, organiser = seated_world.club, seated_world.users["oksana"]
    cup = make_tournament(club, "Friday cup", slug="friday-cup")
    for name in ("Dina", "Egor", "Zoya"):
        Player.objects.create(club=club, name=name)
    enter(cup, list(club.players.all()))  # six: two tables
    rounds.draw_next_round(cup.pk)
    rounds.publish_round(cup.pk, 1)
    play_round_deals(cup, 1)
    monkeypatch.setattr(export_jobs, "INLINE_DEALS", 1)  # this cup of 4 deals is "large"
    monkeypatch.setattr(export_jobs, "COUNT_SECONDS", 0)
    table_json = exports.table_json
    count_seen = threading.Event()
    tables: list[int] = []

    def held_table(*args: Any, **kwargs: Any) -> Any:
        # The second table waits until the page has shown the count of the first: the
        # page's poll sees "1 of 2" however long it takes, and no longer than that.
        tables.append(1)
        if len(tables) > 1:
            count_seen.wait(timeout=30)
        return table_json(*args, **kwargs)

    monkeypatch.setattr(exports, "table_json", held_table)
    context = new_context(locale=locale, viewport={"width": 1280, "height": 800}, bypass_csp=True)
    sign_in(context, live_server.url, organiser)
    page = context.new_page()

    # The export: the job's page at once, waiting for the worker (none runs yet).
    page.goto(f"{live_server.url}/tournaments/friday/friday-cup/export.json")  # the room's link
    assert "/tournaments/friday/friday-cup/export/" in page.url
    progress = page.locator("#export-progress")
    expect(progress).to_contain_text(words["waiting"])
    assert axe_violations(page) == []
    with worker_running(settings):
        expect(progress).to_contain_text(words["written"], timeout=15_000)
        expect(progress.locator("progress[max='2']")).to_have_count(1)
        count_seen.set()
        expect(progress).to_contain_text(words["ready"], timeout=30_000)
        with page.expect_download() as downloaded:
            page.locator("#export-file").click()
        data = json.loads(open(downloaded.value.path(), encoding="utf-8").read())
        assert data["format"] == exports.FORMAT and len(data["rounds"][0]["tables"]) == 2
        assert axe_violations(page) == []

    # The pulka: its last deal answers at once; the recount waits for the worker.
    pulka = seated_world.pulka
    Pulka.objects.filter(pk=pulka.pk).update(target=2)
    page.goto(f"{live_server.url}/pulkas/{pulka.pk}/")
    fill_deal(page, NINE)
    page.locator("#entry-form button[type=submit]").click()
    expect(page.locator("#entry-form")).to_have_count(0, timeout=15_000)
    assert Pulka.objects.get(pk=pulka.pk).status == Pulka.Status.FINISHED
    assert PendingRecount.objects.filter(club=club).exists()

    page.goto(f"{live_server.url}/clubs/friday/rating/")
    figures = page.locator("#leaderboard-figures")
    expect(figures).to_contain_text(words["updating"])
    expect(figures.locator(".leaderboard tbody tr")).to_have_count(0)
    assert axe_violations(page) == []
    with worker_running(settings):
        expect(figures.locator(".leaderboard tbody tr")).to_have_count(3, timeout=20_000)
        expect(figures).not_to_contain_text(words["updating"])
    assert not PendingRecount.objects.exists()
