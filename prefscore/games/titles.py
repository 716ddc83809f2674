"""A tournament table's title, composed in the page's language when it is shown.

A table's title was text made when its round was published, in the language active
then: an English page could show "тур 1 · стол 1". The table keeps language-neutral
facts instead (``Pulka.title_parts``: the tournament's name, the round's number, stage
and place in its stage, the table's number, and for a table of 4 played on short after
a drop the other sheet's pulka, §4.9) and every screen, printable and export
words them in the language of its request (docs/tournaments.md §4.11). The round's
words are the ones of the tournament pages (``tournaments/titles.py`` uses
``round_title`` below).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext as _

QUALIFYING, SEMIFINAL = "qualifying", "semifinal"  # tournaments.Round.Stage
# The two sheets of a table of 4 whose other three played on after a drop (§4.9):
# the sheet of three names the first (its title says it continues), the first names it.
CONTINUES, CONTINUED_BY = "continues", "continued_by"


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


def continuing(parts: Mapping[str, Any], first: int) -> dict[str, Any]:
    """The parts of a sheet of three that continues the table of 4 whose pulka is
    ``first`` after a player left it (docs/tournaments.md §4.9): its title says so."""
    return {**parts, CONTINUES: first}


def continued_by(parts: Mapping[str, Any], then: int) -> dict[str, Any]:
    """The parts of a table of 4's first sheet, which the three went on with at the
    pulka ``then`` (§4.9): its sheet links to it."""
    return {**parts, CONTINUED_BY: then}


def other_sheet(parts: Mapping[str, Any] | None) -> dict[str, Any]:
    """The other sheet of a table played on short (§4.9), for the sheet's status line:
    its pulka's id (``other_sheet``), whether this sheet ``continues`` it, and the
    table's number; nothing for any other table. A fact of the pulka's own parts."""
    for link in (CONTINUES, CONTINUED_BY):
        other = (parts or {}).get(link)
        if isinstance(other, int) and not isinstance(other, bool):
            table = (parts or {}).get("table")
            return {"other_sheet": other, "continues": link == CONTINUES, "table_number": table}
    return {}


def table_title(parts: Mapping[str, Any] | None) -> str:
    """The table's title in the active language, or "" without the parts."""
    if not parts:
        return ""
    try:
        name, number, table = str(parts["name"]), int(parts["round"]), int(parts["table"])
        stage, place = str(parts.get("stage") or QUALIFYING), parts.get("place")
    except (KeyError, TypeError, ValueError):
        return ""
    goes_on = bool(other_sheet(parts).get("continues"))
    if stage == QUALIFYING:
        words = {"name": name, "round": number, "table": table}
        if goes_on:
            return _("%(name)s · round %(round)s · table %(table)s, continued") % words
        return _("%(name)s · round %(round)s · table %(table)s") % words
    named = round_title(number, stage, int(place) if place is not None else None)
    words = {"name": name, "round": named, "table": table}
    if goes_on:
        return _("%(name)s · %(round)s · table %(table)s, continued") % words
    return _("%(name)s · %(round)s · table %(table)s") % words
