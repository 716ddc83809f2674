"""The screens of "Accounts are seats": joining as a guest, the players page,
"your pulkas", consent for one's own seat, and the sign-up form's email hint."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from prefscore.clubs import invitations
from prefscore.clubs.models import Membership, Player, PlayerEvent, Role
from prefscore.games.models import AuditEvent, Consent, ForgottenDeal, PulkaSeat
from tests.web.fixtures_club import club_pulka
from tests.web.test_forgotten_ui import answer, propose

pytestmark = pytest.mark.django_db

EN = {"accept-language": "en"}
RU = {"accept-language": "ru"}
HTMX = {**EN, "hx-request": "true"}


@pytest.fixture
def anna(django_user_model):
    return django_user_model.objects.create_user("anna", password="pw-for-tests-1234")


def signed_in(user, csrf: bool = False) -> Client:
    client = Client(enforce_csrf_checks=csrf)
    client.force_login(user)
    return client


def players_url(slug: str = "friday") -> str:
    return reverse("members:players", args=[slug])


# --- joining: "I am Анна" -----------------------------------------------------------------


def test_an_invitation_for_a_guest_offers_that_guest_and_a_new_player(club_world, anna):
    guest = club_world.players["Guest Gena"]
    invitation = invitations.create_invitation(
        club_world.club, club_world.users["olga"], "member", guest=guest
    )

    html = signed_in(anna).get(reverse("members:invitation", args=[invitation.token]), headers=EN)

    text = html.content.decode()
    assert f'value="{guest.pk}" checked' in text and "I am Guest Gena" in text
    assert 'value="new"' in text and "I am new here" in text
    assert f'value="{club_world.players["ivan"].pk}"' not in text  # a member is not a guest


def test_an_invitation_for_nobody_offers_no_guest(club_world, anna):
    """Any invitee claiming any guest ("Я — Вера") took anyone's results: a guest is
    offered only by a link made for her."""
    invitation = invitations.create_invitation(club_world.club, club_world.users["olga"], "member")

    html = signed_in(anna).get(reverse("members:invitation", args=[invitation.token]), headers=EN)

    text = html.content.decode()
    assert "Guest Gena" not in text and 'name="player"' not in text


def test_an_invitee_cannot_claim_a_guest_the_link_is_not_for(club_world, anna):
    invitation = invitations.create_invitation(club_world.club, club_world.users["olga"], "member")
    guest = club_world.players["Guest Gena"]

    response = signed_in(anna).post(
        reverse("members:invitation", args=[invitation.token]),
        {"player": str(guest.pk)},
        headers=EN,
    )

    assert response.status_code == 409
    assert "not for that guest" in response.content.decode()
    guest.refresh_from_db()
    assert guest.user is None
    assert not Membership.objects.filter(user=anna).exists()


def test_accepting_as_a_guest_claims_her_and_goes_to_the_club(club_world, anna):
    guest = club_world.players["Guest Gena"]
    invitation = invitations.create_invitation(
        club_world.club, club_world.users["olga"], "member", guest=guest
    )

    response = signed_in(anna).post(
        reverse("members:invitation", args=[invitation.token]), {"player": str(guest.pk)}
    )

    assert response.status_code == 302
    guest.refresh_from_db()
    assert guest.user == anna


@pytest.mark.parametrize("choice", ["x", "²", "9" * 40, ""])
def test_a_bad_choice_is_refused_on_the_page_and_nothing_is_joined(club_world, anna, choice):
    invitation = invitations.create_invitation(club_world.club, club_world.users["olga"], "member")

    response = signed_in(anna).post(
        reverse("members:invitation", args=[invitation.token]), {"player": choice}, headers=EN
    )

    assert response.status_code == 400
    assert "Choose one of the guests" in response.content.decode()
    assert not Membership.objects.filter(user=anna).exists()


def test_claiming_a_taken_guest_says_so_in_russian_and_nothing_is_joined(club_world, anna):
    taken = club_world.players["ivan"]  # the link was for a guest who has an account since
    invitation = invitations.create_invitation(
        club_world.club, club_world.users["olga"], "member", guest=taken
    )

    response = signed_in(anna).post(
        reverse("members:invitation", args=[invitation.token]),
        {"player": str(taken.pk)},
        headers=RU,
    )

    assert response.status_code == 409
    assert "больше не свободен" in response.content.decode()
    assert not Membership.objects.filter(user=anna).exists()
    invitation.refresh_from_db()
    assert invitation.used_at is None  # the link still works for another try


def test_after_joining_she_sits_as_herself_in_the_new_pulka_form(club_world, anna):
    invitation = invitations.create_invitation(club_world.club, club_world.users["olga"], "member")
    client = signed_in(anna)
    client.post(reverse("members:invitation", args=[invitation.token]), {"player": "new"})

    html = client.get(reverse("games:new", args=["friday"]), headers=EN).content.decode()

    mine = Player.objects.get(user=anna)
    assert f'<option value="{mine.pk}">anna</option>' in html


# --- the players page ----------------------------------------------------------------------


def test_the_players_page_shows_admins_every_player_the_tools_and_the_history(club_world):
    players_of = club_world.players
    client = signed_in(club_world.users["olga"])
    client.post(
        reverse("members:player_unlink", args=["friday", players_of["ivan"].pk]), headers=EN
    )

    html = client.get(players_url(), headers=EN).content.decode()

    for name in ("olga", "ivan", "Guest Gena"):
        assert name in html
    assert reverse("members:player_merge", args=["friday"]) in html
    assert reverse("members:player_link", args=["friday", players_of["ivan"].pk]) in html
    assert "ivan is no longer linked to the account ivan: a guest again." in html


@pytest.mark.parametrize("who", ["ivan", "petr", "anonymous"])
def test_only_club_admins_reach_the_players_page_and_its_changes(club_world, who):
    client = Client() if who == "anonymous" else signed_in(club_world.users[who])
    gena, ivan = club_world.players["Guest Gena"], club_world.players["ivan"]
    posts = [
        (reverse("members:player_link", args=["friday", gena.pk]), {"account": ivan.user_id}),
        (reverse("members:player_unlink", args=["friday", ivan.pk]), {}),
        (reverse("members:player_merge", args=["friday"]), {"keep": gena.pk, "drop": ivan.pk}),
    ]

    expected = 302 if who == "anonymous" else 403
    assert client.get(players_url()).status_code == expected
    for url, data in posts:
        assert client.post(url, data).status_code == expected
    assert not PlayerEvent.objects.exists()
    ivan.refresh_from_db()
    assert ivan.user == club_world.users["ivan"]


def test_the_players_page_of_an_unknown_club_is_not_found(club_world):
    assert signed_in(club_world.users["olga"]).get(players_url("nowhere")).status_code == 404


def test_the_changes_answer_405_to_a_get_and_refuse_without_the_csrf_token(club_world):
    client = signed_in(club_world.users["olga"], csrf=True)
    gena = club_world.players["Guest Gena"]
    urls = [
        reverse("members:player_link", args=["friday", gena.pk]),
        reverse("members:player_unlink", args=["friday", gena.pk]),
        reverse("members:player_merge", args=["friday"]),
    ]

    for url in urls:
        assert client.get(url).status_code == 405
        assert client.post(url, {}).status_code == 403
    assert signed_in(club_world.users["olga"]).post(players_url()).status_code == 405


def test_an_unknown_player_is_not_found(club_world):
    client = signed_in(club_world.users["olga"])
    assert client.post(reverse("members:player_unlink", args=["friday", 999999])).status_code == 404
    other = Player.objects.create(club=club_world.other_club, name="Stranger")
    assert (
        client.post(reverse("members:player_unlink", args=["friday", other.pk])).status_code == 404
    )


def test_a_merge_without_htmx_redirects_and_with_htmx_answers_with_the_region(club_world):
    client = signed_in(club_world.users["olga"])
    twin = Player.objects.create(club=club_world.club, name="Gena")
    gena = club_world.players["Guest Gena"]
    url = reverse("members:player_merge", args=["friday"])

    plain = client.post(url, {"keep": gena.pk, "drop": twin.pk})

    assert plain.status_code == 302 and plain["Location"] == players_url()
    other = Player.objects.create(club=club_world.club, name="G")
    swapped = client.post(url, {"keep": gena.pk, "drop": other.pk}, headers=HTMX)
    html = swapped.content.decode()
    assert swapped.status_code == 200 and html.lstrip().startswith('<section class="players-admin"')
    assert "G is merged into Guest Gena." in html
    assert not Player.objects.filter(pk__in=[twin.pk, other.pk]).exists()


def test_a_merge_that_would_seat_one_person_twice_is_refused_with_a_clear_message(club_world):
    club_pulka(club_world.club, title="Friday night")  # olga, ivan and Guest Gena
    client = signed_in(club_world.users["olga"])
    gena, ivan = club_world.players["Guest Gena"], club_world.players["ivan"]

    response = client.post(
        reverse("members:player_merge", args=["friday"]),
        {"keep": ivan.pk, "drop": gena.pk},
        headers=HTMX,
    )

    html = response.content.decode()
    assert "ivan and Guest Gena sat at the same pulka («Friday night»)" in html
    assert "Nothing was merged." in html
    assert Player.objects.filter(pk=gena.pk).exists()


@pytest.mark.parametrize("data", [{}, {"keep": "x", "drop": "1"}, {"keep": "1", "drop": "²"}])
def test_a_merge_with_bad_input_says_so_and_changes_nothing(club_world, data):
    client = signed_in(club_world.users["olga"])

    response = client.post(reverse("members:player_merge", args=["friday"]), data, headers=HTMX)

    assert response.status_code == 200
    assert "Choose the player to keep" in response.content.decode()
    assert Player.objects.filter(club=club_world.club).count() == 3


def test_linking_through_the_page_links_the_guest_to_the_member(club_world, anna):
    Membership.objects.create(club=club_world.club, user=anna, role=Role.MEMBER)
    gena = club_world.players["Guest Gena"]
    client = signed_in(club_world.users["olga"])

    response = client.post(
        reverse("members:player_link", args=["friday", gena.pk]), {"account": anna.pk}, headers=HTMX
    )

    assert "Guest Gena is now the player of anna." in response.content.decode()
    gena.refresh_from_db()
    assert gena.user == anna
    outsider = club_world.users["petr"]
    refused = client.post(
        reverse("members:player_link", args=["friday", club_world.players["olga"].pk]),
        {"account": outsider.pk},
        headers=HTMX,
    )
    assert "Choose a member of the club" in refused.content.decode()


def test_the_players_page_costs_the_same_whatever_the_players(club_world):
    client = signed_in(club_world.users["olga"])

    def cost() -> int:
        with CaptureQueriesContext(connection) as captured:
            assert client.get(players_url()).status_code == 200
        return len(captured)

    few = cost()
    for number in range(12):
        guest = Player.objects.create(club=club_world.club, name=f"Guest {number}")
        club_pulka(club_world.club, ("olga", "ivan", guest.name))
    assert cost() == few


def test_the_players_page_speaks_russian(club_world):
    html = signed_in(club_world.users["olga"]).get(players_url(), headers=RU).content.decode()

    assert "Объединить" in html and "История изменений" in html


# --- your pulkas ---------------------------------------------------------------------------


def test_home_and_club_page_list_only_the_pulkas_where_the_user_sits(club_world, anna):
    Membership.objects.create(club=club_world.club, user=anna)
    anna_player = Player.objects.create(club=club_world.club, name="anna", user=anna)
    hers = club_pulka(club_world.club, ("olga", "anna", "Guest Gena"), title="Hers")
    theirs = club_pulka(club_world.club, title="Theirs")
    client = signed_in(anna)

    home = client.get(reverse("clubs:home"), headers=EN).content.decode()
    club = client.get(reverse("clubs:club", args=["friday"]), headers=EN).content.decode()

    mine = reverse("games:sheet", args=[hers.pk])
    other = reverse("games:sheet", args=[theirs.pk])
    assert mine in home and other not in home
    yours = club.split('id="yours"')[1].split("</section>")[0]
    assert mine in yours and other not in yours
    assert other in club  # the club's own list still shows every running pulka
    PulkaSeat.objects.filter(player=anna_player).delete()
    assert (
        "You are not seated at any running pulka."
        in client.get(reverse("clubs:home"), headers=EN).content.decode()
    )


def test_the_home_page_costs_the_same_whatever_the_pulkas(club_world):
    client = signed_in(club_world.users["ivan"])

    def cost() -> int:
        with CaptureQueriesContext(connection) as captured:
            assert client.get(reverse("clubs:home")).status_code == 200
        return len(captured)

    club_pulka(club_world.club)
    few = cost()
    for number in range(8):
        club_pulka(club_world.club, title=f"Table {number}")
    assert cost() == few


# --- consent (Кодекс 4.2.10) ---------------------------------------------------------------


def test_a_member_cannot_answer_for_another_members_seat_in_russian(seated_world, seated_client):
    pulka = seated_world.pulka
    propose(seated_client("boris"), pulka)
    client = seated_client("anna")

    response = client.post(
        reverse("games:answer", args=[pulka.pk, ForgottenDeal.objects.get().pk]),
        {"seat": "2", "answer": "agree"},
        headers=RU,
    )

    assert response.status_code == 409
    assert "Каждый игрок отвечает за себя сам" in response.content.decode()
    assert Consent.objects.count() == 1


def test_the_audit_names_who_answered_for_which_guest(
    seated_world, seated_client, make_seated_pulka
):
    names = ("Anna", "Boris", "Gosha")
    pulka = make_seated_pulka(names, guests=("Gosha",))
    facts = {"contract": "allpass", "tricks": {"Anna": 3, "Boris": 3, "Gosha": 4}}
    propose(seated_client("boris"), pulka, facts, names=names)
    proposal = ForgottenDeal.objects.get()

    answer(seated_client("anna"), pulka, proposal, 2, True)

    event = AuditEvent.objects.get(action="consented", user=seated_world.users["anna"])
    assert event.details == {"player": "Gosha", "seat": 2, "proxy": True}
    own = AuditEvent.objects.get(action="consented", user=seated_world.users["boris"])
    assert own.details["proxy"] is False
    # Gosha claims his account later: the trail still says Anna answered on his behalf.
    Player.objects.filter(club=pulka.club, name="Gosha").update(user=seated_world.users["gleb"])
    trail = seated_client("anna").get(reverse("games:audit", args=[pulka.pk]), headers=EN)
    assert "Agreed to the forgotten deal 1 on behalf of Gosha, a guest." in trail.content.decode()


def test_a_guest_linked_to_an_account_answers_for_herself_only(
    seated_world, seated_client, make_seated_pulka
):
    names = ("Anna", "Boris", "Gosha")
    pulka = make_seated_pulka(names, guests=("Gosha",))
    Player.objects.filter(club=pulka.club, name="Gosha").update(user=seated_world.users["gleb"])
    facts = {"contract": "allpass", "tricks": {"Anna": 3, "Boris": 3, "Gosha": 4}}
    propose(seated_client("boris"), pulka, facts, names=names)
    proposal = ForgottenDeal.objects.get()

    refused = answer(seated_client("anna"), pulka, proposal, 2, True)
    herself = answer(seated_client("gleb"), pulka, proposal, 2, True)

    assert refused.status_code == 409
    assert herself.status_code in (200, 302)
    assert Consent.objects.filter(answered_by=seated_world.users["gleb"]).count() == 1


# --- sign-up -------------------------------------------------------------------------------


@pytest.mark.parametrize(("headers", "hint"), [(EN, "Required."), (RU, "Обязательное поле.")])
def test_the_sign_up_email_hint_says_it_is_required(client, headers, hint):
    html = client.get(reverse("signup"), headers=headers).content.decode()

    email = html.split('for="id_email"')[1].split("</div>")[0]
    assert hint in email
    assert 'name="email"' in html and "required" in html.split('name="email"')[1].split(">")[0]
    response = client.post(reverse("signup"), {"username": "x", "email": ""}, headers=headers)
    assert response.context["form"].errors["email"]
