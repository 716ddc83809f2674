"""A season's table counted again by the worker, not in the organiser's request
(docs/tasks.md §4).

Saving a season's settings, marking its pulkas or setting its divisions changes its whole
table: counting it again (``standings.refresh``) took 0.30 s by place points and 0.66 s
by the rating change for a club of 200 players over 40 evenings (docs/benchmarks.md,
"The season table"). So the request only writes a ``PendingCount`` row and queues
:func:`count_season`, in its own transaction; the worker counts the table, stores it and
deletes the rows it handled. Counting from the stored summaries and results, it gives
the same table however often it runs: a task run again after its worker died does no
harm, and a count asked while one runs is counted again after it.

While a season's count waits, its pages (the table, the projector, a player's line) say
"updating…" and ask again; its CSV and JSON answer 503 with the same words. If the task
failed its last try, they say the count failed instead (the owner sees the task and its
error in the admin); the next save, mark or settle asks again.
"""

from __future__ import annotations

import logging

from django.db import transaction
from django.utils.translation import gettext_lazy as _
from django_tasks import task

from prefscore.deferred.titles import titled
from prefscore.stats import recounts

from . import standings
from .models import PendingCount, Season

log = logging.getLogger(__name__)


def ask(season: Season) -> None:
    """Record the count and queue its task, both in the current transaction; a season
    with an event has its policy frozen at once, as its count will freeze it."""
    with transaction.atomic():
        standings.freeze_if_played(season)
        PendingCount.objects.create(season=season)
        count_season.enqueue(season.pk)


COUNTING = "counting"


def state(season: Season) -> str:
    """What the season's pages say of its table: "" (counted); ``COUNTING`` while its
    own count is to land; ``recounts.UPDATING`` while the club's recount (which counts
    the season too) is; ``recounts.FAILED`` when either failed its last try. At most
    four queries, two when nothing waits."""
    club = recounts.state(season.club_id)
    if club == recounts.FAILED:
        return club
    if PendingCount.objects.filter(season=season).exists():
        return COUNTING if recounts.live(count_season, season.pk) else recounts.FAILED
    return club


@task()
def count_season(season_id: int) -> int:
    """Count the season's table again and store it; the waiting rows handled."""
    season = Season.objects.filter(pk=season_id).first()
    if season is None:  # deleted since: its rows went with it
        return 0
    with recounts.one_at_a_time(season.club_id):
        waiting = list(PendingCount.objects.filter(season=season).values_list("pk", flat=True))
        if not waiting:
            return 0
        standings.refresh(season)
        PendingCount.objects.filter(pk__in=waiting).delete()
    log.info("season %s counted", season_id)
    return len(waiting)


titled(count_season, _("Count a season's table"))
