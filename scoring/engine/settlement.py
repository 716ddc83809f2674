"""Settlement in whists and money (docs/rules.md §3.7; Кодекс 4.2.12–4.2.14).

All figures are exact rationals. Both Кодекс methods are given as steps a person can
follow, and both equal the closed formula
``R[i] = 10·(Ḡ − G'[i]) + Σ_j (W[i][j] − W[j][i])``, or with ``mountain_divisor: others``
``R[i] = 10·n/(n − 1)·(Ḡ − G'[i]) + …`` (``mountain.py``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from itertools import combinations

from .conventions import Convention
from .mountain import mountain_divisor, rounding_divisor
from .numbers import Points, exact_div, is_whole, normalise


@dataclass(frozen=True, slots=True)
class Totals:
    """The sheet's final figures: what settlement reads (Кодекс 4.2.1)."""

    names: tuple[str, ...]
    target: int
    pulya: tuple[Points, ...]
    gora: tuple[Points, ...]
    whists: tuple[tuple[Points, ...], ...]

    @property
    def size(self) -> int:
        return len(self.names)


def converted_gora(totals: Totals, convention: Convention) -> tuple[Points, ...]:
    """G' = G + f·(T − P): unclosed pulya carried to the gora (docs/rules.md §3.7.1; 4.2.3)."""
    factor, target = convention.pulya_to_gora, totals.target
    return tuple(
        normalise(g + factor * (target - p)) for g, p in zip(totals.gora, totals.pulya, strict=True)
    )


def _indivisible(totals: Totals, convention: Convention) -> bool:
    return totals.size == 2 and convention.indivisible_mountain


def _mountain_divisor(totals: Totals, convention: Convention) -> int:
    """n, n − 1 (``mountain_divisor: others``), or 1 for two players with an indivisible
    mountain (docs/rules.md §3.7, S002)."""
    return mountain_divisor(totals.size, convention)


def exact_result(totals: Totals, convention: Convention) -> tuple[Points, ...]:
    """Each player's result in whists, exactly; they add up to 0 (docs/rules.md §3.7.3)."""
    converted = converted_gora(totals, convention)
    size, whists = totals.size, totals.whists
    if _indivisible(totals, convention):
        mountain = [10 * (converted[1 - i] - converted[i]) for i in range(2)]
    else:
        total, divisor = sum(converted), _mountain_divisor(totals, convention)
        mountain = [exact_div(10 * (total - size * g), divisor) for g in converted]
    return tuple(
        normalise(mountain[i] + sum(whists[i][j] - whists[j][i] for j in range(size) if j != i))
        for i in range(size)
    )


@dataclass(frozen=True, slots=True)
class PairwiseMethod:
    """Кодекс 4.2.14, «вариант 1»: the mountain written as whists, pair by pair.

    ``amnesty`` was subtracted from every converted gora; ``mountain_whists[j]`` is
    what each other player writes on owner j; ``nets[i][j]`` is i's net against j.
    """

    converted: tuple[Points, ...]
    amnesty: Points
    amnestied: tuple[Points, ...]
    mountain_whists: tuple[Points, ...]
    nets: tuple[tuple[Points, ...], ...]
    result: tuple[Points, ...]


@dataclass(frozen=True, slots=True)
class AverageMountainMethod:
    """Кодекс 4.2.14, «вариант 2» («4 кружочка», S000a): the average mountain.

    ``mountain_circle[i] = 10·(Ḡ − G'[i])``; ``whist_circles[i][j]`` is i's raw whist
    net against j; ``result`` is their sum (the double circle).
    """

    converted: tuple[Points, ...]
    amnesty: Points
    amnestied: tuple[Points, ...]
    mean: Points
    mountain_circle: tuple[Points, ...]
    whist_circles: tuple[tuple[Points, ...], ...]
    result: tuple[Points, ...]


def _amnesty(converted: tuple[Points, ...]) -> tuple[Points, tuple[Points, ...]]:
    low = min(converted)
    return low, tuple(normalise(g - low) for g in converted)


def pairwise_method(totals: Totals, convention: Convention) -> PairwiseMethod:
    """Settle by rule 4.2.14, method 1: amnesty, mountain whists, pairwise nets (§3.7)."""
    converted = converted_gora(totals, convention)
    amnesty, amnestied = _amnesty(converted)
    size, divisor = totals.size, _mountain_divisor(totals, convention)
    mountain = tuple(exact_div(10 * g, divisor) for g in amnestied)
    written = [
        [totals.whists[i][j] + (mountain[j] if i != j else 0) for j in range(size)]
        for i in range(size)
    ]
    nets = tuple(
        tuple(normalise(written[i][j] - written[j][i]) if i != j else 0 for j in range(size))
        for i in range(size)
    )
    result = tuple(normalise(sum(row)) for row in nets)
    return PairwiseMethod(converted, amnesty, amnestied, mountain, nets, result)


