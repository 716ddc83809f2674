"""A whole pulka: its deal log with corrections, folded into a sheet (rules.md §3–§5).

This is what ``manage.py score`` and the web app both call: the sheet is always the
fold over the log (design.md, "How a deal flows", step 4).
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from .conventions import Convention
from .deals import Deal
from .errors import DealError
from .penalties import CorrectionOutcome, judge_correction
from .settlement import Totals
from .sheet import DealRecord, SheetState, add_entries, apply, start


@dataclass(frozen=True, slots=True)
class Correction:
    """``{"correct": k, "deal": {...}}``: deal k (counting deals only) is replaced.

    ``penalise`` is False for a correction the favoured player makes of his own will
    after the deadline (Кодекс 4.2.9) or an arbiter's decision without penalty
    (Кодекс 4.2.16): the deal is replaced and nobody is warned or penalised.
    """

    number: int
    deal: Deal
    penalise: bool = True


@dataclass(frozen=True, slots=True)
class Pulka:
    """Who plays, under which convention, and the log of deals and corrections."""

    names: tuple[str, ...]
    convention: Convention
    target: int
    first_dealer: int = 0
    stake: Decimal | None = None
    log: tuple[Deal | Correction, ...] = ()


@dataclass(frozen=True, slots=True)
class ScoredPulka:
    """The fold's result: final state, each deal as written, each correction judged."""

    pulka: Pulka
    state: SheetState
    records: tuple[DealRecord, ...]
    corrections: tuple[CorrectionOutcome, ...]

    @property
    def totals(self) -> Totals:
        s = self.state
        return Totals(s.names, s.target, s.pulya, s.gora, s.whists)


def fold(pulka: Pulka, deals: list[Deal]) -> tuple[SheetState, list[DealRecord]]:
    """Fold deals into a sheet from the start; errors name the deal (protocol.md)."""
    state = start(pulka.names, pulka.convention, pulka.target, pulka.first_dealer)
    records = []
    for number, deal in enumerate(deals, start=1):
        try:
            state, record = apply(state, deal)
        except DealError as error:
            raise error.at("deal", number, number) from None
        records.append(record)
    return state, records


def score_pulka(pulka: Pulka) -> ScoredPulka:
    """Score the whole log: deals in order, corrections by Кодекс 4.2.7.

    A correction replaces its deal and the sheet is folded again; penalties are
    written on top, since they touch neither pulya nor the end of the pulka.
    """
    deals: list[Deal] = []
    state = start(pulka.names, pulka.convention, pulka.target, pulka.first_dealer)
    records: list[DealRecord] = []
    judged: list[CorrectionOutcome] = []
    warned: frozenset[int] = frozenset()
    for item in pulka.log:
        if isinstance(item, Deal):
            deals.append(item)
            try:
                state, record = apply(state, item)
            except DealError as error:
                raise error.at("deal", len(deals), len(deals)) from None
            records.append(record)
            continue
        if not 1 <= item.number <= len(deals):
            raise DealError("correction.no_such_deal", "correct").at("correction", item.number)
        wrong = records[item.number - 1]
        deals[item.number - 1] = item.deal
        try:
            state, records = fold(pulka, deals)
        except DealError as error:
            raise error.at("correction", item.number) from None
        outcome = judge_correction(
            item.number,
            len(deals),
            wrong.entries,
            records[item.number - 1].entries,
            len(pulka.names),
            warned,
            item.penalise,
        )
        warned = warned | frozenset(outcome.warned)
        judged.append(outcome)
    for outcome in judged:
        state = add_entries(state, outcome.penalties)
    return ScoredPulka(pulka, state, tuple(records), tuple(judged))
