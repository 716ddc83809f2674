"""Nobody locked out, without mail: a challenged sign-in approved by a person
(prefscore/clubs/approvals.py), whether or not the server has mail or the account an email.

The story of the README's threat model: a botnet fails 50 times from 50 addresses
against an account that has no email, on a server that has no mail. The real owner,
from a new phone, gets in once a person approves the code that phone shows (his own
signed-in device, an admin of his club, the server's owner); the attacker, who has not
the password, gets the same page, and nobody can ever approve him.
"""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.core import mail
from django.core.management import CommandError, call_command
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from prefscore.clubs import approvals
from prefscore.clubs.models import Club, Membership, Role, SignInApproval
from prefscore.deferred.worker import run_due

pytestmark = pytest.mark.django_db

PASSWORD = "mizer-9-tricks"
LOGIN, WAIT = reverse("login"), reverse("login_approval")
APPROVALS = reverse("signin_approvals")
CODE = re.compile(r'id="approval-code">(\d{3} \d{3})<')


@pytest.fixture(autouse=True)
def no_mail(settings):
    """A club's server without SMTP settings: mail would only be printed."""
    settings.MAIL_CONFIGURED = False
    settings.EMAIL_BACKEND = "prefscore.clubs.mail_queue.QueueBackend"
    settings.MAIL_DELIVERY_BACKEND = "django.core.mail.backends.locmem.EmailBackend"


@pytest.fixture
def club(django_user_model):
    """Boris (no email) plays at a club whose admin is Anna; Vera owns the server;
    Gleb is an admin of another club."""
    users = {
        "boris": django_user_model.objects.create_user("boris", "", PASSWORD),
        "anna": django_user_model.objects.create_user("anna", "", "anna's passphrase 4"),
        "gleb": django_user_model.objects.create_user("gleb", "", "gleb's passphrase 5"),
        "vera": django_user_model.objects.create_superuser("vera", "", "vera's passphrase 6"),
    }
    home, other = (
        Club.objects.create(name="Home", slug="home"),
        Club.objects.create(name="Other", slug="other"),
    )
    Membership.objects.create(club=home, user=users["boris"], role=Role.MEMBER)
    Membership.objects.create(club=home, user=users["anna"], role=Role.ADMIN)
    Membership.objects.create(club=other, user=users["gleb"], role=Role.ADMIN)
    return users


def botnet(username: str = "boris", addresses: int = 50) -> None:
    """50 wrong passwords, each from an address of its own."""
    for i in range(addresses):
        Client().post(
            LOGIN,
            {"username": username, "password": "guess"},
            REMOTE_ADDR=f"198.51.{i // 250}.{i % 250}",
        )


def challenged(address: str, password: str = PASSWORD) -> tuple[Client, str, str]:
    """A sign-in from a new address: its client, its page and the code it shows."""
    client = Client(REMOTE_ADDR=address)
    response = client.post(LOGIN, {"username": "boris", "password": password})
    assert response.status_code == 429
    page = response.content.decode()
    found = CODE.search(page)
    assert found, "no code to have approved"
    return client, page, found.group(1)


def signed_in_as(client: Client) -> str | None:
    user = client.get("/").context["user"]
    return user.username if user.is_authenticated else None


