"""One deal's facts -> the entries it writes (docs/rules.md §3.1–3.6, docs/protocol.md decisions).

Pulya entries are *requests*: the sheet (``sheet.py``) passes them through help
(docs/rules.md §3.4) before they reach the pulya. Everything else is written as it stands.
The facts and their reading are ``facts.py``'s, all-pass scoring ``allpass.py``'s; both
are named here too, where the rest of the project imports them from.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import partial
from typing import NoReturn

from . import half_whist, house_deals
from .allpass import allpass_in_gora, allpass_in_whists
from .allpass_runs import (
    MISERE_FAILED,
    MISERE_MADE,
    TEN_FAILED,
    TEN_MADE,
    UNPLAYED,
    WHISTED_FAILED,
    WHISTED_MADE,
    ends_run,
)
from .checked_ten import checked_ten_trick_whists
from .contracts import ALLPASS, MANUAL, TRICKS, Contract, obligation
from .defence import gentleman_splits, own_trick_shares, shortfall_entries
from .errors import DealError
from .facts import (
    GORA,
    PULYA,
    WHISTS,
    WORDS,
    Deal,
    DealContext,
    DealOutcome,
    Entry,
    checked_tricks,
    refuse,
    seat_of,
)
from .facts import parse_deal as parse_played_deal
from .manual import parse_manual, score_manual
from .numbers import exact_div
from .returned_whist import consoling_passers

__all__ = [
    "GORA",
    "PULYA",
    "WHISTS",
    "WORDS",
    "Deal",
    "DealContext",
    "DealOutcome",
    "Entry",
    "parse_deal",
    "score_deal",
]


def parse_deal(raw: Mapping[str, object]) -> Deal:
    """Read one item of a pulka's log (docs/protocol.md, "Input"): a deal, or a manual
    entry (``{"manual": …}``, docs/rules.md §3.11)."""
    if "manual" in raw:
        return parse_manual(raw)
    return parse_played_deal(raw)


def score_deal(ctx: DealContext, deal: Deal) -> DealOutcome:
    """Score one deal by its kind: docs/rules.md §3.1 (contract), §3.2 (misère), §3.3 (all-pass),
    §3.11 (a manual entry)."""
    contract = deal.contract
    kind = contract.kind
    if kind is TRICKS:
        declarer = _declarer(ctx, deal)
        if contract.level < ctx.min_contract:
            _below_exit(ctx, contract)
        return _trick_contract(ctx, deal, declarer)
    if kind is MANUAL:
        return score_manual(ctx, deal)
    if deal.conceded or deal.totus or deal.talon_shown:
        house_deals.refuse_flags_off_contract(deal)
    if kind is ALLPASS:
        refuse(deal.declarer is not None, "allpass.declarer", "declarer")
        refuse(bool(deal.whists), "allpass.whists", "whists")
        refuse(deal.prikup != 0, "allpass.prikup", "prikup")
        if ctx.convention.allpass_scoring == "whists":
            return allpass_in_whists(ctx, deal)
        return allpass_in_gora(ctx, deal)
    declarer = _declarer(ctx, deal)  # a misère: the one kind left
    if contract.rank < ctx.min_contract:
        _below_exit(ctx, contract)
    return _misere(ctx, deal, declarer)


def _below_exit(ctx: DealContext, contract: Contract) -> NoReturn:
    """A contract below the exit ladder's step (docs/rules.md §3.3 "Exit")."""
    raise DealError("deal.below_exit", "contract", low=ctx.min_contract, contract=contract.symbol)


def _declarer(ctx: DealContext, deal: Deal) -> int:
    if deal.declarer is None:
        raise DealError("deal.declarer_missing", "declarer")
    declarer = seat_of(ctx, deal.declarer, "declarer")
    if declarer not in ctx.seats.active:
        raise DealError("deal.declarer_sits_out", "declarer", player=deal.declarer)
    return declarer


# --- contracts (docs/rules.md §3.1) ------------------------------------------------------


