"""The dealer and the zero-trick bonus (option ``allpass_zero_bonus_excludes_dealer``).

docs/rules.md §3.3 step 3: a player who takes no trick on an all-pass earns a bonus,
but never a 4-player dealer who sits out (unless ``allpass_zero_bonus_dealer``). With
2 or 3 players the dealer holds a hand and earns it like anyone. FSPR as
refinishru-Andre/pulka plays it (``src/engine/conventions.ts`` FSPR_RULES
``raspasZeroExcludesDealer``: «кроме СДАЮЩЕГО», ``calc.ts`` ``calcRaspas``) gives the
dealer none at any table. ``allpass.py`` passes its candidates through
:func:`zero_bonus_seats`.
"""

from __future__ import annotations

from collections.abc import Iterable

from .conventions import Convention


def zero_bonus_seats(conv: Convention, dealer: int, candidates: Iterable[int]) -> list[int]:
    """The candidates for the zero-trick bonus, in order, less the dealer where the
    convention denies it to him at every table (docs/rules.md §3.3 step 3)."""
    if not conv.allpass_zero_bonus_excludes_dealer:
        return list(candidates)
    return [seat for seat in candidates if seat != dealer]


def dealer_earns_zero_bonus(conv: Convention) -> bool:
    """Whether a dealer may earn a zero-trick bonus at all (docs/rules.md §3.3 step 3):
    the pulya that Rostov's all-pass in whists gives the 4-player dealer is one."""
    return not conv.allpass_zero_bonus_excludes_dealer
