"""A season's count (seasons/counts.py) whose worker is killed with SIGKILL in the middle:
the next worker counts the table once, to its end, and the stored table is the one the
request would have counted (docs/tasks.md §3, §4). Real worker processes, as
tests/test_deferred_kill.py starts them."""

from __future__ import annotations

import signal
import time

import pytest
from django.urls import reverse
from django_tasks import TaskResultStatus
from django_tasks_db.models import DBTaskResult

from prefscore.deferred.worker import run_due
from prefscore.seasons import counts, standings
from prefscore.seasons.models import PendingCount, Season
from tests.test_deferred_kill import (
    LEASE_SECONDS,
    lines,
    shared_database,
    start_worker,
    stop,
    wait_for,
)
from tests.web.season_fixtures import play_series
from tests.web.test_season_counts import SPRING

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_count_whose_worker_is_killed_is_counted_once_by_the_next(
    access_world, client_as, tmp_path
):
    play_series(access_world.club)
    run_due()  # the evenings' own recounts, in this process
    client_as("organiser").post(reverse("seasons:create", args=["home"]), SPRING)
    season = Season.objects.get(slug="spring")
    assert not season.lines.exists()
    log, out = tmp_path / "count.log", tmp_path / "workers.log"
    slow = ("tests/slow_count_worker.py",)

    with shared_database(tmp_path) as url:
        first = start_worker(url, out, slow, SLOW_COUNT_LOG=str(log))
        try:
            wait_for(lambda: len(lines(log)) == 1, 120, "the first worker began", out)
        finally:
            first.send_signal(signal.SIGKILL)  # in the middle of the count
            first.wait()
        second = start_worker(url, out, slow, SLOW_COUNT_LOG=str(log))
        try:
            wait_for(lambda: any("done" in x for x in lines(log)), 120, "the recount", out)
            time.sleep(3 * LEASE_SECONDS)  # time enough to count it a third time, were it to
        finally:
            stop(second)

    started = [x for x in lines(log) if x.startswith("start")]
    assert len(started) == 2 and started[0] != started[1]  # two processes
    assert len([x for x in lines(log) if x.startswith("done")]) == 1
    [row] = DBTaskResult.objects.filter(task_path=counts.count_season.module_path)
    assert row.status == TaskResultStatus.SUCCESSFUL and len(row.worker_ids) == 2
    assert not PendingCount.objects.exists()
    stored = standings.stored_as_compared(season)
    standings.refresh(season)
    assert stored == standings.stored_as_compared(season) and len(stored) == 6