class _Defence:
    """Who defends and how: defenders in order f1, f2 with their words (§3.1).

    A plain class with its whisters and passers worked out once: it is built for
    every trick contract and read several times (the fold's hot path).
    """

    __slots__ = ("declarer", "defenders", "words", "whisters", "passers", "dealer_whists")

    def __init__(
        self,
        declarer: int,
        defenders: tuple[int, ...],
        words: tuple[str, ...],
        dealer_whists: bool = False,
    ) -> None:
        self.declarer = declarer
        self.dealer_whists = dealer_whists  # docs/rules.md §3.10.4
        self.defenders = defenders
        self.words = words
        key = (defenders, words)
        found = _SPLITS.get(key)
        if found is None:
            pairs = tuple(zip(defenders, words, strict=True))
            found = (
                tuple([seat for seat, word in pairs if word == "whist"]),
                tuple([seat for seat, word in pairs if word == "pass"]),
            )
            if len(_SPLITS) < 1024:  # a table has a few dozen: bounded all the same
                _SPLITS[key] = found
        self.whisters, self.passers = found


# Whisters and passers by (defenders, words), worked out once each.
_SPLITS: dict[tuple[tuple[int, ...], tuple[str, ...]], tuple[tuple[int, ...], tuple[int, ...]]] = {}


def _defence(ctx: DealContext, deal: Deal, declarer: int) -> _Defence:
    """Read each defender's word; with two players the dummy always passes (§4)."""
    defenders = ctx.seats.defenders_of(declarer)
    names = ctx.names
    said = [""] * len(defenders)  # each defender's word, in their order
    dealer_word = ""
    for name, word in deal.whists:  # pairs read from a map: each name once
        try:
            seat = names.index(name)
        except ValueError:
            seat = seat_of(ctx, name, "whists")
        if seat == declarer:
            raise DealError("deal.declarer_defends", "whists", player=name)
        if seat not in defenders:
            if house_deals.may_whist_as_dealer(ctx, seat):
                dealer_word = house_deals.dealer_word(word, name)
                continue
            raise DealError("deal.whister_sits_out", "whists", player=name)
        if word not in WORDS:
            raise DealError("deal.bad_word", "whists", player=name, value=word)
        said[defenders.index(seat)] = word
    words = tuple(said)
    if "" in words:
        # Nobody has to speak on a checked 10, nor before a concession (§3.10.1).
        unspoken = deal.conceded or (deal.contract.level == 10 and ctx.convention.ten == "checked")
        for seat, word in zip(defenders, words, strict=True):
            if not word and not unspoken:
                raise DealError("deal.word_missing", "whists", player=names[seat])
        words = tuple([word or "pass" for word in words])
    return _Defence(declarer, defenders, words, dealer_word == "whist")


def _trick_contract(ctx: DealContext, deal: Deal, declarer: int) -> DealOutcome:
    """A trick contract 6–10: not played, half-whisted or played (docs/rules.md §3.1, §3.6)."""
    conv, level = ctx.convention, deal.contract.level
    price = conv.price(level)
    defence = _defence(ctx, deal, declarer)
    # A convention without talon whists keeps the count as a fact and writes nothing
    # for it: docs/protocol.md's own example records one under Sochi.
    prikup = deal.prikup
    if not 0 <= prikup <= 3:
        raise DealError("deal.prikup_range", "prikup", value=prikup)
    talon = _talon_whists(ctx, deal, declarer, price) if prikup else ()
    if deal.conceded or deal.totus or deal.talon_shown:  # docs/rules.md §3.10
        house_deals.check_flags(ctx, deal)
        talon += house_deals.talon_shown_entries(ctx, deal, declarer, price)
        if deal.conceded:
            return house_deals.conceded(ctx, deal, declarer, price, talon)
        if deal.totus:
            return house_deals.with_totus_bonus(
                ctx, deal, _scored_contract(ctx, deal, defence, price, talon), declarer
            )
    return _scored_contract(ctx, deal, defence, price, talon)


