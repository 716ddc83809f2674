"""How a player plays: statistics from the engine's records of the deals (docs/rules.md §2, §3).

Every figure is counted from what the fold wrote (``DealRecord``: the deal's facts and
its entries) and from the settlement (docs/rules.md §3.7); nothing is re-derived from
the drawn sheet. Counts add up: the statistics of several pulkas are the sum of each
pulka's, so the web side can keep one summary per player and pulka and add them.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from itertools import islice
from typing import TypeVar

from .contracts import Kind
from .conventions import Convention
from .facts import Deal, Entry
from .house_deals import CONCEDED_UNDERTRICKS
from .numbers import Points
from .pulka import ScoredPulka
from .seats import seating
from .settlement import Totals, exact_result
from .sheet import DealRecord

NO_SUIT = "-"  # a contract declared without naming its suit
K = TypeVar("K")


@dataclass(frozen=True, slots=True)
class ContractCount:
    """Contracts declared at one level or in one suit, and how they went."""

    declared: int = 0
    made: int = 0
    down: int = 0  # played and failed
    undertricks: int = 0  # tricks short, over the failed ones

    def __add__(self, other: ContractCount) -> ContractCount:
        return ContractCount(
            self.declared + other.declared,
            self.made + other.made,
            self.down + other.down,
            self.undertricks + other.undertricks,
        )

    @property
    def average_undertricks(self) -> Fraction | None:
        return Fraction(self.undertricks, self.down) if self.down else None


_COUNTS = (
    "deals",
    "misere_declared",
    "misere_made",
    "misere_caught",
    "allpass_deals",
    "allpass_tricks",
    "defended",
    "whists",
    "half_whists",
    "whister_remizes",
)


@dataclass(frozen=True, slots=True)
class PlayStats:
    """One player's deals over any number of pulkas; ``+`` adds two of them."""

    deals: int = 0  # deals he took part in (not those he sat out as dealer)
    by_level: Mapping[int, ContractCount] = field(default_factory=dict)
    by_suit: Mapping[str, ContractCount] = field(default_factory=dict)
    misere_declared: int = 0
    misere_made: int = 0
    misere_caught: int = 0
    allpass_deals: int = 0
    allpass_tricks: int = 0
    defended: int = 0  # deals where he defended a trick contract
    whists: int = 0  # of those, where he said "whist"
    half_whists: int = 0
    whister_remizes: int = 0  # недовист: the defence he whisted fell short (rules.md §3.4)

    def __add__(self, other: PlayStats) -> PlayStats:
        counts = {name: getattr(self, name) + getattr(other, name) for name in _COUNTS}
        return PlayStats(
            by_level=_merge(self.by_level, other.by_level),
            by_suit=_merge(self.by_suit, other.by_suit),
            **counts,
        )

    @property
    def allpass_tricks_per_deal(self) -> Fraction | None:
        return Fraction(self.allpass_tricks, self.allpass_deals) if self.allpass_deals else None

    @property
    def contracts(self) -> ContractCount:
        """Every trick contract he declared, all levels together."""
        return sum(self.by_level.values(), ContractCount())


def _merge(a: Mapping[K, ContractCount], b: Mapping[K, ContractCount]) -> dict[K, ContractCount]:
    merged = dict(a)
    for key, count in b.items():
        merged[key] = merged.get(key, ContractCount()) + count
    return merged


def play_stats(records: Sequence[DealRecord], names: Sequence[str], player: str) -> PlayStats:
    """``player``'s deals in one pulka's records; ``names`` are its seats in order.

    A trick contract is made when the declarer took his level, or when it was not
    played (docs/rules.md §3.2); a misère is caught at its first trick (§3.5); a
    whister's shortfall is the engine's ``whister_shortfall`` entry (§3.4).
    """
    seat = names.index(player)
    total = PlayStats()
    for record in records:
        total = total + _deal_stats(record, player, seat, len(names))
    return total


def _deal_stats(record: DealRecord, player: str, seat: int, size: int) -> PlayStats:
    deal = record.deal
    tricks = deal.trick_counts or {}
    kind = deal.contract.kind
    if kind is Kind.MANUAL:
        return PlayStats()  # written by hand, not played (docs/rules.md §3.11)
    if kind is Kind.ALLPASS:
        if player not in tricks:
            return PlayStats()  # the dealer of four, sitting it out (rules.md §4)
        return PlayStats(deals=1, allpass_deals=1, allpass_tricks=tricks[player])
    if seat not in seating(size, record.dealer).active:
        return PlayStats()
    if deal.declarer == player:
        return _declared(deal, tricks)
    word = deal.whist_words.get(player)
    if kind is not Kind.TRICKS or word is None:
        return PlayStats(deals=1)  # a misère is not whisted
    shortfall = any(e.reason == "whister_shortfall" and e.player == seat for e in record.entries)
    return PlayStats(
        deals=1,
        defended=1,
        whists=int(word == "whist"),
        half_whists=int(word == "half"),
        whister_remizes=int(shortfall),
    )


def _declared(deal: Deal, tricks: Mapping[str, int]) -> PlayStats:
    declarer = deal.declarer or ""
    if deal.contract.kind is Kind.MISERE:
        caught = tricks.get(declarer, 0) > 0
        return PlayStats(
            deals=1, misere_declared=1, misere_made=int(not caught), misere_caught=int(caught)
        )
    level = deal.contract.level
    taken = tricks.get(declarer)
    short = 0 if taken is None else max(0, level - taken)
    if deal.conceded:  # written as down three (docs/rules.md §3.10.1)
        short = CONCEDED_UNDERTRICKS
    count = ContractCount(declared=1, made=int(short == 0), down=int(short > 0), undertricks=short)
    suit = deal.contract.suit.value if deal.contract.suit is not None else NO_SUIT
    return PlayStats(deals=1, by_level={level: count}, by_suit={suit: count})


