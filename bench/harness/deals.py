"""The deals a table plays, and the same deals as the entry form posts them.

Pure Python: the benches' parent processes use it without Django.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

NAMES = ("Anna", "Boris", "Vera")


def cycle_deal(number: int, names: Sequence[str] = NAMES) -> dict[str, Any]:
    """Deal ``number`` of a long evening: six kinds in turn, none closing a pulka to 1000.

    Legal Sochi deals (docs/protocol.md, "Deals") at a table of three whose first dealer is
    seat 0; after 400 deals the leader's pulya is still under 400.
    """
    dealer = (number - 1) % 3
    d, w1, w2 = names[(dealer + 1) % 3], names[(dealer + 2) % 3], names[dealer]
    return [
        {"contract": "6S", "declarer": d, "whists": {w1: "whist", w2: "pass"},
         "tricks": {d: 6, w1: 3, w2: 1}},
        {"contract": "allpass", "tricks": {d: 3, w1: 3, w2: 4}},
        {"contract": "7H", "declarer": d, "whists": {w1: "whist", w2: "whist"},
         "tricks": {d: 5, w1: 3, w2: 2}},
        {"contract": "6C", "declarer": w1, "whists": {w2: "pass", d: "half"}},
        {"contract": "misere", "declarer": w2, "tricks": {w2: 1}},
        {"contract": "8NT", "declarer": d, "whists": {w1: "pass", w2: "pass"}},
    ][(number - 1) % 6]  # fmt: skip


def entry_form(facts: Mapping[str, Any], names: Sequence[str], number: int) -> dict[str, str]:
    """The entry form's fields (prefscore/games/forms.py) for deal ``number``, by seat."""
    seat = {name: str(i) for i, name in enumerate(names)}
    level = re.match(r"\d+", facts["contract"])
    form = {"number": str(number), "contract": level.group(0) if level else facts["contract"]}
    if level:
        form["suit"] = facts["contract"][level.end() :]
    if "declarer" in facts:
        form["declarer"] = seat[facts["declarer"]]
    form.update({f"word_{seat[n]}": w for n, w in facts.get("whists", {}).items()})
    form.update({f"tricks_{seat[n]}": str(t) for n, t in facts.get("tricks", {}).items()})
    return form


def cycle_form(number: int, names: Sequence[str] = NAMES) -> dict[str, str]:
    """Deal ``number`` of the cycle as the entry form posts it."""
    return entry_form(cycle_deal(number, names), names, number)
