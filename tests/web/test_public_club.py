"""A club's public results page (docs/design.md, "Sharing a result"): the members' until
an admin makes it public, then anyone's with its card and preview; only what the club
made public elsewhere; the club's robots rule; kept a minute."""

from __future__ import annotations

import datetime
from io import BytesIO

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from PIL import Image

from prefscore.clubs.models import Club
from prefscore.seasons.models import Season
from prefscore.stats.models import ClubStatsSettings, PlayerRating
from prefscore.tournaments.models import Tournament
from tests.web.fixtures_table import EN
from tests.web.fixtures_tournaments import make_tournament

pytestmark = pytest.mark.django_db


def _url(world, name: str = "public:club") -> str:
    return reverse(name, args=[world.club.slug])


def _publish(client_as, world, **fields: str) -> None:
    response = client_as("admin").post(reverse("public:settings", args=[world.club.slug]), fields)
    assert response.status_code == 302


def test_the_page_is_the_members_until_an_admin_makes_it_public(access_world, client_as):
    assert client_as("anonymous").get(_url(access_world)).status_code == 302  # sign in
    assert client_as("outsider").get(_url(access_world)).status_code == 403
    assert client_as("anonymous").get(_url(access_world, "public:card")).status_code == 302
    member = client_as("member").get(_url(access_world), headers=EN).content.decode()
    assert "og:image" not in member and "Who sees this page" not in member
    admin = client_as("admin").get(_url(access_world), headers=EN).content.decode()
    assert "Who sees this page" in admin

    _publish(client_as, access_world, public="1")
    page = client_as("anonymous").get(_url(access_world), headers=EN)
    assert page.status_code == 200
    html = page.content.decode()
    card = f"http://testserver{_url(access_world, 'public:card')}"
    assert f'<meta property="og:image" content="{card}">' in html
    assert "Who sees this page" not in html
    image = client_as("anonymous").get(_url(access_world, "public:card"), headers=EN)
    assert Image.open(BytesIO(image.content)).size == (1200, 630)


def test_only_an_admin_changes_the_setting(access_world, client_as):
    url = reverse("public:settings", args=[access_world.club.slug])
    for role in ("member", "organiser", "outsider"):
        assert client_as(role).post(url, {"public": "1"}).status_code == 403
    assert Club.objects.get(pk=access_world.club.pk).public_page is False


def test_search_engines_stay_out_unless_the_club_lets_them_in(access_world, client_as):
    _publish(client_as, access_world, public="1")
    page = client_as("anonymous").get(_url(access_world))
    assert page["X-Robots-Tag"] == "noindex, nofollow"
    assert '<meta name="robots" content="noindex, nofollow">' in page.content.decode()
    _publish(client_as, access_world, public="1", index="1")
    page = client_as("anonymous").get(_url(access_world))
    assert page["X-Robots-Tag"] == "index, follow"
    assert '<meta name="robots" content="index, follow">' in page.content.decode()
    # Indexing goes with the page: a members-only page is never indexed.
    _publish(client_as, access_world, index="1")
    assert Club.objects.get(pk=access_world.club.pk).search_engines is False


def test_it_shows_only_what_the_club_made_public(access_world, client_as):
    club = access_world.club
    done = make_tournament(club, "Open cup", slug="open-cup", public=True)
    Tournament.objects.filter(pk=done.pk).update(status=Tournament.Status.FINISHED)
    make_tournament(club, "Running cup", slug="running-cup", public=True)
    hidden = make_tournament(club, "Private cup", slug="private-cup", public=False)
    Tournament.objects.filter(pk=hidden.pk).update(status=Tournament.Status.FINISHED)
    day = datetime.date(2026, 1, 1)
    Season.objects.create(
        club=club, name="Open spring", slug="open", starts_on=day, ends_on=day, public=True
    )
    Season.objects.create(
        club=club, name="Closed autumn", slug="closed", starts_on=day, ends_on=day
    )
    _publish(client_as, access_world, public="1")

    html = client_as("anonymous").get(_url(access_world), headers=EN).content.decode()
    assert "Open cup" in html and "Open spring" in html
    for private in ("Running cup", "Private cup", "Closed autumn", "Leaderboard"):
        assert private not in html
    anna = club.players.get(name="Anna")
    PlayerRating.objects.create(player=anna, club=club, mu=30.0, sigma=2.0, pulkas=7)
    html = client_as("anonymous").get(_url(access_world), headers=EN).content.decode()
    assert "Leaderboard" not in html  # the leaderboard is the members' still
    ClubStatsSettings.objects.update_or_create(club=club, defaults={"rating_public": True})
    html = client_as("anonymous").get(_url(access_world), headers=EN).content.decode()
    assert "Leaderboard" in html and "<bdi>Anna</bdi>" in html


def test_a_stranger_may_keep_the_public_page_a_minute_and_a_member_may_not(access_world, client_as):
    _publish(client_as, access_world, public="1")

    stranger = client_as("anonymous").get(_url(access_world))
    member = client_as("member").get(_url(access_world))

    directives = {d.strip() for d in stranger["Cache-Control"].split(",")}
    assert directives == {"public", "max-age=60"}
    assert "accept-language" in stranger["Vary"].lower()  # kept per language
    assert {d.strip() for d in member["Cache-Control"].split(",")} == {"private", "no-store"}


def test_a_change_shows_on_the_next_request(access_world, client_as):
    _publish(client_as, access_world, public="1")
    reader = client_as("anonymous")
    assert "Later cup" not in reader.get(_url(access_world), headers=EN).content.decode()

    later = make_tournament(access_world.club, "Later cup", slug="later-cup", public=True)
    Tournament.objects.filter(pk=later.pk).update(status=Tournament.Status.FINISHED)

    assert "Later cup" in reader.get(_url(access_world), headers=EN).content.decode()


def test_the_page_reads_as_many_queries_for_six_tournaments_as_for_one(access_world, client_as):
    _publish(client_as, access_world, public="1")
    reader = client_as("anonymous")

    def queries() -> int:
        with CaptureQueriesContext(connection) as seen:
            assert reader.get(_url(access_world)).status_code == 200
        return len(seen.captured_queries)

    for number in range(6):
        done = make_tournament(
            access_world.club, f"Cup {number}", slug=f"cup-{number}", public=True
        )
        Tournament.objects.filter(pk=done.pk).update(status=Tournament.Status.FINISHED)
        if number == 0:
            one = queries()

    assert queries() == one
