"""The server's owner, made by the one-time link a new server prints (prefscore/clubs/owner.py).

No account with a known password: the owner makes his own with the link, which works
once; the demo account's published password stops working on a server that is not a
developer's, and its clubs go to the owner.
"""

from __future__ import annotations

import threading

import pytest
from django.contrib.auth import authenticate
from django.core.management import CommandError, call_command
from django.db import connection
from django.test import Client
from django.urls import reverse

from prefscore.clubs import owner
from prefscore.clubs.models import Club, Membership, OwnerLink, Role, SignInCounter
from prefscore.clubs.owner_views import OwnerForm
from tests.web.test_permission_csp import check_page

pytestmark = pytest.mark.django_db

PASSWORD = "a long passphrase 7"


def _form(**changes: str) -> dict[str, str]:
    data = {
        "username": "vera",
        "first_name": "Вера",
        "email": "",
        "password1": PASSWORD,
        "password2": PASSWORD,
    }
    return {**data, **changes}


def _url(token: str) -> str:
    return reverse("owner_setup", args=[token])


def test_a_link_keeps_only_its_digest_and_a_new_one_ends_the_old(django_user_model):
    first = owner.new_link()
    second = owner.new_link()

    assert not OwnerLink.objects.filter(digest=first).exists()  # the token itself is not kept
    assert owner.link_is_live(second) and not owner.link_is_live(first)
    assert len(second) >= 43  # 256 random bits


@pytest.mark.parametrize(("language", "words"), [("ru", "Владелец сервера"), ("en", "owner")])
def test_the_link_opens_the_owners_form(client, language, words):
    response = client.get(_url(owner.new_link()), HTTP_ACCEPT_LANGUAGE=language)

    assert response.status_code == 200
    assert words in response.content.decode()
    assert 'name="password1"' in response.content.decode()
    check_page("owner_setup", response.content.decode())  # no inline script, a token


def test_the_form_makes_the_owner_signs_him_in_and_the_link_dies(client, django_user_model):
    token = owner.new_link()

    response = client.post(_url(token), _form(), REMOTE_ADDR="192.168.1.30")

    assert response.status_code == 302
    assert response["Location"] == reverse("clubs:home") + "#create-club"
    made = django_user_model.objects.get(username="vera")
    assert made.is_superuser and made.is_staff and made.email == ""
    assert owner.server_owner() == made
    assert client.get(reverse("display_name")).status_code == 200  # signed in
    assert SignInCounter.objects.get(key="vera|192.168.1.30").trusted
    again = Client().get(_url(token), HTTP_ACCEPT_LANGUAGE="en")
    assert again.status_code == 404 and "no longer works" in again.content.decode()


def test_with_htmx_the_owner_is_sent_on_and_a_bad_form_is_422(client, django_user_model):
    token = owner.new_link()

    bad = client.post(_url(token), _form(password2="other"), HTTP_HX_REQUEST="true")
    good = client.post(_url(token), _form(email="vera@example.com"), HTTP_HX_REQUEST="true")

    assert bad.status_code == 422
    assert good.status_code == 200 and good["HX-Redirect"] == reverse("clubs:home") + "#create-club"
    assert django_user_model.objects.get(username="vera").email == "vera@example.com"


def test_a_refused_form_makes_nobody_and_keeps_the_link(client, django_user_model):
    token = owner.new_link()

    response = client.post(_url(token), _form(password1="short", password2="short"))

    assert response.status_code == 200
    assert not django_user_model.objects.exists()
    assert owner.link_is_live(token)


@pytest.mark.parametrize("token", ["x", "0" * 43, "a" * 500, "%D0%B9' or 1=1"])
def test_an_unknown_link_is_a_translated_page_not_an_error(client, token):
    response = client.get(_url(token), HTTP_ACCEPT_LANGUAGE="ru")
    posted = client.post(_url(token), _form(), HTTP_ACCEPT_LANGUAGE="ru")

    assert response.status_code == posted.status_code == 404
    assert "Эта ссылка больше не действует" in response.content.decode()


def test_a_server_with_an_owner_has_no_live_link(client, django_user_model):
    token = owner.new_link()
    django_user_model.objects.create_superuser("root", "", "another passphrase 8")

    assert client.get(_url(token)).status_code == 404
    with pytest.raises(CommandError, match="owner already"):
        call_command("owner_link", "--url", "http://192.168.1.20:8000")


def test_the_owner_link_command_prints_a_new_link(capsys):
    call_command("owner_link", "--url", "http://192.168.1.20:8000/")

    printed = capsys.readouterr().out.strip()
    assert printed.startswith("http://192.168.1.20:8000/owner/")
    assert owner.link_is_live(printed.rsplit("/", 2)[-2])


def test_the_form_is_protected_and_takes_only_get_and_post(django_user_model):
    token = owner.new_link()
    strict = Client(enforce_csrf_checks=True)

    assert strict.post(_url(token), _form()).status_code == 403
    assert Client().put(_url(token)).status_code == 405
    assert not django_user_model.objects.exists()


@pytest.mark.django_db(transaction=True)
def test_two_people_racing_to_the_link_make_one_owner(django_user_model):
    token = owner.new_link()
    barrier = threading.Barrier(2)
    made: list[object] = []

    def claim(name: str) -> None:
        form = OwnerForm(_form(username=name))
        assert form.is_valid(), form.errors
        barrier.wait()
        try:
            made.append(owner.claim(token, form))
        finally:
            connection.close()

    threads = [threading.Thread(target=claim, args=(name,)) for name in ("vera", "boris")]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    assert sorted(user is None for user in made) == [False, True]
    assert django_user_model.objects.filter(is_superuser=True).count() == 1


def test_the_published_demo_password_stops_working_and_ends_its_sessions(django_user_model):
    demo = django_user_model.objects.create_user(owner.DEMO_USERNAME, "", owner.DEMO_PASSWORD)
    signed_in = Client()
    signed_in.force_login(demo)

    assert owner.retire_published_password() is True
    assert owner.retire_published_password() is False  # once
    assert authenticate(username="demo", password=owner.DEMO_PASSWORD) is None
    assert signed_in.get(reverse("display_name")).status_code == 302  # signed out


def test_a_demo_account_whose_password_was_changed_is_left_alone(django_user_model):
    django_user_model.objects.create_user(owner.DEMO_USERNAME, "", "its owner's own 9")

    assert owner.retire_published_password() is False
    assert authenticate(username="demo", password="its owner's own 9") is not None


def test_the_owner_is_given_the_clubs_the_demo_account_ran_and_no_other(django_user_model):
    demo = django_user_model.objects.create_user(owner.DEMO_USERNAME, "", owner.DEMO_PASSWORD)
    boris = django_user_model.objects.create_user("boris", "", "boris's passphrase 3")
    demo_club = Club.objects.create(name="Демо-клуб", slug="demo")
    friday = Club.objects.create(name="Пятница", slug="friday")
    Membership.objects.create(club=demo_club, user=demo, role=Role.ADMIN)
    Membership.objects.create(club=friday, user=boris, role=Role.ADMIN)
    owner.retire_published_password()
    token = owner.new_link()
    form = OwnerForm(_form())
    assert form.is_valid()

    vera = owner.claim(token, form)

    assert demo_club.role_of(vera) == Role.ADMIN
    assert demo_club.players.filter(user=vera).exists()
    assert friday.role_of(vera) is None
