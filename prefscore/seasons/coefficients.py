"""Coefficients per convention, by the convention's stored name (docs/seasons.md §3).

A table's points are multiplied by the coefficient of the convention it was played
under, looked up by the name the pulka stores (``scoring.conventions.convention_for_key``:
a preset's slug such as ``leningrad``, a club convention's name). So a season keeps its
coefficients under those names, never under what an organiser typed: the form offers a
field per convention the club plays (:func:`weighable`), and a stored name that matches
none (a season saved before, or edited in the admin) is named by the form and by
``check_season`` (:func:`unknown`) rather than silently counting 1.
"""

from __future__ import annotations

import hashlib

from prefscore.clubs.models import Club
from prefscore.games.models import Pulka
from prefscore.tournaments.models import Tournament
from scoring.conventions import convention_label, stored_names

from .models import Season


def weighable(club: Club) -> list[tuple[str, str]]:
    """(stored name, label) of each convention a season of ``club`` may weigh: the
    presets and the club's own conventions, then any other name its pulkas or
    tournaments were played under (an imported file's own options)."""
    names = dict(stored_names(club))
    played: set[str] = set()
    for model in (Pulka, Tournament):
        rows = model.objects.filter(club=club).order_by().values_list("convention_name")
        played.update(name for (name,) in rows.distinct())
    for name in sorted(played - names.keys()):
        names[name] = convention_label(name)
    return list(names.items())


def unknown(season: Season) -> list[str]:
    """The season's coefficient names that match no convention of its club."""
    known = {name for name, _label in weighable(season.club)}
    return [name for name in season.coefficients or {} if name not in known]


def field_name(name: str) -> str:
    """The form field of a convention's coefficient: stable, and a valid HTML id
    whatever the convention's name (a club's may hold spaces or Cyrillic)."""
    return "coefficient_" + hashlib.sha256(name.encode()).hexdigest()[:12]
