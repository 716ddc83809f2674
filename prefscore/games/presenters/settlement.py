"""The settlement, one view model for every screen that settles a pulka.

The settlement page shows it step by step (Кодекс 4.2.12–4.2.14); the paper-pulka
calculator and the import page show its results only. All of them print this one
view model, built from the engine's figures (``scoring.engine.settlement``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal

from django.utils.translation import gettext as _

from scoring.engine import protocol
from scoring.engine import settlement as engine_settlement
from scoring.engine.conventions import Convention
from scoring.engine.errors import ScoringError
from scoring.engine.mountain import mountain_divisor, splits_among_others
from scoring.engine.numbers import Points
from scoring.engine.pulka import ScoredPulka, score_pulka

from .. import io
from .bidi import isolate
from .entry import Option
from .numbers import format_money, format_points, format_result, signed


@dataclass(frozen=True, slots=True)
class Cell:
    text: str
    negative: bool = False
    signed: str = ""  # the same figure with its sign, as a result beside a name: +29


def cell(value: Points | Decimal) -> Cell:
    return Cell(format_result(value), value < 0, signed(value))


def money_cell(value: Decimal) -> Cell:
    return Cell(format_money(value), value < 0, signed(value, places=None))


@dataclass(frozen=True, slots=True)
class SettlementRow:
    """One player's line through every step of the settlement."""

    name: str
    pulya: str
    gora: str
    converted: str
    amnestied: str
    mountain_whists: str
    whists: tuple[str, ...]  # written by this player on each seat (blank on his own)
    pair_nets: tuple[Cell, ...]
    pairwise: Cell
    mountain_circle: Cell
    whist_circles: tuple[Cell, ...]
    average: Cell
    exact: Cell
    whole: Cell
    money: Cell | None


@dataclass(frozen=True, slots=True)
class Transfer:
    """One payment's parts, for a result card that draws each name on its own."""

    payer: str
    payee: str
    whists: str
    money: str | None


@dataclass(frozen=True, slots=True)
class SettlementView:
    """A settlement, every step of it; ``finished``: the pulka is over, else it is settled
    as if the players stopped now (Кодекс 4.2.3)."""

    names: tuple[str, ...]
    rows: tuple[SettlementRow, ...]
    finished: bool
    target: int
    pulya_to_gora: int
    amnesty: str
    mean: str
    divisor: int
    shared_by_others: bool  # each gora point goes to the n − 1 others (mountain_divisor)
    player_count: int
    adjustments: tuple[str, ...]
    seat_choices: tuple[Option, ...]
    stake: str | None
    payments: tuple[str, ...]
    transfers: tuple[Transfer, ...]
    codex_rounding: bool


def settlement_view(scored: ScoredPulka, first_seat: int | None = None) -> SettlementView:
    """A pulka of deals settled now: finished, or as if the players stopped (Кодекс 4.2.3)."""
    pulka = scored.pulka
    return settlement_of(
        scored.totals, pulka.convention, pulka.stake, scored.state.closed, first_seat
    )


def file_settlement(file: io.PulkaFile) -> SettlementView:
    """A pulka file settled and stored nowhere: a paper sheet's totals, or its deals.

    A deal the engine refuses raises :class:`io.FileRefused`, as an import would.
    """
    parsed = file.parsed
    if isinstance(parsed, protocol.PaperSheet):
        return paper_settlement(parsed)
    try:
        scored = score_pulka(parsed)
    except ScoringError as error:
        raise io.engine_refused(error) from None
    return settlement_view(scored)


def paper_settlement(paper: protocol.PaperSheet, first_seat: int | None = None) -> SettlementView:
    """A paper sheet's totals settled: the calculator's form and a file's ``sheet`` alike."""
    # Whether a paper sheet is over is the engine's call, made in its output.
    closed = bool(protocol.paper_json(paper)["closed"])
    return settlement_of(paper.totals, paper.convention, paper.stake, closed, first_seat)


def _first_adjusted(whole: engine_settlement.WholeResult, first_seat: int | None) -> int | None:
    """The seat shown as adjusting first: the table's choice, else the engine's
    (docs/rules.md §3.7, "Who x is"), else none when nobody adjusts."""
    if first_seat is not None:
        return first_seat
    return whole.adjustments[0].seat if whole.adjustments else None


