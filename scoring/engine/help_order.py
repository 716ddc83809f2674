"""Who receives help: the largest unclosed pulya, or the next one clockwise (docs/rules.md §3.4).

The option ``help_order``. ``largest`` (every preset but PU home) is the Кодекс 4.2.3
rule; ``clockwise`` is refinishru-Andre/pulka's (``src/engine/index.ts``,
``calcDealFull``: «Передаём соседям по часовой»): the next seat clockwise from the giver
whose pulya is open takes what fits, whatever its size. ``sheet.py`` asks
:func:`help_receiver` once for each step of the help.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from .conventions import Convention
from .numbers import Points


def help_receiver(
    conv: Convention,
    target: int,
    pulya: Sequence[Points],
    giver: int,
    sitting_out: Collection[int],
    remized: Collection[int],
) -> int | None:
    """The seat that receives the giver's next pulya points, or None (docs/rules.md §3.4.2).

    Seats are looked at clockwise from the giver, skipping closed pulyas and, with
    ``help_excludes_dealer``, the players sitting out. ``largest``: the largest pulya,
    ties to the nearest clockwise (Кодекс 4.2.3; S000e «по часовой стрелке»).
    ``clockwise``: the first open one (PU home). With ``help_excludes_remized_whister``
    a whister who has just gone down stops the help: None, and the rest is written off.
    """
    size = len(pulya)
    largest = conv.help_order == "largest"
    best: int | None = None
    for step in range(1, size):
        seat = (giver + step) % size
        if pulya[seat] >= target:
            continue
        if conv.help_excludes_dealer and seat in sitting_out:
            continue
        if best is None or (largest and pulya[seat] > pulya[best]):
            best = seat
            if not largest:
                break
    if best is not None and conv.help_excludes_remized_whister and best in remized:
        return None
    return best
