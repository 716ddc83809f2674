"""Which modules one htmx record passes through (docs/design.md, "How the table screen
is cached").

One deal recorded with ``HX-Request`` on a table whose phones have seen its version,
traced with ``sys.setprofile``: the distinct modules under ``prefscore/`` whose code is
called. The record of a club table stays in the layers below the table: the site's web
helpers and cache, the clubs' names and mail signals, and games; nothing of tournaments,
statistics or seasons runs on its way. The number of modules is no goal of its own:
modules are cut where the code has a seam (docs/design.md, "Layout"), and a count to keep
low rewarded merging unrelated concerns into one file.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from types import FrameType
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

import prefscore
from prefscore.games.models import Pulka
from tests.web.fixtures_table import HTMX, deal_form, legal_deals

pytestmark = pytest.mark.django_db

PACKAGE = Path(prefscore.__file__).resolve().parent
# Where a club table's record may run: the layers below the table (pyproject.toml).
ALLOWED = ("prefscore/web/", "prefscore/cache.py", "prefscore/clubs/", "prefscore/games/")


def modules_entered(action: Callable[[], Any]) -> tuple[Any, set[str]]:
    """``action()``'s result and the modules under ``prefscore/`` whose code it called."""
    entered: set[str] = set()

    def profile(frame: FrameType, event: str, _arg: object) -> None:
        if event == "call":
            path = Path(frame.f_code.co_filename)
            if path.is_relative_to(PACKAGE):
                entered.add(str(path.relative_to(PACKAGE.parent)))

    sys.setprofile(profile)
    try:
        result = action()
    finally:
        sys.setprofile(None)
    return result, entered


def test_one_htmx_record_runs_only_in_the_layers_below_the_table(
    make_table_pulka: Callable[..., Pulka], table_client: Callable[..., Client]
) -> None:
    pulka = make_table_pulka(deals=legal_deals(("Anna", "Boris", "Vera"), 5), target=1000)
    client = table_client("anna")
    # A phone has seen the table and a deal was recorded before: imports, templates and
    # the version's log are warm, as at a table in the middle of an evening.
    record = reverse("games:record", args=[pulka.pk])
    assert client.post(record, deal_form(6, declarer="0"), headers=HTMX).status_code == 200
    assert client.get(reverse("games:poll", args=[pulka.pk]), headers=HTMX).status_code in (
        200,
        304,
    )
    response, entered = modules_entered(
        lambda: client.post(
            record,
            deal_form(
                7,
                declarer="1",
                word_1="",
                word_2="whist",
                word_0="pass",
                tricks_0="1",
                tricks_1="6",
                tricks_2="3",
            ),
            headers=HTMX,
        )
    )
    assert response.status_code == 200, response.content[:500]
    assert entered, "the trace saw no module"
    assert {"prefscore/games/views/sheet.py", "prefscore/games/services.py"} <= entered
    assert sorted(m for m in entered if not m.startswith(ALLOWED)) == []