def settlement_of(
    totals: engine_settlement.Totals,
    conv: Convention,
    stake: Decimal | None,
    finished: bool,
    first_seat: int | None = None,
) -> SettlementView:
    """Both Кодекс 4.2.14 methods step by step, whole whists by 4.2.12, money and payments."""
    names = totals.names
    size = len(names)
    pairwise = engine_settlement.pairwise_method(totals, conv)
    average = engine_settlement.average_mountain_method(totals, conv)
    exact = engine_settlement.exact_result(totals, conv)
    whole = engine_settlement.whole_result(totals, conv, first_seat)
    money = engine_settlement.money(whole.result, stake) if stake is not None else None
    paid = engine_settlement.payments(whole.result)
    rows = tuple(
        SettlementRow(
            name=names[i],
            pulya=format_points(totals.pulya[i]),
            gora=format_points(totals.gora[i]),
            converted=format_points(pairwise.converted[i]),
            amnestied=format_points(pairwise.amnestied[i]),
            mountain_whists=format_result(pairwise.mountain_whists[i]),
            whists=tuple("" if i == j else format_points(totals.whists[i][j]) for j in range(size)),
            pair_nets=_cells(pairwise.nets[i], i),
            pairwise=cell(pairwise.result[i]),
            mountain_circle=cell(average.mountain_circle[i]),
            whist_circles=_cells(average.whist_circles[i], i),
            average=cell(average.result[i]),
            exact=cell(exact[i]),
            whole=cell(whole.result[i]),
            money=None if money is None else money_cell(money[i]),
        )
        for i in range(size)
    )
    return SettlementView(
        names=names,
        rows=rows,
        finished=finished,
        target=totals.target,
        pulya_to_gora=conv.pulya_to_gora,
        amnesty=format_points(pairwise.amnesty),
        mean=format_result(average.mean),
        divisor=mountain_divisor(size, conv),
        shared_by_others=splits_among_others(size, conv),
        player_count=size,
        adjustments=tuple(_adjustment(a, names) for a in whole.adjustments),
        seat_choices=tuple(
            Option(str(s), n, s == _first_adjusted(whole, first_seat)) for s, n in enumerate(names)
        ),
        stake=format_money(stake) if stake is not None else None,
        payments=tuple(_payment(p, names, stake) for p in paid),
        transfers=tuple(_transfer(p, names, stake) for p in paid),
        codex_rounding=conv.rounding == "codex",
    )


def _cells(row: Sequence[Points], own: int) -> tuple[Cell, ...]:
    return tuple(Cell("") if j == own else cell(v) for j, v in enumerate(row))


def _adjustment(adjustment: engine_settlement.Adjustment, names: Sequence[str]) -> str:
    """One rule 4.2.12 adjustment: whose gora changed, and the whists the others write.

    Names stand alone, before a colon or beside an arrow, so that no language has to
    decline them ("висты: Демо → Анна", never "висты на Анна").
    """
    others = ", ".join(isolate(n) for s, n in enumerate(names) if s != adjustment.seat)
    values = {
        "player": isolate(names[adjustment.seat]),
        "others": others,
        "q": adjustment.compensation,
    }
    if adjustment.change < 0:
        return _("%(player)s: gora −1; whists %(others)s → %(player)s: +%(q)s each.") % values
    return _("%(player)s: gora +1; whists %(others)s → %(player)s: −%(q)s each.") % values


def _transfer(
    payment: engine_settlement.Payment, names: Sequence[str], stake: Decimal | None
) -> Transfer:
    amount = payment.amount
    money = None
    if stake is not None and isinstance(amount, int):  # whole whists (4.2.12)
        money = format_money(Decimal(amount) * stake)
    return Transfer(names[payment.payer], names[payment.payee], format_result(amount), money)


def _payment(
    payment: engine_settlement.Payment, names: Sequence[str], stake: Decimal | None
) -> str:
    """One payment, payer → payee: no name is declined, and each stands apart in its
    own direction (see :func:`_adjustment`)."""
    values = {
        "payer": isolate(names[payment.payer]),
        "payee": isolate(names[payment.payee]),
        "whists": format_result(payment.amount),
    }
    if stake is None:
        return _("%(payer)s → %(payee)s: %(whists)s whists") % values
    amount = payment.amount
    if not isinstance(amount, int):  # payments settle the whole result (4.2.12)
        raise TypeError(f"a payment in whole whists expected, not {amount!r}")
    values["money"] = format_money(Decimal(amount) * stake)
    return _("%(payer)s → %(payee)s: %(whists)s whists, %(money)s in money") % values