def _scored_contract(
    ctx: DealContext, deal: Deal, defence: _Defence, price: int, talon: tuple[Entry, ...]
) -> DealOutcome:
    """The contract by the defence's words (docs/rules.md §3.1, §3.10.3–4)."""
    conv, level, declarer = ctx.convention, deal.contract.level, defence.declarer
    if defence.dealer_whists:
        return house_deals.dealer_whist(
            ctx, deal, declarer, defence.defenders, defence.words, price, talon, _resets
        )
    if level == 10 and conv.ten == "checked":
        return _checked_ten(ctx, deal, defence, price, talon)
    if "half" in defence.words:
        if "whist" not in defence.words:
            return _half_whist(ctx, deal, defence, price, talon)
        words = house_deals.returned_whist_words(ctx, deal, defence.defenders, defence.words)
        defence = _Defence(declarer, defence.defenders, words)
    if not defence.whisters:
        refuse(deal.tricks is not None, "deal.unwhisted_tricks", "tricks")
        entries = (Entry(declarer, PULYA, price, reason="unplayed"), *talon)
        return DealOutcome(entries, f"{deal.contract.symbol}/пас", _resets(ctx, UNPLAYED), False)
    return _played(ctx, deal, defence, price, talon)


def _talon_whists(ctx: DealContext, deal: Deal, declarer: int, price: int) -> tuple[Entry, ...]:
    """Whists for fast tricks in the talon (docs/rules.md §3.6; docs/protocol.md "Talon whists").

    With 4 or 5 players the dealer writes them; with 3 each opponent writes half; with
    2 the opponent writes half. Written whether the contract is played, made or not.
    """
    if not deal.prikup or not ctx.convention.prikup_whists:
        return ()
    amount = ctx.convention.whist_scale * price * deal.prikup
    seats = ctx.seats
    if seats.size >= 4:
        return (Entry(seats.dealer, WHISTS, amount, declarer, "talon"),)
    half = exact_div(amount, 2)
    return tuple(Entry(p, WHISTS, half, declarer, "talon") for p in seats.defenders_of(declarer))


def _half_whist(
    ctx: DealContext, deal: Deal, defence: _Defence, price: int, talon: tuple[Entry, ...]
) -> DealOutcome:
    """Pass then half-whist: not played; the half-whister writes half the obligation (§3.1.2)."""
    level, conv = deal.contract.level, ctx.convention
    if level not in conv.half_whist_levels:
        raise DealError("deal.half_not_allowed", "whists", level=level)
    if len(defence.defenders) == 2 and not house_deals.half_order_allowed(ctx, defence.words):
        raise DealError(_half_order_code(ctx), "whists")
    if half_whist.is_played(ctx, deal):  # docs/rules.md §3.10.7
        console = partial(_consolation, ctx)
        return half_whist.played_half_whist(
            ctx, deal, defence.declarer, defence.defenders, defence.words, price, talon,
            console, _resets,
        )  # fmt: skip
    refuse(deal.tricks is not None, "deal.half_tricks", "tricks")
    half_whister = defence.defenders[defence.words.index("half")]
    amount = exact_div(conv.whist_scale * price * obligation(level), 2)
    entries = (
        Entry(defence.declarer, PULYA, price, reason="unplayed"),
        Entry(half_whister, WHISTS, amount, defence.declarer, "half_whist"),
        *talon,
    )
    return DealOutcome(entries, f"{deal.contract.symbol}/½", _resets(ctx, UNPLAYED), False)


def _half_order_code(ctx: DealContext) -> str:
    # With the first defender's half-whist allowed, only two half-whists are wrong.
    return "deal.half_one_only" if ctx.convention.half_whist_first else "deal.half_second_only"


