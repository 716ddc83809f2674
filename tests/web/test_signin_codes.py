"""Nobody locked out: on a server with mail, a challenged sign-in also gets in with the code
mailed to the account (prefscore/clubs/ratelimit.py, signin_codes.py), from any address, the
admin's too. Without mail, a person approves it: test_signin_approvals.py."""

import re

import pytest
from django.core import mail
from django.test import Client
from django.urls import reverse
from django_tasks_db.models import DBTaskResult

from prefscore.clubs.models import OutgoingMail
from prefscore.deferred.worker import run_due

pytestmark = pytest.mark.django_db

PASSWORD = "mizer-9-tricks"
LOGIN, CODE = reverse("login"), reverse("login_code")


@pytest.fixture(autouse=True)
def queued_mail(settings):
    """A server with mail (SMTP settings): a challenge also offers the mailed code."""
    settings.MAIL_CONFIGURED = True
    settings.EMAIL_BACKEND = "prefscore.clubs.mail_queue.QueueBackend"
    settings.MAIL_DELIVERY_BACKEND = "django.core.mail.backends.locmem.EmailBackend"


def fail(username, address, times=1):
    for _ in range(times):
        Client().post(LOGIN, {"username": username, "password": "wrong"}, REMOTE_ADDR=address)


def mailed_code(email):
    run_due()
    codes = [m for m in mail.outbox if m.to == [email]]
    assert len(codes) == 1, [m.subject for m in mail.outbox]
    return re.search(r"^(\d{8})$", codes[0].body, re.M).group(1)


def test_the_superuser_gets_in_from_a_new_address_after_50_failures_from_10_others(
    django_user_model,
):
    django_user_model.objects.create_superuser("root", "root@club.example", PASSWORD)
    for i in range(10):
        fail("root", f"198.51.100.{i}", times=5)
    client = Client(REMOTE_ADDR="203.0.113.50")
    form = {"username": "root", "password": PASSWORD, "next": "/admin/"}

    asked = client.post(reverse("admin:login"), form)

    assert asked.status_code == 429
    assert "одноразовый код" in asked.content.decode()
    code = mailed_code("root@club.example")
    signed_in = client.post(CODE, {"code": code, "next": "/admin/"})
    assert signed_in.status_code == 302
    assert signed_in["Location"] == "/admin/"
    assert client.get("/admin/").status_code == 200
    # Proven from there: the next time, the password alone.
    client.logout()
    assert client.post(reverse("admin:login"), form).status_code == 302


@pytest.mark.parametrize("trusted_there_before", [False, True])
def test_a_member_and_a_new_account_get_in_from_a_shared_address_a_guesser_used(
    django_user_model, trusted_there_before
):
    club_wifi = "192.0.2.33"
    member = django_user_model.objects.create_user("olga", "olga@club.example", PASSWORD)
    django_user_model.objects.create_user("newbie", "newbie@club.example", PASSWORD)
    if trusted_there_before:
        Client(REMOTE_ADDR=club_wifi).post(LOGIN, {"username": "olga", "password": PASSWORD})
    for i in range(21):
        fail(f"made-up-{i}", club_wifi)

    for user in (member.username, "newbie"):
        client = Client(REMOTE_ADDR=club_wifi)
        response = client.post(LOGIN, {"username": user, "password": PASSWORD})
        if response.status_code == 429:
            assert not (user == "olga" and trusted_there_before)
            response = client.post(CODE, {"code": mailed_code(f"{user}@club.example")})
        assert response.status_code == 302, user
        assert client.get("/").context["user"].username == user


def challenge(client, username="olga", password=PASSWORD):
    for i in range(20):
        fail(f"made-up-{i}", "192.0.2.33")
    return client.post(LOGIN, {"username": username, "password": password})


@pytest.fixture
def olga(django_user_model):
    return django_user_model.objects.create_user("olga", "olga@club.example", PASSWORD)


def test_a_wrong_password_under_challenge_gets_the_same_answer_and_no_mail(olga):
    right = challenge(Client(REMOTE_ADDR="192.0.2.33"))
    wrong = challenge(Client(REMOTE_ADDR="192.0.2.33"), password="guess")

    assert right.status_code == wrong.status_code == 429
    assert right.context["message"] == wrong.context["message"]
    # Every challenged attempt queues one job, the same work whatever its password.
    jobs = DBTaskResult.objects.filter(task_path="prefscore.clubs.mail_queue.compose")
    assert jobs.count() == 22  # the second 20 guesses, and our two
    assert not OutgoingMail.objects.exists()  # composed after the response
    run_due()
    assert [m.to for m in mail.outbox] == [["olga@club.example"]]  # the right one's code


def test_no_code_opens_a_challenge_whose_password_was_wrong(olga):
    client = Client(REMOTE_ADDR="192.0.2.33")
    challenge(client, password="guess")

    for code in ("00000000", "12345678"):
        assert client.post(CODE, {"code": code}).status_code == 200
    assert not client.get("/").context["user"].is_authenticated


def test_five_wrong_codes_use_the_challenge_up(olga):
    client = Client(REMOTE_ADDR="192.0.2.33")
    challenge(client)
    code = mailed_code("olga@club.example")
    wrong = "00000000" if code != "00000000" else "11111111"
    for _ in range(5):
        response = client.post(CODE, {"code": wrong})
        assert "не тот" in response.content.decode()

    response = client.post(CODE, {"code": code})

    assert response.status_code == 429
    assert not client.get("/").context["user"].is_authenticated


def test_a_code_works_once(olga):
    client = Client(REMOTE_ADDR="192.0.2.33")
    challenge(client)
    code = mailed_code("olga@club.example")
    assert client.post(CODE, {"code": code}).status_code == 302
    client.logout()

    assert client.post(CODE, {"code": code}).status_code == 429  # no challenge now
    assert not client.get("/").context["user"].is_authenticated


def test_an_account_without_an_email_gets_no_mail(django_user_model):
    django_user_model.objects.create_user("nomail", password=PASSWORD)

    assert challenge(Client(REMOTE_ADDR="192.0.2.33"), "nomail").status_code == 429
    run_due()  # the job runs, and finds no address to mail
    assert mail.outbox == []


def test_without_a_challenge_no_code_opens_anything(client, olga):
    assert client.get(CODE).status_code == 200

    response = client.post(CODE, {"code": "12345678"})

    assert response.status_code == 429
    assert not client.get("/").context["user"].is_authenticated


def test_the_code_page_refuses_other_methods_and_forms_without_a_token(olga):
    assert Client().put(CODE).status_code == 405
    client = Client(REMOTE_ADDR="192.0.2.33", enforce_csrf_checks=True)
    assert client.post(CODE, {"code": "12345678"}).status_code == 403


def test_a_wrong_code_over_htmx_is_a_422_with_the_form(olga):
    client = Client(REMOTE_ADDR="192.0.2.33")
    challenge(client)

    response = client.post(CODE, {"code": "x"}, HTTP_HX_REQUEST="true")

    assert response.status_code == 422
    assert 'name="code"' in response.content.decode()


def test_an_account_signed_up_behind_a_guessed_address_signs_in_there_without_a_code():
    for i in range(21):
        fail(f"made-up-{i}", "192.0.2.33")
    client = Client(REMOTE_ADDR="192.0.2.33")
    data = {"username": "nina", "email": "nina@club.example"}
    data |= {"password1": PASSWORD, "password2": PASSWORD}
    assert client.post(reverse("signup"), data).status_code == 302
    client.post(reverse("logout"))

    response = client.post(LOGIN, {"username": "nina", "password": PASSWORD})

    assert response.status_code == 302
