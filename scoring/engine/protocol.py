"""The pulka file (docs/protocol.md): read and validate it, score it, write the output.

Reading never lets a Python error escape: every problem becomes a
:class:`ProtocolError` (or a subclass) whose one-line message names the deal or field.
"""

from __future__ import annotations

import json
import math
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from typing import Any

from . import conventions
from .deals import Deal, Entry, parse_deal
from .errors import ConventionError, DealError, ProtocolError, ScoringError
from .numbers import Points, to_json_number
from .pulka import MAX_CORRECTIONS, Correction, Pulka, ScoredPulka, score_pulka
from .pulka import MAX_DEALS as MAX_DEALS
from .seats import MAX_PLAYERS, MIN_PLAYERS
from .settlement import Totals, exact_result, money, whole_result
from .sheet import pulka_over

MAX_TARGET = 10_000
# Deals and corrections together: a longer file is refused before any item is read.
MAX_LOG_ITEMS = MAX_DEALS + MAX_CORRECTIONS
MAX_NAME = 200
MAX_SHEET_FIGURE = 10**9
# Control characters, lone surrogates and line or paragraph separators: a name is
# printed in one-line messages and in UTF-8 output, which cannot hold a lone surrogate.
_NOT_IN_NAMES = frozenset({"Cc", "Cs", "Zl", "Zp"})
TOP_FIELDS = {
    "convention",
    "options",
    "players",
    "target",
    "first_dealer",
    "stake",
    "deals",
    "sheet",
} | {"title", "date", "club"}
# Descriptive fields (docs/protocol.md, "Input"): what a file says of itself for the
# people reading it; checked as short one-line text, never used in scoring.
DESCRIPTIVE_FIELDS = ("title", "date", "club")
MAX_DESCRIPTION = 200
# What scoring writes back (docs/protocol.md, "Output"; the web export): a file of deals
# that carries them is re-scored from its deals, and these are recomputed, not read.
OUTPUT_FIELDS = {
    "closed",
    "result",
    "result_whole",
    "money",
    "next",
    "corrections",
    "scored_deals",
}


@dataclass(frozen=True, slots=True)
class PaperSheet:
    """A finished paper pulka given by its totals (docs/protocol.md: ``sheet`` instead of deals)."""

    convention: conventions.Convention
    totals: Totals
    stake: Decimal | None


def loads(text: str) -> Pulka | PaperSheet:
    """Parse a pulka file's JSON text (docs/protocol.md, "Input")."""
    try:
        data = decode(text)
    except RecursionError as error:
        raise ProtocolError("file.too_deep", detail=_short(error)) from None
    return read(data)


def decode(text: str) -> object:
    """A pulka file's JSON, refusing NaN, Infinity, numbers too long and a key given twice
    in one object, where JSON readers differ on which one counts (docs/protocol.md, "Input").

    Nesting too deep for Python is left to the caller as a ``RecursionError``.
    """
    try:
        return json.loads(text, parse_constant=_refuse_constant, object_pairs_hook=_object)
    except ProtocolError:
        raise
    except json.JSONDecodeError as error:
        raise ProtocolError(
            "file.not_json", detail=_short(error), line=error.lineno, column=error.colno
        ) from None
    except ValueError as error:  # huge integers and NaN
        raise ProtocolError("file.bad_number", detail=str(error)) from None


def _object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    data: dict[str, Any] = {}
    for key, value in pairs:
        if key in data:
            raise ProtocolError("file.duplicate_key", name=key)
        data[key] = value
    return data


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a number")


def _short(error: Exception) -> str:
    return str(error).split("\n")[0][:200]


def read(data: object) -> Pulka | PaperSheet:
    """Validate a decoded pulka file and build the engine's objects (docs/protocol.md)."""
    if not isinstance(data, Mapping):
        raise ProtocolError("file.not_object")
    if "deals" in data:
        # An exported pulka: its deals are the facts, its sheet and results are output.
        data = {k: v for k, v in data.items() if k not in OUTPUT_FIELDS and k != "sheet"}
    unknown = sorted(map(str, set(data) - TOP_FIELDS))
    if unknown:
        raise ProtocolError("file.unknown_field", name=unknown[0])
    _check_descriptions(data)
    names = _players(data.get("players"))
    try:
        convention = conventions.from_spec(data.get("convention", "sochi"), _options(data))
    except ConventionError as error:
        raise ProtocolError.of(error) from None
    target = _target(data.get("target"))
    stake = _stake(data.get("stake"))
    if "sheet" in data:
        return PaperSheet(convention, _sheet(data["sheet"], names, target), stake)
    first = data.get("first_dealer", names[0])
    if first not in names:
        raise ProtocolError("file.first_dealer", value=first)
    log = _log(data.get("deals", []))
    return Pulka(names, convention, target, names.index(first), stake, log)


def _options(data: Mapping[str, object]) -> Mapping[str, object] | None:
    options = data.get("options")
    if options is not None and not isinstance(options, Mapping):
        raise ProtocolError("file.options_not_map")
    return options


