"""A deal's facts as the players report them, and what scoring one writes (docs/protocol.md).

The dataclasses every part of the engine passes around (a deal, an entry on the sheet,
a deal's outcome and the context it is scored in), reading a deal of a pulka file, and
the checks of names and tricks that every kind of deal shares.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, NamedTuple

from .contracts import Contract
from .conventions import Convention
from .errors import DealError
from .numbers import Points
from .pickling import compact_pickle, slot_setters
from .seats import Seating

WORDS = ("whist", "pass", "half")
PULYA, GORA, WHISTS = "pulya", "gora", "whists"


@compact_pickle
@dataclass(frozen=True, slots=True)
class Deal:
    """A deal as the players report it at the table (docs/protocol.md, a deal's fields).

    Names are the pulka's player names; nothing here is a computed figure.
    """

    contract: Contract
    declarer: str | None = None
    whists: tuple[tuple[str, str], ...] = ()
    tricks: tuple[tuple[str, int], ...] | None = None
    prikup: int = 0
    dealer: str | None = None
    # Facts of docs/rules.md §3.10, each allowed by its convention option.
    conceded: bool = False
    totus: bool = False
    talon_shown: bool = False

    def __init__(
        self,
        contract: Contract,
        declarer: str | None = None,
        whists: tuple[tuple[str, str], ...] = (),
        tricks: tuple[tuple[str, int], ...] | None = None,
        prikup: int = 0,
        dealer: str | None = None,
        conceded: bool = False,
        totus: bool = False,
        talon_shown: bool = False,
    ) -> None:
        # Every field set through its slot (pickling.slot_setters): a file reads one
        # deal per item. A subclass (manual.ManualDeal) has the dataclass's own.
        put = _DEAL_SLOTS
        put[0](self, contract)
        put[1](self, declarer)
        put[2](self, whists)
        put[3](self, tricks)
        put[4](self, prikup)
        put[5](self, dealer)
        put[6](self, conceded)
        put[7](self, totus)
        put[8](self, talon_shown)

    @property
    def whist_words(self) -> dict[str, str]:
        return dict(self.whists)

    @property
    def trick_counts(self) -> dict[str, int] | None:
        return None if self.tricks is None else dict(self.tricks)


@compact_pickle
@dataclass(frozen=True, slots=True)
class Entry:
    """One number written on the sheet (docs/protocol.md output ``entries``).

    ``player`` writes ``points`` into ``section``; for whists, ``on`` is the seat they
    are written on. ``reason`` is a code the protocol view translates: ``contract``,
    ``unplayed``, ``remiz``, ``consolation``, ``trick_whists``, ``half_whist``,
    ``whister_shortfall``, ``talon``, ``allpass``, ``zero_bonus``, ``help``,
    ``help_writeoff``, ``misere``, ``penalty``, and for docs/rules.md §3.10 ``conceded``,
    ``totus``, ``talon_shown``.
    """

    player: int
    section: str
    points: Points
    on: int | None = None
    reason: str = ""

    def __init__(
        self, player: int, section: str, points: Points, on: int | None = None, reason: str = ""
    ) -> None:
        # The dataclass's own fields, set through their slots (pickling.slot_setters):
        # the fold writes about three entries a deal.
        put_player, put_section, put_points, put_on, put_reason = _ENTRY_SLOTS
        put_player(self, player)
        put_section(self, section)
        put_points(self, points)
        put_on(self, on)
        put_reason(self, reason)


_DEAL_SLOTS = slot_setters(Deal)
_ENTRY_SLOTS = slot_setters(Entry)
_NOBODY: frozenset[int] = frozenset()


class DealOutcome(NamedTuple):
    """What a deal wrote and what the sheet needs to know about it.

    A named tuple, like :class:`DealContext`: made for every deal and read once, it is
    immutable all the same and built at a third of a frozen dataclass's cost.
    """

    entries: tuple[Entry, ...]
    notation: str
    resets_run: bool
    is_allpass: bool
    remized_whisters: frozenset[int] = _NOBODY


class DealContext(NamedTuple):
    """The state a deal is scored in: seats, the all-pass price and the exit ladder.

    A named tuple: the fold makes one for every deal (docs/design.md, "How a deal
    flows"), and a frozen dataclass sets each field through ``object.__setattr__``.
    """

    convention: Convention
    names: tuple[str, ...]
    seats: Seating
    allpass_price: int
    min_contract: int


def refuse(condition: bool, code: str, field_name: str) -> None:
    """Refuse the deal with ``code`` when ``condition`` holds (docs/protocol.md, "Bad input")."""
    if condition:
        raise DealError(code, field_name)


def seat_of(ctx: DealContext, name: str, what: str) -> int:
    """The seat of a player named in ``what``; an unknown name is refused (docs/protocol.md)."""
    try:
        return ctx.names.index(name)
    except ValueError:
        raise DealError("deal.unknown_player", what, player=name, what=what) from None


def checked_tricks(ctx: DealContext, deal: Deal, players: tuple[int, ...]) -> dict[int, int]:
    """Trick counts per seat for ``players``; they must add up to 10 (docs/protocol.md)."""
    counts = deal.tricks
    if counts is None:
        raise DealError("deal.tricks_missing", "tricks")
    names = ctx.names
    by_seat: dict[int, int] = {}
    # The pairs come from a map (parse_deal, the entry form): each name once.
    for name, count in counts:
        try:
            seat = names.index(name)
        except ValueError:
            seat = seat_of(ctx, name, "tricks")
        if seat not in players:
            raise DealError("deal.tricks_sits_out", "tricks", player=name)
        if (
            type(count) is not int and (not isinstance(count, int) or isinstance(count, bool))
        ) or not 0 <= count <= 10:
            raise DealError("deal.tricks_range", "tricks", player=name)
        by_seat[seat] = count
    if len(by_seat) != len(players):
        for seat in players:
            if seat not in by_seat:
                raise DealError("deal.player_tricks_missing", "tricks", player=names[seat])
    total = sum(by_seat.values())
    if total != 10:
        raise DealError("deal.tricks_total", "tricks", total=total)
    return by_seat


def parse_deal(raw: Mapping[str, object]) -> Deal:
    """Read one deal of a pulka file (docs/protocol.md, "Input"); names are checked later."""
    contract_text = raw.get("contract")
    if contract_text is None:
        raise DealError("deal.contract_missing", "contract")
    contract = Contract.parse(contract_text)  # type: ignore[arg-type]
    declarer = raw.get("declarer")
    if declarer is not None and type(declarer) is not str and not isinstance(declarer, str):
        raise DealError("deal.declarer_not_name", "declarer")
    dealer = raw.get("dealer")
    if dealer is not None and type(dealer) is not str and not isinstance(dealer, str):
        raise DealError("deal.dealer_not_name", "dealer")
    whists = _name_map(raw.get("whists"), "whists", str)
    tricks_raw = raw.get("tricks")
    tricks = None if tricks_raw is None else _name_map(tricks_raw, "tricks", int)
    prikup = raw.get("prikup", 0)
    if type(prikup) is not int:
        if not isinstance(prikup, int) or isinstance(prikup, bool):
            raise DealError("deal.prikup_not_whole", "prikup")
        prikup = int(prikup)
    if not _DEAL_FIELDS.issuperset(raw):
        unknown = sorted(map(str, set(raw) - _DEAL_FIELDS))
        raise DealError("deal.unknown_field", unknown[0], name=unknown[0])
    if _FLAGS_SET.isdisjoint(raw):  # a deal without §3.10's facts: their defaults
        return Deal(contract, declarer, whists, tricks, prikup, dealer)
    flags = [_flag(raw, name) for name in _FLAGS]
    return Deal(contract, declarer, whists, tricks, prikup, dealer, *flags)


def _flag(raw: Mapping[str, object], name: str) -> bool:
    """An optional true/false fact of docs/rules.md §3.10 (docs/protocol.md)."""
    value = raw.get(name, False)
    if not isinstance(value, bool):
        raise DealError("deal.flag_not_bool", name, name=name)
    return value


_FLAGS = ("conceded", "totus", "talon_shown")
_FLAGS_SET = frozenset(_FLAGS)


# A deal item of an exported file also carries what scoring wrote for it (docs/protocol.md
# output ``deals``): it is recomputed, never read.
_DEAL_OUTPUT_FIELDS = ("number", "notation", "entries")
_DEAL_FIELDS = frozenset(
    {
        "contract",
        "declarer",
        "whists",
        "tricks",
        "prikup",
        "dealer",
        "conceded",
        "totus",
        "talon_shown",
        *_DEAL_OUTPUT_FIELDS,
    }
)


def _name_map(value: object, what: str, kind: type) -> tuple[tuple[str, Any], ...]:
    """A map of player names to words or counts, as pairs; the values' types checked."""
    if value is None:
        return ()
    if type(value) is not dict and not isinstance(value, Mapping):
        raise DealError("deal.whists_not_map" if what == WHISTS else "deal.tricks_not_map", what)
    items = tuple(value.items())
    for item in value.values():
        if type(item) is not kind:  # JSON gives exact str and int: the rest is checked here
            break
    else:
        return items
    for name, item in items:
        if not isinstance(item, kind) or isinstance(item, bool):
            code = "deal.word_not_text" if kind is str else "deal.count_not_whole"
            raise DealError(code, what, player=name, value=item)
    return tuple((name, kind(item)) for name, item in items)
