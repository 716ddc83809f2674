"""House rules of the defence: the gentleman split and who pays for missing tricks.

The options ``gentleman_on_made``, ``personal_quota`` and ``joint_liability:
second_own`` (docs/rules.md §3.1 steps 4–5; docs/protocol.md "Convention options").
``deals.py`` calls these where it writes trick whists and the whisters' shortfall.
"""

from __future__ import annotations

from collections.abc import Mapping

from .contracts import obligation
from .conventions import Convention
from .facts import GORA, Entry
from .numbers import exact_div


def gentleman_splits(conv: Convention, under: int) -> bool:
    """Whether a lone whister shares the trick whists with the passer (docs/rules.md §3.1.4).

    Gentleman whist splits them on a failed contract; with ``gentleman_on_made`` on a
    made one too (FSPR as refinishru-Andre/pulka ``src/engine/calc.ts`` plays it).
    """
    if conv.whist_style != "gentleman":
        return False
    return under > 0 or conv.gentleman_on_made


def own_trick_shares(
    conv: Convention, whisters: tuple[int, ...], tricks: Mapping[int, int], level: int
) -> dict[int, int] | None:
    """Two whisters who each answer for their own tricks: missing tricks by whister.

    docs/rules.md §3.1.5: with ``personal_quota`` on a 6 or 7 each whister owes
    ``max(0, quota − own tricks)`` even when the pair met its duty; with
    ``joint_liability: second_own`` on an 8, 9 or 10 the second whister owes one trick
    when he took none himself, whatever the first took (rostiktc2-star/preferans-score
    ``src/domain/engine.ts``). None when neither rule applies: the pair's rule stands.
    """
    if len(whisters) != 2:
        return None
    if level <= 7 and conv.personal_quota:
        quota = obligation(level) // 2
        return {w: max(0, quota - tricks[w]) for w in whisters}
    if level >= 8 and conv.joint_liability == "second_own":
        second = whisters[1]
        return {second: 0 if tricks[second] else 1}
    return None


def shortfall_entries(conv: Convention, shares: Mapping[int, int], price: int) -> list[Entry]:
    """Недовист written to the gora: ``gora_scale × price`` per missing trick (§3.1.5).

    Halved for half liability (docs/protocol.md, "Whister's shortfall").
    """
    unit = conv.gora_scale * price
    half = conv.whister_liability == "half"
    return [
        Entry(w, GORA, exact_div(unit * s, 2) if half else unit * s, reason="whister_shortfall")
        for w, s in shares.items()
        if s
    ]
