"""Forfeit scores (docs/tournaments.md §4.9): what a table counts for a player who left it.

A player who leaves his table after its first deal (he dropped or was disqualified while
it was in play) forfeits that round. The regulations may cap what it counts for him: 0
records no gain from leaving (the online championship's time-out rule, §1: a positive
result is not recorded), a negative figure is a penalty; no cap counts the sheet as it
stands (Кодекс 4.2.14). His opponents keep their figures: the round is theirs as played.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import replace

from .ranking import TableResult


def forfeited(
    result: TableResult, forfeits: Collection[tuple[str, int]], cap: int | None
) -> TableResult:
    """``result`` with each forfeiting player's whists at most ``cap`` (§4.9).

    ``forfeits``: (player, round) pairs, each a round whose table that player left after
    its first deal. ``cap`` None: the table counts as it stands.
    """
    if cap is None or not forfeits:
        return result
    whists = tuple(
        min(whists, cap) if (player, result.round_number) in forfeits else whists
        for player, whists in zip(result.players, result.whists, strict=True)
    )
    return result if whists == result.whists else replace(result, whists=whists)
