"""The deal log replayed as the table lived it: corrections where they were made.

The engine's fold (``scoring.engine.pulka.score_pulka``) gives the sheet as it stands
now. The screens also need it as it stood at earlier moments: the sheet as written
before each correction struck its figures (Кодекс 4.2.7), the state a deal was dealt
in when it is corrected or changed under the pencil rule (4.2.8), and each deal's
facts as the corrections left them. Each is a refold of the log with the engine's
public steps (``scoring.engine.sheet.apply``, ``scoring.engine.pulka.fold``); nothing
here scores a deal itself.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, replace
from typing import Any

from scoring.engine.deals import GORA, PULYA, WHISTS, Entry, parse_deal
from scoring.engine.deals import Deal as EngineDeal
from scoring.engine.numbers import Points
from scoring.engine.penalties import CorrectionOutcome
from scoring.engine.pulka import LogFold, ScoredPulka, fold
from scoring.engine.sheet import DealRecord, SheetState

from . import services
from .models import Correction, Deal, Pulka

# One field of the sheet: (section, player, the player the whists are on, else 0).
Field = tuple[str, int, int]


def field_of(entry: Entry) -> Field:
    """The field of the sheet an entry is written in."""
    if entry.section == WHISTS:
        return (WHISTS, entry.player, entry.on if entry.on is not None else 0)
    return (entry.section, entry.player, 0)


@dataclass(frozen=True, slots=True)
class CorrectionStep:
    """One correction where the fold met it: the deal before and after, the judgement.

    ``standing`` is every field's figure once the log is refolded with the deal
    replaced, the penalties of the corrections before this one included and its own
    not yet: what the sheet must read before this correction writes its penalties.
    """

    number: int
    after_deal: int
    wrong: DealRecord
    right: DealRecord
    outcome: CorrectionOutcome
    standing: dict[Field, Points]


def _standing(state: SheetState, penalties: Iterable[Entry]) -> dict[Field, Points]:
    """Every field's figure: the fold's state and the penalties written so far."""
    size = state.size
    values: dict[Field, Points] = {}
    for p in range(size):
        values[(PULYA, p, 0)] = state.pulya[p]
        values[(GORA, p, 0)] = state.gora[p]
        for q in range(size):
            if q != p:
                values[(WHISTS, p, q)] = state.whists[p][q]
    for entry in penalties:
        key = field_of(entry)
        values[key] = values.get(key, 0) + entry.points
    return {k: v for k, v in values.items() if v}


def replay(scored: ScoredPulka) -> Iterator[DealRecord | CorrectionStep]:
    """The log in the order it was written: each deal's record, each correction's step.

    A correction (Кодекс 4.2.7) refolds the log with the deal replaced; the figures
    standing after the last item are the engine's. Without corrections this is the
    fold's own records, refolded nothing.
    """
    if not scored.corrections:
        yield from scored.records
        return
    run = LogFold.begin(scored.pulka)  # checkpointed: a correction re-scores from its deal
    penalties: list[Entry] = []
    judged = iter(scored.corrections)
    for item in scored.pulka.log:
        if isinstance(item, EngineDeal):
            run.append(item)
            yield run.records[-1]
            continue
        outcome = next(judged)
        wrong = run.records[item.number - 1]
        run.replace(item.number, item.deal)
        standing = _standing(run.state, penalties)
        penalties.extend(outcome.penalties)
        right = run.records[item.number - 1]
        yield CorrectionStep(item.number, len(run.deals), wrong, right, outcome, standing)


# --- earlier moments of the sheet -----------------------------------------------------


def score_before_last(
    pulka: Pulka, deals: Sequence[Deal], corrections: Sequence[Correction]
) -> SheetState:
    """The sheet as it stood when the last deal was dealt: what a pencil change needs."""
    last = deals[-1].number
    earlier = [c for c in corrections if c.after_deal < last]
    return services.score(pulka, list(deals[:-1]), earlier).state


def effective_facts(deals: Sequence[Deal], corrections: Sequence[Correction]) -> list[Any]:
    """Each standing deal's facts as they stand now: its last correction's, or its own."""
    facts = [deal.facts for deal in deals]
    for correction in services.in_log_order(corrections):
        if 1 <= correction.deal_number <= len(facts):
            facts[correction.deal_number - 1] = correction.facts
    return facts


def state_before(scored: ScoredPulka, facts: Sequence[Any], number: int) -> SheetState:
    """The sheet as it stood when deal ``number`` was dealt, every correction applied.

    That is the state a correction of the deal is scored in (Кодекс 4.2.7; the engine
    refolds the log with the deal replaced): its dealer, who sits out, the all-pass
    price and the lowest contract allowed.
    """
    earlier = [parse_deal(f) for f in facts[: number - 1]]
    state, _records = fold(scored.pulka, earlier)
    dealer = facts[number - 1].get("dealer")
    if dealer in state.names:
        state = replace(state, dealer=state.names.index(dealer))
    return state


__all__ = [
    "CorrectionStep",
    "Field",
    "effective_facts",
    "field_of",
    "replay",
    "score_before_last",
    "state_before",
]
