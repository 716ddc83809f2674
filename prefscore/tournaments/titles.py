"""A round's title wherever it shows: pages, projector, printables, export.

Qualifying rounds are numbered through the tournament ("Round 3"). A stage after a cut
(docs/tournaments.md §4.10) is titled by its name, and numbered within the stage when
it has several rounds ("Final, round 2"): the regulations' rounds per stage, or more if
more were drawn.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from django.utils.translation import gettext as _

from .models import Round, Tournament


def titles_of(rounds: Iterable[tuple[int, str]], stage_rounds: int) -> dict[int, str]:
    """Each round's title by number, from (number, stage) of every round drawn."""
    ordered = sorted(rounds)
    per_stage = Counter(stage for _number, stage in ordered)
    seen: Counter[str] = Counter()
    titles = {}
    for number, stage in ordered:
        seen[stage] += 1
        several = max(stage_rounds, per_stage[stage]) > 1
        titles[number] = _title(number, stage, seen[stage] if several else None)
    return titles


def _title(number: int, stage: str, place: int | None) -> str:
    if stage == Round.Stage.QUALIFYING:
        return _("Round %(number)s") % {"number": number}
    if stage == Round.Stage.SEMIFINAL:
        if place is None:
            return _("Semi-final")
        return _("Semi-final, round %(number)s") % {"number": place}
    if place is None:
        return _("Final")
    return _("Final, round %(number)s") % {"number": place}


def tournament_titles(tournament: Tournament) -> dict[int, str]:
    """Every round's title for this tournament: one query."""
    rounds = tournament.rounds.values_list("number", "stage")
    return titles_of(rounds, tournament.stage_rounds)


def round_title(tournament: Tournament, round_: Round) -> str:
    """One round's title: one query."""
    return tournament_titles(tournament).get(round_.number, "")
