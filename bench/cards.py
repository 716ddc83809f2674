"""How fast a result card is drawn and sent again, and what a shared page weighs
(docs/design.md, "Sharing a result"), against a baseline.

    .venv/bin/python bench/cards.py [--repeat 15]

A finished pulka of three (names in Latin, Cyrillic and a 60-letter Arabic one) with a
stake, its result shared. Measured in the same run, milliseconds (median of
``--repeat``) of CPU time, as bench/cpu.py measures, with the bench settings on a fresh
database:

- the baseline: Pillow saving an empty 1200 × 630 PNG, the floor under any card;
- drawing the pulka's card (``cards.draw.draw_card``), each time with a new key;
- the first request of the public card (``/results/<token>/card.png``): the settlement
  read, the card drawn and kept, the answer, each time on a new card directory;
- the same request again, served from the kept copy;
- the same with the copy's ETag: a 304.

And the shared page's weight on the wire without the card: its HTML gzipped as the
server sends it, and the stylesheet gzipped (WhiteNoise's compressed copy).

Goals: a card drawn in under 150 ms the first time, and served from the kept copy after;
the shared page under 30 KB on the wire without the card.
"""

from __future__ import annotations

import argparse
import gzip
import io
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

DRAW_GOAL_MS = 150.0
PAGE_GOAL_BYTES = 30 * 1024
ARABIC = "محمد بن عبد الله بن عبد المطلب بن هاشم بن عبد مناف القرشي الهاشمي"[:60]
NAMES = ("Anna", "Борис Длиннофамильный", ARABIC)
DEALS: tuple[dict[str, Any], ...] = (
    {"contract": "6S", "declarer": NAMES[0], "whists": {NAMES[1]: "whist", NAMES[2]: "pass"},
     "tricks": {NAMES[0]: 6, NAMES[1]: 3, NAMES[2]: 1}},
    {"contract": "7H", "declarer": NAMES[1], "whists": {NAMES[0]: "whist", NAMES[2]: "whist"},
     "tricks": {NAMES[1]: 5, NAMES[0]: 3, NAMES[2]: 2}},
    {"contract": "6S", "declarer": NAMES[1], "whists": {NAMES[0]: "pass", NAMES[2]: "pass"}},
    {"contract": "6S", "declarer": NAMES[2], "whists": {NAMES[0]: "pass", NAMES[1]: "pass"}},
)  # fmt: skip


def world() -> dict[str, Any]:
    from decimal import Decimal

    from django.contrib.auth import get_user_model

    from prefscore.clubs.models import Club, Membership, Player, Role
    from prefscore.games import sharing
    from prefscore.games.models import Pulka, PulkaSeat
    from prefscore.games.services import record_deal
    from scoring.engine.conventions import preset

    user = get_user_model().objects.create_user("cards", password=None)
    club = Club.objects.create(name="Клуб «Пятница» 🃏", slug="cards")
    Membership.objects.create(club=club, user=user, role=Role.ADMIN)
    pulka = Pulka.objects.create(
        club=club,
        convention_name="sochi",
        convention_options=preset("sochi").to_options(),
        player_names=list(NAMES),
        target=2,
        stake=Decimal("0.5"),
    )
    for seat, name in enumerate(NAMES):
        PulkaSeat.objects.create(
            pulka=pulka, seat=seat, player=Player.objects.create(club=club, name=name)
        )
    for number, facts in enumerate(DEALS, start=1):
        record_deal(pulka.pk, facts, user, number)
    pulka.refresh_from_db()
    assert pulka.status == Pulka.Status.FINISHED
    token = sharing.result_token(sharing.share_result(pulka, user))
    return {"pulka": pulka, "token": token}


def timed(run: Callable[[], Any], repeat: int, before: Callable[[], Any] | None = None) -> float:
    """Median CPU milliseconds of this process in ``run`` (what it costs a core, whatever
    else the machine runs); ``before`` runs untimed before each."""
    times = []
    for _ in range(repeat):
        if before is not None:
            before()
        start = time.process_time()
        run()
        times.append((time.process_time() - start) * 1000)
    return statistics.median(times)


def measure(data: dict[str, Any], repeat: int) -> tuple[dict[str, float], dict[str, int]]:
    from dataclasses import replace

    from django.conf import settings
    from django.test import Client
    from django.utils import translation
    from PIL import Image

    from prefscore.cards.draw import draw_card
    from prefscore.games.presenters.card import pulka_card
    from prefscore.games.views.sharing import settled

    pulka, token = data["pulka"], data["token"]
    client = Client(HTTP_ACCEPT_LANGUAGE="ru")
    url = f"/results/{token}/card.png"
    figures: dict[str, float] = {}

    def blank() -> None:
        Image.new("RGB", (1200, 630), "#fbf8f1").save(io.BytesIO(), format="PNG")

    figures["baseline: an empty 1200 × 630 PNG saved"] = timed(blank, repeat)
    with translation.override("ru"):
        card = pulka_card(pulka, settled(pulka))
    counter = iter(range(10**6))
    figures["the card drawn (draw_card)"] = timed(
        lambda: draw_card(replace(card, footer=f"prefscore {next(counter)}")), repeat
    )

    def fresh_directory() -> None:
        settings.CARD_DIR = Path(tempfile.mkdtemp(prefix="cards-bench-"))

    def get() -> Any:
        response = client.get(url)
        assert response.status_code in (200, 304), response.status_code
        return response

    figures["first request of the card (drawn, kept)"] = timed(get, repeat, fresh_directory)
    etag = get()["ETag"]
    figures["the card again, from the kept copy"] = timed(get, repeat)
    figures["the card again with its ETag (304)"] = timed(
        lambda: client.get(url, HTTP_IF_NONE_MATCH=etag), repeat
    )

    page = client.get(f"/results/{token}/", HTTP_ACCEPT_ENCODING="gzip")
    assert page.status_code == 200
    wire = (
        len(page.content)
        if page.get("Content-Encoding") == "gzip"
        else len(gzip.compress(page.content))
    )
    css = (ROOT / "static" / "css" / "prefscore.css").read_bytes()
    sizes = {
        "the page's HTML, gzipped": wire,
        "the stylesheet, gzipped": len(gzip.compress(css, 9)),
        "the card (not counted)": len(get().content),
    }
    return figures, sizes


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=15)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        os.environ["CARD_DIR"] = str(Path(folder) / "cards")
        cpu.setup(folder)
        figures, sizes = measure(world(), args.repeat)
    baseline = next(iter(figures.values()))
    print(f"load {os.getloadavg()[0]:.2f}")
    print(f"{'':44} {'CPU ms':>12} {'× baseline':>11}")
    for name, ms in figures.items():
        print(f"{name:44} {ms:12.1f} {ms / baseline:11.2f}")
    for name, size in sizes.items():
        print(f"{name:44} {size / 1024:10.1f} KB")
    drawn = figures["the card drawn (draw_card)"]
    page = sizes["the page's HTML, gzipped"] + sizes["the stylesheet, gzipped"]
    print(
        f"goal: a card drawn under {DRAW_GOAL_MS:.0f} ms: {'met' if drawn < DRAW_GOAL_MS else 'NOT met'}"
    )
    print(f"goal: the shared page under 30 KB on the wire: {page / 1024:.1f} KB, "
          f"{'met' if page < PAGE_GOAL_BYTES else 'NOT met'}")  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