def add_up(stats: Iterable[PlayStats]) -> PlayStats:
    """The sum of several pulkas' statistics."""
    return sum(stats, PlayStats())


# --- pulkas: results, rivals, records and streaks ------------------------------------


@dataclass(frozen=True, slots=True)
class PulkaResult:
    """One finished pulka from one player's side: his result and his rivals'.

    ``against`` is his net against each rival by the pairwise method (Кодекс 4.2.14,
    docs/rules.md §3.7): what they settle between the two of them.
    """

    moment: int  # grows with time
    result: Fraction
    won: bool  # the best result at the table, alone or shared
    against: Mapping[str, Fraction]


@dataclass(frozen=True, slots=True)
class Rival:
    name: str
    pulkas: int
    balance: Fraction  # his net against this rival, over their shared pulkas


@dataclass(frozen=True, slots=True)
class Record:
    pulkas: int
    total: Fraction
    best: Fraction | None
    worst: Fraction | None
    longest_winning_run: int

    @property
    def per_pulka(self) -> Fraction | None:
        return self.total / self.pulkas if self.pulkas else None


def record_of(results: Sequence[PulkaResult]) -> Record:
    """Totals, the best and worst pulka, and the longest run of pulkas won in a row."""
    ordered = sorted(results, key=lambda r: r.moment)
    run = longest = 0
    for result in ordered:
        run = run + 1 if result.won else 0
        longest = max(longest, run)
    values = [r.result for r in ordered]
    return Record(
        pulkas=len(values),
        total=sum(values, Fraction(0)),
        best=max(values) if values else None,
        worst=min(values) if values else None,
        longest_winning_run=longest,
    )


def rivals_of(results: Iterable[PulkaResult]) -> list[Rival]:
    """The players met, most met first (then by name), with the balance against each."""
    met: dict[str, int] = {}
    balance: dict[str, Fraction] = {}
    for result in results:
        for name, net in result.against.items():
            met[name] = met.get(name, 0) + 1
            balance[name] = balance.get(name, Fraction(0)) + net
    ordered = sorted(met, key=lambda name: (-met[name], name))
    return [Rival(name, met[name], balance[name]) for name in ordered]


# --- the balance after every deal (the sheet screen's chart) ---------------------------


def balance_after_each_deal(scored: ScoredPulka) -> list[tuple[Fraction, ...]]:
    """Each player's settled result after every deal, as if the pulka stopped there.

    The sheet after deal k is the sum of what deals 1..k wrote and of the penalties of
    the corrections made by then (Кодекс 4.2.7); each is settled by docs/rules.md §3.7
    (unclosed pulya carried to the gora, 4.2.3). The last figure is the pulka's result.
    """
    names, convention = scored.state.names, scored.state.convention
    size = len(names)
    pulya: list[Points] = [0] * size
    gora: list[Points] = [0] * size
    whists: list[list[Points]] = [[0] * size for _ in range(size)]
    penalties: dict[int, list[Entry]] = {}
    for outcome in scored.corrections:
        penalties.setdefault(outcome.after_deal, []).extend(outcome.penalties)
    balances = []
    settled = _settled_by(convention)
    for number, record in enumerate(scored.records, start=1):
        for entry in (*record.entries, *penalties.get(number, ())):
            _write(entry, pulya, gora, whists)
        totals = Totals(names, scored.state.target, tuple(pulya), tuple(gora),
                        tuple(tuple(row) for row in whists))  # fmt: skip
        balances.append(_settled(totals, convention, settled))
    return balances


# The settlements already made, by convention and sheet: a new deal leaves every earlier
# deal's sheet as it was, so the chart settles only the new one (recording was otherwise
# a settlement per deal of the pulka, a fifth of a 100-deal pulka's record).
# Bounded: past SETTLED_KEPT sheets of a convention, the older half goes.
SETTLED_KEPT = 20_000
_SETTLED: dict[Convention, dict[Totals, tuple[Fraction, ...]]] = {}


def _settled_by(convention: Convention) -> dict[Totals, tuple[Fraction, ...]]:
    found = _SETTLED.get(convention)
    if found is None:
        if len(_SETTLED) >= 64:  # conventions: a club has a handful
            _SETTLED.clear()
        found = _SETTLED[convention] = {}
    return found


def _settled(
    totals: Totals, convention: Convention, known: dict[Totals, tuple[Fraction, ...]]
) -> tuple[Fraction, ...]:
    """``exact_result`` of the sheet, as Fractions, made once per sheet (docs/rules.md §3.7)."""
    found = known.get(totals)
    if found is None:
        if len(known) >= SETTLED_KEPT:
            for oldest in list(islice(known, SETTLED_KEPT // 2)):
                known.pop(oldest, None)  # another thread may have let it go
        found = known[totals] = tuple(Fraction(r) for r in exact_result(totals, convention))
    return found


def _write(
    entry: Entry, pulya: list[Points], gora: list[Points], whists: list[list[Points]]
) -> None:
    if entry.section == "pulya":
        pulya[entry.player] += entry.points
    elif entry.section == "gora":
        gora[entry.player] += entry.points
    elif entry.on is not None:
        whists[entry.player][entry.on] += entry.points