def _played(
    ctx: DealContext, deal: Deal, defence: _Defence, price: int, talon: tuple[Entry, ...]
) -> DealOutcome:
    """A played contract: pulya or remiz, consolation, trick whists, shortfall (§3.1.3–5)."""
    conv, level, declarer = ctx.convention, deal.contract.level, defence.declarer
    tricks = checked_tricks(ctx, deal, (declarer, *defence.defenders))
    taken = tricks[declarer]
    under = level - taken if taken < level else 0
    if under:
        entries = [Entry(declarer, GORA, conv.gora_scale * price * under, reason="remiz")]
        entries += _trick_whists(ctx, defence, tricks, price, under)
        passers = consoling_passers(conv, defence.whisters, defence.passers, defence.words)
        entries += _consolation(ctx, defence.whisters, passers, declarer, price, under)
        result = f"-{under}"
    else:
        entries = [Entry(declarer, PULYA, price, reason="contract")]
        entries += _trick_whists(ctx, defence, tricks, price, under)
        result = "=" if taken == level else f"+{taken - level}"
    shortfall = _whister_shortfall(ctx, defence, tricks, level, price)
    if shortfall:
        entries += shortfall
    if talon:
        entries += talon
    return DealOutcome(
        tuple([e for e in entries if e.points]),
        f"{deal.contract.symbol}/{result}",
        ends_run(conv, WHISTED_FAILED if under else WHISTED_MADE),
        False,
        frozenset([e.player for e in shortfall if e.points]) if shortfall else _NOBODY,
    )


_NOBODY: frozenset[int] = frozenset()


def _trick_whists(
    ctx: DealContext, defence: _Defence, tricks: dict[int, int], price: int, under: int
) -> list[Entry]:
    """Whists for the defence's tricks: own tricks, greedy or gentleman (§3.1.4)."""
    conv, declarer = ctx.convention, defence.declarer
    per_trick = conv.whist_scale * price
    whisters = defence.whisters
    if len(whisters) == 2:
        return [Entry(w, WHISTS, per_trick * tricks[w], declarer, "trick_whists") for w in whisters]
    whister = whisters[0]
    defence_tricks = 10 - tricks[declarer]  # the tricks of a played deal add up to 10
    if not defence.passers or not gentleman_splits(conv, under):
        return [Entry(whister, WHISTS, per_trick * defence_tricks, declarer, "trick_whists")]
    share = exact_div(per_trick * defence_tricks, 2)
    return [
        Entry(whister, WHISTS, share, declarer, "trick_whists"),
        Entry(defence.passers[0], WHISTS, share, declarer, "trick_whists"),
    ]


def _consolation(
    ctx: DealContext,
    whisters: tuple[int, ...],
    passers: tuple[int, ...],
    declarer: int,
    price: int,
    under: int,
) -> list[Entry]:
    """Consolation on a failed declarer from every consoler (§3.1.3; docs/protocol.md).

    With two players the whister is the only consoler (docs/protocol.md "Two players").
    """
    conv = ctx.convention
    amount = 10 * under if conv.consolation_unit == "flat10" else conv.whist_scale * price * under
    consolers: list[int] = []
    if "whisters" in conv.consolation:
        consolers.extend(whisters)
    if "passer" in conv.consolation and ctx.seats.size > 2:
        consolers.extend(passers)
    if "dealer" in conv.consolation:
        consolers.extend(ctx.seats.sitting_out)
    return [Entry(p, WHISTS, amount, declarer, "consolation") for p in consolers]


