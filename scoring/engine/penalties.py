"""Corrections of recorded deals and their penalties (Кодекс 4.2.7; docs/protocol.md).

A correction replaces a recorded deal. Every player whom the wrong record favoured —
more whists written on someone than due, more pulya than due, less gora than due —
pays for it, unless it is his first such correction in the pulka: that one is a
warning (Кодекс 4.2.7, "первый раз, в виде предупреждения"). Under-entries in one's
own disfavour are not penalised: the rule covers «приписка» only.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from .deals import GORA, PULYA, WHISTS, Entry
from .numbers import Points, normalise
from .pickling import compact_pickle


@dataclass(frozen=True, slots=True)
class Favour:
    """What a wrong record gave one player beyond his due, by section."""

    player: int
    pulya: Points
    gora: Points
    whists: tuple[tuple[int, Points], ...]

    @property
    def any(self) -> bool:
        return bool(self.pulya or self.gora or self.whists)


def _totals(entries: Iterable[Entry], size: int) -> list[list[Points]]:
    """Per player: [pulya, gora, whists on 0, …, whists on n−1]."""
    table: list[list[Points]] = [[0] * (2 + size) for _ in range(size)]
    for e in entries:
        column = 0 if e.section == PULYA else 1 if e.section == GORA else 2 + (e.on or 0)
        table[e.player][column] += e.points
    return table


def favours(wrong: Iterable[Entry], right: Iterable[Entry], size: int) -> tuple[Favour, ...]:
    """Who the wrong record favoured and by how much (Кодекс 4.2.7; docs/protocol.md).

    Compares what the wrong and the corrected record wrote for each player.
    """
    old, new = _totals(wrong, size), _totals(right, size)
    found = []
    for p in range(size):
        pulya = max(0, old[p][0] - new[p][0])
        gora = max(0, new[p][1] - old[p][1])
        whists = tuple(
            (q, normalise(old[p][2 + q] - new[p][2 + q]))
            for q in range(size)
            if q != p and old[p][2 + q] > new[p][2 + q]
        )
        favour = Favour(p, normalise(pulya), normalise(gora), whists)
        if favour.any:
            found.append(favour)
    return tuple(found)


def penalty_entries(favour: Favour) -> tuple[Entry, ...]:
    """The penalty equals the over-entry (Кодекс 4.2.7, «за равное — равным»).

    (a) whists over-written on j: j writes as many on the offender; (b) pulya
    over-written: as many into the offender's gora; gora under-written: the missing
    points into his gora.
    """
    p = favour.player
    entries = [Entry(q, WHISTS, amount, p, "penalty") for q, amount in favour.whists]
    if favour.pulya or favour.gora:
        entries.append(Entry(p, GORA, normalise(favour.pulya + favour.gora), reason="penalty"))
    return tuple(entries)


@compact_pickle
@dataclass(frozen=True, slots=True)
class CorrectionOutcome:
    """The result of one correction: warnings given and penalties written."""

    number: int
    after_deal: int
    warned: tuple[int, ...]
    penalties: tuple[Entry, ...]
    penalised: bool = True


def judge_correction(
    number: int,
    after_deal: int,
    wrong: Iterable[Entry],
    right: Iterable[Entry],
    size: int,
    already_warned: frozenset[int],
    penalise: bool = True,
) -> CorrectionOutcome:
    """Apply Кодекс 4.2.7 to one correction: first favour warns, later ones pay.

    A correction that does not favour a player does not use up his warning; one made
    without penalty (``penalise`` False, Кодекс 4.2.9 and 4.2.16) warns nobody.
    """
    warned: list[int] = []
    penalties: list[Entry] = []
    for favour in favours(wrong, right, size) if penalise else ():
        if favour.player in already_warned:
            penalties.extend(penalty_entries(favour))
        else:
            warned.append(favour.player)
    return CorrectionOutcome(number, after_deal, tuple(warned), tuple(penalties), penalise)
