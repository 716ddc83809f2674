"""A tournament's standings card (docs/design.md, "Sharing a result"): the top ten and
the reader's own line, from the standings' view model (``presenters.standings_table``,
the engine's ranking): nothing computed here."""

from __future__ import annotations

from django.http import HttpRequest
from django.urls import reverse
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from prefscore.cards.layout import Card, Preview, Row, name, top_and_mine, words
from prefscore.games.presenters.joining import absolute
from scoring.conventions import convention_label

from ..models import Tournament
from .tournament import StandingsTable

SEPARATOR = " · "


def standings_card(tournament: Tournament, table: StandingsTable, reader: str | None) -> Card:
    """``reader``: the name of the reader's player in the club, whose line is marked (and
    shown below the top ten when further down); None for a stranger."""
    points = table.normalised or table.cut
    headings = ((_("Points"),) if points else ()) + (_("Whists"),)
    rows = tuple(
        Row(
            row.name,
            ((row.points,) if points else ()) + (row.whists,),
            ((row.negative,) if points else ()) + (row.whists.startswith("−"),),
            rank=str(row.place),
            mine=reader is not None and row.name == reader,
        )
        for row in table.rows
    )
    state = _("final standings") if table.finished else _("standings")
    details = SEPARATOR.join(
        (
            state,
            convention_label(tournament.convention_name),
            date_format(timezone.localtime(tournament.created_at), "DATE_FORMAT"),
        )
    )
    return Card(
        title=(name(tournament.name),),
        subtitle=(name(tournament.club.name), words(SEPARATOR + details)),
        name_heading=_("Player"),
        headings=headings,
        rows=top_and_mine(rows),
        footer=_("prefscore: the preferans score sheet"),
        ranked=True,
    )


def description(table: StandingsTable) -> str:
    """One line for a preview: the first three and their figures."""
    return SEPARATOR.join(
        f"{row.place}. {row.name} {row.points or row.whists}" for row in table.rows[:3]
    )


def standings_preview(
    request: HttpRequest, tournament: Tournament, table: StandingsTable
) -> Preview | None:
    """The standings page's preview in a chat: public standings only."""
    if not tournament.public:
        return None
    args = [tournament.club.slug, tournament.slug]
    return Preview(
        title=tournament.name,
        description=f"{tournament.club.name}: {description(table)}",
        url=absolute(request, reverse("tournaments:standings", args=args)),
        image=absolute(request, reverse("tournaments:standings_card", args=args)),
    )
