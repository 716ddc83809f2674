"""The drawn sheet and the status line render byte for byte as they did before their
template path was made cheaper (docs/benchmarks.md).

Each pulka below (three and four players, struck corrections, manual entries, a long
evening whose fields shorten, a finished one; English and Russian) is imported from a
pulka file and its sheet page rendered with an empty cache; the sheet region and the
status line are compared with the renderings kept in ``sheet_golden/``, which were
written by the template path before the change (``PREFSCORE_WRITE_GOLDEN=1`` writes
them again, for a deliberate change of the markup).
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.test import Client
from django.urls import reverse

from prefscore.clubs.models import Club, Membership, Role
from prefscore.games import io
from tests.web.fixtures_table import legal_deals, region

pytestmark = pytest.mark.django_db

GOLDEN = Path(__file__).parent / "sheet_golden"
WRITE = os.environ.get("PREFSCORE_WRITE_GOLDEN") == "1"
THREE = ("Anna", "Boris", "Vera")
FOUR = ("Anna", "Boris", "Vera", "Gleb Konstantinovich")


def _other(names: tuple[str, ...], number: int) -> dict[str, Any]:
    """A legal deal of the same dealer as deal ``number`` but of another kind."""
    k = number - 1
    return legal_deals(names, k + len(names) + 1)[k + len(names)]


def _one_more_trick(deal: dict[str, Any]) -> dict[str, Any]:
    """The same played deal with one defender's trick given to the declarer."""
    tricks = dict(deal["tricks"])
    defender = next(name for name in tricks if name != deal["declarer"] and tricks[name])
    tricks[defender] -= 1
    tricks[deal["declarer"]] += 1
    return {**deal, "tricks": tricks}


def _manual(player: str, section: str, points: int, reason: str, on: str = "") -> dict[str, Any]:
    line: dict[str, Any] = {"player": player, "section": section, "points": points}
    if on:
        line["on"] = on
    return {"manual": {**line, "reason": reason}}


def _corrected(names: tuple[str, ...], count: int, fixes: tuple[int, ...]) -> list[Any]:
    """``count`` deals, then each of ``fixes`` corrected to another kind of deal."""
    items: list[Any] = list(legal_deals(names, count))
    items += [{"correct": n, "deal": _other(names, n)} for n in fixes]
    return items


def _pulkas() -> dict[str, dict[str, Any]]:
    """Pulka files, by name: each a case the sheet draws differently."""
    four = legal_deals(FOUR, 6)
    with_manual = list(four)
    with_manual[2:2] = [
        _manual("Boris", "whists", 20, "balance carried <from> the first sheet", on="Anna"),
        _manual("Vera", "gora", 6, "fine: showed a card"),
    ]
    finished = [
        {"contract": "6S", "declarer": d, "whists": {w: "pass" for w in THREE if w != d}}
        for d in ("Anna", "Boris", "Vera") * 5
    ]
    return {
        "three-12": {"players": THREE, "target": 1000, "deals": legal_deals(THREE, 12)},
        "three-100": {"players": THREE, "target": 1000, "deals": legal_deals(THREE, 100)},
        "three-corrected": {
            "players": THREE,
            "target": 1000,
            "deals": _corrected(THREE, 9, (3, 7, 9)),
        },
        "four-manual-corrected": {
            "players": FOUR,
            "target": 1000,
            "deals": [*with_manual, {"correct": 5, "deal": _one_more_trick(four[2])}],
        },
        "three-finished": {"players": THREE, "target": 10, "deals": finished},
        "empty": {"players": FOUR, "target": 20, "deals": []},
    }


def _file(spec: dict[str, Any]) -> str:
    import json

    return json.dumps({"convention": "sochi", "first_dealer": spec["players"][0], **spec})


@pytest.fixture
def viewer(db: Any) -> tuple[Club, Client]:
    club = Club.objects.create(name="Golden", slug="golden")
    user = get_user_model().objects.create_user("gold", password=None)
    Membership.objects.create(club=club, user=user, role=Role.MEMBER)
    client = Client()
    client.force_login(user)
    return club, client


def _rendered(club: Club, client: Client, spec: dict[str, Any], language: str) -> str:
    """The sheet region and the status line of the pulka's page, rendered fresh."""
    pulka = io.import_file(club, io.read_text(_file(spec)), None)
    cache.clear()
    url = reverse("games:sheet", args=[pulka.pk])
    response = client.get(url, headers={"accept-language": language})
    assert response.status_code == 200
    page = response.content.decode()
    both = f"{region(page, 'status')}\n----\n{region(page, 'sheet')}\n"
    return re.sub(rf"/pulkas/{pulka.pk}/", "/pulkas/N/", both)


@pytest.mark.parametrize("language", ["en", "ru"])
@pytest.mark.parametrize("name", sorted(_pulkas()))
def test_the_sheet_renders_as_before_the_faster_template_path(
    viewer: tuple[Club, Client], name: str, language: str
) -> None:
    club, client = viewer
    html = _rendered(club, client, _pulkas()[name], language)
    path = GOLDEN / f"{name}.{language}.html"
    if WRITE:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(html, encoding="utf-8")
    assert html == path.read_text(encoding="utf-8")


def test_the_golden_renderings_show_what_they_are_meant_to() -> None:
    """The cases really draw what they are kept for: struck figures, shortened fields,
    manual notes (escaped), a finished pulka, Russian text on the Russian pages."""
    seen = {path.name: path.read_text(encoding="utf-8") for path in GOLDEN.glob("*.html")}
    assert len(seen) == 2 * len(_pulkas())
    assert "sheet__struck" in seen["three-corrected.en.html"]
    assert "<del>" in seen["four-manual-corrected.en.html"]
    assert "…" in seen["three-100.en.html"]
    assert "&lt;from&gt;" in seen["four-manual-corrected.en.html"]
    assert "badge--finished" in seen["three-finished.en.html"]
    assert "Баланс" in seen["three-12.ru.html"] or "баланс" in seen["three-12.ru.html"]
    assert "Player" not in seen["three-12.ru.html"]
