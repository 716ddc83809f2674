"""The home page's clubs, creating a club, the club page and adding a guest."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from prefscore.clubs.forms import slug_from_name
from prefscore.clubs.models import Club, Membership, Player, Role
from prefscore.games.models import Pulka
from tests.web.fixtures_club import club_pulka, three_deals

pytestmark = pytest.mark.django_db

HX = {"HX-Request": "true"}


def club_url(slug: str = "friday") -> str:
    return reverse("clubs:club", args=[slug])


def guest_url(slug: str = "friday") -> str:
    return reverse("clubs:add_guest", args=[slug])


# --- home ------------------------------------------------------------------------


def test_the_home_page_lists_the_clubs_of_the_signed_in_player(club_world, club_client):
    html = club_client("ivan").get("/").content.decode()

    assert 'id="clubs"' in html
    assert club_url() in html and "Friday" in html
    assert "Elsewhere" not in html


def test_the_home_page_lists_running_pulkas_of_his_clubs_only(club_world, club_client):
    mine = club_pulka(club_world.club, title="Our Friday game")
    theirs = club_pulka(club_world.other_club, ("x", "y", "z"), title="Not yours")

    html = club_client("ivan").get("/").content.decode()

    assert reverse("games:sheet", args=[mine.pk]) in html
    assert "Our Friday game" in html
    assert reverse("games:sheet", args=[theirs.pk]) not in html


def test_the_home_page_offers_a_new_club_form_and_no_clubs_message(club_world, django_user_model):
    from django.test import Client

    client = Client()
    client.force_login(django_user_model.objects.create_user("newcomer"))

    html = client.get("/", headers={"accept-language": "en"}).content.decode()

    assert "You are in no club yet" in html
    assert 'action="/clubs/"' in html and 'hx-post="/clubs/"' in html


def test_an_anonymous_visitor_sees_no_club_form(client):
    html = client.get("/").content.decode()

    assert 'id="create-club"' not in html
    assert reverse("login") in html


# --- creating a club ------------------------------------------------------------------


def test_creating_a_club_makes_the_creator_its_admin_and_a_player(club_world, club_client):
    response = club_client("ivan").post(reverse("clubs:create"), {"name": "Среда у Ивана"})

    club = Club.objects.get(name="Среда у Ивана")
    assert response.status_code == 302
    assert response["Location"] == club_url(club.slug)
    assert club.slug == "sreda-u-ivana"
    assert club.role_of(club_world.users["ivan"]) == Role.ADMIN
    assert club.players.get().user == club_world.users["ivan"]


def test_creating_a_club_with_htmx_redirects_the_browser(club_world, club_client):
    response = club_client("ivan").post(reverse("clubs:create"), {"name": "Tuesday"}, headers=HX)

    assert response.status_code == 200
    assert response["HX-Redirect"] == club_url("tuesday")


def test_a_club_keeps_the_short_name_it_is_given(club_world, club_client):
    club_client("ivan").post(reverse("clubs:create"), {"name": "Tuesday", "slug": "tue-club"})

    assert Club.objects.get(name="Tuesday").slug == "tue-club"


def test_a_taken_name_gets_a_numbered_short_name(club_world, club_client):
    # Someone outside the Friday club names his own club Friday too (a member of it
    # would be told he already has one: test_small_things.py).
    newcomer = get_user_model().objects.create_user("newcomer", password="pw-newcomer-1234")
    client = Client()
    client.force_login(newcomer)
    client.post(reverse("clubs:create"), {"name": "Friday"})

    assert set(Club.objects.filter(name="Friday").values_list("slug", flat=True)) == {
        "friday",
        "friday-2",
    }


@pytest.mark.parametrize(
    ("name", "slug"),
    [
        ("Демо-клуб", "demo-klub"),
        ("Щука & Ёж", "shchuka-ezh"),
        ("🂡🂱", "club"),
        ("A" * 120, "a" * 56),
    ],
)
def test_a_short_name_is_made_from_any_club_name(name, slug):
    assert slug_from_name(name) == slug


@pytest.mark.parametrize(
    ("data", "field", "message"),
    [
        ({"name": ""}, "name", "This field is required."),
        ({"name": "   "}, "name", "This field is required."),
        ({"name": "x" * 121}, "name", "at most 120 characters"),
        ({"name": "Ok", "slug": "no spaces"}, "slug", "letters, numbers, underscores or hyphens"),
        ({"name": "Ok", "slug": "friday"}, "slug", "Another club already uses this short name."),
    ],
)
def test_a_bad_club_form_is_refused_with_a_message_next_to_the_field(
    club_world, club_client, data, field, message
):
    response = club_client("ivan").post(
        reverse("clubs:create"), data, headers={"accept-language": "en"}
    )

    assert response.status_code == 200
    assert message in " ".join(response.context["form"].errors[field])
    assert message.replace("'", "&#x27;") in response.content.decode()
    assert Club.objects.count() == 2


def test_a_refused_club_form_under_htmx_re_renders_only_the_form(club_world, club_client):
    response = club_client("ivan").post(reverse("clubs:create"), {"name": ""}, headers=HX)

    html = response.content.decode()
    assert response.status_code == 200
    assert html.lstrip().startswith('<section class="create-club" id="create-club"')
    assert "<html" not in html


def test_an_anonymous_visitor_cannot_create_a_club(client):
    response = client.post(reverse("clubs:create"), {"name": "Sneaky"})

    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))
    assert not Club.objects.exists()


def test_creating_a_club_needs_a_post(club_world, club_client):
    assert club_client("ivan").get(reverse("clubs:create")).status_code == 405


def test_creating_a_club_needs_the_csrf_token(club_world, club_client):
    response = club_client("ivan", csrf=True).post(reverse("clubs:create"), {"name": "X"})

    assert response.status_code == 403
    assert not Club.objects.filter(name="X").exists()


# --- the club page ---------------------------------------------------------------------


def test_the_club_page_shows_players_pulkas_and_what_to_do_next(club_world, club_client):
    running = club_pulka(club_world.club, deals=three_deals(["olga", "ivan", "Guest Gena"]))
    finished = club_pulka(club_world.club, title="Last week", status=Pulka.Status.FINISHED)
    archived = club_pulka(club_world.club, title="Old news", status=Pulka.Status.ARCHIVED)

    response = club_client("ivan").get(club_url(), headers={"accept-language": "en"})

    html = response.content.decode()
    assert response.status_code == 200
    for player in ("olga", "ivan", "Guest Gena"):
        assert player in html
    assert "guest" in html and "member" in html
    assert reverse("games:sheet", args=[running.pk]) in html
    assert "3 deals" in html and "Sochi" in html
    assert reverse("games:sheet", args=[finished.pk]) in html and "Last week" in html
    # An abandoned pulka is listed apart, under its own heading, not among the others.
    assert [p.pk for p in response.context["abandoned"]] == [archived.pk]
    assert archived.pk not in [p.pk for p in response.context["finished"]]
    assert html.index("Abandoned pulkas") < html.index(reverse("games:sheet", args=[archived.pk]))
    assert reverse("games:new", args=["friday"]) in html
    assert reverse("games:import", args=["friday"]) in html
    assert reverse("games:calculator") in html
    assert 'action="/clubs/friday/guests/"' in html


def test_the_club_page_under_htmx_is_the_same_page(club_world, club_client):
    response = club_client("ivan").get(club_url(), headers=HX)

    assert response.status_code == 200
    assert 'id="players"' in response.content.decode()


def test_the_club_page_is_403_for_an_outsider(club_world, club_client):
    assert club_client("petr").get(club_url()).status_code == 403
    assert club_client("petr").get(club_url(), headers=HX).status_code == 403


def test_the_club_page_is_404_for_an_unknown_club(club_world, club_client):
    assert club_client("ivan").get(club_url("nowhere")).status_code == 404


def test_the_club_page_sends_an_anonymous_visitor_to_sign_in(club_world, client):
    response = client.get(club_url())

    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))


def test_the_club_page_answers_405_to_a_post(club_world, club_client):
    assert club_client("ivan").post(club_url()).status_code == 405


def test_hostile_names_on_the_club_page_are_escaped(club_world, club_client):
    hostile = ["<script>alert(1)</script>", "\"quoted\" & 'apostrophe'", "مرحبا", "🂡" * 5]
    for name in hostile:
        Player.objects.create(club=club_world.club, name=name)
    club_pulka(club_world.club, (hostile[0], hostile[1], hostile[2]), title="<b>bold</b>")

    html = club_client("ivan").get(club_url()).content.decode()

    assert "<script>alert(1)</script>" not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    assert "<b>bold</b>" not in html and "&lt;b&gt;bold&lt;/b&gt;" in html
    assert "&quot;quoted&quot; &amp; &#x27;apostrophe&#x27;" in html


def club_page_queries(client) -> int:
    with CaptureQueriesContext(connection) as queries:
        assert client.get(club_url()).status_code == 200
    return len(queries)


def test_the_club_page_makes_as_many_queries_for_20_pulkas_as_for_2(club_world, club_client):
    client = club_client("ivan")
    names = ["olga", "ivan", "Guest Gena"]
    for _ in range(2):
        club_pulka(club_world.club, names, three_deals(names))
    few = club_page_queries(client)

    for number in range(18):
        guest = f"Guest {number}"
        Player.objects.create(club=club_world.club, name=guest)
        club_pulka(club_world.club, ["olga", "ivan", guest], three_deals(["olga", "ivan", guest]))
    many = club_page_queries(client)

    assert Pulka.objects.count() == 20
    assert many == few


# --- adding a guest ---------------------------------------------------------------------


def test_a_member_adds_a_guest_player(club_world, club_client):
    response = club_client("ivan").post(guest_url(), {"name": "  Семён  "})

    assert response.status_code == 302
    assert response["Location"] == club_url()
    guest = Player.objects.get(club=club_world.club, name="Семён")
    assert guest.user is None


def test_a_guest_added_under_htmx_returns_the_players_region(club_world, club_client):
    response = club_client("olga").post(guest_url(), {"name": "Семён"}, headers=HX)

    html = response.content.decode()
    assert response.status_code == 200
    assert html.lstrip().startswith('<section class="players" id="players"')
    assert "Семён" in html
    assert 'value="Семён"' not in html  # a fresh form for the next guest


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("", "This field is required."),
        ("x" * 61, "at most 60 characters"),
        ("OLGA", "OLGA already plays in this club."),
    ],
)
def test_a_bad_guest_name_is_refused_with_a_message(club_world, club_client, name, message):
    en = {"accept-language": "en"}
    response = club_client("ivan").post(guest_url(), {"name": name}, headers=en)
    partial = club_client("ivan").post(guest_url(), {"name": name}, headers={**HX, **en})

    assert response.status_code == 200 and partial.status_code == 200
    assert message in response.content.decode()
    assert message in partial.content.decode()
    assert Player.objects.filter(club=club_world.club).count() == 3


def test_an_outsider_cannot_add_a_guest(club_world, club_client):
    response = club_client("petr").post(guest_url(), {"name": "Intruder"})

    assert response.status_code == 403
    assert not Player.objects.filter(name="Intruder").exists()


def test_adding_a_guest_to_an_unknown_club_is_404(club_world, club_client):
    assert club_client("ivan").post(guest_url("nowhere"), {"name": "X"}).status_code == 404


def test_adding_a_guest_needs_a_post(club_world, club_client):
    assert club_client("ivan").get(guest_url()).status_code == 405


def test_adding_a_guest_needs_the_csrf_token(club_world, club_client):
    response = club_client("ivan", csrf=True).post(guest_url(), {"name": "Семён"})

    assert response.status_code == 403
    assert not Player.objects.filter(name="Семён").exists()


def test_a_club_page_membership_is_per_club(club_world, club_client):
    Membership.objects.create(club=club_world.other_club, user=club_world.users["ivan"])

    assert club_client("ivan").get(club_url("elsewhere")).status_code == 200
    assert club_client("petr").get(club_url("friday")).status_code == 403
