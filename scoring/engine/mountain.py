"""Who shares a gora point's 10 whists at settlement (docs/rules.md §3.7, ``mountain_divisor``).

The Кодекс (4.2.14, «вариант 1») divides each gora by the number of players, the gora's
owner included: each point costs its owner 10·(n − 1)/n whists, the mean mountain.
``mountain_divisor: others`` divides it by the n − 1 other players only, so each point
costs its owner 10 whists (rostiktc2-star/preferans-score ``src/domain/finalize.ts``:
«Ogni punto residuo vale 10 Crediti divisi … fra tutti gli avversari»). With two players
both are one: the indivisible mountain of S002. ``settlement.py`` calls these; both
Кодекс methods settle with the same divisor and still agree.
"""

from __future__ import annotations

from .conventions import Convention


def mountain_divisor(size: int, convention: Convention) -> int:
    """How many players share each gora point's 10 whists (docs/rules.md §3.7).

    ``n`` (the Кодекс's mean mountain), ``n − 1`` with ``mountain_divisor: others`` (RS
    finalize.ts), and 1 for two players with an indivisible mountain (S002).
    """
    if size == 2 and convention.indivisible_mountain:
        return 1
    if convention.mountain_divisor == "others":
        return size - 1
    return size


def splits_among_others(size: int, convention: Convention) -> bool:
    """Whether the gora goes to the others only (docs/rules.md §3.7, ``mountain_divisor``).

    Only where it changes anything: with two players it is the indivisible mountain.
    """
    return convention.mountain_divisor == "others" and size > 2


def rounding_divisor(size: int, convention: Convention) -> int:
    """The ``n`` of rule 4.2.12's compensation ``floor(10/n)`` (docs/rules.md §3.7).

    With the gora shared by the others, a gora point moved is worth ``10/(n − 1)`` to each
    of them, so the compensation is ``floor(10/(n − 1))``; otherwise the Кодекс's ``n``
    (two players with an indivisible mountain keep it, as they always have).
    """
    return size - 1 if convention.mountain_divisor == "others" else size
