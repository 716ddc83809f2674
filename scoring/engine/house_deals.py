"""Deals that need a fact of their own, each allowed by a convention option (docs/rules.md §3.10).

Уход без трёх (``conceded``), a half-whist by the first defender, a whist returned after
a half-whist, the dealer's whist with 4 players, totus and a shown talon. With every
option at its default (Sochi's) none of these facts is accepted, and nothing here writes
anything: every preset scores as before.

``deals.py`` calls these functions; the rules themselves are here.
"""

from __future__ import annotations

from collections.abc import Callable

from .allpass_runs import WHISTED_FAILED, WHISTED_MADE
from .contracts import obligation
from .errors import DealError
from .facts import (
    GORA,
    PULYA,
    WHISTS,
    Deal,
    DealContext,
    DealOutcome,
    Entry,
    checked_tricks,
    refuse,
)
from .numbers import exact_div

# A concession is written as the contract down three (docs/rules.md §3.10.1).
CONCEDED_UNDERTRICKS = 3
# The words of a deal's facts this module reads besides the usual ones (docs/protocol.md).
FLAGS = ("conceded", "totus", "talon_shown")

Resets = Callable[..., bool]


def refuse_flags_off_contract(deal: Deal) -> None:
    """A misère or an all-pass takes none of §3.10's flags (docs/rules.md §3.10)."""
    for name in FLAGS:
        if getattr(deal, name):
            raise DealError("deal.flag_trick_contract_only", name, name=name)


def check_flags(ctx: DealContext, deal: Deal) -> None:
    """Refuse the §3.10 facts of a trick contract that the convention does not allow.

    docs/rules.md §3.10.1 (``concede_levels``), §3.10.5 (``totus_bonus``),
    §3.10.6 (``talon_shown_penalty``).
    """
    conv, level = ctx.convention, deal.contract.level
    if deal.conceded:
        refuse(level not in conv.concede_levels, "deal.concede_not_allowed", "conceded")
        refuse(deal.tricks is not None, "deal.concede_tricks", "tricks")
    if deal.totus:
        refuse(conv.totus_bonus == 0, "deal.totus_not_allowed", "totus")
        refuse(level != 10, "deal.totus_level", "totus")
    if deal.talon_shown:
        refuse(conv.talon_shown_penalty == "none", "deal.talon_shown_not_allowed", "talon_shown")
        refuse(ctx.seats.size < 4, "deal.talon_shown_players", "talon_shown")


def conceded(
    ctx: DealContext, deal: Deal, declarer: int, price: int, extras: tuple[Entry, ...]
) -> DealOutcome:
    """Уход без трёх: the contract down three, nothing else (docs/rules.md §3.10.1).

    The declarer writes ``gora_scale × price × 3`` into his gora; nobody writes whists
    for tricks or consolation (PU SPEC.md §6, gchet without_three_test.go). A shown
    talon's penalty and talon whists are written as for any trick contract. It ends no
    run of all-passes: the contract was not played (gchet keeps the run, PU ends its
    runs only with a contract made).
    """
    points = ctx.convention.gora_scale * price * CONCEDED_UNDERTRICKS
    entries = (Entry(declarer, GORA, points, reason="conceded"), *extras)
    return DealOutcome(entries, f"{deal.contract.symbol}/уход", False, False)


def half_order_allowed(ctx: DealContext, words: tuple[str, ...]) -> bool:
    """Pass then half-whist; with ``half_whist_first`` also half-whist then pass (§3.10.2)."""
    if words == ("pass", "half"):
        return True
    return words == ("half", "pass") and ctx.convention.half_whist_first


def returned_whist_words(
    ctx: DealContext, deal: Deal, defenders: tuple[int, ...], words: tuple[str, ...]
) -> tuple[str, ...]:
    """A whist returned after a half-whist: the words the deal is then played with (§3.10.3).

    The facts give the returner's ``whist`` and the half-whister's ``half``. With
    ``returned_whist_alone`` the returner is the only defender who writes: the
    half-whister gave up his right to whist (PU calc.ts, "пас — полвиста — вист"), so he
    is neither whister nor passer ("out"): no share of trick whists, no consolation.
    """
    conv, level = ctx.convention, deal.contract.level
    if not conv.returned_whist_alone or len(defenders) != 2:
        raise DealError("deal.returned_whist_not_allowed", "whists")
    if level not in conv.half_whist_levels:
        raise DealError("deal.half_not_allowed", "whists", level=level)
    said_first = ("pass", "half") if words == ("whist", "half") else ("half", "pass")
    if not half_order_allowed(ctx, said_first):
        raise DealError("deal.half_second_only", "whists")
    return tuple(["out" if word == "half" else word for word in words])


def may_whist_as_dealer(ctx: DealContext, seat: int) -> bool:
    """Whether ``seat`` is the 4-player dealer and the convention lets him whist (§3.10.4)."""
    return (
        ctx.convention.dealer_whist != "none" and ctx.seats.size == 4 and seat == ctx.seats.dealer
    )


