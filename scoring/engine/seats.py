"""Who sits where in one deal: dealer, players sitting out, first hand (docs/rules.md §4).

Seats are numbered clockwise in the order of the pulka's ``players``.
"""

from __future__ import annotations

from dataclasses import dataclass, field

MIN_PLAYERS = 2
MAX_PLAYERS = 5


@dataclass(frozen=True, slots=True)
class Seating:
    """The seats of one deal.

    ``active`` are the players dealt a hand, clockwise from first hand (left of the
    dealer). With 4 players the dealer sits out; with 5 the dealer and the outgoing
    player (the seat before the dealer) sit out; with 2 the dummy is no seat at all
    (docs/rules.md §4; docs/protocol.md, "Order and limits").
    """

    size: int
    dealer: int
    active: tuple[int, ...]
    sitting_out: tuple[int, ...]
    # Each active seat's defenders, worked out once: a seating is shared by every deal
    # dealt from that chair (:func:`seating`), and every trick contract asks.
    defenders: dict[int, tuple[int, ...]] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        active = self.active
        rotated = {seat: active[i + 1 :] + active[:i] for i, seat in enumerate(active)}
        object.__setattr__(self, "defenders", rotated)

    def defenders_of(self, declarer: int) -> tuple[int, ...]:
        """The defenders clockwise from the declarer: first hand ``f1`` speaks first (§3.1).

        A seat that is not dealt a hand has none: ``ValueError``, as ``tuple.index`` says.
        """
        found = self.defenders.get(declarer)
        if found is None:
            raise ValueError(f"seat {declarer} is not dealt a hand")
        return found


def seating(size: int, dealer: int) -> Seating:
    """The seating for a deal dealt by seat ``dealer`` at a table of ``size`` (docs/rules.md §4).

    Seatings are immutable and few (at most 14 tables of 2 to 5), so each is built once.
    """
    key = (size, dealer)
    found = _SEATINGS.get(key)
    if found is None:
        found = _seating(size, dealer)
        if MIN_PLAYERS <= size <= MAX_PLAYERS and 0 <= dealer < size:
            _SEATINGS[key] = found
    return found


_SEATINGS: dict[tuple[int, int], Seating] = {}


def _seating(size: int, dealer: int) -> Seating:
    if size == 2:
        return Seating(size, dealer, ((dealer + 1) % 2, dealer), ())
    if size == 3:
        return Seating(size, dealer, tuple((dealer + k) % 3 for k in (1, 2, 3)), ())
    active = tuple((dealer + k) % size for k in (1, 2, 3))
    out = (dealer,) if size == 4 else (dealer, (dealer - 1) % size)
    return Seating(size, dealer, active, out)
