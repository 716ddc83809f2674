"""What is written stays written: a pulka started before the pairwise method's choice
became rule 4.2.12's default keeps the first-seat adjustment it was settled with
(scoring.0010_rounding_adjusts, docs/protocol.md ``rounding_adjusts``).
"""

from __future__ import annotations

import importlib
from datetime import timedelta
from decimal import Decimal

import pytest
from django.apps import apps
from django.urls import reverse

from prefscore.games import services
from prefscore.games.models import Pulka
from prefscore.stats import summaries
from scoring.engine.settlement import whole_result
from tests.web.fixtures_table import EN

pytestmark = pytest.mark.django_db

MIGRATION = importlib.import_module("scoring.migrations.0010_rounding_adjusts")


def _line(player: str, section: str, points: int, on: str | None = None) -> dict[str, object]:
    line: dict[str, object] = {"player": player, "section": section, "points": points}
    if on is not None:
        line["on"] = on
    return {"manual": {**line, "reason": "the paper sheet"}}


# The club's evening of tests/engine/test_settlement.py as manual lines: goras 6 / 23 / 0, Vera's whists 40 on Anna and 38
# on Boris, every pulya closed at 10 (CODEX_EVENING there).
EVENING = [
    _line("Anna", "gora", 6),
    _line("Boris", "gora", 23),
    _line("Vera", "whists", 40, "Anna"),
    _line("Vera", "whists", 38, "Boris"),
    _line("Anna", "pulya", 10),
    _line("Boris", "pulya", 10),
    _line("Vera", "pulya", 10),
]


def _result(pulka: Pulka) -> tuple[int, ...]:
    pulka.refresh_from_db()
    return whole_result(services.score(pulka).totals, pulka.convention).result


def test_a_pulka_started_before_the_change_keeps_its_first_seat_settlement(
    make_table_pulka, table_client
):
    older, newer = make_table_pulka(deals=EVENING), make_table_pulka(deals=EVENING)
    Pulka.objects.filter(pk=older.pk).update(created_at=MIGRATION.CHANGED - timedelta(days=1))
    for pulka in (older, newer):  # as the snapshots of that time were: without the key
        options = dict(pulka.convention_options)
        options.pop("rounding_adjusts", None)
        Pulka.objects.filter(pk=pulka.pk).update(convention_options=options)
    older.refresh_from_db()
    assert older.status == Pulka.Status.FINISHED
    assert _result(older) == (-3, -172, 175)  # recomputed under today's default: changed

    MIGRATION.older_snapshots_keep_the_first_seat(apps, None)

    assert _result(older) == (-4, -171, 175)  # as it was settled
    assert _result(newer) == (-3, -172, 175)  # started under the pairwise default
    page = table_client().get(reverse("games:settlement", args=[older.pk]), headers=EN)
    assert "171" in page.content.decode() and "172" not in page.content.decode()

    # ``manage.py summarise`` writes the money again from the same snapshot: unchanged.
    Pulka.objects.filter(pk=older.pk).update(stake=Decimal("0.5"))
    older.refresh_from_db()
    paid = [row.money for row in summaries.summary_rows(older)]
    assert paid == [Decimal("-2.0"), Decimal("-85.5"), Decimal("87.5")]

    MIGRATION.the_key_goes_again(apps, None)
    assert "rounding_adjusts" not in Pulka.objects.get(pk=older.pk).convention_options


def test_a_new_pulka_takes_its_conventions_default_into_its_snapshot(make_table_pulka):
    pulka = make_table_pulka()
    assert pulka.convention.rounding_adjusts == "pairwise"
