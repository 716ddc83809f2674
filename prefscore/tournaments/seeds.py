"""Seeds given from above the tournament for its first draw (docs/tournaments.md §4.10).

A tournament may be the final of something larger (a club's season, docs/seasons.md §9)
whose qualifiers come seeded. Tournaments know nothing of seasons (the layers run one
way), so they ask: ``seeds_wanted`` is sent with the tournament, and a receiver answers
with ``{player id: seed}`` (1 the best) or nothing. Round 1 is then drawn as a final
after a cut is, tables filled in order of seed (``seating.tables_by_standing``).
"""

from __future__ import annotations

from django.dispatch import Signal

from .models import Tournament

seeds_wanted = Signal()
# ``Round.method`` of a round 1 drawn by these seeds.
SEEDED = "seeded"


def outside_seeds(tournament: Tournament) -> dict[int, int]:
    """Each player's seed from above the tournament, by player id; empty when none."""
    seeds: dict[int, int] = {}
    for _receiver, answer in seeds_wanted.send(sender=Tournament, tournament=tournament):
        if isinstance(answer, dict):
            seeds.update(answer)
    return seeds


def seeded_order(players: list[str], seeds: dict[int, int]) -> list[str]:
    """The players by seed, the unseeded after them in the order given."""
    last = len(seeds) + 1
    return sorted(players, key=lambda key: seeds.get(int(key), last))
