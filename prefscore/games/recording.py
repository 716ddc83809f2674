"""Recording a deal cheaply: the log folded once per version, a short write (docs/design.md,
"How a deal flows", step 4; "How the table screen is cached").

A deal is recorded on top of the log as it stood at the version the request read: the
standing deals, the corrections and the engine's fold over them (``Log``), kept in the
cache per (pulka, version) like the screens' regions (``render_cache``), so that the
next request at that version, on any device of this worker, reads no deal and folds
nothing. The new deal is the fold's next step (``scoring.engine.pulka.with_next_deal``,
the same as folding the longer log from the start, docs/rules.md §3), and the log of
the new version is put in the cache at once, with the parts of it the screens ask for
(the sheet's state, the last deal).

The write holds the pulka's row only for the version bump and the inserts: the version
moves from the one read to the next in one guarded ``UPDATE`` (nothing else changed
meanwhile, or nothing is written), the deal and its audit line follow. Whatever moved
the version in between (another phone's deal, a correction) sends the request down the
full path, which reads and refolds the log under the lock (``services.record_deal``).

The log replayed as the table lived it, corrections where they were made (below,
``replay``): the engine's fold (``scoring.engine.pulka.score_pulka``) gives the sheet as
it stands now. The screens also need it as it stood at earlier moments: the sheet as
written before each correction struck its figures (Кодекс 4.2.7), the state a deal was
dealt in when it is corrected or changed under the pencil rule (4.2.8), and each deal's
facts as the corrections left them. Each is a refold of the log with the engine's
public steps (``scoring.engine.sheet.apply``, ``scoring.engine.pulka.fold``); nothing
here scores a deal itself.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any
from uuid import UUID

from django.contrib.auth import get_user_model
from django.db import connections, router
from django.db.models import Prefetch

from scoring.engine.deals import GORA, PULYA, WHISTS, Entry, parse_deal
from scoring.engine.deals import Deal as EngineDeal
from scoring.engine.numbers import Points
from scoring.engine.penalties import CorrectionOutcome
from scoring.engine.pulka import LogFold, ScoredPulka, fold, with_next_deal
from scoring.engine.sheet import DealRecord, SheetState

from . import render_cache, services
from .abandon import pending_with_answers
from .models import Abandonment, Consent, Correction, Deal, ForgottenDeal, Pulka

# What a cached deal row holds: what the screens read of it (services.load_deals).
DEAL_FIELDS = ("id", "pulka_id", "number", "facts", "entered_by_id", "entered_at")


@dataclass(frozen=True, slots=True)
class Log:
    """The log at one version: the standing deals in order, the corrections, the fold."""

    deals: tuple[Deal, ...]
    corrections: tuple[Correction, ...]
    scored: ScoredPulka

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled with each deal row as its values (``DEAL_FIELDS`` and the recorder's
        user name), not as a model instance with its own copy of the user: half the
        bytes and a fifth of the time to pickle (a 100-deal log's rows), and every
        record pickles its version's log (docs/benchmarks.md)."""
        db = self.deals[0]._state.db if self.deals else None
        return (
            _unpickled,
            (db, tuple(_values(d) for d in self.deals), self.corrections, self.scored),
        )


# What the screens read of a recorder: his username and his name at the table.
PUBLIC_USER_FIELDS = ("username", "first_name")


def _public(user: Any) -> tuple[str, str]:
    deferred = user.get_deferred_fields()
    return (user.get_username(), "" if "first_name" in deferred else user.first_name)


def _values(deal: Deal) -> tuple[Any, ...]:
    user = deal.entered_by if deal.entered_by_id is not None else None
    return (*(getattr(deal, name) for name in DEAL_FIELDS), user and _public(user))


def _unpickled(
    db: str | None,
    rows: tuple[tuple[Any, ...], ...],
    corrections: tuple[Correction, ...],
    scored: ScoredPulka,
) -> Log:
    """The log again, its rows made model instances as ``services.load_deals`` reads them:
    the recorder by his username and name at the table only (one instance per user)."""
    users: dict[Any, Any] = {}
    deals = []
    for *values, public in rows:
        deal = Deal.from_db(db, list(DEAL_FIELDS), values)
        if deal.entered_by_id is not None:
            user = users.get(deal.entered_by_id)
            if user is None:
                user = users[deal.entered_by_id] = get_user_model().from_db(
                    db, ["id", *PUBLIC_USER_FIELDS], [deal.entered_by_id, *public]
                )
            deal.entered_by = user
        deals.append(deal)
    return Log(tuple(deals), corrections, scored)


@dataclass(frozen=True, slots=True)
class Done:
    """A deal recorded: its row, and the log (and pulka) of the version it made."""

    deal: Deal
    log: Log
    pulka: Pulka


def read_log(pulka: Pulka) -> Log:
    """The log as the database holds it, folded by the engine (docs/rules.md §3–§5)."""
    deals = services.load_deals(pulka)
    rows = pulka.corrections.select_related("asked_by")
    corrections = list(rows.defer(*(f"asked_by__{f}" for f in render_cache.PRIVATE_USER_FIELDS)))
    return Log(tuple(deals), tuple(corrections), services.score(pulka, deals, corrections))


def log_of(pulka: Pulka) -> Log:
    """The log at ``pulka.version``: from the cache, else read and folded once now."""
    return render_cache.shared(pulka, "log", lambda: read_log(pulka), language=False)