def _check_descriptions(data: Mapping[str, object]) -> None:
    for field in DESCRIPTIVE_FIELDS:
        value = data.get(field)
        if value is None:
            continue
        if not isinstance(value, str) or len(value) > MAX_DESCRIPTION:
            raise ProtocolError("file.description", name=field, high=MAX_DESCRIPTION)
        if any(unicodedata.category(char) in _NOT_IN_NAMES for char in value):
            raise ProtocolError("file.description", name=field, high=MAX_DESCRIPTION)


def descriptions(data: object) -> dict[str, str]:
    """The descriptive fields a valid file gives (docs/protocol.md, "Input"), for display."""
    if not isinstance(data, Mapping):
        return {}
    return {f: data[f] for f in DESCRIPTIVE_FIELDS if isinstance(data.get(f), str)}


def _players(value: object) -> tuple[str, ...]:
    if not isinstance(value, list):
        raise ProtocolError("file.players_not_list")
    if not MIN_PLAYERS <= len(value) <= MAX_PLAYERS:
        raise ProtocolError(
            "file.player_count", low=MIN_PLAYERS, high=MAX_PLAYERS, count=len(value)
        )
    for name in value:
        if not isinstance(name, str) or not name.strip():
            raise ProtocolError("file.name_empty", value=name)
        if len(name) > MAX_NAME:
            raise ProtocolError("file.name_long", high=MAX_NAME)
        if any(unicodedata.category(char) in _NOT_IN_NAMES for char in name):
            raise ProtocolError("file.name_control", value=name)
    if len(set(value)) != len(value):
        raise ProtocolError("file.names_twice")
    return tuple(value)


