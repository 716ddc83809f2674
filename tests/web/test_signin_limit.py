"""Sign-in attempts limited per username and address, per username and per address; at a
limit the attempt is challenged (a person approves it, or a mailed code), never locked, so
that nobody can lock another person out (prefscore/clubs/ratelimit.py, approvals.py)."""

import threading
from datetime import timedelta

import pytest
from django.contrib.auth import authenticate
from django.test import Client, RequestFactory
from django.urls import reverse
from django.utils import timezone

from prefscore.clubs import ratelimit
from prefscore.clubs.models import SignInCounter

pytestmark = pytest.mark.django_db

PASSWORD = "mizer-9-tricks"
LOGIN = reverse("login")


@pytest.fixture
def olga(django_user_model):
    return django_user_model.objects.create_user("olga", password=PASSWORD)


def sign_in(client, username="olga", password="wrong", address="10.0.0.1", **extra):
    return client.post(
        LOGIN, {"username": username, "password": password}, REMOTE_ADDR=address, **extra
    )


def fail_times(client, count, **kwargs):
    for _ in range(count):
        response = sign_in(client, **kwargs)
        assert response.status_code == 200


def pair(username="olga", address="10.0.0.1"):
    return SignInCounter.objects.get(scope="pair", key=f"{username}|{address}")


def lift_locks():
    SignInCounter.objects.update(locked_until=timezone.now() - timedelta(seconds=1))


def test_five_failures_challenge_the_username_from_that_address_whatever_the_password(client, olga):
    fail_times(client, 5)

    right = sign_in(client, password=PASSWORD)
    wrong = sign_in(Client(), password="still-wrong")

    assert right.status_code == wrong.status_code == 429
    assert not right.context["user"].is_authenticated
    assert "человек его подтвердит" in right.content.decode()
    assert right.content.decode().replace(PASSWORD, "") == right.content.decode()


def test_the_challenge_message_is_in_russian_by_default(client, olga):
    fail_times(client, 5)

    html = sign_in(client).content.decode()

    assert "человек его подтвердит" in html


def test_four_failures_then_the_right_password_signs_in_and_clears_the_count(client, olga):
    fail_times(client, 4)

    response = sign_in(client, password=PASSWORD)

    assert response.status_code == 302
    assert pair().failures == 0
    client.logout()
    fail_times(client, 4)
    assert sign_in(client, password=PASSWORD).status_code == 302


def test_changing_the_case_of_the_username_does_not_dodge_the_limit(client, olga):
    for username in ("olga", "OLGA", "Olga", " olga", "oLgA"):
        sign_in(client, username=username)

    assert sign_in(client, password=PASSWORD).status_code == 429


def test_the_challenge_lifts_when_its_time_has_passed(client, olga):
    fail_times(client, 5)
    lift_locks()

    assert sign_in(client, password=PASSWORD).status_code == 302


def test_each_further_challenge_lasts_twice_as_long(client, olga):
    waits = []
    for _ in range(3):
        before = timezone.now()
        fail_times(client, 5)
        waits.append(round((pair().locked_until - before).total_seconds() / 60))
        lift_locks()

    assert waits == [15, 30, 60]


def test_the_growing_wait_is_capped(settings):
    settings.SIGNIN_LOCK_MAX_HOURS = 24

    assert ratelimit.lock_length(1) == timedelta(minutes=15)
    assert ratelimit.lock_length(40) == timedelta(hours=24)


def test_a_stranger_elsewhere_cannot_lock_the_owner_out_of_her_own_address(client, olga):
    assert sign_in(client, password=PASSWORD).status_code == 302  # her address, now trusted
    stranger = Client()
    fail_times(stranger, 5, address="192.0.2.7")

    assert sign_in(stranger, password=PASSWORD, address="192.0.2.7").status_code == 429
    assert sign_in(Client(), password=PASSWORD).status_code == 302


def test_guessing_from_many_addresses_challenges_new_addresses_but_not_the_owners(
    client, olga, settings
):
    settings.SIGNIN_FAILURES_PER_USERNAME_ANYWHERE = 10
    assert sign_in(client, password=PASSWORD).status_code == 302
    for i in range(10):
        sign_in(Client(), address=f"198.51.100.{i}")

    assert sign_in(Client(), password=PASSWORD, address="203.0.113.9").status_code == 429
    assert sign_in(Client(), password=PASSWORD).status_code == 302


def test_nobody_locks_the_superuser_out_of_his_own_address(client, django_user_model):
    django_user_model.objects.create_superuser("root", password=PASSWORD)
    admin_login = reverse("admin:login")
    form = {"username": "root", "password": PASSWORD, "next": "/admin/"}
    assert Client().post(admin_login, form, REMOTE_ADDR="10.0.0.9").status_code == 302
    for i in range(60):
        sign_in(Client(), username="root", address=f"198.51.100.{i % 12}")

    assert Client().post(admin_login, form, REMOTE_ADDR="10.0.0.9").status_code == 302


