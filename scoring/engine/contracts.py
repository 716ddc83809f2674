"""Contracts and their prices (docs/rules.md §2; docs/protocol.md, a deal's ``contract``).

Parse and print in pairs: ``Contract.parse("7♥")`` and ``str(contract)`` give the
canonical form back (``7H``), ``contract.symbol`` the form players write (``7♥``).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from .errors import DealError
from .pickling import compact_pickle

LEVELS = (6, 7, 8, 9, 10)


class Suit(enum.Enum):
    """Trump suit in bidding order ♠ < ♣ < ♦ < ♥ < no trumps (docs/rules.md §2)."""

    SPADES = "S"
    CLUBS = "C"
    DIAMONDS = "D"
    HEARTS = "H"
    NO_TRUMPS = "NT"

    @property
    def symbol(self) -> str:
        """The sign players write on the sheet; no-trumps is ``БК`` (docs/protocol.md)."""
        return _SUIT_SYMBOLS[self]


_SUIT_SYMBOLS = {
    Suit.SPADES: "♠",
    Suit.CLUBS: "♣",
    Suit.DIAMONDS: "♦",
    Suit.HEARTS: "♥",
    Suit.NO_TRUMPS: "БК",
}
_SIGNS = {suit.value: sign for suit, sign in _SUIT_SYMBOLS.items()}
_SUIT_SPELLINGS = {
    "S": Suit.SPADES,
    "♠": Suit.SPADES,
    "C": Suit.CLUBS,
    "♣": Suit.CLUBS,
    "D": Suit.DIAMONDS,
    "♦": Suit.DIAMONDS,
    "H": Suit.HEARTS,
    "♥": Suit.HEARTS,
    "NT": Suit.NO_TRUMPS,
    "БК": Suit.NO_TRUMPS,
    "Б/К": Suit.NO_TRUMPS,
}


class Kind(enum.Enum):
    """What a deal was: a trick contract, a misère or an all-pass (docs/rules.md §3),
    or a manual entry written by hand (§3.11, ``manual.py``)."""

    TRICKS = "tricks"
    MISERE = "misere"
    ALLPASS = "allpass"
    MANUAL = "manual"


# The kinds by plain module names: on Python 3.11 reading an Enum member from its class
# (``Kind.MISERE``) costs four times a global's lookup, and the fold asks a deal's kind
# several times per deal (docs/design.md, "How a deal flows").
TRICKS, MISERE, ALLPASS, MANUAL = Kind.TRICKS, Kind.MISERE, Kind.ALLPASS, Kind.MANUAL

_MISERE_WORDS = {"MISERE", "МИЗЕР", "M", "М"}
_ALLPASS_WORDS = {"ALLPASS", "РАСПАСЫ", "РАСПАС", "P"}


@compact_pickle
@dataclass(frozen=True, slots=True)
class Contract:
    """A contract as declared: kind, level 6–10 and optional suit (docs/rules.md §2)."""

    kind: Kind
    level: int = 0
    suit: Suit | None = None

    @classmethod
    def parse(cls, text: str) -> Contract:
        """Read ``6S``, ``7♥``, ``8NT``, ``6БК``, ``9``, ``misere`` or ``allpass``.

        The spellings are those of docs/protocol.md (a deal's ``contract``); the suit never
        changes a price (docs/rules.md §2) but is kept for the protocol.
        """
        # A pulka repeats a few dozen spellings: each is read once (contracts are immutable).
        if cls is Contract and type(text) is str:
            found = _PARSED.get(text)
            if found is None:
                found = cls._read(text)
                if len(_PARSED) < _PARSED_LIMIT:
                    _PARSED[text] = found
            return found
        return cls._read(text)

    @classmethod
    def _read(cls, text: str) -> Contract:
        if not isinstance(text, str):
            raise DealError("deal.contract_not_text", "contract", value=text)
        word = text.strip().upper().replace(" ", "")
        if word in _MISERE_WORDS:
            return cls(Kind.MISERE)
        if word in _ALLPASS_WORDS:
            return cls(Kind.ALLPASS)
        digits = "10" if word.startswith("10") else word[:1]
        if digits not in {"6", "7", "8", "9", "10"}:
            raise DealError("deal.contract_unknown", "contract", value=text)
        rest = word[len(digits) :]
        if rest and rest not in _SUIT_SPELLINGS:
            raise DealError("deal.suit_unknown", "contract", suit=rest, value=text)
        return cls(Kind.TRICKS, int(digits), _SUIT_SPELLINGS[rest] if rest else None)

    def __str__(self) -> str:
        kind = self.kind
        if kind is TRICKS:
            return f"{self.level}{self.suit._value_ if self.suit else ''}"
        if kind is MISERE:
            return "misere"
        return "allpass" if kind is ALLPASS else "manual"

    @property
    def symbol(self) -> str:
        """The contract as the 4.2.11 notation writes it: ``6♠``, ``8``, ``7БК``, ``M``, ``P``."""
        kind = self.kind
        if kind is TRICKS:
            # Looked up by the suit's letters (``_value_``, a plain attribute: ``.value`` is
            # a property): an Enum member hashes in Python, a str in C.
            suit = self.suit
            return f"{self.level}{_SIGNS[suit._value_]}" if suit else str(self.level)
        if kind is MISERE:
            return "M"
        return "P" if kind is ALLPASS else "✎"  # ✎: a line written by hand (docs/rules.md §3.11)

    @property
    def rank(self) -> float:
        """Bidding height for the exit ladder: a misère ranks between 8NT and 9♠ (docs/rules.md §2)."""
        return 8.5 if self.kind is MISERE else float(self.level)


_PARSED: dict[str, Contract] = {}
_PARSED_LIMIT = 1024


def obligation(level: int) -> int:
    """Defenders' total trick obligation O(L): 4, 2, 1, 1, 1 (docs/rules.md §2 table)."""
    return _OBLIGATIONS.get(level, 1)


_OBLIGATIONS = {6: 4, 7: 2}
