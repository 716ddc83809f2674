"""Sign up, sign in and out, password change and reset (prefscore/clubs/account_views.py)."""

import re

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.test import Client
from django.urls import reverse

pytestmark = pytest.mark.django_db

GOOD_PASSWORD = "seven-hearts-in-the-talon"


def signup_data(**changes):
    data = {
        "username": "lena",
        "email": "lena@example.com",
        "password1": GOOD_PASSWORD,
        "password2": GOOD_PASSWORD,
    }
    data.update(changes)
    return data


@pytest.fixture
def lena(django_user_model):
    return django_user_model.objects.create_user(
        "lena", email="lena@example.com", password=GOOD_PASSWORD
    )


# --- sign up ---


def test_the_sign_up_page_asks_for_a_username_an_email_and_the_password_twice(client):
    response = client.get(reverse("signup"))

    assert response.status_code == 200
    html = response.content.decode()
    for name in ("username", "email", "password1", "password2"):
        assert f'name="{name}"' in html
    assert "csrfmiddlewaretoken" in html
    assert "Регистрация" in html


def test_the_sign_up_page_speaks_english_when_asked(client):
    response = client.get(reverse("signup"), headers={"accept-language": "en"})

    assert "Sign up" in response.content.decode()


def test_signing_up_creates_the_account_and_signs_in(client):
    response = client.post(reverse("signup"), signup_data())

    assert response.status_code == 302
    assert response["Location"] == "/"
    user = get_user_model().objects.get(username="lena")
    assert user.email == "lena@example.com"
    assert user.check_password(GOOD_PASSWORD)
    assert client.get("/").context["user"] == user


def test_sign_up_goes_on_to_a_next_page_on_this_site(client):
    response = client.post(reverse("signup"), signup_data(next="/invitations/abc/"))

    assert response["Location"] == "/invitations/abc/"


def test_sign_up_ignores_a_next_page_on_another_site(client):
    response = client.post(reverse("signup"), signup_data(next="https://evil.example/"))

    assert response["Location"] == "/"


def test_sign_up_refuses_two_different_passwords(client):
    response = client.post(reverse("signup"), signup_data(password2="something-else-42"))

    assert response.status_code == 200
    assert response.context["form"].errors["password2"]
    assert not get_user_model().objects.exists()


@pytest.mark.parametrize(
    "password",
    ["short1", "password123", "12345678901", "lena@example.co"],
    ids=["too-short", "too-common", "all-digits", "like-the-username"],
)
def test_sign_up_applies_djangos_password_validators(client, password):
    response = client.post(reverse("signup"), signup_data(password1=password, password2=password))

    assert response.status_code == 200
    assert response.context["form"].errors["password2"]
    assert not get_user_model().objects.exists()


def test_sign_up_refuses_a_username_taken_in_another_case(client, lena):
    response = client.post(reverse("signup"), signup_data(username="LENA", email="x@example.com"))

    assert response.context["form"].errors["username"]
    assert get_user_model().objects.count() == 1


def test_sign_up_needs_an_email(client):
    response = client.post(reverse("signup"), signup_data(email=""))

    assert response.context["form"].errors["email"]
    assert not get_user_model().objects.exists()


def test_the_errors_are_shown_next_to_their_fields(client):
    html = client.post(reverse("signup"), signup_data(password2="other-pass-99")).content.decode()

    assert 'class="form__error"' in html
    assert 'value="lena"' in html  # what was typed stays
    assert GOOD_PASSWORD not in html  # passwords are never sent back


def test_a_signed_in_player_is_sent_on_from_the_sign_up_page(client, lena):
    client.force_login(lena)

    response = client.get(reverse("signup"))

    assert response.status_code == 302


def test_sign_up_answers_the_same_to_an_htmx_request(client):
    response = client.get(reverse("signup"), headers={"hx-request": "true"})

    assert response.status_code == 200
    assert "<html" in response.content.decode()


def test_sign_up_answers_405_to_other_methods(client):
    assert client.put(reverse("signup")).status_code == 405


def test_sign_up_needs_the_csrf_token():
    response = Client(enforce_csrf_checks=True).post(reverse("signup"), signup_data())

    assert response.status_code == 403
    assert not get_user_model().objects.exists()


# --- sign in and out ---


