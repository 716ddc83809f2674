"""What each game is worth in whists under a convention (docs/rules.md §6.6; Кодекс 4.1.1).

Every game has one constant whist value within a pulka (Кодекс 4.1.1). The engine
computes it by scoring the game alone on an even sheet with a target far from
reach, and reading the declarer's settled result (the method of S000a, §6.6).
"""

from __future__ import annotations

from dataclasses import dataclass

from .contracts import Contract, Kind
from .conventions import Convention
from .deals import Deal
from .numbers import Points
from .pulka import Pulka, score_pulka
from .settlement import exact_result

_NAMES = ("A", "B", "C", "D", "E")
# Far above any pulya one deal writes, so that no help and no end interferes.
_FAR_TARGET = 1000


@dataclass(frozen=True, slots=True)
class GameValue:
    """``key`` names the game (``6_made``, ``7_down_1``, ``misere_caught_1``, …)."""

    key: str
    level: int
    whists: Points


def _declarer_result(convention: Convention, size: int, deal: Deal) -> Points:
    names = _NAMES[:size]
    # With 4 or 5 players the last seat deals, so A declares with B and C defending.
    dealer = size - 1 if size >= 4 else 2
    pulka = Pulka(names, convention, _FAR_TARGET, dealer, None, (deal,))
    scored = score_pulka(pulka)
    return exact_result(scored.totals, convention)[0]


def _tricks(size: int, declarer: int, first: int, second: int) -> tuple[tuple[str, int], ...]:
    if size == 2:
        return (("A", declarer), ("B", first + second))
    return (("A", declarer), ("B", first), ("C", second))


def _whists(size: int, first: str, second: str) -> tuple[tuple[str, str], ...]:
    return (("B", first),) if size == 2 else (("B", first), ("C", second))


def made_value(convention: Convention, size: int, level: int) -> Points:
    """A contract made exactly, whisted by one defender, the passer alongside (§6.6 a, b)."""
    contract = Contract(Kind.TRICKS, level)
    checked = level == 10 and convention.ten == "checked"
    words = ("pass", "pass") if checked else ("whist", "pass")
    deal = Deal(contract, "A", _whists(size, *words), _tricks(size, level, 10 - level, 0))
    return _declarer_result(convention, size, deal)


def down_one_value(convention: Convention, size: int, level: int) -> Points:
    """A contract one down with both defenders whisting (§6.6 d: 31 in Sochi with four)."""
    contract = Contract(Kind.TRICKS, level)
    defence = 11 - level
    checked = level == 10 and convention.ten == "checked"
    words = ("pass", "pass") if checked else ("whist", "whist")
    tricks = _tricks(size, level - 1, defence - defence // 2, defence // 2)
    return _declarer_result(convention, size, Deal(contract, "A", _whists(size, *words), tricks))


def misere_value(convention: Convention, size: int, taken: int) -> Points:
    """A misère made (``taken`` 0) or caught with ``taken`` tricks (§3.2)."""
    deal = Deal(Contract(Kind.MISERE), "A", (), (("A", taken),))
    return _declarer_result(convention, size, deal)


def allpass_trick_value(convention: Convention, size: int) -> Points:
    """One all-pass trick at the first all-pass price: A taking 4 against taking 3.

    The trick moves from B to A (4-3-3 against 3-4-3), so nobody's zero bonus enters.
    """
    more: tuple[tuple[str, int], ...]
    fewer: tuple[tuple[str, int], ...]
    if size == 2:
        more = (("A", 6), ("B", 4))
        fewer = (("A", 5), ("B", 5))
    else:
        more = (("A", 4), ("B", 3), ("C", 3))
        fewer = (("A", 3), ("B", 4), ("C", 3))
    allpass = Contract(Kind.ALLPASS)
    return _declarer_result(convention, size, Deal(allpass, tricks=more)) - _declarer_result(
        convention, size, Deal(allpass, tricks=fewer)
    )


def game_values(convention: Convention, size: int) -> tuple[GameValue, ...]:
    """The table of game values for a convention and table size (docs/rules.md §6.6).

    Sixes to tens made and one down, a misère made and caught with one trick, and an
    all-pass trick, each as the declarer's whists on an even sheet.
    """
    values = []
    for level in (6, 7, 8, 9, 10):
        values.append(GameValue(f"{level}_made", level, made_value(convention, size, level)))
        values.append(GameValue(f"{level}_down_1", level, down_one_value(convention, size, level)))
    values.append(GameValue("misere_made", 0, misere_value(convention, size, 0)))
    values.append(GameValue("misere_caught_1", 0, misere_value(convention, size, 1)))
    values.append(GameValue("allpass_trick", 0, allpass_trick_value(convention, size)))
    return tuple(values)
