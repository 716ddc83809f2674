"""All-pass: in the gora with amnesty and the zero-trick bonus, or in whists (docs/rules.md §3.3).

``deals.score_deal`` sends an all-pass here once it has checked that nobody declared,
whisted or counted talon tricks.
"""

from __future__ import annotations

from dataclasses import dataclass

from .conventions import Convention
from .errors import DealError
from .facts import GORA, PULYA, WHISTS, Deal, DealContext, DealOutcome, Entry, checked_tricks
from .numbers import exact_div
from .zero_bonus_dealer import dealer_earns_zero_bonus, zero_bonus_seats


@dataclass(frozen=True, slots=True)
class TrickPrice:
    """What one trick taken on an all-pass writes: ``points`` into ``section``."""

    section: str  # GORA, or WHISTS for the Rostov all-pass
    points: int


def trick_price(convention: Convention, ladder_price: int) -> TrickPrice:
    """The real price of a trick on an all-pass at ladder value m (docs/rules.md §3.3).

    Gora style: ``kg·m`` into the gora (Leningrad's kg = 2 writes 2 a trick on the
    first all-pass, not 1). Rostov style: ``r·m`` whists, shared among the players
    with the fewest tricks.
    """
    if convention.allpass_scoring == "whists":
        return TrickPrice(WHISTS, convention.allpass_whist_rate * ladder_price)
    return TrickPrice(GORA, convention.gora_scale * ladder_price)


def _allpass_players(ctx: DealContext, deal: Deal) -> tuple[tuple[int, ...], dict[int, int]]:
    """Who plays the all-pass, with tricks; a 4-player dealer on the talon takes ≤ 2 (§3.3)."""
    seats, conv = ctx.seats, ctx.convention
    with_dealer = seats.size == 4 and conv.allpass_dealer_talon and conv.allpass_scoring == "gora"
    counts = deal.trick_counts or {}
    if with_dealer:
        players = (*seats.active, seats.dealer)
        dealer_name = ctx.names[seats.dealer]
        if dealer_name not in counts:
            counts = {**counts, dealer_name: 0}
        deal = Deal(deal.contract, tricks=tuple(counts.items()))
    else:
        players = seats.active
    tricks = checked_tricks(ctx, deal, players)
    if with_dealer and tricks[seats.dealer] > 2:
        raise DealError("allpass.dealer_tricks", "tricks")
    return players, tricks


def allpass_in_gora(ctx: DealContext, deal: Deal) -> DealOutcome:
    """All-pass in gora with amnesty and the zero-trick bonus (docs/rules.md §3.3, gora style)."""
    conv = ctx.convention
    players, tricks = _allpass_players(ctx, deal)
    price = ctx.allpass_price
    spared = min(tricks.values()) if conv.allpass_amnesty else 0
    entries = [
        Entry(p, GORA, conv.gora_scale * price * (tricks[p] - spared), reason="allpass")
        for p in sorted(players)
        if tricks[p] - spared
    ]
    # Only a dealer who sits out (4 players, on the talon) is denied the bonus: with 2
    # or 3 players the dealer holds a hand like everyone else (docs/protocol.md), and
    # allpass_zero_bonus_dealer gives it to him too when he took no talon trick.
    entries.extend(_zero_bonus(ctx, _bonus_candidates(ctx, players), tricks, price))
    return DealOutcome(tuple(entries), "P", False, True)


def _bonus_candidates(ctx: DealContext, players: tuple[int, ...]) -> list[int]:
    """Who may earn the zero-trick bonus, clockwise from first hand (docs/rules.md §3.3).

    A dealer who sits out is left out unless ``allpass_zero_bonus_dealer`` is on (gchet:
    the 4-player dealer who took no talon trick gets it too); he comes last. With
    ``allpass_zero_bonus_excludes_dealer`` no dealer is (zero_bonus_dealer.py).
    """
    seats = ctx.seats
    candidates = [p for p in seats.active if p in players]
    if ctx.convention.allpass_zero_bonus_dealer and seats.dealer in players:
        if seats.dealer not in candidates:
            candidates.append(seats.dealer)
    return zero_bonus_seats(ctx.convention, seats.dealer, candidates)


def _zero_bonus(
    ctx: DealContext, players: list[int], tricks: dict[int, int], ladder_price: int
) -> list[Entry]:
    """A player with no trick on an all-pass (docs/protocol.md "Zero-trick bonus").

    ``players`` in the order the entries go (clockwise from first hand). The bonus is
    the ladder price m, or 1 whatever the price with ``allpass_zero_bonus_flat`` (RS,
    docs/rules.md §3.3 step 3). ``pulya_scaled`` writes a trick's real price,
    ``gora_scale × m``, to the pulya (gchet score.go: the pass price into the pool).
    """
    bonus = ctx.convention.allpass_zero_bonus
    price = 1 if ctx.convention.allpass_zero_bonus_flat else ladder_price
    zero = [p for p in players if tricks[p] == 0]
    if bonus == "pulya":
        return [Entry(p, PULYA, price, reason="zero_bonus") for p in zero]
    if bonus == "pulya_scaled":
        scaled = ctx.convention.gora_scale * price
        return [Entry(p, PULYA, scaled, reason="zero_bonus") for p in zero]
    if bonus == "gora":
        return [Entry(p, GORA, -price, reason="zero_bonus") for p in zero]
    if bonus == "gora_double":
        scale = ctx.convention.gora_scale
        return [Entry(p, GORA, -2 * scale * price, reason="zero_bonus") for p in zero]
    return []


def allpass_in_whists(ctx: DealContext, deal: Deal) -> DealOutcome:
    """Rostov all-pass in whists (docs/rules.md §3.3; docs/protocol.md "Rostov all-pass").

    Each player with the fewest tricks writes ``rate × m × t / k`` on every other
    active player; no amnesty, no talon; with 4 players the dealer gets m in the pulya
    when the zero bonus is ``pulya``.
    """
    conv, seats, price = ctx.convention, ctx.seats, ctx.allpass_price
    tricks = checked_tricks(ctx, deal, seats.active)
    fewest = min(tricks.values())
    low = [p for p in seats.active if tricks[p] == fewest]
    entries: list[Entry] = []
    for writer in low:
        for other in seats.active:
            if other not in low and tricks[other]:
                amount = exact_div(conv.allpass_whist_rate * price * tricks[other], len(low))
                entries.append(Entry(writer, WHISTS, amount, other, "allpass"))
    entries.extend(
        _zero_bonus(ctx, zero_bonus_seats(conv, seats.dealer, seats.active), tricks, price)
    )
    if seats.size == 4 and conv.allpass_zero_bonus == "pulya" and dealer_earns_zero_bonus(conv):
        bonus = 1 if conv.allpass_zero_bonus_flat else price
        entries.append(Entry(seats.dealer, PULYA, bonus, reason="zero_bonus"))
    return DealOutcome(tuple(e for e in entries if e.points), "P", False, True)