def average_mountain_method(totals: Totals, convention: Convention) -> AverageMountainMethod:
    """Settle by rule 4.2.14, method 2: the mountain circle and the whist circles (§3.7)."""
    converted = converted_gora(totals, convention)
    amnesty, amnestied = _amnesty(converted)
    size = totals.size
    if _indivisible(totals, convention):
        mean: Points = 0
        circle = tuple(10 * (amnestied[1 - i] - amnestied[i]) for i in range(2))
    else:
        mean = exact_div(sum(amnestied), size)
        circle = tuple(normalise(10 * (mean - g)) for g in amnestied)
        divisor = _mountain_divisor(totals, convention)
        if divisor != size:  # each point is 10 whists to the others: n/(n − 1) of the circle
            circle = tuple(exact_div(c * size, divisor) for c in circle)
    whists = totals.whists
    circles = tuple(
        tuple(normalise(whists[i][j] - whists[j][i]) if i != j else 0 for j in range(size))
        for i in range(size)
    )
    result = tuple(normalise(circle[i] + sum(circles[i])) for i in range(size))
    return AverageMountainMethod(converted, amnesty, amnestied, mean, circle, circles, result)


@dataclass(frozen=True, slots=True)
class Adjustment:
    """One ±1 change of a gora by rule 4.2.12, paid for with ``compensation`` whists."""

    seat: int
    change: int
    compensation: int


@dataclass(frozen=True, slots=True)
class WholeResult:
    """Whole whists (Кодекс 4.2.12): the adjustments made and the result they give."""

    adjustments: tuple[Adjustment, ...]
    result: tuple[int, ...]


def compensation(size: int, convention: Convention) -> int:
    """Whists per adjusted gora point: ``floor(10/n)``, or the 4-player option (§3.7).

    With ``mountain_divisor: others`` the ``n`` is the n − 1 who share the gora.
    """
    divisor = rounding_divisor(size, convention)
    return convention.rounding_compensation_4 if divisor == 4 == size else 10 // divisor


def rounding_bound(size: int, convention: Convention, adjustments: int) -> Fraction:
    """How far rule 4.2.12 may move a result from the exact one (docs/rules.md §3.7.5).

    Each ±1 adjustment moves the adjusted player by ``(n−1)·|10/d − q|``, where ``d``
    shares each gora point (n, or n − 1 with ``mountain_divisor: others``).
    """
    step = abs(Fraction(10, rounding_divisor(size, convention)) - compensation(size, convention))
    return max(Fraction(1), adjustments * (size - 1) * step)


def whole_result(
    totals: Totals, convention: Convention, first_seat: int | None = None
) -> WholeResult:
    """Whole whists by rule 4.2.12 exactly as docs/protocol.md states (``rounding``).

    ``codex``: try net gora changes 0, −1, +1, −2, +2, … and take the first that makes
    every result whole. With ``rounding_adjusts: pairwise`` (the default) the points go
    to the players whose adjustment lets the pairwise method (Кодекс 4.2.14, «вариант
    1») divide every amnestied gora exactly, the earliest seats first
    (``_pairwise_adjustments``); failing that, with ``rounding_adjusts: first_seat``, or
    with ``first_seat`` (the table's choice), one each to the seats clockwise from
    ``first_seat`` (the first seat by default). Every other player writes ``+q``
    (lowered) or ``−q`` (raised) whists on each adjusted player.
    ``exact``, or when no adjustment can make fractional whists whole: the exact result
    rounded by largest remainder, ties to the earlier seat.
    """
    if convention.rounding == "codex":
        size = totals.size
        q = compensation(size, convention)
        if first_seat is None and convention.rounding_adjusts == "pairwise":
            found = _pairwise_adjustments(totals, convention, q)
            if found is not None:
                return found
        order = [((first_seat or 0) + k) % size for k in range(size)]
        for net in _net_changes(size):
            adjustments = tuple(
                Adjustment(seat, -1 if net < 0 else 1, q) for seat in order[: abs(net)]
            )
            result = exact_result(adjust(totals, adjustments), convention)
            if all(is_whole(r) for r in result):
                return WholeResult(adjustments, tuple(int(r) for r in result))
    return WholeResult((), largest_remainder(exact_result(totals, convention)))


