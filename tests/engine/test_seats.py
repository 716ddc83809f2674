"""Who sits where in a deal (scoring/engine/seats.py; docs/rules.md §4)."""

from __future__ import annotations

import pytest

from scoring.engine.seats import seating

# (players, dealer, active clockwise from first hand, sitting out)
SEATINGS = [
    (2, 0, (1, 0), ()),
    (2, 1, (0, 1), ()),
    (3, 0, (1, 2, 0), ()),
    (3, 2, (0, 1, 2), ()),
    (4, 3, (0, 1, 2), (3,)),
    (4, 0, (1, 2, 3), (0,)),
    (5, 4, (0, 1, 2), (4, 3)),
    (5, 0, (1, 2, 3), (0, 4)),
    (5, 2, (3, 4, 0), (2, 1)),
]


@pytest.mark.parametrize(("size", "dealer", "active", "out"), SEATINGS)
def test_it_seats_the_hands_clockwise_from_first_hand(
    size: int, dealer: int, active: tuple[int, ...], out: tuple[int, ...]
) -> None:
    seats = seating(size, dealer)
    assert (seats.size, seats.dealer, seats.active, seats.sitting_out) == (
        size,
        dealer,
        active,
        out,
    )


def test_five_players_the_outgoing_player_is_the_seat_before_the_dealer() -> None:
    # S002: «выходящим становится каждый из игроков по очереди после своей сдачи».
    for dealer in range(5):
        assert seating(5, dealer).sitting_out == (dealer, (dealer - 1) % 5)


@pytest.mark.parametrize(
    ("size", "dealer", "declarer", "defenders"),
    [
        (3, 0, 1, (2, 0)),
        (3, 0, 0, (1, 2)),
        (4, 3, 0, (1, 2)),
        (4, 3, 2, (0, 1)),
        (5, 4, 1, (2, 0)),
        (2, 0, 0, (1,)),
        (2, 0, 1, (0,)),
    ],
)
def test_defenders_are_taken_clockwise_from_the_declarer(
    size: int, dealer: int, declarer: int, defenders: tuple[int, ...]
) -> None:
    assert seating(size, dealer).defenders_of(declarer) == defenders


def test_every_seat_is_active_or_out_once() -> None:
    for size in (3, 4, 5):
        for dealer in range(size):
            seats = seating(size, dealer)
            assert sorted(seats.active + seats.sitting_out) == list(range(size))
            assert len(seats.active) == 3
