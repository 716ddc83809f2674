"""The standings' and the season table's cards and previews (docs/design.md, "Sharing a
result"): readable as their pages are, the top ten and the reader's own line, and Open
Graph tags only where the club made the page public."""

from __future__ import annotations

import datetime
from io import BytesIO
from typing import Any

import pytest
from django.urls import reverse
from PIL import Image

from prefscore.cards.layout import Row, top_and_mine
from prefscore.seasons import standings
from prefscore.seasons.cards import season_card
from prefscore.seasons.models import Season
from prefscore.seasons.presenters import line_row
from prefscore.tournaments.models import Tournament
from prefscore.tournaments.presenters.card import standings_card
from prefscore.tournaments.presenters.tournament import StandingRow, StandingsTable
from tests.web.fixtures_table import EN
from tests.web.fixtures_tournaments import walk_kwargs
from tests.web.season_fixtures import DAY, play_series

pytestmark = pytest.mark.django_db


def _png(response: Any) -> Image.Image:
    assert response.status_code == 200 and response["Content-Type"] == "image/png"
    return Image.open(BytesIO(response.content))


def test_a_ranked_card_shows_the_top_ten_and_the_readers_line_below_them():
    rows = tuple(Row(f"P{n}", (str(n),), rank=str(n), mine=n == 13) for n in range(1, 16))
    shown = top_and_mine(rows)
    assert [row.name for row in shown] == [f"P{n}" for n in range(1, 11)] + ["P13"]
    assert shown[-1].mine and shown[-1].gap_before
    assert not any(row.gap_before for row in shown[:-1])
    # In the top ten: marked where it stands, nothing added.
    rows = tuple(Row(f"P{n}", (str(n),), rank=str(n), mine=n == 4) for n in range(1, 16))
    shown = top_and_mine(rows)
    assert len(shown) == 10 and shown[3].mine and not shown[3].gap_before


def _standing(place: int, name: str) -> StandingRow:
    return StandingRow(
        place, name, str(100 - place), False, str(100 - place), 3, (), (), False, False
    )


def test_the_standings_card_marks_the_readers_line(access_world):
    kwargs = walk_kwargs(access_world)
    tournament = Tournament.objects.select_related("club").get(slug=kwargs["slug"])
    table = StandingsTable(
        tuple(_standing(n, f"Player {n}") for n in range(1, 16)), (), (), False, False, 0
    )
    card = standings_card(tournament, table, "Player 14")
    assert card.ranked and len(card.rows) == 11
    assert (card.rows[-1].name, card.rows[-1].rank, card.rows[-1].mine) == ("Player 14", "14", True)
    assert len(card.headings) == 1  # whists alone: no normalisation, no cut
    assert standings_card(tournament, table, None).rows == card.rows[:10]
    assert standings_card(tournament, table, None).key() != card.key()


def test_public_standings_have_a_card_for_anyone_and_a_preview(access_world, client_as):
    kwargs = walk_kwargs(access_world)
    card_url = reverse("tournaments:standings_card", kwargs=kwargs)
    image = _png(client_as("anonymous").get(card_url, headers=EN))
    assert image.size == (1200, 630)
    html = (
        client_as("anonymous")
        .get(reverse("tournaments:standings", kwargs=kwargs), headers=EN)
        .content.decode()
    )
    assert f'<meta property="og:image" content="http://testserver{card_url}">' in html
    assert '<meta name="twitter:card" content="summary_large_image">' in html


def test_private_standings_have_no_preview_and_their_card_is_the_members(access_world, client_as):
    kwargs = walk_kwargs(access_world)
    Tournament.objects.filter(slug=kwargs["slug"]).update(public=False)
    card_url = reverse("tournaments:standings_card", kwargs=kwargs)
    assert client_as("anonymous").get(card_url).status_code == 302  # sign in
    assert client_as("outsider").get(card_url).status_code == 403
    _png(client_as("member").get(card_url, headers=EN))
    html = (
        client_as("member")
        .get(reverse("tournaments:standings", kwargs=kwargs), headers=EN)
        .content.decode()
    )
    assert "og:image" not in html


def _season(club: Any, public: bool) -> Season:
    season = Season.objects.create(
        club=club, name="Spring series", slug="spring", starts_on=DAY,
        ends_on=DAY + datetime.timedelta(days=60), aggregate="best", best_n=4, minimum=3,
        public=public,
    )  # fmt: skip
    play_series(club)
    standings.refresh(season)
    return season


def test_a_public_seasons_card_and_preview_and_the_readers_line(access_world, client_as):
    season = _season(access_world.club, public=True)
    args = [season.club.slug, season.slug]
    card_url = reverse("seasons:card", args=args)
    assert _png(client_as("anonymous").get(card_url, headers=EN)).size == (1200, 630)
    html = (
        client_as("anonymous").get(reverse("seasons:table", args=args), headers=EN).content.decode()
    )
    assert f'<meta property="og:image" content="http://testserver{card_url}">' in html
    rows = [
        line_row(line)
        for line in season.lines.select_related("player", "division").order_by("position")
    ]
    xenia = next(row for row in rows if row.name == "Xenia")
    card = season_card(season, rows, xenia.player_id)
    assert [row.name for row in card.rows] == [row.name for row in rows]
    assert [row.name for row in card.rows if row.mine] == ["Xenia"]
    assert card.rows[0].cells[0] == rows[0].total  # the stored lines' figures


def test_a_private_seasons_card_is_the_members_and_its_page_has_no_preview(access_world, client_as):
    season = _season(access_world.club, public=False)
    args = [season.club.slug, season.slug]
    card_url = reverse("seasons:card", args=args)
    assert client_as("anonymous").get(card_url).status_code == 302
    assert client_as("outsider").get(card_url).status_code == 403
    _png(client_as("member").get(card_url, headers=EN))
    html = client_as("member").get(reverse("seasons:table", args=args), headers=EN).content.decode()
    assert "og:image" not in html
