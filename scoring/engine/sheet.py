"""The running sheet: a fold over the deal log (docs/rules.md §3.4–3.5, Кодекс 4.2.3).

``apply(state, deal) -> (state, record)`` never mutates ``state``. Pulya requests
from a deal pass through help (помощь) here, and the end of the pulka is decided here.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace

from .allpass import TrickPrice, trick_price
from .allpass_runs import finish_held, next_run
from .contracts import MANUAL
from .conventions import Convention
from .deals import GORA, PULYA, WHISTS, Deal, DealContext, Entry, score_deal
from .errors import DealError
from .help_order import help_receiver
from .numbers import Points
from .pickling import compact_pickle, slot_setters
from .seats import Seating, seating
from .writeoff import help_writeoff


@compact_pickle
@dataclass(frozen=True, slots=True)
class SheetState:
    """Every figure on the sheet after some deals, and what the next deal needs.

    ``whists[i][j]`` is what player i has written on player j (docs/rules.md notation W).
    """

    names: tuple[str, ...]
    convention: Convention
    target: int
    pulya: tuple[Points, ...]
    gora: tuple[Points, ...]
    whists: tuple[tuple[Points, ...], ...]
    dealer: int
    run: int = 0
    deals_played: int = 0
    closed: bool = False
    # Seats (a bit each) that have led at the top of the exit ladder in this run
    # (option allpass_exit_round, docs/rules.md §3.3); 0 when nobody is counted.
    led: int = 0
    manual_lines: int = 0  # of deals_played, the manual entries (docs/rules.md §3.11)

    def __init__(
        self,
        names: tuple[str, ...],
        convention: Convention,
        target: int,
        pulya: tuple[Points, ...],
        gora: tuple[Points, ...],
        whists: tuple[tuple[Points, ...], ...],
        dealer: int,
        run: int = 0,
        deals_played: int = 0,
        closed: bool = False,
        led: int = 0,
        manual_lines: int = 0,
    ) -> None:
        # Every field set through its slot (pickling.slot_setters): one state a deal.
        put = _STATE_SLOTS
        put[0](self, names)
        put[1](self, convention)
        put[2](self, target)
        put[3](self, pulya)
        put[4](self, gora)
        put[5](self, whists)
        put[6](self, dealer)
        put[7](self, run)
        put[8](self, deals_played)
        put[9](self, closed)
        put[10](self, led)
        put[11](self, manual_lines)

    @property
    def size(self) -> int:
        return len(self.names)

    @property
    def allpass_price(self) -> int:
        """Price per trick of an all-pass dealt now: ``allpass_ladder[run]`` (docs/protocol.md)."""
        ladder = self.convention.allpass_ladder
        return ladder[min(self.run, len(ladder) - 1)]

    @property
    def allpass_trick_price(self) -> TrickPrice:
        """What a trick on an all-pass dealt now writes, the scale applied (docs/rules.md §3.3)."""
        return trick_price(self.convention, self.allpass_price)

    @property
    def min_contract(self) -> int:
        """Lowest contract allowed now: ``exit_ladder[run]`` (docs/rules.md §3.3 "Exit")."""
        ladder = self.convention.exit_ladder
        return ladder[min(self.run, len(ladder) - 1)]


@compact_pickle
@dataclass(frozen=True, slots=True)
class DealRecord:
    """One deal as written: its number, dealer, 4.2.11 notation and every entry."""

    number: int
    dealer: int
    notation: str
    entries: tuple[Entry, ...]
    deal: Deal

    def __init__(
        self, number: int, dealer: int, notation: str, entries: tuple[Entry, ...], deal: Deal
    ) -> None:
        # Every field set through its slot (pickling.slot_setters): one record a deal.
        put_number, put_dealer, put_notation, put_entries, put_deal = _RECORD_SLOTS
        put_number(self, number)
        put_dealer(self, dealer)
        put_notation(self, notation)
        put_entries(self, entries)
        put_deal(self, deal)


_STATE_SLOTS = slot_setters(SheetState)
_RECORD_SLOTS = slot_setters(DealRecord)


def start(
    names: Sequence[str], convention: Convention, target: int, first_dealer: int = 0
) -> SheetState:
    """An empty sheet; the first dealer defaults to the first seat (docs/protocol.md)."""
    size = len(names)
    zero: tuple[Points, ...] = (0,) * size
    return SheetState(
        tuple(names), convention, target, zero, zero, (zero,) * size, first_dealer % size
    )


def apply(state: SheetState, deal: Deal) -> tuple[SheetState, DealRecord]:
    """Score the next deal and write it: the fold step (docs/design.md, "How a deal flows").

    A deal after the pulka closed is an error (docs/protocol.md "Order and limits"); an
    explicit ``dealer`` restarts the rotation from him.
    """
    if state.closed:
        raise DealError("deal.pulka_over", "contract")
    dealer = state.dealer
    if deal.dealer is not None:
        if deal.dealer not in state.names:
            raise DealError("deal.unknown_dealer", "dealer", player=deal.dealer)
        dealer = state.names.index(deal.dealer)
    names, convention, run = state.names, state.convention, state.run
    size = len(names)
    ctx = _context(convention, names, seating(size, dealer), run)
    outcome = score_deal(ctx, deal)
    entries = outcome.entries
    # Nobody deals a manual entry (docs/rules.md §3.11): the dealer stays, nobody sits out.
    manual = deal.contract.kind is MANUAL
    pulya_now, gora_now = list(state.pulya), list(state.gora)
    whists_now: list[list[Points] | tuple[Points, ...]] = list(state.whists)
    if convention.help and any(entry.section == PULYA for entry in entries):
        writer = _Writer(state, () if manual else ctx.seats.sitting_out, outcome.remized_whisters)
        for entry in entries:
            writer.write(entry)
        entries = tuple(writer.entries)
        pulya_now, gora_now, whists_now = writer.pulya, writer.gora, writer.whists
        whists_changed = writer.whists_changed
    else:
        whists_changed = _write(entries, pulya_now, gora_now, whists_now)
    pulya = tuple(pulya_now)
    played = state.deals_played + 1
    manual_lines = state.manual_lines + manual
    if manual:  # a manual line neither grows nor ends a run of all-passes (§3.11)
        led = state.led
    elif not outcome.is_allpass and (run == 0 or outcome.resets_run):
        run = led = 0  # no run goes on: what next_run gives, without asking it
    else:
        run, led = next_run(
            convention,
            run,
            state.led,
            is_allpass=outcome.is_allpass,
            resets=outcome.resets_run,
            first_hand=ctx.seats.active[0],
            size=size,
        )
    # Built directly rather than through dataclasses.replace: this is the fold's hot path.
    new_state = SheetState(
        names,
        convention,
        state.target,
        pulya,
        tuple(gora_now),
        tuple(map(tuple, whists_now)) if whists_changed else state.whists,
        dealer if manual else (dealer + 1) % size,
        run,
        played,
        pulka_over(convention, state.target, pulya, played - manual_lines, run),
        led,
        manual_lines,
    )
    record = DealRecord(played, dealer, outcome.notation, entries, deal)
    return new_state, record


def _context(
    convention: Convention, names: tuple[str, ...], seats: Seating, run: int
) -> DealContext:
    """The DealContext of a deal at these seats after ``run`` all-passes: the ladders'
    steps as ``SheetState.allpass_price`` and ``min_contract`` read them (docs/rules.md §3.3)."""
    allpass, exit_ = convention.allpass_ladder, convention.exit_ladder
    return DealContext(
        convention,
        names,
        seats,
        allpass[run] if run < len(allpass) else allpass[-1],
        exit_[run] if run < len(exit_) else exit_[-1],
    )


def add_entries(state: SheetState, entries: Iterable[Entry]) -> SheetState:
    """Write entries as they stand, without help: penalties of Кодекс 4.2.7."""
    writer = _Writer(state, (), frozenset())
    for entry in entries:
        writer.write_plain(entry)
    return replace(
        state,
        pulya=tuple(writer.pulya),
        gora=tuple(writer.gora),
        whists=tuple(tuple(row) for row in writer.whists),
    )


def is_over(state: SheetState) -> bool:
    """Whether the pulka is over by its convention's ``end`` (docs/rules.md §3.5)."""
    return pulka_over(
        state.convention,
        state.target,
        state.pulya,
        state.deals_played - state.manual_lines,
        state.run,
    )