def approver(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.mark.parametrize("who", ["boris", "anna", "vera"])
def test_after_50_failures_from_50_addresses_the_owner_without_email_gets_in_approved(club, who):
    botnet()
    phone, page, code = challenged("203.0.113.7")
    assert signed_in_as(phone) is None
    assert "email" not in page.lower()  # no mail here: nothing promises a mailed code

    listed = approver(club[who]).get(APPROVALS)
    approved = approver(club[who]).post(APPROVALS, {"code": code})

    assert listed.status_code == 200 and "boris" in listed.content.decode()
    assert approved.status_code == 302
    answer = phone.post(WAIT, {"next": "/clubs/home/"})
    assert answer.status_code == 302 and answer["Location"] == "/clubs/home/"
    assert signed_in_as(phone) == "boris"
    # Proven from there: the next time from that phone, the password alone.
    phone.logout()
    assert phone.post(LOGIN, {"username": "boris", "password": PASSWORD}).status_code == 302
    run_due()
    assert mail.outbox == []


def test_the_attacker_gets_the_same_page_and_nobody_can_approve_him(club):
    botnet()
    _phone, real_page, _real = challenged("203.0.113.7")
    attacker, fake_page, fake_code = challenged("203.0.113.66", password="a guess")

    def shape(page: str) -> str:
        return re.sub(r'value="[^"]+"|"X-CSRFToken": "[^"]+"|\d{3} \d{3}', "", page)

    assert shape(fake_page) == shape(real_page)
    for who in ("boris", "anna", "vera"):
        page = approver(club[who]).get(APPROVALS).content.decode()
        assert page.count("approval-list__item") == 1  # the real one only
        refused = approver(club[who]).post(
            APPROVALS, {"code": fake_code}, HTTP_ACCEPT_LANGUAGE="en"
        )
        assert refused.status_code == 200
        assert "No sign-in you may approve" in refused.content.decode()
    assert attacker.post(WAIT, HTTP_HX_REQUEST="true").status_code == 204  # waits, for ever
    assert signed_in_as(attacker) is None


def test_the_attacker_with_the_approvers_own_session_still_needs_the_password(club):
    """A person's approval opens only an attempt whose password was right."""
    botnet()
    attacker, _page, code = challenged("203.0.113.66", password="another guess")
    assert approvals.approve(club["vera"], code.replace(" ", "")) is None
    assert SignInApproval.objects.get(code=code.replace(" ", "")).user is None


@pytest.mark.parametrize("who", ["gleb", "nobody-in-the-club"])
def test_an_admin_of_another_club_or_a_stranger_cannot_approve(club, django_user_model, who):
    botnet()
    phone, _page, code = challenged("203.0.113.7")
    person = club.get(who) or django_user_model.objects.create_user(who, "", "stranger's pass 1")

    assert "boris" not in approver(person).get(APPROVALS).content.decode()
    assert approver(person).post(APPROVALS, {"code": code}).status_code == 200
    assert phone.post(WAIT, HTTP_HX_REQUEST="true").status_code == 204
    assert signed_in_as(phone) is None


def test_with_htmx_the_waiting_page_is_signed_in_once_approved(club):
    botnet()
    phone, _page, code = challenged("203.0.113.7")
    assert phone.post(WAIT, {"next": "/"}, HTTP_HX_REQUEST="true").status_code == 204

    approver(club["anna"]).post(APPROVALS, {"code": code})
    answer = phone.post(WAIT, {"next": "/"}, HTTP_HX_REQUEST="true")

    assert answer.status_code == 200 and answer["HX-Redirect"] == "/"
    assert signed_in_as(phone) == "boris"


def test_an_approval_signs_in_once_and_only_the_device_that_asked(club):
    botnet()
    phone, _page, code = challenged("203.0.113.7")
    approver(club["anna"]).post(APPROVALS, {"code": code})

    assert Client(REMOTE_ADDR="203.0.113.7").post(WAIT).status_code == 200  # another device
    assert phone.post(WAIT).status_code == 302
    phone.logout()
    assert "Sign in again" in phone.post(WAIT, HTTP_ACCEPT_LANGUAGE="en").content.decode()


def test_this_is_not_me_refuses_the_device(club):
    botnet()
    phone, _page, _code = challenged("203.0.113.7")
    row = SignInApproval.objects.get(status="waiting", user=club["boris"])

    refused = approver(club["boris"]).post(reverse("signin_refuse", args=[row.pk]))

    assert refused.status_code == 302
    ended = phone.post(WAIT, HTTP_HX_REQUEST="true")
    assert ended["HX-Redirect"].startswith(LOGIN)
    assert signed_in_as(phone) is None


def test_a_request_expires(club):
    botnet()
    phone, _page, code = challenged("203.0.113.7")
    SignInApproval.objects.update(expires_at=timezone.now() - timedelta(seconds=1))

    assert approver(club["anna"]).post(APPROVALS, {"code": code}).status_code == 200  # none
    assert phone.post(WAIT).status_code == 200  # "sign in again"
    assert signed_in_as(phone) is None


def test_one_account_keeps_at_most_five_requests_waiting(club):
    botnet()
    for i in range(7):
        challenged(f"203.0.113.{i}")

    assert SignInApproval.objects.waiting().filter(user=club["boris"]).count() == 5


def test_the_approver_is_told_on_the_home_page(club):
    botnet()
    challenged("203.0.113.7")

    page = approver(club["anna"]).get("/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    other = approver(club["gleb"]).get("/", HTTP_ACCEPT_LANGUAGE="en").content.decode()

    assert "waits for your approval" in page and APPROVALS in page
    assert "waits for your approval" not in other


def test_with_mail_the_page_also_offers_the_mailed_code(club, settings):
    settings.MAIL_CONFIGURED = True
    club["boris"].email = "boris@club.example"
    club["boris"].save()
    botnet()

    _phone, page, _code = challenged("203.0.113.7")

    assert 'name="code"' in page and "mailed" in page


@pytest.mark.parametrize("language", ["ru", "en"])
def test_the_waiting_page_and_the_approvals_page_speak_the_language(club, language):
    botnet()
    client = Client(REMOTE_ADDR="203.0.113.7", HTTP_ACCEPT_LANGUAGE=language)
    page = client.post(LOGIN, {"username": "boris", "password": PASSWORD}).content.decode()
    listed = approver(club["anna"]).get(APPROVALS, HTTP_ACCEPT_LANGUAGE=language).content.decode()

    words = {
        "ru": ("Код этого устройства", "Запросы входа"),
        "en": ("This device's code", "Sign-in requests"),
    }
    assert words[language][0] in page
    assert words[language][1] in listed


def test_the_approval_views_refuse_other_methods_and_missing_tokens(club):
    strict = Client(enforce_csrf_checks=True)
    strict.force_login(club["anna"])

    assert Client().get(WAIT).status_code == 405
    assert strict.post(APPROVALS, {"code": "123456"}).status_code == 403
    assert approver(club["anna"]).post(reverse("signin_refuse", args=[999999])).status_code == 404
    assert Client().get(APPROVALS).status_code == 302  # sign in first


def test_the_servers_terminal_approves_any_sign_in_the_owners_own_too(club, capsys):
    botnet("vera")
    client = Client(REMOTE_ADDR="203.0.113.9")
    page = client.post(LOGIN, {"username": "vera", "password": "vera's passphrase 6"})
    code = CODE.search(page.content.decode()).group(1)

    call_command("approve_signin")
    listed = capsys.readouterr().out
    call_command("approve_signin", code)

    assert "vera at" in listed and code not in listed
    assert client.post(WAIT).status_code == 302
    assert signed_in_as(client) == "vera"
    with pytest.raises(CommandError, match="No sign-in"):
        call_command("approve_signin", "000 000")
