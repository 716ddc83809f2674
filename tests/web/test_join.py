"""The sheet's "join this table" panel, the join link, and membership requests."""

from urllib.parse import urlencode

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from prefscore.clubs.models import Membership, MembershipRequest, Player
from prefscore.games import joining
from tests.web.fixtures_table import legal_deals

pytestmark = pytest.mark.django_db

EN = {"accept-language": "en"}
HTMX = {"HX-Request": "true", "accept-language": "en"}


def sheet_url(world) -> str:
    return reverse("games:sheet", args=[world.pulka.pk])


def join_path(world) -> str:
    return reverse("games:join", args=[joining.join_token(joining.links_of(world.pulka))])


def seat_member(world) -> None:
    Player.objects.filter(club=world.club, name="Anna").update(user=world.users["member"])


# --- the panel on the sheet ---


def test_the_sheet_shows_the_join_link_and_its_qr_code_drawn_from_the_absolute_url(
    access_world, client_as
):
    html = client_as("member").get(sheet_url(access_world), headers=EN).content.decode()

    url = "http://testserver" + join_path(access_world)
    assert 'id="join"' in html
    assert f'value="{url}"' in html
    expected = str(joining.qr_svg(url, "QR code of the link to this table"))
    assert expected in html
    assert "Join this table" in html


def test_the_panel_is_not_in_the_polls_regions(access_world, client_as):
    client = client_as("member")
    html = client.get(sheet_url(access_world), headers=HTMX).content.decode()
    poll = reverse("games:poll", args=[access_world.pulka.pk]) + "?v=0"

    assert 'id="join"' not in html
    assert 'id="join"' not in client.get(poll, headers=HTMX).content.decode()


def test_a_seated_player_sees_the_buttons_an_unseated_member_does_not(access_world, client_as):
    seat_member(access_world)
    rotate = reverse("games:rotate_join", args=[access_world.pulka.pk])

    seated = client_as("member").get(sheet_url(access_world), headers=EN).content.decode()
    unseated = client_as("organiser").get(sheet_url(access_world), headers=EN).content.decode()

    assert f'action="{rotate}"' in seated and "Make a spectator link" in seated
    assert f'action="{rotate}"' not in unseated and "Make a spectator link" not in unseated
    assert 'id="join-link"' in unseated


def test_the_sheet_page_costs_the_same_with_the_panel_whatever_the_deals(
    make_table_pulka, table_client
):
    client = table_client()

    def count(deals: int) -> int:
        names = ("Anna", "Boris", "Vera")
        pulka = make_table_pulka(names, deals=legal_deals(names, deals), target=1000, bulk=True)
        joining.links_of(pulka)
        with CaptureQueriesContext(connection) as queries:
            assert client.get(reverse("games:sheet", args=[pulka.pk])).status_code == 200
        return len(queries)

    assert count(3) == count(60)


# --- the join link ---


def test_a_member_opening_the_link_lands_on_the_sheet(access_world, client_as):
    response = client_as("member").get(join_path(access_world))

    assert response.status_code == 302
    assert response["Location"] == sheet_url(access_world)


def test_with_htmx_the_member_is_sent_on_by_hx_redirect(access_world, client_as):
    response = client_as("member").get(join_path(access_world), headers=HTMX)

    assert response["HX-Redirect"] == sheet_url(access_world)
    assert "HX-Request" in response["Vary"]


def test_an_anonymous_visitor_is_offered_sign_in_and_sign_up_with_the_way_back(
    access_world, client_as
):
    path = join_path(access_world)
    response = client_as("anonymous").get(path, headers=EN)

    html = response.content.decode()
    assert response.status_code == 200
    assert "Home club" in html
    nxt = urlencode({"next": path}).replace("&", "&amp;")
    assert f'href="{reverse("login")}?{nxt}"' in html
    assert f'href="{reverse("signup")}?{nxt}"' in html
    assert "Anna" not in html  # nothing of the table itself
    assert sheet_url(access_world) not in html  # nor where it is


def test_signing_in_from_the_join_page_comes_back_to_it(access_world):
    path = join_path(access_world)
    client = Client()

    response = client.post(
        f"{reverse('login')}?{urlencode({'next': path})}",
        {"username": "outsider", "password": "pw-for-tests-1234", "next": path},
    )

    assert response.status_code == 302 and response["Location"] == path


def test_an_outsider_asks_to_join_once_and_is_told_it_waits(access_world, client_as):
    client = client_as("outsider")
    path = join_path(access_world)
    assert b"Ask to join Home club" in client.get(path, headers=EN).content

    first = client.post(path, headers=EN)
    second = client.post(path, headers=EN)

    assert first.status_code == second.status_code == 302
    assert first["Location"] == path
    assert MembershipRequest.objects.filter(user=access_world.users["outsider"]).count() == 1
    page = client.get(path, headers=EN).content.decode()
    assert "waiting for the club's admin" in page
    assert "Ask to join Home club" not in page


def test_an_anonymous_post_is_sent_to_sign_in_and_asks_nothing(access_world, client_as):
    response = client_as("anonymous").post(join_path(access_world))

    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))
    assert not MembershipRequest.objects.exists()


