"""Sign-in attempts limited per account and per address (prefscore/clubs/ratelimit.py)."""

from datetime import timedelta

import pytest
from django.contrib.auth import authenticate
from django.test import Client, RequestFactory
from django.urls import reverse
from django.utils import timezone

from prefscore.clubs import ratelimit
from prefscore.clubs.models import SignInAttempt

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


def test_five_failures_lock_the_account_even_against_the_right_password(client, olga):
    fail_times(client, 5)

    response = sign_in(client, password=PASSWORD)

    assert response.status_code == 429
    assert not response.context["user"].is_authenticated
    errors = response.context["form"].non_field_errors()
    assert any("15" in error for error in errors), errors
    assert "15" in response.content.decode()


def test_the_wait_message_is_in_russian_by_default(client, olga):
    fail_times(client, 5)

    html = sign_in(client).content.decode()

    assert "Попробуйте снова через 15 мин." in html


def test_four_failures_then_the_right_password_signs_in_and_clears_the_count(client, olga):
    fail_times(client, 4)

    response = sign_in(client, password=PASSWORD)

    assert response.status_code == 302
    assert not SignInAttempt.objects.filter(username="olga").exists()
    client.logout()
    fail_times(client, 4)
    assert sign_in(client, password=PASSWORD).status_code == 302


def test_changing_the_case_of_the_username_does_not_dodge_the_limit(client, olga):
    for username in ("olga", "OLGA", "Olga", " olga", "oLgA"):
        sign_in(client, username=username)

    assert sign_in(client, password=PASSWORD).status_code == 429


def test_the_lock_lifts_when_the_window_has_passed(client, olga):
    fail_times(client, 5)
    SignInAttempt.objects.update(attempted_at=timezone.now() - timedelta(minutes=16))

    assert sign_in(client, password=PASSWORD).status_code == 302


def test_the_wait_counts_from_the_oldest_failure_that_keeps_the_lock(client, olga):
    fail_times(client, 5)
    SignInAttempt.objects.filter(pk=SignInAttempt.objects.order_by("pk").first().pk).update(
        attempted_at=timezone.now() - timedelta(minutes=10)
    )

    assert ratelimit.wait_minutes("olga", "10.0.0.1") == 5


def test_one_address_is_locked_after_twenty_failures_on_any_accounts(client, olga):
    for i in range(20):
        sign_in(client, username=f"guess{i}")

    assert sign_in(client, password=PASSWORD).status_code == 429
    assert sign_in(Client(), password=PASSWORD, address="10.0.0.2").status_code == 302


def test_a_locked_account_is_locked_from_every_address(client, olga):
    fail_times(client, 5)

    assert sign_in(Client(), password=PASSWORD, address="192.0.2.7").status_code == 429


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

    assert authenticate(RequestFactory().get("/"), username="root", password=PASSWORD) is None
    admin = Client().post(
        reverse("admin:login"), {"username": "root", "password": PASSWORD, "next": "/admin/"}
    )
    assert admin.status_code == 200  # the form again, not the admin
    assert not admin.wsgi_request.user.is_authenticated


def test_locked_attempts_are_not_counted_so_the_lock_does_not_extend_itself(client, olga):
    fail_times(client, 5)
    for _ in range(10):
        sign_in(client)

    assert SignInAttempt.objects.filter(username="olga").count() == 5


def test_failures_older_than_the_window_are_forgotten(client, olga):
    fail_times(client, 3)
    SignInAttempt.objects.update(attempted_at=timezone.now() - timedelta(hours=1))

    sign_in(client)

    assert SignInAttempt.objects.count() == 1
