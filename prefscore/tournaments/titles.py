"""A round's title wherever it shows: pages, projector, printables, export.

Qualifying rounds are numbered through the tournament ("Round 3"). A stage after a cut
(docs/tournaments.md §4.10) is titled by its name, and numbered within the stage when
it has several rounds ("Final, round 2"): the regulations' rounds per stage, or more if
more were drawn.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from prefscore.games.titles import round_title as _round_words

from .models import Round, Tournament


def titles_of(rounds: Iterable[tuple[int, str]], stage_rounds: int) -> dict[int, str]:
    """Each round's title by number, from (number, stage) of every round drawn."""
    return {
        number: _title(number, stage, place)
        for number, (stage, place) in places_of(rounds, stage_rounds).items()
    }


def places_of(
    rounds: Iterable[tuple[int, str]], stage_rounds: int
) -> dict[int, tuple[str, int | None]]:
    """Each round's stage and its place in the stage, None when the stage has one round."""
    ordered = sorted(rounds)
    per_stage = Counter(stage for _number, stage in ordered)
    seen: Counter[str] = Counter()
    places: dict[int, tuple[str, int | None]] = {}
    for number, stage in ordered:
        seen[stage] += 1
        several = max(stage_rounds, per_stage[stage]) > 1
        places[number] = (stage, seen[stage] if several else None)
    return places


def stage_place(tournament: Tournament, round_: Round) -> int | None:
    """The round's place in its stage, as its title counts it: one query."""
    rounds = tournament.rounds.values_list("number", "stage")
    return places_of(rounds, tournament.stage_rounds).get(round_.number, ("", None))[1]


def _title(number: int, stage: str, place: int | None) -> str:
    return _round_words(number, stage, place)  # one wording with the tables' titles


def tournament_titles(tournament: Tournament) -> dict[int, str]:
    """Every round's title for this tournament: one query."""
    rounds = tournament.rounds.values_list("number", "stage")
    return titles_of(rounds, tournament.stage_rounds)


def round_title(tournament: Tournament, round_: Round) -> str:
    """One round's title: one query."""
    return tournament_titles(tournament).get(round_.number, "")