def test_after_approval_the_link_lands_on_the_sheet(access_world, client_as):
    outsider = client_as("outsider")
    path = join_path(access_world)
    outsider.post(path)
    asked = MembershipRequest.objects.get()

    approved = client_as("admin").post(reverse("members:approve", args=["home", asked.pk]))

    assert approved.status_code == 302
    assert Membership.objects.filter(
        club=access_world.club, user=access_world.users["outsider"]
    ).exists()
    response = outsider.get(path)
    assert response.status_code == 302 and response["Location"] == sheet_url(access_world)


def test_a_declined_request_says_so_and_a_new_one_waits_a_day(access_world, client_as):
    outsider = client_as("outsider")
    path = join_path(access_world)
    outsider.post(path)
    client_as("admin").post(
        reverse("members:decline", args=["home", MembershipRequest.objects.get().pk])
    )

    page = outsider.get(path, headers=EN).content.decode()
    assert "declined your last request" in page

    again = outsider.post(path, headers=EN, follow=True).content.decode()
    assert "Ask again tomorrow" in again
    assert MembershipRequest.objects.count() == 1


def test_a_rotated_or_forged_link_is_a_styled_404_in_the_visitors_language(access_world, client_as):
    old = join_path(access_world)
    joining.rotate_join_code(access_world.pulka, access_world.users["admin"])

    for path in (old, "/join/not-a-token/", old[:-3] + "xx/"):
        response = client_as("member").get(path, headers={"accept-language": "ru"})
        assert response.status_code == 404
        html = response.content.decode()
        assert 'lang="ru"' in html and "error-page" in html
        assert "Эта ссылка на стол не работает" in html


def test_the_join_link_refuses_other_methods(access_world, client_as):
    assert client_as("member").put(join_path(access_world)).status_code == 405
    assert client_as("member").delete(join_path(access_world)).status_code == 405


def test_asking_without_the_csrf_token_is_refused(access_world, client_as):
    client = client_as("outsider", enforce_csrf_checks=True)

    response = client.post(join_path(access_world))

    assert response.status_code == 403
    assert not MembershipRequest.objects.exists()


# --- changing the links from the sheet ---


def test_a_seated_player_makes_a_new_join_link(access_world, client_as):
    seat_member(access_world)
    old = join_path(access_world)

    response = client_as("member").post(reverse("games:rotate_join", args=[access_world.pulka.pk]))

    assert response.status_code == 302
    assert response["Location"] == sheet_url(access_world) + "?links=open#join"
    assert client_as("member").get(old).status_code == 404
    assert join_path(access_world) != old


def test_with_htmx_the_change_answers_the_panel_unfolded_in_place(access_world, client_as):
    url = reverse("games:spectator_link", args=[access_world.pulka.pk])

    response = client_as("admin").post(url, {"action": "open"}, headers=HTMX)

    html = response.content.decode()
    assert response.status_code == 200
    assert "HX-Request" in response["Vary"]
    assert html.lstrip().startswith('<details class="join-panel" id="join" open>')
    token = joining.spectator_token(joining.links_of(access_world.pulka))
    assert f'value="http://testserver{reverse("games:watch", args=[token])}"' in html
    assert "<html" not in html


def test_without_htmx_the_change_goes_back_to_the_sheet_at_the_open_panel(access_world, client_as):
    response = client_as("admin").post(
        reverse("games:spectator_link", args=[access_world.pulka.pk]), {"action": "open"}
    )

    assert response["Location"] == sheet_url(access_world) + "?links=open#join"
    html = client_as("admin").get(response["Location"], headers=EN).content.decode()
    assert '<details class="join-panel" id="join" open>' in html
    assert 'id="spectator-link"' in html


def test_a_member_not_at_the_table_may_not_change_the_links(access_world, client_as):
    pulka = access_world.pulka
    before = joining.links_of(pulka).join_code

    for url, data in (
        (reverse("games:rotate_join", args=[pulka.pk]), {}),
        (reverse("games:spectator_link", args=[pulka.pk]), {"action": "open"}),
    ):
        response = client_as("organiser").post(url, data, headers=EN)
        assert response.status_code == 403
        assert b"Only the players at this table" in response.content
    assert joining.links_of(pulka).join_code == before
    assert joining.links_of(pulka).spectator_code is None


def test_with_htmx_a_refusal_answers_the_panel_with_the_reason(access_world, client_as):
    access_world.club.allow_spectators = False
    access_world.club.save()
    url = reverse("games:spectator_link", args=[access_world.pulka.pk])

    admin = client_as("admin").post(url, {"action": "open"}, headers=HTMX)
    unseated = client_as("organiser").post(url, {"action": "open"}, headers=HTMX)
    outsider = client_as("outsider").post(url, {"action": "open"}, headers=HTMX)

    assert admin.status_code == unseated.status_code == outsider.status_code == 403
    assert b'role="alert">The club has switched spectator links off.' in admin.content
    assert b'id="join"' in unseated.content and b"Only the players" in unseated.content
    assert b'id="join"' not in outsider.content and b"join-link" not in outsider.content


