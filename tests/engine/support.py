"""Small helpers that let the engine tests state a pulka and its answer as plain data.

Entries are written as tuples so that a table reads like the paper sheet:
``("A", "pulya", 2)``, ``("B", "gora", 4)`` and ``("B", "whists", "A", 8)`` (B writes
8 whists on A).
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from scoring.engine.protocol import score_text

Written = tuple[Any, ...]

ABC = ("A", "B", "C")
ABCD = ("A", "B", "C", "D")
ABCDE = ("A", "B", "C", "D", "E")


def pulka_file(
    deals: Sequence[Mapping[str, Any]],
    convention: str | Mapping[str, Any] = "sochi",
    players: Sequence[str] = ABC,
    target: int = 10,
    options: Mapping[str, Any] | None = None,
    **fields: Any,
) -> dict[str, Any]:
    """A pulka file (docs/protocol.md, "Input") as a dict."""
    data: dict[str, Any] = {
        "convention": convention,
        "players": list(players),
        "target": target,
        "deals": list(deals),
    }
    if options:
        data["options"] = dict(options)
    data.update(fields)
    return data


def score(deals: Sequence[Mapping[str, Any]], **kwargs: Any) -> dict[str, Any]:
    """Score a pulka through the protocol, exactly as ``manage.py score`` does."""
    return score_text(json.dumps(pulka_file(deals, **kwargs), ensure_ascii=False))


def as_written(entry: Mapping[str, Any]) -> Written:
    if entry["section"] == "whists":
        return (entry["player"], "whists", entry["on"], entry["points"])
    return (entry["player"], entry["section"], entry["points"])


def written(output: Mapping[str, Any], number: int = 1) -> Counter[Written]:
    """What deal ``number`` wrote, as a multiset of tuples (order aside)."""
    deal = next(d for d in output["deals"] if d["number"] == number)
    return Counter(as_written(e) for e in deal["entries"])


def written_in_order(output: Mapping[str, Any], number: int = 1) -> list[Written]:
    deal = next(d for d in output["deals"] if d["number"] == number)
    return [as_written(e) for e in deal["entries"]]


def notation(output: Mapping[str, Any], number: int = 1) -> str:
    return str(next(d for d in output["deals"] if d["number"] == number)["notation"])


def figures(output: Mapping[str, Any], section: str) -> dict[str, Any]:
    """One section of the final sheet per player: ``figures(out, "pulya")``."""
    return {name: row[section] for name, row in output["sheet"].items()}


def whists_on(output: Mapping[str, Any]) -> dict[tuple[str, str], Any]:
    """Every non-zero ``W[i][j]`` of the final sheet, keyed ``(writer, on)``."""
    return {
        (name, other): points
        for name, row in output["sheet"].items()
        for other, points in row["whists"].items()
        if points
    }


def played(
    contract: str,
    declarer: str,
    words: Mapping[str, str],
    tricks: Mapping[str, int] | None = None,
    **fields: Any,
) -> dict[str, Any]:
    """A trick-contract deal as players report it."""
    deal: dict[str, Any] = {"contract": contract, "declarer": declarer, "whists": dict(words)}
    if tricks is not None:
        deal["tricks"] = dict(tricks)
    deal.update(fields)
    return deal


def allpass(tricks: Mapping[str, int], **fields: Any) -> dict[str, Any]:
    return {"contract": "allpass", "tricks": dict(tricks), **fields}


def misere(declarer: str, taken: int, **fields: Any) -> dict[str, Any]:
    return {"contract": "misere", "declarer": declarer, "tricks": {declarer: taken}, **fields}


def unplayed(contract: str, declarer: str, defenders: Sequence[str]) -> dict[str, Any]:
    """Both defenders pass: the contract goes to the pulya unplayed."""
    return played(contract, declarer, {name: "pass" for name in defenders})