def _pairwise_adjustments(totals: Totals, convention: Convention, q: int) -> WholeResult | None:
    """The fewest ±1 adjustments (lowering first, earliest seats first) after which the
    pairwise method divides every amnestied gora (Кодекс 4.2.14: «Если деление без
    остатка невозможно, то поступают в соответствии с правилом 4.2.12»), and every
    result is whole; None when there are none (docs/rules.md §3.7, "Who x is")."""
    size = totals.size
    exact = exact_result(totals, convention)
    if all(is_whole(r) for r in exact):  # nothing fractional: nothing to adjust
        return WholeResult((), tuple(int(r) for r in exact))
    for net in _net_changes(size)[1:]:
        for seats in combinations(range(size), abs(net)):
            adjustments = tuple(Adjustment(seat, -1 if net < 0 else 1, q) for seat in seats)
            adjusted = adjust(totals, adjustments)
            if not all(is_whole(m) for m in pairwise_method(adjusted, convention).mountain_whists):
                continue
            result = exact_result(adjusted, convention)
            if all(is_whole(r) for r in result):
                return WholeResult(adjustments, tuple(int(r) for r in result))
    return None


def _net_changes(size: int) -> list[int]:
    changes = [0]
    for k in range(1, size + 1):
        changes += [-k, k]
    return changes


def adjust(totals: Totals, adjustments: Sequence[Adjustment]) -> Totals:
    """The sheet after 4.2.12 adjustments: gora ±1 and ±q whists from each other player."""
    gora = list(totals.gora)
    whists = [list(row) for row in totals.whists]
    for adj in adjustments:
        gora[adj.seat] += adj.change
        for other in range(totals.size):
            if other != adj.seat:
                whists[other][adj.seat] -= adj.change * adj.compensation
    return Totals(totals.names, totals.target, totals.pulya, tuple(gora), tuple(map(tuple, whists)))


def largest_remainder(values: Sequence[Points]) -> tuple[int, ...]:
    """Round figures that add up to a whole to whole numbers with the same sum.

    Floors first, then one more to the largest remainders, ties to the earlier seat
    (docs/protocol.md, ``rounding: exact``).
    """
    floors = [int(Fraction(v).__floor__()) for v in values]
    missing = int(sum(Fraction(v) for v in values)) - sum(floors)
    by_remainder = sorted(range(len(values)), key=lambda i: (-(Fraction(values[i]) - floors[i]), i))
    for i in by_remainder[:missing]:
        floors[i] += 1
    return tuple(floors)


def money(result: Sequence[int], stake: Decimal) -> tuple[Decimal, ...]:
    """Money = whists × stake (Кодекс 4.2.13), in exact decimals."""
    return tuple(Decimal(r) * stake for r in result)


@dataclass(frozen=True, slots=True)
class Payment:
    """``payer`` pays ``amount`` whists to ``payee``."""

    payer: int
    payee: int
    amount: Points


def payments(result: Sequence[Points]) -> tuple[Payment, ...]:
    """The shortest list of payments that settles ``result`` (which adds up to 0).

    The fewest payments is n minus the largest number of groups that each add up to
    0 (exact for the 2–5 players of a pulka); within a group the largest debtor pays
    the largest creditor.
    """
    players = [i for i, r in enumerate(result) if r != 0]
    groups = _zero_sum_groups(players, result)
    found: list[Payment] = []
    for group in groups:
        found.extend(_settle_group(group, result))
    return tuple(found)


def _zero_sum_groups(players: list[int], result: Sequence[Points]) -> list[tuple[int, ...]]:
    """Split players into as many zero-sum groups as possible, smallest groups first."""
    if not players:
        return []
    for size in range(1, len(players) + 1):
        for group in combinations(players, size):
            if sum(result[i] for i in group) == 0:
                rest = [p for p in players if p not in group]
                return [group, *_zero_sum_groups(rest, result)]
    return [tuple(players)]


def _settle_group(group: tuple[int, ...], result: Sequence[Points]) -> list[Payment]:
    balance = {i: result[i] for i in group}
    found = []
    while any(balance.values()):
        payer = min(balance, key=lambda i: (balance[i], i))
        payee = max(balance, key=lambda i: (balance[i], -i))
        amount = min(-balance[payer], balance[payee])
        found.append(Payment(payer, payee, normalise(amount)))
        balance[payer] += amount
        balance[payee] -= amount
    return found