def pulka_over(
    convention: Convention,
    target: int,
    pulya: Sequence[Points],
    deals_played: int,
    run: int = 0,
) -> bool:
    """The end of the pulka by the convention's ``end`` (docs/rules.md §3.5; Кодекс 4.2.3.3).

    ``all_closed``: every pulya reached the target. ``sum_reached``: the pulyas add up
    to players × target (the last deal is written in full). ``deals``: the deal limit
    is reached; with no limit the pulka is played by time and never ends by itself.
    With ``finish_after_allpass_run`` no end comes while a run of all-passes goes on.
    A deal limit with another end ends the pulka at whichever comes first (tournaments:
    "to the target or N deals").
    """
    if run and finish_held(convention, run):
        return False
    if convention.deal_limit is not None and deals_played >= convention.deal_limit:
        return True
    if convention.end == "all_closed":
        return all(p >= target for p in pulya)
    if convention.end == "sum_reached":
        return sum(pulya) >= len(pulya) * target
    return convention.deal_limit is not None and deals_played >= convention.deal_limit


def _write(
    entries: Iterable[Entry],
    pulya: list[Points],
    gora: list[Points],
    whists: list[list[Points] | tuple[Points, ...]],
) -> bool:
    """Add entries to the figures as they stand; True when some whists were written.

    A row of whists is copied into a list only when the deal writes into it.
    """
    whists_changed = False
    for entry in entries:
        section = entry.section
        if section == PULYA:
            pulya[entry.player] += entry.points
        elif section == GORA:
            gora[entry.player] += entry.points
        else:
            assert entry.on is not None
            row = whists[entry.player]
            if isinstance(row, tuple):
                row = whists[entry.player] = list(row)
            row[entry.on] += entry.points
            whists_changed = True
    return whists_changed


