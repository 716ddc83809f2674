"""The name each account goes by at the table (clubs/names.py ``display_name``), the
admins' one tap that approves a newcomer as the club's guest, and the waiting request
shown to an admin at the table.
"""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from prefscore.clubs import membership_requests
from prefscore.clubs.models import Club, Membership, Player
from tests.web.fixtures_access import PASSWORD, build_world

pytestmark = pytest.mark.django_db
EN = {"accept-language": "en"}
RU = {"accept-language": "ru"}


def signed_in(user, **headers) -> Client:
    client = Client(headers=headers or EN)
    client.force_login(user)
    return client


def test_signing_up_with_a_name_at_the_table_names_the_account_and_its_players() -> None:
    client = Client(headers=EN)
    response = client.post(
        reverse("signup"),
        {
            "username": "anna",
            "first_name": " Анна\u200b ",  # typed with a stray space and an invisible mark
            "email": "anna@example.com",
            "password1": PASSWORD,
            "password2": PASSWORD,
        },
    )
    assert response.status_code == 302, response.content.decode()[-3000:]
    page = client.get("/").content.decode()
    assert "<bdi>Анна</bdi>" in page and ">anna<" not in page
    client.post(reverse("clubs:create"), {"name": "Пятничный клуб"})
    club = Club.objects.get()
    assert Player.objects.get(club=club).name == "Анна"


def test_without_a_name_the_username_stands() -> None:
    user = get_user_model().objects.create_user("boris", password=PASSWORD)
    page = signed_in(user).get("/").content.decode()
    assert "<bdi>boris</bdi>" in page


def test_the_name_page_changes_the_name_and_says_so_in_russian() -> None:
    user = get_user_model().objects.create_user("vera", password=PASSWORD)
    client = signed_in(user, **RU)
    assert client.get(reverse("display_name")).status_code == 200
    response = client.post(reverse("display_name"), {"first_name": "Вера"}, follow=True)
    html = response.content.decode()
    assert "за столом вы теперь Вера" in html
    # A live region around the list (templates/_messages.html): role="status" on the
    # <ul> itself would unmake it a list for a screen reader.
    assert '<div role="status"><ul class="messages">' in html
    assert '<ul class="messages" role="status">' not in html
    user.refresh_from_db()
    assert user.first_name == "Вера"


def test_the_name_page_is_the_accounts_own() -> None:
    anonymous = Client()
    response = anonymous.post(reverse("display_name"), {"first_name": "X"})
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    user = get_user_model().objects.create_user("gleb", password=PASSWORD)
    assert signed_in(user).put(reverse("display_name")).status_code == 405
    strict = Client(enforce_csrf_checks=True)
    strict.force_login(user)
    assert strict.post(reverse("display_name"), {"first_name": "X"}).status_code == 403
    user.refresh_from_db()
    assert user.first_name == ""


def test_a_name_too_long_is_refused_beside_the_field() -> None:
    user = get_user_model().objects.create_user("dina", password=PASSWORD)
    response = signed_in(user).post(reverse("display_name"), {"first_name": "Д" * 61})
    assert response.status_code == 200
    assert "at most 60 characters" in response.content.decode()
    user.refresh_from_db()
    assert user.first_name == ""


@pytest.fixture
def asking():
    """The access world, its guest Вера, and a newcomer who asked to join from a link."""
    world = build_world()
    guest = Player.objects.create(club=world.club, name="Вера")
    newcomer = get_user_model().objects.create_user("vera", password=PASSWORD, first_name="Вера")
    asked = membership_requests.ask(world.club, newcomer)
    return world, guest, newcomer, asked


def test_the_admin_approves_the_newcomer_as_the_guest_with_one_tap(asking) -> None:
    world, guest, newcomer, asked = asking
    client = signed_in(world.users["admin"])
    page = client.get(reverse("members:list", args=[world.club.slug])).content.decode()
    assert "This is guest Вера" in page
    url = reverse("members:approve", args=[world.club.slug, asked.pk])
    response = client.post(url, {"guest": str(guest.pk)})
    assert response.status_code == 302
    guest.refresh_from_db()
    assert guest.user == newcomer  # no second player "Вера 2" beside the guest
    assert Player.objects.filter(club=world.club, user=newcomer).count() == 1
    assert Membership.objects.filter(club=world.club, user=newcomer).exists()


def test_approving_as_a_guest_already_taken_joins_nothing(asking) -> None:
    world, guest, newcomer, asked = asking
    guest.user = world.users["member"]
    Player.objects.filter(club=world.club, user=world.users["member"]).exclude(pk=guest.pk).delete()
    guest.save(update_fields=["user"])
    client = signed_in(world.users["admin"])
    url = reverse("members:approve", args=[world.club.slug, asked.pk])
    page = client.post(url, {"guest": str(guest.pk)}, headers={"HX-Request": "true"})
    assert page.status_code == 200
    assert "no longer free" in page.content.decode()
    assert not Membership.objects.filter(club=world.club, user=newcomer).exists()
    asked.refresh_from_db()
    assert asked.status == "pending"


def test_a_member_may_not_approve(asking) -> None:
    world, guest, newcomer, asked = asking
    url = reverse("members:approve", args=[world.club.slug, asked.pk])
    assert signed_in(world.users["member"]).post(url, {"guest": str(guest.pk)}).status_code == 403
    guest.refresh_from_db()
    assert guest.user is None


def test_the_admin_at_the_table_sees_the_waiting_request(asking) -> None:
    world, _guest, _newcomer, _asked = asking
    sheet = reverse("games:sheet", args=[world.pulka.pk])
    admin_page = signed_in(world.users["admin"]).get(sheet).content.decode()
    assert "1 person waits to join the club." in admin_page
    assert reverse("members:list", args=[world.club.slug]) + "#requests" in admin_page
    member_page = signed_in(world.users["member"]).get(sheet).content.decode()
    assert "waits to join" not in member_page
