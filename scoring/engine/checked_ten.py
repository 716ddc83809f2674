"""Trick whists on a failed checked 10 (option ``checked_ten_trick_whists``, docs/rules.md §3.1.7).

A checked 10 (``ten: checked``) has no duty and no shortfall. Prefscore's reading writes
no trick whists on it; refinishru-Andre/pulka's home rules (``src/engine/calc.ts``
``calcGame``, ``conventions.ts`` HOME_RULES: duty 0 on a ten, ``visterPenaltyPerMiss``
0) write them as on any level. ``deals.py`` calls :func:`checked_ten_trick_whists` when
a checked 10 fails.
"""

from __future__ import annotations

from collections.abc import Mapping

from .conventions import Convention
from .defence import gentleman_splits
from .facts import WHISTS, Entry
from .numbers import exact_div


def checked_ten_trick_whists(
    conv: Convention,
    declarer: int,
    defenders: tuple[int, ...],
    words: tuple[str, ...],
    tricks: Mapping[int, int],
) -> list[Entry]:
    """The defenders' trick whists on a failed checked 10 (docs/rules.md §3.1.7, PU home).

    Nothing unless ``checked_ten_trick_whists`` is on. A lone whister beside a passer
    writes as §3.1.4 says: every defence trick (greedy), or half each (gentleman). Any
    other words (both whist, both pass, none given: the 10 is checked by both) make
    each defender write his own tricks. ``kw·c`` whists a trick, c the price of a 10.
    """
    if not conv.checked_ten_trick_whists:
        return []
    per_trick = conv.whist_scale * conv.price(10)
    whisters = [seat for seat, word in zip(defenders, words, strict=True) if word == "whist"]
    if len(defenders) == 2 and len(whisters) == 1:
        whister = whisters[0]
        passer = defenders[1] if defenders[0] == whister else defenders[0]
        under = 10 - tricks[declarer]  # on a 10 the undertricks are the defence's tricks
        if gentleman_splits(conv, under):
            share = exact_div(per_trick * under, 2)
            amounts = {whister: share, passer: share}
        else:
            amounts = {whister: per_trick * under}
    else:
        amounts = {seat: per_trick * tricks[seat] for seat in defenders}
    return [
        Entry(seat, WHISTS, points, declarer, "trick_whists")
        for seat, points in amounts.items()
        if points
    ]
