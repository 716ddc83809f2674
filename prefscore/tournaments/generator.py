"""A seeded random tournament of any size (docs/tournaments.md §4.14).

What ``manage.py random_tournament`` makes, and what ``bench/tournament.py`` measures
the standings and the import with: a tournament file (format version 1,
docs/tournaments.md §6.4) of ``players`` players over ``rounds`` qualifying rounds, each
round a random seating at tables of 4 (and of 3 where the field does not divide, or of
3 only), every table playing ``deals`` random deals of the Sochi convention to the deal
limit. Every deal is checked by the engine as it is drawn (``scoring.engine``): a deal
the rules refuse is drawn again, so the file always imports. The same seed gives the
same file.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from scoring.engine import seating
from scoring.engine.conventions import from_options, preset
from scoring.engine.deals import parse_deal
from scoring.engine.errors import ScoringError
from scoring.engine.pulka import Pulka as EnginePulka
from scoring.engine.pulka import ScoredPulka, score_pulka, with_next_deal

from .exports import FORMAT, VERSION

SUITS = ("S", "C", "D", "H", "NT")
TARGET = 50


def player_names(count: int) -> list[str]:
    """``Player 0001``…: names that sort in the order they were made."""
    return [f"Player {n:04d}" for n in range(1, count + 1)]


def _sizes(players: int, table_size: int) -> list[int]:
    if table_size == 3:
        return [3] * (players // 3)
    threes = (4 - players % 4) % 4
    return [4] * ((players - 3 * threes) // 4) + [3] * threes


def _active(names: Sequence[str], dealer: int) -> list[str]:
    """The three who play a deal: at a table of 4 the dealer sits out (docs/rules.md §2)."""
    if len(names) == 4:
        return [name for seat, name in enumerate(names) if seat != dealer]
    return list(names)


def _candidate(rng: random.Random, players: list[str]) -> dict[str, Any]:
    """A deal that is often legal: a contract played out, an all-pass or a misère."""
    rng.shuffle(players)
    declarer, left, right = players
    kind = rng.random()
    if kind < 0.15:
        split = sorted(rng.sample(range(11), 2))
        tricks = {declarer: split[0], left: split[1] - split[0], right: 10 - split[1]}
        return {"contract": "allpass", "tricks": tricks}
    if kind < 0.22:
        return {
            "contract": "misere",
            "declarer": declarer,
            "tricks": {declarer: rng.choice((0, 0, 1, 2))},
        }
    level = rng.choice((6, 6, 6, 7, 7, 8, 9))
    contract = f"{level}{rng.choice(SUITS)}"
    if rng.random() < 0.25:
        return {"contract": contract, "declarer": declarer, "whists": {left: "pass", right: "pass"}}
    taken = max(0, min(10, level + rng.choice((-2, -1, 0, 0, 0, 1, 1, 2))))
    first = rng.randint(0, 10 - taken)
    return {
        "contract": contract,
        "declarer": declarer,
        "whists": {left: "whist", right: "whist"},
        "tricks": {declarer: taken, left: first, right: 10 - taken - first},
    }


def table_deals(
    rng: random.Random, scored: ScoredPulka, count: int
) -> tuple[list[dict[str, Any]], bool]:
    """Up to ``count`` deals the engine accepts, each on top of the sheet so far, and
    whether the pulka is over after them."""
    names = list(scored.pulka.names)
    first = scored.pulka.first_dealer
    deals: list[dict[str, Any]] = []
    while len(deals) < count and not scored.state.closed:
        dealer = (first + len(deals)) % len(names)
        for _attempt in range(20):
            facts = _candidate(rng, _active(names, dealer))
            try:
                scored = with_next_deal(scored, parse_deal(facts))
            except ScoringError:
                continue
            deals.append(facts)
            break
        else:  # pragma: no cover - the all-pass is always legal
            raise RuntimeError("no legal deal found")
    return deals, scored.state.closed


def _table(rng: random.Random, names: list[str], convention: Any, count: int) -> dict[str, Any]:
    first = rng.randrange(len(names))
    start = score_pulka(EnginePulka(tuple(names), convention, TARGET, first))
    deals, closed = table_deals(rng, start, count)
    pulka = {
        "convention": convention.to_options(),
        "players": names,
        "target": TARGET,
        "first_dealer": names[first],
        "deals": deals,
    }
    return {"status": "finished" if closed else "running", "pulka": pulka}


def _repeats(history: list[list[tuple[str, ...]]], tables: list[tuple[str, ...]]) -> int:
    met = seating.meetings(history)
    return sum(
        1
        for table in tables
        for i, a in enumerate(table)
        for b in table[i + 1 :]
        if met[frozenset((a, b))]
    )


def tournament_file(
    players: int, rounds: int, deals: int = 12, table_size: int = 4, seed: int = 1
) -> dict[str, Any]:
    """The tournament file of a random tournament: every round published and played."""
    rng = random.Random(seed)
    convention = from_options({"end": "deals", "deal_limit": deals}, base=preset("sochi"))
    names = player_names(players)
    history: list[list[tuple[str, ...]]] = []
    round_items = []
    for number in range(1, rounds + 1):
        order = names[:]
        rng.shuffle(order)
        tables: list[tuple[str, ...]] = []
        start = 0
        for size in _sizes(players, table_size):
            tables.append(tuple(order[start : start + size]))
            start += size
        repeats = _repeats(history, tables)
        history.append(tables)
        round_items.append(
            {
                "number": number,
                "status": "published",
                "stage": "qualifying",
                "seed": seed + number,
                "is_final": False,
                "method": "random",
                "repeats": repeats,
                "repeats_forced": False,
                "tables": [
                    {"number": index, **_table(rng, list(table), convention, deals)}
                    for index, table in enumerate(tables, start=1)
                ],
            }
        )
    return {
        "format": FORMAT,
        "version": VERSION,
        "tournament": {
            "name": f"Random {players}×{rounds} (seed {seed})",
            "slug": f"random-{players}-{rounds}-{seed}",
            "public": False,
            "table_size": table_size,
            "target": TARGET,
            "deals_per_round": deals,
            "normalisation": "raw",
            "tie_breaks": ["whists", "allpass_won", "allpass_tricks", "remizes", "misere_tricks"],
            "carry": "kept",
            "seed": seed,
            "status": "running",
            "convention_name": "sochi",
            "convention": convention.to_options(),
        },
        "players": [{"name": name, "dropped": False, "state": "playing"} for name in names],
        "rounds": round_items,
    }
