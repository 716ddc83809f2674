"""Club evenings written straight as the statistics' summary rows, for the season tests.

``evening(club, day, tables)`` makes one finished club pulka per table, started on ``day``,
and the summary rows the statistics would write for it (seat order, exact results). Its
sheet says the same: manual lines of whists (docs/rules.md §3.11) that settle to those
results, so that ``check_season``'s recount from the sheets agrees.
"""

from __future__ import annotations

import datetime
from collections.abc import Sequence
from fractions import Fraction

from django.utils import timezone

from prefscore.clubs.models import Club, Player
from prefscore.games.models import Deal, Pulka
from prefscore.seasons.models import Season
from prefscore.stats.models import PulkaSummary
from tests.web.fixtures_access import make_pulka


def open_season(club: Club, **fields: object) -> Season:
    """Season "Spring" of ``club``, open from 2000 to 2100 so that it counts whatever is
    played; ``fields`` set the rest (its measure, whether it is public…)."""
    return Season.objects.create(
        club=club,
        name="Spring",
        slug="spring",
        starts_on=datetime.date(2000, 1, 1),
        ends_on=datetime.date(2100, 1, 1),
        **fields,
    )


# (names in seat order, whists per seat, convention)
TableSpec = tuple[Sequence[str], Sequence[int], str]


def evening(club: Club, day: datetime.date, tables: Sequence[TableSpec]) -> list[Pulka]:
    started = timezone.make_aware(datetime.datetime.combine(day, datetime.time(19)))
    made = []
    for names, whists, convention in tables:
        pulka = make_pulka(club, tuple(names))
        Pulka.objects.filter(pk=pulka.pk).update(
            status=Pulka.Status.FINISHED, created_at=started, convention_name=convention
        )
        Deal.objects.bulk_create(
            Deal(pulka=pulka, number=number, facts=facts)
            for number, facts in enumerate(result_lines(names, whists), start=1)
        )
        players = {p.name: p for p in Player.objects.filter(club=club, name__in=names)}
        best = max(whists)
        PulkaSummary.objects.bulk_create(
            PulkaSummary(
                pulka=pulka,
                player=players[name],
                club=club,
                seat=seat,
                finished_at=started,
                version=1,
                table_size=len(names),
                convention_name=convention,
                result=str(Fraction(value)),
                won=value == best,
                play={},
                against={},
            )
            for seat, (name, value) in enumerate(zip(names, whists, strict=True))
        )
        made.append(pulka)
    return made


def result_lines(names: Sequence[str], whists: Sequence[int]) -> list[dict[str, object]]:
    """Manual lines of whists that settle to ``whists`` (adding up to zero): each player
    but the last writes his gain on the last, or the last writes his loss on him."""
    last = names[-1]
    lines = []
    for name, value in zip(names[:-1], whists[:-1], strict=True):
        if value:
            writer, on = (name, last) if value > 0 else (last, name)
            line = {"player": writer, "section": "whists", "on": on, "points": abs(value)}
            lines.append({"manual": {**line, "reason": "the evening's result"}})
    return lines


# The six evenings of tests/engine/test_season.py, by name (A..E, X).
DAY = datetime.date(2026, 5, 4)
SERIES: tuple[tuple[TableSpec, ...], ...] = (
    ((("Alla", "Bella", "Cyril", "Dima"), (30, 10, -10, -30), "leningrad"),),
    ((("Alla", "Bella", "Egor"), (20, 0, -20), "leningrad"),),
    ((("Bella", "Cyril", "Dima", "Egor"), (40, 20, 0, -60), "sochi"),),
    ((("Dima", "Cyril", "Xenia", "Egor"), (30, 10, -10, -30), "leningrad"),),
    ((("Alla", "Bella", "Cyril", "Dima"), (-30, -10, 10, 30), "leningrad"),),
    ((("Alla", "Cyril", "Egor"), (5, -5, 0), "leningrad"),),
)


def play_series(club: Club, evenings: int = 6) -> None:
    for week, tables in enumerate(SERIES[:evenings]):
        evening(club, DAY + datetime.timedelta(days=7 * week), tables)
