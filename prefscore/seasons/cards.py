"""A season table's card (docs/design.md, "Sharing a result"): the top ten and the
reader's own line, from the stored lines' view model (``presenters.line_row``): nothing
counted here."""

from __future__ import annotations

from django.http import HttpRequest
from django.urls import reverse
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from prefscore.cards.layout import Card, Preview, Row, name, top_and_mine, words
from prefscore.games.presenters.joining import absolute

from .models import Season
from .presenters import LineRow

SEPARATOR = " · "


def season_card(season: Season, rows: list[LineRow], reader: int | None) -> Card:
    """``reader``: the id of the reader's player in the club (his line marked, and shown
    below the top ten when further down); None for a stranger."""
    period = "–".join(
        date_format(day, "SHORT_DATE_FORMAT") for day in (season.starts_on, season.ends_on)
    )
    shown = tuple(
        Row(
            row.name,
            (row.total, str(row.counted)),
            (row.total.startswith("−"), False),
            rank="" if row.rank is None else str(row.rank),
            mine=reader is not None and row.player_id == reader,
        )
        for row in rows
    )
    return Card(
        title=(name(season.name),),
        subtitle=(
            name(season.club.name),
            words(SEPARATOR + _("Season table") + SEPARATOR + period),
        ),
        name_heading=_("Player"),
        headings=(_("Points"), _("Events")),
        rows=top_and_mine(shown),
        footer=_("prefscore: the preferans score sheet"),
        ranked=True,
    )


def season_preview(request: HttpRequest, season: Season, rows: list[LineRow]) -> Preview | None:
    """The season table's preview in a chat: a public season's only."""
    if not season.public:
        return None
    args = [season.club.slug, season.slug]
    leaders = SEPARATOR.join(f"{row.rank or '—'}. {row.name} {row.total}" for row in rows[:3])
    return Preview(
        title=season.name,
        description=f"{season.club.name}: {leaders}",
        url=absolute(request, reverse("seasons:table", args=args)),
        image=absolute(request, reverse("seasons:card", args=args)),
    )
