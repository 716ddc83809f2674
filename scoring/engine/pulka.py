"""A whole pulka: its deal log with corrections, folded into a sheet (docs/rules.md §3–§5).

This is what ``manage.py score`` and the web app both call: the sheet is always the
fold over the log (docs/design.md, "How a deal flows", step 4).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from decimal import Decimal

from .conventions import Convention
from .deals import Deal
from .errors import DealError
from .manual import correction_penalises
from .penalties import CorrectionOutcome, judge_correction
from .pickling import compact_pickle
from .settlement import Totals
from .sheet import DealRecord, SheetState, add_entries, apply, start


@compact_pickle
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


@compact_pickle
@dataclass(frozen=True, slots=True)
class Pulka:
    """Who plays, under which convention, and the log of deals and corrections."""

    names: tuple[str, ...]
    convention: Convention
    target: int
    first_dealer: int = 0
    stake: Decimal | None = None
    log: tuple[Deal | Correction, ...] = ()


@compact_pickle
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
    """Fold deals into a sheet from the start; errors name the deal (docs/protocol.md)."""
    state = start(pulka.names, pulka.convention, pulka.target, pulka.first_dealer)
    records = []
    for number, deal in enumerate(deals, start=1):
        try:
            state, record = apply(state, deal)
        except DealError as error:
            raise error.at("deal", number, number) from None
        records.append(record)
    return state, records


# A pulka's documented limits (docs/protocol.md, "Limits"): far beyond any evening, and
# what one request may score within a second. A correction re-scores every deal after
# the one it corrects; REFOLD_LIMIT bounds those re-scored deals over the whole log.
MAX_DEALS = 2_000
MAX_CORRECTIONS = 2_000
REFOLD_LIMIT = 100_000


def check_limits(log: tuple[Deal | Correction, ...]) -> None:
    """Refuse a log beyond the documented limits (docs/protocol.md, "Limits")."""
    corrections = sum(1 for item in log if isinstance(item, Correction))
    if len(log) - corrections > MAX_DEALS:
        raise DealError("pulka.too_many_deals", high=MAX_DEALS)
    if corrections > MAX_CORRECTIONS:
        raise DealError("pulka.too_many_corrections", high=MAX_CORRECTIONS)


@dataclass(slots=True)
class LogFold:
    """The running fold of a log (docs/rules.md §3–§5; Кодекс 4.2.7 for corrections):
    each deal with the state it was dealt in, so that a correction of deal k re-scores
    deals k… only, never 1…k-1 again (checkpoints). ``score_pulka`` and the screens that
    replay a log as the table lived it both fold through it.
    """

    deals: list[Deal]
    befores: list[SheetState]
    records: list[DealRecord]
    state: SheetState
    refolded: int = 0

    @classmethod
    def begin(cls, pulka: Pulka) -> LogFold:
        """The fold of ``pulka`` before its first deal (docs/rules.md §3)."""
        return cls(
            [], [], [], start(pulka.names, pulka.convention, pulka.target, pulka.first_dealer)
        )

    def append(self, deal: Deal) -> None:
        """The next deal of the log (docs/rules.md §3); errors name it."""
        number = len(self.deals) + 1
        try:
            after, record = apply(self.state, deal)
        except DealError as error:
            raise error.at("deal", number, number) from None
        self.deals.append(deal)
        self.befores.append(self.state)
        self.records.append(record)
        self.state = after

    def replace(self, number: int, deal: Deal) -> None:
        """Deal ``number`` replaced: the sheet from it on as if it had been so all along.

        In place, from deal ``number`` on: correcting the last deal costs one deal, not a
        copy of the whole log. An error leaves the fold unfinished; callers stop there.
        """
        self.refolded += len(self.deals) - number + 1
        if self.refolded > REFOLD_LIMIT:
            raise DealError("pulka.too_much_refolding", high=REFOLD_LIMIT)
        self.deals[number - 1] = deal
        state = self.befores[number - 1]
        for index in range(number, len(self.deals) + 1):
            try:
                after, record = apply(state, self.deals[index - 1])
            except DealError as error:
                raise error.at("deal", index, index) from None
            self.befores[index - 1] = state
            self.records[index - 1] = record
            state = after
        self.state = state


def with_next_deal(scored: ScoredPulka, deal: Deal) -> ScoredPulka:
    """``scored`` with one more deal at the end of its log: the fold's next step.

    The same as scoring the longer log from the start (docs/rules.md §3): corrections
    touch only the deals before them, and their penalties touch neither pulya nor the
    end of the pulka. A deal the rules refuse raises its ``DealError`` as
    ``sheet.apply`` does, for the entry form to place; the limits as ``check_limits``.
    """
    log = (*scored.pulka.log, deal)
    check_limits(log)
    after, record = apply(scored.state, deal)
    longer = replace(scored.pulka, log=log)
    return ScoredPulka(longer, after, (*scored.records, record), scored.corrections)


def score_pulka(pulka: Pulka) -> ScoredPulka:
    """Score the whole log: deals in order, corrections by Кодекс 4.2.7.

    A correction replaces its deal and the sheet is folded again from that deal on;
    penalties are written on top, since they touch neither pulya nor the end of the
    pulka. Within the limits of :func:`check_limits` and ``REFOLD_LIMIT`` the work is
    the deals plus, for each correction, the deals after the one it corrects.
    """
    check_limits(pulka.log)
    run = LogFold.begin(pulka)
    judged: list[CorrectionOutcome] = []
    warned: frozenset[int] = frozenset()
    for item in pulka.log:
        if isinstance(item, Deal):
            run.append(item)
            continue
        if not 1 <= item.number <= len(run.deals):
            raise DealError("correction.no_such_deal", "correct").at("correction", item.number)
        wrong = run.records[item.number - 1]
        try:
            penalise = correction_penalises(wrong.deal, item.deal, item.penalise)
            run.replace(item.number, item.deal)
        except DealError as error:
            raise error.at("correction", item.number) from None
        outcome = judge_correction(
            item.number,
            len(run.deals),
            wrong.entries,
            run.records[item.number - 1].entries,
            len(pulka.names),
            warned,
            penalise,
        )
        warned = warned | frozenset(outcome.warned)
        judged.append(outcome)
    state = run.state
    for outcome in judged:
        state = add_entries(state, outcome.penalties)
    return ScoredPulka(pulka, state, tuple(run.records), tuple(judged))