def test_the_links_change_only_by_post_and_with_the_csrf_token(access_world, client_as):
    seat_member(access_world)
    url = reverse("games:rotate_join", args=[access_world.pulka.pk])
    before = joining.links_of(access_world.pulka).join_code

    assert client_as("member").get(url).status_code == 405
    assert client_as("member", enforce_csrf_checks=True).post(url).status_code == 403
    assert joining.links_of(access_world.pulka).join_code == before


def test_an_unknown_action_or_pulka_is_refused(access_world, client_as):
    url = reverse("games:spectator_link", args=[access_world.pulka.pk])

    assert client_as("admin").post(url, {"action": "delete"}).status_code == 400
    assert client_as("admin").post(reverse("games:rotate_join", args=[999999])).status_code == 404


def test_the_spectator_link_cannot_be_made_when_the_club_switched_them_off(access_world, client_as):
    access_world.club.allow_spectators = False
    access_world.club.save()
    url = reverse("games:spectator_link", args=[access_world.pulka.pk])

    response = client_as("admin").post(url, {"action": "open"}, headers=EN)

    assert response.status_code == 403
    assert b"switched spectator links off" in response.content
    page = client_as("admin").get(sheet_url(access_world), headers=EN).content.decode()
    assert "Make a spectator link" not in page


# --- the admins' panel on the members page ---


def test_an_admin_sees_the_waiting_requests_a_member_does_not(access_world, client_as):
    MembershipRequest.objects.create(club=access_world.club, user=access_world.users["outsider"])
    page = reverse("members:list", args=["home"])

    admin = client_as("admin").get(page, headers=EN).content.decode()
    member = client_as("member").get(page, headers=EN).content.decode()

    assert 'id="requests"' in admin and "outsider" in admin
    assert 'id="requests"' not in member


def test_approving_with_htmx_answers_the_panel_with_its_message(access_world, client_as):
    asked = MembershipRequest.objects.create(
        club=access_world.club, user=access_world.users["outsider"]
    )

    response = client_as("admin").post(
        reverse("members:approve", args=["home", asked.pk]), headers=HTMX
    )

    html = response.content.decode()
    assert response.status_code == 200
    assert html.lstrip().startswith('<section class="join-requests" id="requests"')
    assert "outsider is now a member of Home club" in html
    assert "Nobody is waiting to join" in html


def test_answering_twice_says_it_was_answered(access_world, client_as):
    asked = MembershipRequest.objects.create(
        club=access_world.club, user=access_world.users["outsider"]
    )
    admin = client_as("admin")
    admin.post(reverse("members:decline", args=["home", asked.pk]))

    again = admin.post(reverse("members:approve", args=["home", asked.pk]), headers=HTMX)

    assert "already been answered" in again.content.decode()
    assert not Membership.objects.filter(
        user=access_world.users["outsider"], club=access_world.club
    ).exists()


def test_an_admin_answers_only_his_own_clubs_requests(access_world, client_as):
    elsewhere = MembershipRequest.objects.create(
        club=access_world.other_club, user=access_world.users["member"]
    )

    response = client_as("admin").post(reverse("members:approve", args=["home", elsewhere.pk]))

    assert response.status_code == 404
    assert MembershipRequest.objects.get(pk=elsewhere.pk).status == "pending"


def test_the_club_switch_turns_spectators_off_and_on(access_world, client_as):
    url = reverse("members:spectators", args=["home"])
    admin = client_as("admin")

    off = admin.post(url, {"allow": "0"}, headers=HTMX)
    access_world.club.refresh_from_db()
    assert not access_world.club.allow_spectators
    assert "Switch spectator links on" in off.content.decode()

    admin.post(url, {"allow": "1"})
    access_world.club.refresh_from_db()
    assert access_world.club.allow_spectators
    assert client_as("member").post(url, {"allow": "0"}).status_code == 403


def test_signing_up_from_the_join_page_comes_back_to_it(access_world):
    path = join_path(access_world)
    client = Client()

    response = client.post(
        f"{reverse('signup')}?{urlencode({'next': path})}",
        {
            "username": "newcomer",
            "email": "newcomer@example.com",
            "password1": "a-long-pass-phrase-77",
            "password2": "a-long-pass-phrase-77",
            "next": path,
        },
    )

    assert response.status_code == 302 and response["Location"] == path
    page = client.get(path, headers=EN).content.decode()
    assert "Ask to join Home club" in page


def test_the_join_page_names_the_outsider_as_the_admins_list_will(access_world, client_as):
    """The name at the table, which the admin's requests show, not the username."""
    outsider = access_world.users["outsider"]
    outsider.first_name = "Vera K."
    outsider.save(update_fields=["first_name"])
    client = client_as("outsider")
    path = join_path(access_world)

    page = client.get(path, headers=EN).content.decode().replace("\u2068", "").replace("\u2069", "")
    client.post(path, headers=EN)
    admin = client_as("admin").get(reverse("members:list", args=["home"]), headers=EN)

    assert "sees your request as Vera K., your name at the table" in page
    assert reverse("display_name") in page
    assert "Vera K." in admin.content.decode()