def _whole(value: object, code: str, low: int, high: int, **where: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise ProtocolError(code, low=low, high=high, value=value, **where)
    return value


def _target(value: object) -> int:
    if value is None:
        raise ProtocolError("file.target_missing")
    return _whole(value, "file.target_range", 1, MAX_TARGET)


def _stake(value: object) -> Decimal | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ProtocolError("file.stake_not_number", value=value)
    if not math.isfinite(value) or not 0 <= value <= 1_000_000:
        raise ProtocolError("file.stake_range", low=0, high=1_000_000, value=value)
    try:
        return Decimal(str(value))
    except InvalidOperation:
        raise ProtocolError("file.stake_not_number", value=value) from None


def _log(value: object) -> tuple[Deal | Correction, ...]:
    if not isinstance(value, list):
        raise ProtocolError("file.deals_not_list")
    if len(value) > MAX_LOG_ITEMS:
        raise ProtocolError("file.too_many_items", deals=MAX_DEALS, corrections=MAX_CORRECTIONS)
    log: list[Deal | Correction] = []
    deal_count = 0
    for item in value:
        if type(item) is not dict and not isinstance(item, Mapping):
            raise ProtocolError("file.deal_not_object", number=deal_count + 1)
        try:
            if "correct" in item:
                log.append(_correction(item))
            else:
                deal_count += 1
                log.append(parse_deal(item))
        except DealError as error:
            number = item.get("correct")
            if "correct" not in item:
                raise error.at("deal", deal_count, deal_count) from None
            if isinstance(number, int) and not isinstance(number, bool):
                raise error.at("correction", number, deal_count) from None
            raise error.at("correction_item", number, deal_count) from None
    return tuple(log)


def _correction(item: Mapping[str, object]) -> Correction:
    number = item["correct"]
    if not isinstance(number, int) or isinstance(number, bool) or number < 1:
        raise DealError("correction.not_a_number", "correct")
    if not {"correct", "deal"} <= set(item) <= {"correct", "deal", "penalty"}:
        raise DealError("correction.fields", "deal")
    if not isinstance(item["deal"], Mapping):
        raise DealError("correction.deal_not_object", "deal")
    penalty = item.get("penalty", True)
    if not isinstance(penalty, bool):
        raise DealError("correction.penalty_not_bool", "penalty")
    return Correction(number, parse_deal(item["deal"]), penalty)


def _figure(value: object, column: str, player: str, allow_negative: bool = True) -> int:
    low = -MAX_SHEET_FIGURE if allow_negative else 0
    return _whole(value, f"file.sheet_{column}", low, MAX_SHEET_FIGURE, player=player)


def _sheet(value: object, names: tuple[str, ...], target: int) -> Totals:
    """A paper sheet's totals: pulya, gora and whists per player (docs/protocol.md ``sheet``)."""
    if not isinstance(value, Mapping) or set(value) != set(names):
        raise ProtocolError("file.sheet_players")
    pulya, gora, whists = [], [], []
    for name in names:
        row = value[name]
        if not isinstance(row, Mapping):
            raise ProtocolError("file.sheet_row", player=name)
        unknown = sorted(map(str, set(row) - {"pulya", "gora", "whists"}))
        if unknown:
            raise ProtocolError("file.sheet_unknown_field", player=name, name=unknown[0])
        pulya.append(_figure(row.get("pulya", 0), "pulya", name, False))
        gora.append(_figure(row.get("gora", 0), "gora", name))
        written = row.get("whists", {})
        if not isinstance(written, Mapping) or not set(written) <= set(names) - {name}:
            raise ProtocolError("file.sheet_whists_names", player=name)
        whists.append(
            tuple(
                0 if other == name else _figure(written.get(other, 0), "whists", name, False)
                for other in names
            )
        )
    return Totals(names, target, tuple(pulya), tuple(gora), tuple(whists))


# --- output ------------------------------------------------------------------------


def entry_json(entry: Entry, names: tuple[str, ...]) -> dict[str, Any]:
    """One entry as docs/protocol.md prints it: player, section, [on], points."""
    on, figure = entry.on, entry.points
    # Nearly every figure is whole: the output's hot path.
    points = figure if type(figure) is int else to_json_number(figure)
    if on is None:
        return {"player": names[entry.player], "section": entry.section, "points": points}
    return {
        "player": names[entry.player],
        "section": entry.section,
        "on": names[on],
        "points": points,
    }


def sheet_json(totals: Totals) -> dict[str, Any]:
    """``sheet``: pulya, gora and whists written on each other player (docs/protocol.md)."""
    names = totals.names
    return {
        name: {
            "pulya": to_json_number(totals.pulya[i]),
            "gora": to_json_number(totals.gora[i]),
            "whists": {
                other: to_json_number(totals.whists[i][j])
                for j, other in enumerate(names)
                if j != i
            },
        }
        for i, name in enumerate(names)
    }


def _by_name(names: tuple[str, ...], values: tuple[Points, ...]) -> dict[str, int | float]:
    return {name: to_json_number(v) for name, v in zip(names, values, strict=True)}


def settlement_json(
    totals: Totals, convention: conventions.Convention, stake: Decimal | None
) -> dict[str, Any]:
    """``result``, ``result_whole`` and ``money`` (docs/rules.md §3.7; Кодекс 4.2.12–4.2.13)."""
    whole = whole_result(totals, convention).result
    out: dict[str, Any] = {
        "result": _by_name(totals.names, exact_result(totals, convention)),
        "result_whole": dict(zip(totals.names, whole, strict=True)),
    }
    if stake is not None:
        out["money"] = {
            name: _money_number(m)
            for name, m in zip(totals.names, money(whole, stake), strict=True)
        }
    return out


def _money_number(value: Decimal) -> int | float:
    return int(value) if value == value.to_integral_value() else float(value)


def scored_json(scored: ScoredPulka) -> dict[str, Any]:
    """The output of ``manage.py score`` for a pulka of deals (docs/protocol.md, "Output")."""
    names, state = scored.pulka.names, scored.state
    out: dict[str, Any] = {
        "players": list(names),
        "closed": state.closed,
        "deals": [
            {
                "number": r.number,
                "dealer": names[r.dealer],
                "notation": r.notation,
                "entries": [entry_json(e, names) for e in r.entries],
            }
            for r in scored.records
        ],
    }
    if scored.corrections:
        out["corrections"] = [
            {
                "correct": c.number,
                "after_deal": c.after_deal,
                "warned": [names[p] for p in c.warned],
                "penalties": [entry_json(e, names) for e in c.penalties],
                "penalty": c.penalised,
            }
            for c in scored.corrections
        ]
    out["sheet"] = sheet_json(scored.totals)
    out.update(settlement_json(scored.totals, scored.pulka.convention, scored.pulka.stake))
    out["next"] = {
        "dealer": names[state.dealer],
        "allpass_price": state.allpass_price,
        "min_contract": state.min_contract,
    }
    return out


def paper_json(paper: PaperSheet) -> dict[str, Any]:
    """The output for a paper sheet: its figures settled (docs/protocol.md, ``sheet`` input)."""
    totals = paper.totals
    # A paper sheet brought for settlement is finished unless its pulyas say otherwise.
    closed = paper.convention.end == "deals" or pulka_over(
        paper.convention, totals.target, totals.pulya, 0
    )
    out: dict[str, Any] = {"players": list(totals.names), "closed": closed, "deals": []}
    out["sheet"] = sheet_json(totals)
    out.update(settlement_json(totals, paper.convention, paper.stake))
    return out


def score_text(text: str) -> dict[str, Any]:
    """Read, score and print a pulka file: what ``manage.py score`` does (docs/protocol.md)."""
    pulka = loads(text)
    if isinstance(pulka, PaperSheet):
        return paper_json(pulka)
    return scored_json(score_pulka(pulka))


def dumps(output: Mapping[str, Any]) -> str:
    """The output as JSON text, UTF-8 names kept readable."""
    return json.dumps(output, ensure_ascii=False, indent=2)


__all__ = ["ScoringError", "loads", "read", "score_text", "dumps", "PaperSheet"]