def test_the_sign_in_page_links_to_sign_up_and_password_reset(client):
    html = client.get(reverse("login")).content.decode()

    assert reverse("signup") in html
    assert reverse("password_reset") in html


def test_sign_in_goes_on_to_the_next_page(client, lena):
    response = client.post(
        reverse("login"),
        {"username": "lena", "password": GOOD_PASSWORD, "next": "/invitations/abc/"},
    )

    assert response["Location"] == "/invitations/abc/"


def test_signing_out_with_a_get_is_refused(client, lena):
    client.force_login(lena)

    assert client.get(reverse("logout")).status_code == 405
    assert client.get("/").context["user"].is_authenticated


# --- password change ---


def test_password_change_needs_a_signed_in_player(client):
    response = client.get(reverse("password_change"))

    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))


def test_a_player_changes_the_password(client, lena):
    client.force_login(lena)
    assert client.get(reverse("password_change")).status_code == 200

    response = client.post(
        reverse("password_change"),
        {
            "old_password": GOOD_PASSWORD,
            "new_password1": "nine-no-trumps-ok",
            "new_password2": "nine-no-trumps-ok",
        },
    )

    assert response["Location"] == reverse("password_change_done")
    lena.refresh_from_db()
    assert lena.check_password("nine-no-trumps-ok")
    assert client.get(reverse("password_change_done")).status_code == 200


def test_password_change_refuses_a_wrong_old_password(client, lena):
    client.force_login(lena)

    response = client.post(
        reverse("password_change"),
        {
            "old_password": "not-it",
            "new_password1": "nine-no-trumps-ok",
            "new_password2": "nine-no-trumps-ok",
        },
    )

    assert response.status_code == 200
    assert response.context["form"].errors["old_password"]
    lena.refresh_from_db()
    assert lena.check_password(GOOD_PASSWORD)


# --- password reset ---


def reset_link(message) -> str:
    match = re.search(r"https?://[^/\s]+(/accounts/password/reset/[^\s]+/)", message.body)
    assert match, message.body
    return match.group(1)


def test_a_forgotten_password_is_reset_through_a_link_sent_by_email(client, lena, settings):
    settings.DEFAULT_FROM_EMAIL = "club@pref.example"
    assert client.get(reverse("password_reset")).status_code == 200

    response = client.post(reverse("password_reset"), {"email": "lena@example.com"})

    assert response["Location"] == reverse("password_reset_done")
    assert len(mail.outbox) == 1
    message = mail.outbox[0]
    assert message.to == ["lena@example.com"]
    assert message.from_email == "club@pref.example"
    assert "lena" in message.body

    form_page = client.get(reset_link(message), follow=True)
    assert form_page.context["validlink"]
    done = client.post(
        form_page.redirect_chain[-1][0],
        {"new_password1": "misere-clean-hand", "new_password2": "misere-clean-hand"},
    )
    assert done["Location"] == reverse("password_reset_complete")
    lena.refresh_from_db()
    assert lena.check_password("misere-clean-hand")
    assert client.get(reverse("password_reset_complete")).status_code == 200


def test_a_reset_link_works_only_once(client, lena):
    client.post(reverse("password_reset"), {"email": "lena@example.com"})
    link = reset_link(mail.outbox[0])
    form_page = client.get(link, follow=True)
    client.post(
        form_page.redirect_chain[-1][0],
        {"new_password1": "misere-clean-hand", "new_password2": "misere-clean-hand"},
    )

    again = client.get(link, follow=True)

    assert again.status_code == 200
    assert not again.context["validlink"]
    assert reverse("password_reset") in again.content.decode()


def test_an_unknown_email_gets_the_same_answer_and_no_mail(client, lena):
    response = client.post(reverse("password_reset"), {"email": "nobody@example.com"})

    assert response["Location"] == reverse("password_reset_done")
    assert mail.outbox == []


def test_the_reset_email_is_translated(client, lena):
    client.post(reverse("password_reset"), {"email": "lena@example.com"})

    assert "пароль" in mail.outbox[0].subject.lower()


def test_the_account_pages_render_for_a_signed_in_player(client, lena):
    client.force_login(lena)

    for name in ("password_change", "password_change_done", "password_reset_done"):
        response = client.get(reverse(name))
        assert response.status_code == 200, name
        assert "<script>" not in response.content.decode()
