"""Help when every pulya is closed: what comes off the giver's gora (docs/rules.md §3.4.3).

The options ``help_writeoff`` and ``help_writeoff_stops_at_zero``; ``sheet.py`` calls
:func:`help_writeoff` for the pulya points nobody could take.
"""

from __future__ import annotations

from .conventions import Convention
from .numbers import Points, exact_div


def help_writeoff(conv: Convention, size: int, excess: Points, gora: Points) -> Points:
    """Gora points written off for ``excess`` pulya points nobody could take (§3.4.3–4).

    ``points``: one gora point per pulya point (Кодекс 4.1.1). ``pulya_rate``: at the
    ``pulya_to_gora`` rate, 2 where the convention doubles (refinishru-Andre/pulka
    ``src/engine/index.ts``, home rules). Halved with two players and an indivisible
    mountain (Кодекс 4.1.1 c). With ``help_writeoff_stops_at_zero`` never more than
    the gora holds, so it stays at 0 or above (rostiktc2-star/preferans-score
    ``src/domain/engine.ts``).
    """
    amount: Points = excess * conv.pulya_to_gora if conv.help_writeoff == "pulya_rate" else excess
    if conv.indivisible_mountain and size == 2:
        amount = exact_div(amount, 2)
    if conv.help_writeoff_stops_at_zero:
        amount = max(0, min(amount, gora))
    return amount