def record(
    pulka: Pulka,
    log: Log,
    facts: Mapping[str, Any],
    user: Any,
    number: int,
    client_id: UUID | None = None,
) -> Done:
    """Record deal ``number`` on top of ``log``, the log at ``pulka.version``.

    ``client_id`` is the id the device gave the entry: a deal of this pulka with it
    already is a ``services.Conflict`` too, which the caller answers as a replay.

    The rules' refusal is the engine's ``DealError`` (nothing written); a deal recorded
    first elsewhere is ``services.Conflict``; a pulka that is over ``NotAllowed``.
    ``pulka`` is left at the version the deal made.
    """
    facts = as_stored(facts, connections[router.db_for_write(Deal)].vendor)
    if number != len(log.deals) + 1 or any(c.after_deal >= number for c in log.corrections):
        # A correction made after a deal that was undone since stands after the new
        # deal in the log (``services.engine_pulka_of``): not the fold's next step.
        return _under_the_lock(pulka, facts, user, number, client_id)
    scored = with_next_deal(log.scored, parse_deal(facts))  # DealError: the form says why
    proposal, abandonment = _pending(pulka)
    forgotten = proposal is not None and proposal.status == ForgottenDeal.Status.PENDING
    try:
        row = services.record_next(
            pulka,
            facts,
            user,
            number,
            scored,
            forgotten=forgotten,
            abandonment=abandonment,
            client_id=client_id,
        )
    except services.Moved:
        return _under_the_lock(pulka, facts, user, number, client_id)
    after = Log((*log.deals, _slim(row, user)), log.corrections, scored)
    _prime(pulka, after, None if forgotten else (proposal,), abandonment=abandonment)
    return Done(row, after, pulka)


def as_stored(value: Any, vendor: str) -> Any:
    """``value`` with its objects' keys in the order the database gives them back.

    The fold of the new deal must be the fold of the row as it will be read: the
    engine keeps the order of a deal's ``tricks`` and ``whists``. SQLite keeps a JSON
    object's keys as written; PostgreSQL's ``jsonb`` gives them back shortest first,
    then by their bytes, whatever order they were written in.
    """
    if isinstance(value, list):
        return [as_stored(item, vendor) for item in value]
    if not isinstance(value, Mapping):
        return value
    keys = list(value)
    if vendor == "postgresql":
        keys.sort(key=lambda key: (len(key.encode()), key.encode()))
    return {key: as_stored(value[key], vendor) for key in keys}


def _under_the_lock(
    pulka: Pulka, facts: Mapping[str, Any], user: Any, number: int, client_id: UUID | None
) -> Done:
    """The full path: the log read and folded again under the pulka's lock."""
    recorded = services.record_deal(pulka.pk, facts, user, number, client_id)
    now = Pulka.objects.select_related("club").get(pk=pulka.pk)
    if hasattr(pulka, "viewer_role"):  # what access.pulka_for read with it
        now.viewer_role = pulka.viewer_role  # type: ignore[attr-defined]
    log = log_of(now)
    render_cache.keep(now, _log_entries(log))
    return Done(recorded.deal, log, now)


def _pending(pulka: Pulka) -> tuple[ForgottenDeal | None, bool]:
    """The latest forgotten deal proposed, and whether a proposal to abandon waits for
    answers, at this version: a pending one of each lapses with the next deal (Кодекс
    4.2.10, ``abandon``). Each is read once per version, in the entries the table screen
    reads them from; a new proposal or answer moves the version, which the write's guard
    then sees."""
    proposal = render_cache.versioned(pulka, "proposal", lambda: latest_proposal(pulka))
    abandoning = render_cache.versioned(pulka, "abandonment", lambda: pending_with_answers(pulka))
    return proposal, abandoning is not None and abandoning.status == Abandonment.Status.PENDING


def latest_proposal(pulka: Pulka) -> ForgottenDeal | None:
    """The pulka's latest forgotten deal with its answers: two queries at most."""
    answers = Consent.objects.select_related("player")
    return (
        pulka.forgotten_deals.select_related("proposed_by")
        .defer(*(f"proposed_by__{name}" for name in render_cache.PRIVATE_USER_FIELDS))
        .prefetch_related(Prefetch("consents", queryset=answers))
        .order_by("-created_at", "-pk")
        .first()
    )


def _slim(row: Deal, user: Any) -> Deal:
    """The new row as the screens read rows (``services.load_deals``): the recorder by
    his username and name at the table only, since a shared cache must hold no account's private fields."""
    values = [getattr(row, name) for name in DEAL_FIELDS]
    slim = Deal.from_db(row._state.db, list(DEAL_FIELDS), values)
    if user is not None and getattr(user, "pk", None) is not None:
        slim.entered_by = get_user_model().from_db(
            row._state.db, ["id", *PUBLIC_USER_FIELDS], [user.pk, *_public(user)]
        )
    return slim


def _log_entries(log: Log) -> dict[str, Any]:
    """The version's log and what the screens read of it, by their parts' names."""
    return {"log": log, "state": log.scored.state, "last-deal": (log.deals[-1],)}


def _prime(
    pulka: Pulka, log: Log, proposal: tuple[ForgottenDeal | None] | None, *, abandonment: bool
) -> None:
    """The new version's log, and what the screens read of it, into the cache: the
    next request at this version (the poll of every phone here) reads none of it.
    ``proposal`` is the latest forgotten deal when the deal left it as it was."""
    entries: dict[str, Any] = _log_entries(log)
    if not abandonment:  # none waited, so none waits now
        entries["abandonment"] = (None,)
    if proposal is not None:  # none was pending: the deal changed none
        entries["proposal"] = proposal
    render_cache.keep(pulka, entries)


# --- the log replayed as the table lived it ---------------------------------------

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
    "DEAL_FIELDS",
    "CorrectionStep",
    "Done",
    "Field",
    "Log",
    "effective_facts",
    "field_of",
    "latest_proposal",
    "log_of",
    "read_log",
    "record",
    "replay",
    "score_before_last",
    "state_before",
]
