"""Unique names under races, sign-up silent about registered emails, and lookalike names:
a form error or the same answer, never a 500 or a second account."""

from __future__ import annotations

import threading

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.db import IntegrityError, connection, transaction
from django.test import Client
from django.urls import reverse

from prefscore.clubs.models import Club, Player
from prefscore.clubs.names import normalise_name

PASSWORD = "seven-hearts-in-the-talon"


def signup(client: Client, username: str = "lena", email: str = "lena@example.com"):
    data = {"username": username, "email": email, "password1": PASSWORD, "password2": PASSWORD}
    return client.post(reverse("signup"), data, headers={"accept-language": "en"})


def at_once(count: int, job) -> list:
    """Run ``job(i)`` in ``count`` threads released together; their results, or errors."""
    start = threading.Barrier(count)
    results: list = [None] * count

    def run(i: int) -> None:
        start.wait()
        try:
            results[i] = job(i)
        except Exception as error:  # noqa: BLE001 - the test looks at them
            results[i] = error
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return results


@pytest.mark.django_db(transaction=True)
def test_twenty_sign_ups_with_one_username_at_once_make_one_account_and_no_500():
    responses = at_once(20, lambda i: signup(Client(), email=f"lena{i}@example.com"))

    assert all(not isinstance(r, Exception) for r in responses), responses
    assert sorted({r.status_code for r in responses}) in ([200, 302], [302])
    assert [r.status_code for r in responses].count(302) == 1
    assert get_user_model().objects.filter(username__iexact="lena").count() == 1


@pytest.mark.django_db(transaction=True)
def test_one_email_signed_up_twice_at_once_stays_on_one_account():
    responses = at_once(10, lambda i: signup(Client(), username=f"lena{i}"))

    assert all(not isinstance(r, Exception) for r in responses), responses
    assert {r.status_code for r in responses} == {302}
    assert get_user_model().objects.filter(email__iexact="lena@example.com").count() == 1


@pytest.mark.django_db(transaction=True)
def test_clubs_created_at_once_from_one_name_get_distinct_links(django_user_model):
    users = [django_user_model.objects.create_user(f"u{i}", password=PASSWORD) for i in range(10)]

    def create(i: int):
        client = Client()
        client.force_login(users[i])
        return client.post(reverse("clubs:create"), {"name": "Пятница", "slug": ""})

    responses = at_once(10, create)

    assert all(not isinstance(r, Exception) for r in responses), responses
    assert {r.status_code for r in responses} == {302}
    assert Club.objects.filter(name="Пятница").count() == 10


@pytest.mark.django_db(transaction=True)
def test_clubs_asking_for_one_short_name_at_once_get_it_once(django_user_model):
    users = [django_user_model.objects.create_user(f"u{i}", password=PASSWORD) for i in range(10)]

    def create(i: int):
        client = Client()
        client.force_login(users[i])
        return client.post(reverse("clubs:create"), {"name": f"Club {i}", "slug": "friday"})

    responses = at_once(10, create)

    assert all(not isinstance(r, Exception) for r in responses), responses
    assert [r.status_code for r in responses].count(302) == 1
    assert Club.objects.filter(slug="friday").count() == 1


@pytest.mark.django_db
def test_a_registered_email_gets_the_same_answer_and_its_owner_is_mailed(django_user_model):
    owner = django_user_model.objects.create_user("anna", email="anna@example.com")
    unknown = signup(Client(), username="boris", email="boris@example.com")
    mail.outbox.clear()

    known = signup(Client(), username="vera", email="ANNA@example.com")

    assert known.status_code == unknown.status_code == 302
    assert known["Location"] == unknown["Location"]
    assert django_user_model.objects.get(username="vera").email == ""
    assert django_user_model.objects.get(pk=owner.pk).email == "anna@example.com"
    (message,) = mail.outbox
    assert message.to == ["ANNA@example.com"]
    assert '"vera"' in message.body and '"anna"' in message.body


@pytest.mark.django_db
def test_the_database_refuses_emails_and_usernames_that_differ_only_in_case(django_user_model):
    django_user_model.objects.create_user("anna", email="anna@example.com")

    for username, email in (("anna2", "Anna@Example.com"), ("ANNA", "other@example.com")):
        with pytest.raises(IntegrityError), transaction.atomic():
            django_user_model.objects.create_user(username, email=email)
    django_user_model.objects.create_user("nomail1")
    django_user_model.objects.create_user("nomail2")  # no email twice is fine


@pytest.mark.parametrize(
    ("typed", "stored"),
    [
        ("e\u0301", "é"),  # "e" + combining acute: NFC
        ("\u202eevil", "evil"),  # a right-to-left override
        ("An\u200bna", "Anna"),  # a zero-width space
        ("  Анна \t Каренина ", "Анна Каренина"),
        ("👨\u200d👩\u200d👧", "👨\u200d👩\u200d👧"),  # the joiners of an emoji stay
    ],
)
def test_names_are_normalised(typed, stored):
    assert normalise_name(typed) == stored


@pytest.mark.django_db
def test_lookalike_guest_names_are_one_name(club_world, club_client):
    client = club_client("ivan")
    url = reverse("clubs:add_guest", args=["friday"])
    en = {"accept-language": "en"}
    assert client.post(url, {"name": "Ren\u00e9e"}, headers=en).status_code == 302

    again = client.post(url, {"name": "Rene\u0301e"}, headers=en)

    assert "already plays in this club" in again.content.decode()
    assert Player.objects.filter(club=club_world.club, name__startswith="Ren").count() == 1


@pytest.mark.django_db
@pytest.mark.parametrize("name", ["\u202e", "\u200b\u200b", "\ufeff \u2066"])
def test_a_name_of_invisible_characters_alone_is_refused(club_world, club_client, name):
    client = club_client("ivan")
    en = {"accept-language": "en"}

    guest = client.post(reverse("clubs:add_guest", args=["friday"]), {"name": name}, headers=en)
    club = client.post(reverse("clubs:create"), {"name": name}, headers=en)

    # Something was typed, and it shows nothing (clubs/name_rules.py): said so.
    assert "at least one letter or digit that shows" in guest.content.decode()
    assert "at least one letter or digit that shows" in club.content.decode()
    assert Player.objects.filter(club=club_world.club).count() == 3


@pytest.mark.django_db
def test_a_lookalike_guest_at_a_new_pulka_is_the_same_player(club_world, club_client):
    from tests.web.test_new_pulka import form_data, new_url

    Player.objects.create(club=club_world.club, name="Ren\u00e9e")
    data = form_data(club_world, player_3=None, guest_3="Rene\u0301e\u200b")

    club_client("ivan").post(new_url(), data)

    assert Player.objects.filter(club=club_world.club, name__startswith="Ren").count() == 1