def _whister_shortfall(
    ctx: DealContext, defence: _Defence, tricks: dict[int, int], level: int, price: int
) -> list[Entry]:
    """Недовист: whisters short of the obligation write it to the gora (§3.1.5).

    Per missing trick: ``gora_scale × price``, halved for half liability (docs/protocol.md).
    """
    conv = ctx.convention
    whisters = defence.whisters
    # The two house rules of defence.py, asked only by a pulka that plays one of them.
    if len(whisters) == 2 and (conv.personal_quota or conv.joint_liability == "second_own"):
        own = own_trick_shares(conv, whisters, tricks, level)
        if own is not None:
            return shortfall_entries(conv, own, price)
    need = obligation(level)
    short = need - (10 - tricks[defence.declarer])  # what the defence took
    if short <= 0:
        return []
    if len(whisters) == 1:
        shares = {whisters[0]: short}
    elif level >= 8:
        liable = whisters if conv.joint_liability == "both" else whisters[1:]
        shares = {w: short for w in liable}
    else:
        shares = _quota_shares(whisters, tricks, need // 2, short)
    return shortfall_entries(conv, shares, price)


def _quota_shares(
    whisters: tuple[int, ...], tricks: dict[int, int], quota: int, short: int
) -> dict[int, int]:
    """Two whisters on a 6 or 7: who bears the shortfall (§3.1.5, the quota rule)."""
    first, second = whisters
    if tricks[first] > quota:
        return {second: short}
    if tricks[second] > quota:
        return {first: short}
    return {w: max(0, quota - tricks[w]) for w in whisters}


def _checked_ten(
    ctx: DealContext, deal: Deal, defence: _Defence, price: int, talon: tuple[Entry, ...]
) -> DealOutcome:
    """A checked 10 (``ten: checked``, docs/protocol.md): played when tricks are given.

    Made: pulya. Failed: gora with consolation, both defenders counting as whisters;
    no shortfall. The defenders' words, when given, change nothing but the trick
    whists of ``checked_ten_trick_whists`` (checked_ten.py, §3.1.7): whoever whists or
    passes, the 10 is checked. Only a half-whist has no place here.
    """
    refuse("half" in defence.words, "deal.ten_checked", "whists")
    declarer = defence.declarer
    if deal.tricks is None:
        entries = (Entry(declarer, PULYA, price, reason="unplayed"), *talon)
        return DealOutcome(entries, f"{deal.contract.symbol}/пас", _resets(ctx, UNPLAYED), False)
    tricks = checked_tricks(ctx, deal, (declarer, *defence.defenders))
    under = 10 - tricks[declarer]
    if not under:
        entries = (Entry(declarer, PULYA, price, reason="contract"), *talon)
        return DealOutcome(entries, f"{deal.contract.symbol}/=", _resets(ctx, TEN_MADE), False)
    conv = ctx.convention
    gora = Entry(declarer, GORA, conv.gora_scale * price * under, reason="remiz")
    # The sources leave it open whether anyone consoles (docs/rules.md §7.6):
    # ``checked_ten_consolation`` says.
    consolation = (
        _consolation(ctx, defence.defenders, (), declarer, price, under)
        if conv.checked_ten_consolation == "defenders"
        else []
    )
    trick_whists = checked_ten_trick_whists(  # PU home (docs/rules.md §3.1.7)
        conv, declarer, defence.defenders, defence.words, tricks
    )
    return DealOutcome(
        (gora, *trick_whists, *consolation, *talon),
        f"{deal.contract.symbol}/-{under}",
        _resets(ctx, TEN_FAILED),
        False,
    )


# --- misère (docs/rules.md §3.2) ----------------------------------------------------------


def _misere(ctx: DealContext, deal: Deal, declarer: int) -> DealOutcome:
    """Misère: pulya if clean, else ``gora_scale × price`` per trick; not whisted (§3.2)."""
    refuse(bool(deal.whists), "misere.whists", "whists")
    refuse(deal.prikup != 0, "misere.prikup", "prikup")
    counts = deal.trick_counts
    if counts is None or ctx.names[declarer] not in counts:
        raise DealError("misere.tricks_missing", "tricks")
    if len(counts) > 1:
        taken = checked_tricks(ctx, deal, (declarer, *ctx.seats.defenders_of(declarer)))[declarer]
    else:
        taken = counts[ctx.names[declarer]]
        if not isinstance(taken, int) or isinstance(taken, bool) or not 0 <= taken <= 10:
            raise DealError("misere.tricks_range", "tricks")
    conv, price = ctx.convention, ctx.convention.misere_price
    if taken == 0:
        entries: tuple[Entry, ...] = (Entry(declarer, PULYA, price, reason="misere"),)
        return DealOutcome(entries, "M/=", _resets(ctx, MISERE_MADE), False)
    entries = (Entry(declarer, GORA, conv.gora_scale * price * taken, reason="misere"),)
    if conv.misere_consolation:
        others = [p for p in range(ctx.seats.size) if p != declarer]
        entries += tuple(Entry(p, WHISTS, 10 * taken, declarer, "consolation") for p in others)
    return DealOutcome(entries, f"M/-{taken}", _resets(ctx, MISERE_FAILED), False)


def _resets(ctx: DealContext, outcome: str) -> bool:
    """Whether this deal ends a run of all-passes (docs/rules.md §3.3 "Streak reset")."""
    return ends_run(ctx.convention, outcome)