def test_one_address_is_challenged_after_twenty_failures_on_accounts_new_to_it(client, olga):
    for i in range(20):
        sign_in(client, username=f"guess{i}")

    assert sign_in(client, password=PASSWORD).status_code == 429
    assert sign_in(Client(), password=PASSWORD, address="10.0.0.2").status_code == 302


def test_a_member_who_signed_in_from_an_address_is_not_locked_by_others_behind_it(client, olga):
    assert sign_in(client, password=PASSWORD).status_code == 302
    for i in range(20):
        sign_in(Client(), username=f"guess{i}")

    assert sign_in(Client(), password=PASSWORD).status_code == 302


def test_x_forwarded_for_is_ignored_without_a_trusted_proxy(client, olga):
    for i in range(20):
        sign_in(client, username=f"guess{i}", HTTP_X_FORWARDED_FOR=f"198.51.100.{i}")

    response = sign_in(client, password=PASSWORD, HTTP_X_FORWARDED_FOR="203.0.113.9")

    assert response.status_code == 429


def test_behind_a_trusted_proxy_the_address_comes_from_x_forwarded_for(settings):
    settings.TRUSTED_PROXY_COUNT = 1
    request = RequestFactory().post(
        LOGIN, REMOTE_ADDR="10.0.0.254", HTTP_X_FORWARDED_FOR="1.2.3.4, 198.51.100.7"
    )

    assert ratelimit.client_address(request) == "198.51.100.7"


def test_behind_a_trusted_proxy_people_are_counted_apart(client, olga, settings):
    settings.TRUSTED_PROXY_COUNT = 1
    proxy = {"address": "10.0.0.254"}
    for i in range(20):
        sign_in(client, username=f"guess{i}", HTTP_X_FORWARDED_FOR="198.51.100.1", **proxy)

    assert (
        sign_in(client, password=PASSWORD, HTTP_X_FORWARDED_FOR="198.51.100.1", **proxy).status_code
        == 429
    )
    other = sign_in(Client(), password=PASSWORD, HTTP_X_FORWARDED_FOR="198.51.100.2", **proxy)
    assert other.status_code == 302


def test_a_garbage_address_counts_as_none():
    request = RequestFactory().post(LOGIN, REMOTE_ADDR="not an address")

    assert ratelimit.client_address(request) is None


def test_the_limits_come_from_the_settings(client, olga, settings):
    settings.SIGNIN_FAILURES_PER_USERNAME = 2

    fail_times(client, 2)

    assert sign_in(client, password=PASSWORD).status_code == 429


def test_the_limit_guards_every_way_in_including_the_admin(client, olga, django_user_model):
    django_user_model.objects.create_superuser("root", password=PASSWORD)
    fail_times(client, 5, username="root")

    request = RequestFactory().get("/", REMOTE_ADDR="10.0.0.1")
    assert authenticate(request, username="root", password=PASSWORD) is None
    admin = Client().post(
        reverse("admin:login"),
        {"username": "root", "password": PASSWORD, "next": "/admin/"},
        REMOTE_ADDR="10.0.0.1",
    )
    assert admin.status_code == 429  # the code form, not the admin
    assert "человек его подтвердит" in admin.content.decode()
    assert not admin.wsgi_request.user.is_authenticated


def test_challenged_attempts_are_not_counted_so_the_challenge_does_not_extend_itself(client, olga):
    fail_times(client, 5)
    locked_until = pair().locked_until
    for _ in range(10):
        sign_in(client)

    assert pair().failures == 0  # the lock started a fresh window at its end
    assert pair().locked_until == locked_until


def test_failures_older_than_the_window_are_forgotten(client, olga):
    fail_times(client, 3)
    SignInCounter.objects.update(window_started_at=timezone.now() - timedelta(hours=1))

    sign_in(client)

    assert pair().failures == 1


@pytest.mark.django_db(transaction=True)
def test_concurrent_wrong_passwords_get_no_more_answers_than_the_limit(olga):
    start = threading.Barrier(30)
    errors, challenged = [], []

    def attempt():
        start.wait()
        try:
            request = RequestFactory().get("/", REMOTE_ADDR="10.0.0.1")
            authenticate(request, username="olga", password="wrong")
            if hasattr(request, "signin_challenge"):
                challenged.append(1)
        except Exception as error:  # noqa: BLE001 - reported below
            errors.append(error)
        finally:
            from django.db import connection

            connection.close()

    threads = [threading.Thread(target=attempt) for _ in range(30)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    assert errors == []
    # Five were told "wrong"; the other 25 were challenged, told nothing either way.
    assert len(challenged) == 25
    assert pair().strikes == 1
