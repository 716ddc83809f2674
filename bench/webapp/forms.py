"""Deal facts (protocol.md) as the entry form posts them (prefscore/games/forms.py).

Both benches record deals through the real form, so they share this one translation.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any


def entry_form(facts: Mapping[str, Any], names: Sequence[str], number: int) -> dict[str, str]:
    """The form fields for deal ``number`` with these facts, players by seat."""
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
