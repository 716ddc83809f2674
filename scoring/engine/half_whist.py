"""A half-whist played out (docs/rules.md §3.10.7; option ``half_whist_played``).

§3.1.2's half-whist is never played: the half-whister writes half the obligation and
the declarer the contract. With ``half_whist_played`` a half-whisted contract may be
played out instead, and the deal's facts say so the way any played deal does: the words
``pass`` and ``half`` with the tricks (rostiktc2-star/preferans-score
``src/domain/engine.ts``, ``defenderChoices`` 'polvist' with ``tricks``; manual.ts §10
«Polvist giocato»). Without tricks it is still §3.1.2's half-whist. ``deals.py`` calls
this where it reads a half-whist.
"""

from __future__ import annotations

from collections.abc import Callable

from .allpass_runs import WHISTED_FAILED, WHISTED_MADE
from .contracts import obligation
from .defence import shortfall_entries
from .facts import GORA, PULYA, WHISTS, Deal, DealContext, DealOutcome, Entry, checked_tricks

# What deals.py lends: the consolation of §3.1.3 (whisters, passers, declarer, price,
# undertricks) and whether an outcome ends a run of all-passes (§3.3).
Console = Callable[[tuple[int, ...], tuple[int, ...], int, int, int], list[Entry]]
Resets = Callable[[DealContext, str], bool]


def is_played(ctx: DealContext, deal: Deal) -> bool:
    """Whether a half-whisted deal was played out: tricks given, and the option allows it.

    docs/rules.md §3.10.7. With the option off, tricks on a half-whist stay refused
    (``deal.half_tricks``), as §3.1.2 says it is not played.
    """
    return ctx.convention.half_whist_played and deal.tricks is not None


def played_half_whist(
    ctx: DealContext,
    deal: Deal,
    declarer: int,
    defenders: tuple[int, ...],
    words: tuple[str, ...],
    price: int,
    talon: tuple[Entry, ...],
    console: Console,
    resets: Resets,
) -> DealOutcome:
    """The played half-whist (docs/rules.md §3.10.7), as RS plays it (engine.ts; manual.ts
    section 10, «Polvist giocato»).

    ``defenders`` and their ``words`` are the half-whister's ``half`` and the passer's
    ``pass`` (with two players, the half-whister's alone, §4). The declarer's contract
    is written as on any played deal. The half-whister, whose quota is half the
    obligation (2 on a 6, 1 on a 7), writes ``whist_scale × price × min(D, quota)``
    whists, D the defence's tricks (the passer's count for him, as in greedy whist), and
    his shortfall ``quota − D`` to the gora as a lone whister's (§3.1.5). The passer
    writes nothing for tricks. On a remiz the consolers are §3.1.3's, the half-whister
    counting as the whister.
    """
    conv, level = ctx.convention, deal.contract.level
    half_whister = defenders[words.index("half")]
    passers = tuple([seat for seat in defenders if seat != half_whister])
    tricks = checked_tricks(ctx, deal, (declarer, *defenders))
    taken = tricks[declarer]
    defence = 10 - taken
    under = level - taken if taken < level else 0
    quota = obligation(level) // 2
    whists = Entry(
        half_whister, WHISTS, conv.whist_scale * price * min(defence, quota), declarer, "half_whist"
    )
    if under:
        entries = [Entry(declarer, GORA, conv.gora_scale * price * under, reason="remiz"), whists]
        entries += console((half_whister,), passers, declarer, price, under)
        result = f"-{under}"
    else:
        entries = [Entry(declarer, PULYA, price, reason="contract"), whists]
        result = "=" if taken == level else f"+{taken - level}"
    shortfall = shortfall_entries(conv, {half_whister: max(0, quota - defence)}, price)
    entries += [*shortfall, *talon]
    return DealOutcome(
        tuple([e for e in entries if e.points]),
        f"{deal.contract.symbol}/½{result}",
        resets(ctx, WHISTED_FAILED if under else WHISTED_MADE),
        False,
        frozenset([e.player for e in shortfall]),
    )
