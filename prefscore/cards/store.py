"""Each card drawn once: kept as ``CARD_DIR/<key>.png``, the key a hash of what it shows.

A request for a card asks for its key; the same figures, words and language give the
same key, so the kept file is sent again as it is (and answers ``If-None-Match`` with a
304). New figures make a new key, and the old file is simply no longer asked for. The
file is written under a temporary name and renamed, so that two workers drawing the
same card at once never serve half a file.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from django.conf import settings

from .draw import draw_card
from .layout import Card


def directory() -> Path:
    return Path(settings.CARD_DIR)


def kept(card: Card) -> Path:
    """The card's file, drawn now if it was never drawn."""
    path = directory() / f"{card.key()}.png"
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        data = draw_card(card)
        handle, temporary = tempfile.mkstemp(dir=path.parent, suffix=".part")
        try:
            with os.fdopen(handle, "wb") as out:
                out.write(data)
            os.replace(temporary, path)
        except BaseException:
            Path(temporary).unlink(missing_ok=True)
            raise
    return path
