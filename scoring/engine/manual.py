"""Manual entries: a line of the sheet written by hand, with its reason (docs/rules.md §3.11).

A fine, an arbiter's adjustment (Кодекс 4.2.16) or a balance carried from another
sheet: one figure into a named player's pulya, gora or whists on another player, with
the reason written beside it. It stands in the log as a deal does (it takes the next
number, the protocol shows it, a correction replaces it), but nobody deals it: the
dealer stays, the all-pass run stands, and a deal limit does not count it.

File format (docs/protocol.md, "Manual entries")::

    {"manual": {"player": "A", "section": "whists", "on": "B", "points": 20,
                "reason": "fine: showed a card"}}
"""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from .contracts import MANUAL, Contract, Kind
from .errors import DealError
from .facts import GORA, PULYA, WHISTS, Deal, DealContext, DealOutcome, Entry, seat_of
from .pickling import compact_pickle

SECTIONS = (PULYA, GORA, WHISTS)
MAX_POINTS = 1_000
MAX_REASON = 200
NOTATION = "✎"
REASON_CODE = "manual"
FIELDS = frozenset({"player", "section", "on", "points", "reason"})
# What an exported item carries beside its facts (docs/protocol.md, output ``deals``),
# recomputed and never read. Its ``dealer`` is the player due to deal (nobody deals a
# manual line): beside ``manual`` it is taken only as part of that output, with the
# other three; alone it would read as a dealer named by hand, and is refused.
_OUTPUT_FIELDS = frozenset({"number", "notation", "entries"})
_EXPORTED_FIELDS = _OUTPUT_FIELDS | {"dealer"}
_NOT_IN_REASONS = frozenset({"Cc", "Cs", "Zl", "Zp"})
MANUAL_CONTRACT = Contract(Kind.MANUAL)


@compact_pickle
@dataclass(frozen=True, slots=True)
class ManualLine:
    """What the hand wrote: ``player`` writes ``points`` into ``section`` (on ``on``)."""

    player: str
    section: str
    points: int
    reason: str
    on: str | None = None

    def as_json(self) -> dict[str, Any]:
        """The line as the file writes it (docs/protocol.md, "Manual entries")."""
        out: dict[str, Any] = {"player": self.player, "section": self.section}
        if self.on is not None:
            out["on"] = self.on
        out["points"] = self.points
        out["reason"] = self.reason
        return out


@compact_pickle
@dataclass(frozen=True, slots=True)
class ManualDeal(Deal):
    """A manual entry in the log: a :class:`Deal` of kind ``manual`` that carries its line.

    Being a Deal, it is numbered, folded, replayed and corrected as deals are
    (docs/rules.md §3.11); its contract is always :data:`MANUAL_CONTRACT`.
    """

    line: ManualLine = field(kw_only=True)


def is_manual(deal: Deal) -> bool:
    """Whether a log item is a manual entry (docs/rules.md §3.11)."""
    return deal.contract.kind is MANUAL


def parse_manual(raw: Mapping[str, object]) -> ManualDeal:
    """Read a manual entry of a pulka file (docs/protocol.md, "Manual entries").

    The shape is checked here; names are checked against the seats when it is scored.
    """
    beside = set(raw) - {"manual"}
    exported = _OUTPUT_FIELDS <= beside
    unknown = sorted(map(str, beside - (_EXPORTED_FIELDS if exported else _OUTPUT_FIELDS)))
    if unknown:
        raise DealError("deal.unknown_field", unknown[0], name=unknown[0])
    body = raw["manual"]
    if not isinstance(body, Mapping):
        raise DealError("manual.not_object", "manual")
    extra = sorted(map(str, set(body) - FIELDS))
    if extra:
        raise DealError("manual.unknown_field", extra[0], name=extra[0])
    section = body.get("section")
    if section not in SECTIONS:
        raise DealError("manual.section", "section", value=section)
    player = _name(body.get("player"), "player")
    on: str | None = None
    if section == WHISTS:
        on = _name(body.get("on"), "on")
        if on == player:
            raise DealError("manual.on_self", "on", player=player)
    elif body.get("on") is not None:
        raise DealError("manual.on_not_whists", "on")
    points, reason = _points(body.get("points"), section), _reason(body)
    return ManualDeal(MANUAL_CONTRACT, line=ManualLine(player, str(section), points, reason, on))


def _name(value: object, what: str) -> str:
    if value is None:
        raise DealError("manual.player_missing" if what == "player" else "manual.on_missing", what)
    if not isinstance(value, str):
        raise DealError("manual.not_name", what)
    return value


def _points(value: object, section: object) -> int:
    """A whole number; the gora takes a minus (a write-off), pulya and whists only add."""
    low = -MAX_POINTS if section == GORA else 1
    if (
        not isinstance(value, int)
        or isinstance(value, bool)
        or not low <= value <= MAX_POINTS
        or value == 0
    ):
        code = "manual.points_signed" if section == GORA else "manual.points"
        raise DealError(code, "points", low=low, high=MAX_POINTS, value=value)
    return value


def _reason(body: Mapping[str, object]) -> str:
    """The reason is required: one line of at most :data:`MAX_REASON` characters."""
    value = body.get("reason")
    if not isinstance(value, str) or not value.strip():
        raise DealError("manual.reason_missing", "reason")
    text = value.strip()
    if len(text) > MAX_REASON or any(unicodedata.category(c) in _NOT_IN_REASONS for c in text):
        raise DealError("manual.reason_long", "reason", high=MAX_REASON)
    return text


def score_manual(ctx: DealContext, deal: Deal) -> DealOutcome:
    """What a manual entry writes: its one figure, as given (docs/rules.md §3.11).

    A pulya figure is a pulya request like any other, so the sheet passes it through
    help (§3.4); the rest is written as it stands. It neither ends nor counts as an
    all-pass run (docs/protocol.md, "Runs of all-passes").
    """
    if not isinstance(deal, ManualDeal):
        raise DealError("manual.not_object", "manual")
    line = deal.line
    player = seat_of(ctx, line.player, "player")
    on = None if line.on is None else seat_of(ctx, line.on, "on")
    entry = Entry(player, line.section, line.points, on, REASON_CODE)
    return DealOutcome((entry,), NOTATION, False, False)


def correction_penalises(wrong: Deal, right: Deal, penalise: bool) -> bool:
    """Whether a correction may warn or penalise (Кодекс 4.2.7; docs/rules.md §3.11).

    A manual entry is corrected by a manual entry and a deal by a deal: a kind of its
    own would move the dealer of every later deal. A corrected manual entry penalises
    nobody: 4.2.7 punishes a player's own over-entry, and this line was the hand's
    of whoever is allowed to write it, not a record of play.
    """
    if is_manual(wrong) != is_manual(right):
        raise DealError("correction.manual_kind", "manual")
    return penalise and not is_manual(right)


def describe(deal: Deal) -> ManualLine | None:
    """The manual line of a log item, or None for a deal (docs/protocol.md)."""
    return deal.line if isinstance(deal, ManualDeal) else None
