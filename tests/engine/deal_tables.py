"""Known-answer tables of one deal's entries, shared by the ``test_deals*`` modules.

Unless a row says
otherwise: three players A, B, C; A deals the first deal and declares; B is first hand
(f1) and C second hand (f2). With four players D deals and sits out; with five E deals
and D is the outgoing player. Entries are tuples: ("A", "pulya", 2) and
("B", "whists", "A", 8) for 8 whists that B writes on A.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from .support import ABCD, ABCDE, score, written

FOUR: dict[str, Any] = {"players": ABCD, "first_dealer": "D"}
FIVE: dict[str, Any] = {"players": ABCDE, "first_dealer": "E"}
TWO: dict[str, Any] = {"players": ("A", "B")}
B_WHISTS = {"B": "whist", "C": "pass"}
BOTH_WHIST = {"B": "whist", "C": "whist"}
HALF = {"B": "pass", "C": "half"}


def tricks(a: int, b: int, c: int) -> dict[str, int]:
    return {"A": a, "B": b, "C": c}


def row(name: str, deal: dict[str, Any], expect: list[tuple[Any, ...]], **pulka: Any) -> Any:
    return pytest.param(deal, expect, pulka, id=name)


def check(deal: dict[str, Any], expect: list[tuple[Any, ...]], pulka: dict[str, Any]) -> None:
    assert written(score([deal], **pulka)) == Counter(expect)
