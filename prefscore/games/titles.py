"""A tournament table's title, composed in the page's language when it is shown.

A table's title was text made when its round was published, in the language active
then: an English page could show "тур 1 · стол 1". The table keeps language-neutral
facts instead (``Pulka.title_parts``: the tournament's name, the round's number, stage
and place in its stage, the table's number) and every screen, printable and export
words them in the language of its request (docs/tournaments.md §4.11). The round's
words are the ones of the tournament pages (``tournaments/titles.py`` uses
``round_title`` below).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext as _

QUALIFYING, SEMIFINAL = "qualifying", "semifinal"  # tournaments.Round.Stage


def round_title(number: int, stage: str, place: int | None) -> str:
    """ "Round 3"; a stage after a cut by its name, with its own round when it has several
    ("Final, round 2")."""
    if stage == QUALIFYING:
        return _("Round %(number)s") % {"number": number}
    if stage == SEMIFINAL:
        if place is None:
            return _("Semi-final")
        return _("Semi-final, round %(number)s") % {"number": place}
    if place is None:
        return _("Final")
    return _("Final, round %(number)s") % {"number": place}


def table_parts(
    name: str, number: int, stage: str, place: int | None, table: int
) -> dict[str, Any]:
    """What a tournament table's pulka keeps of its title (``Pulka.title_parts``)."""
    return {"name": name, "round": number, "stage": stage, "place": place, "table": table}


def table_title(parts: Mapping[str, Any] | None) -> str:
    """The table's title in the active language, or "" without the parts."""
    if not parts:
        return ""
    try:
        name, number, table = str(parts["name"]), int(parts["round"]), int(parts["table"])
        stage, place = str(parts.get("stage") or QUALIFYING), parts.get("place")
    except (KeyError, TypeError, ValueError):
        return ""
    if stage == QUALIFYING:
        return _("%(name)s · round %(round)s · table %(table)s") % {
            "name": name,
            "round": number,
            "table": table,
        }
    return _("%(name)s · %(round)s · table %(table)s") % {
        "name": name,
        "round": round_title(number, stage, int(place) if place is not None else None),
        "table": table,
    }