def dealer_word(word: str, name: str) -> str:
    """The dealer's word: ``whist``, or ``pass`` for none (§3.10.4)."""
    if word not in ("whist", "pass"):
        raise DealError("deal.dealer_word", "whists", player=name, value=word)
    return word


def dealer_whist(
    ctx: DealContext,
    deal: Deal,
    declarer: int,
    defenders: tuple[int, ...],
    words: tuple[str, ...],
    price: int,
    extras: tuple[Entry, ...],
    resets: Resets,
) -> DealOutcome:
    """The 4-player dealer whists after both defenders declined (docs/rules.md §3.10.4).

    He plays both defenders' hands, so the tricks are the declarer's and the two
    defenders' as usual. He writes the whists for every defence trick (no split: the
    defenders passed) and the consolation; the defenders write nothing, and a
    half-whist said before counts for nothing. ``unliable`` (PU conventions.ts, FSPR
    "пас — полвиста — пас"): one consolation, no whister's shortfall. ``liable``
    (gchet dealer_whist_test.go): the pair's consolations (the whister's and the
    passer's) and the shortfall of a lone whister.
    """
    conv, level = ctx.convention, deal.contract.level
    refuse("whist" in words, "deal.dealer_whist_after_pass", "whists")
    refuse(level == 10 and conv.ten == "checked", "deal.dealer_whist_checked_ten", "whists")
    if "half" in words and level not in conv.half_whist_levels:
        raise DealError("deal.half_not_allowed", "whists", level=level)
    dealer = ctx.seats.dealer
    tricks = checked_tricks(ctx, deal, (declarer, *defenders))
    taken = tricks[declarer]
    under = level - taken if taken < level else 0
    per_trick = conv.whist_scale * price
    entries = [Entry(dealer, WHISTS, per_trick * (10 - taken), declarer, "trick_whists")]
    if under:
        entries.insert(0, Entry(declarer, GORA, conv.gora_scale * price * under, reason="remiz"))
        entries += _dealer_consolation(ctx, declarer, dealer, price, under)
        result = f"-{under}"
    else:
        entries.insert(0, Entry(declarer, PULYA, price, reason="contract"))
        result = "=" if taken == level else f"+{taken - level}"
    short = obligation(level) - (10 - taken)
    if conv.dealer_whist == "liable" and short > 0:
        unit = conv.gora_scale * price * short
        points = exact_div(unit, 2) if conv.whister_liability == "half" else unit
        entries.append(Entry(dealer, GORA, points, reason="whister_shortfall"))
    entries += extras
    shortfall = frozenset([e.player for e in entries if e.reason == "whister_shortfall"])
    return DealOutcome(
        tuple([e for e in entries if e.points]),
        f"{deal.contract.symbol}/{result}",
        resets(ctx, WHISTED_FAILED if under else WHISTED_MADE),
        False,
        shortfall,
    )


def _dealer_consolation(
    ctx: DealContext, declarer: int, dealer: int, price: int, under: int
) -> list[Entry]:
    """The whisting dealer's consolation (§3.10.4): once, or the pair's with ``liable``."""
    conv = ctx.convention
    amount = 10 * under if conv.consolation_unit == "flat10" else conv.whist_scale * price * under
    count = 1 if "whisters" in conv.consolation or "dealer" in conv.consolation else 0
    if conv.dealer_whist == "liable" and "passer" in conv.consolation:
        count += 1
    return [Entry(dealer, WHISTS, amount, declarer, "consolation") for _ in range(count)]


def talon_shown_entries(
    ctx: DealContext, deal: Deal, declarer: int, price: int
) -> tuple[Entry, ...]:
    """The dealer's penalty for a talon shown (docs/rules.md §3.10.6; gchet score.go).

    ``whists``: the declarer writes ``2 × whist_scale × price`` on the dealer;
    ``gora``: the dealer writes ``gora_scale × price`` into his gora. Whatever the
    contract's outcome, conceded included.
    """
    if not deal.talon_shown:
        return ()
    conv, dealer = ctx.convention, ctx.seats.dealer
    if conv.talon_shown_penalty == "gora":
        return (Entry(dealer, GORA, conv.gora_scale * price, reason="talon_shown"),)
    return (Entry(declarer, WHISTS, 2 * conv.whist_scale * price, dealer, "talon_shown"),)


def with_totus_bonus(
    ctx: DealContext, deal: Deal, outcome: DealOutcome, declarer: int
) -> DealOutcome:
    """Totus: ``totus_bonus`` more into the pulya when the 10 goes there (docs/rules.md §3.10.5).

    Made, or written unplayed when nobody whists (DG ScoringEngine.swift adds its
    ``bonusPool`` in both); a failed totus is a failed 10.
    """
    if not deal.totus:
        return outcome
    if not any(e.player == declarer and e.section == PULYA for e in outcome.entries):
        return outcome
    bonus = Entry(declarer, PULYA, ctx.convention.totus_bonus, reason="totus")
    return outcome._replace(entries=(*outcome.entries, bonus))