class _Writer:
    """Mutable scratch copy of the figures while one deal is written (never shared).

    A row of whists is copied only when the deal writes into it.
    """

    __slots__ = (
        "state",
        "help",
        "pulya",
        "gora",
        "whists",
        "whists_changed",
        "sitting_out",
        "remized",
        "entries",
    )

    def __init__(
        self, state: SheetState, sitting_out: tuple[int, ...], remized: frozenset[int]
    ) -> None:
        self.state = state
        self.help = state.convention.help
        self.pulya = list(state.pulya)
        self.gora = list(state.gora)
        self.whists: list[list[Points] | tuple[Points, ...]] = list(state.whists)
        self.whists_changed = False
        self.sitting_out = sitting_out
        self.remized = remized
        self.entries: list[Entry] = []

    def write_plain(self, entry: Entry) -> None:
        if _write((entry,), self.pulya, self.gora, self.whists):
            self.whists_changed = True
        self.entries.append(entry)

    def write(self, entry: Entry) -> None:
        if self.help and entry.section == PULYA:
            self._pulya_with_help(entry)
        else:
            self.write_plain(entry)

    def _pulya_with_help(self, entry: Entry) -> None:
        """PULYA(p, v) with help (docs/rules.md §3.4; Кодекс 4.1.1, 4.2.3).

        The excess over the target goes to another unclosed pulya, the one ``help_order``
        picks (help_order.py), at 10 whists a point; what nobody can take comes off
        the giver's gora, as writeoff.py reckons it (docs/rules.md §3.4.3).
        """
        giver, target = entry.player, self.state.target
        own = max(0, min(entry.points, target - self.pulya[giver]))
        if own:
            self.write_plain(Entry(giver, PULYA, own, reason=entry.reason))
        excess = entry.points - own
        while excess > 0:
            receiver = self._help_receiver(giver)
            if receiver is None:
                break
            given = min(excess, target - self.pulya[receiver])
            self.write_plain(Entry(receiver, PULYA, given, reason="help"))
            self.write_plain(Entry(giver, WHISTS, 10 * given, receiver, "help"))
            excess -= given
        if excess > 0:
            state = self.state
            writeoff = help_writeoff(state.convention, state.size, excess, self.gora[giver])
            if writeoff:
                self.write_plain(Entry(giver, GORA, -writeoff, reason="help_writeoff"))

    def _help_receiver(self, giver: int) -> int | None:
        """The seat help goes to next, by ``help_order`` (docs/rules.md §3.4.2)."""
        state = self.state
        return help_receiver(
            state.convention, state.target, self.pulya, giver, self.sitting_out, self.remized
        )


@dataclass(frozen=True, slots=True)
class RunningTotals:
    """A player's figures as written on paper: each new total after a change.

    ``2.6.10.12`` on the sheet is ``pulya == (2, 6, 10, 12)`` (docs/design.md, "The drawn
    sheet"; Кодекс 4.2.4–4.2.6: entries are running totals).
    """

    pulya: tuple[Points, ...]
    gora: tuple[Points, ...]
    whists: tuple[tuple[Points, ...], ...]


def running_totals(size: int, entry_groups: Iterable[Iterable[Entry]]) -> tuple[RunningTotals, ...]:
    """Running totals per player over groups of entries (one group per deal or penalty).

    A total is written once per group that changed it, as a player writes once per deal.
    """
    pulya: list[list[Points]] = [[] for _ in range(size)]
    gora: list[list[Points]] = [[] for _ in range(size)]
    whists: list[list[list[Points]]] = [[[] for _ in range(size)] for _ in range(size)]
    now_pulya: list[Points] = [0] * size
    now_gora: list[Points] = [0] * size
    now_whists: list[list[Points]] = [[0] * size for _ in range(size)]
    for group in entry_groups:
        touched: set[tuple[str, int, int]] = set()
        for e in group:
            if e.section == PULYA:
                now_pulya[e.player] += e.points
                touched.add((PULYA, e.player, 0))
            elif e.section == GORA:
                now_gora[e.player] += e.points
                touched.add((GORA, e.player, 0))
            elif e.on is not None:
                now_whists[e.player][e.on] += e.points
                touched.add((WHISTS, e.player, e.on))
        for section, player, on in sorted(touched):
            if section == PULYA:
                pulya[player].append(now_pulya[player])
            elif section == GORA:
                gora[player].append(now_gora[player])
            else:
                whists[player][on].append(now_whists[player][on])
    return tuple(
        RunningTotals(tuple(pulya[p]), tuple(gora[p]), tuple(tuple(w) for w in whists[p]))
        for p in range(size)
    )
