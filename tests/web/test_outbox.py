"""Mail leaves the request (prefscore/clubs/outbox.py): queued in a table, sent after the
response, never lost or doubled, and limited per recipient and per client address."""

import re
import threading
from datetime import timedelta
from pathlib import Path
from unittest import mock

import pytest
from django.core import mail
from django.core.mail import send_mail
from django.core.management import call_command
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from prefscore.clubs import outbox
from prefscore.clubs.models import OutgoingMail

pytestmark = pytest.mark.django_db

PASSWORD = "seven-hearts-in-the-talon"


@pytest.fixture(autouse=True)
def queued_mail(settings):
    settings.EMAIL_BACKEND = "prefscore.clubs.outbox.QueueBackend"
    settings.MAIL_DELIVERY_BACKEND = "django.core.mail.backends.locmem.EmailBackend"


@pytest.fixture
def lena(django_user_model):
    return django_user_model.objects.create_user("lena", "lena@example.com", PASSWORD)


def reset(email="lena@example.com", address="10.0.0.1"):
    return Client().post(reverse("password_reset"), {"email": email}, REMOTE_ADDR=address)


def signup(number, email="lena@example.com", address="10.0.0.1"):
    data = {"username": f"n{number}", "email": email, "password1": PASSWORD, "password2": PASSWORD}
    return Client().post(reverse("signup"), data, REMOTE_ADDR=address)


def test_a_reset_is_queued_in_the_request_and_sent_after_it(lena):
    response = reset()

    assert response.status_code == 302
    assert mail.outbox == []  # nothing went out during the request
    assert OutgoingMail.objects.get().to == "lena@example.com"
    assert outbox.deliver_due() == 1
    assert OutgoingMail.objects.filter(sent_at=None).count() == 0
    assert mail.outbox[0].to == ["lena@example.com"]
    assert "lena" in mail.outbox[0].body


def test_an_unknown_email_does_the_same_work_in_the_request_and_gets_no_mail(lena):
    known, unknown = reset(), reset("nobody@example.com")

    assert known.status_code == unknown.status_code == 302
    assert known["Location"] == unknown["Location"]
    assert OutgoingMail.objects.count() == 2  # one job each, looked up after the response
    assert outbox.deliver_due() == 1
    assert [m.to for m in mail.outbox] == [["lena@example.com"]]


def test_a_sent_mail_is_not_sent_again(lena):
    reset()
    outbox.deliver_due()

    assert outbox.deliver_due() == 0
    call_command("send_queued_mail")
    assert len(mail.outbox) == 1


def test_a_mail_whose_sender_died_is_sent_again_with_the_same_message_id(lena):
    send_mail("Subject", "Body", "site@example.com", ["lena@example.com"])
    mail_row = outbox._claim()  # a sender took it and was killed before marking it sent
    assert outbox.deliver_due() == 0  # its claim still holds: nobody doubles it now
    OutgoingMail.objects.filter(pk=mail_row.pk).update(claimed_until=timezone.now())

    assert outbox.deliver_due() == 1
    assert mail.outbox[0].extra_headers["Message-ID"] == mail_row.message["headers"]["Message-ID"]


def test_a_failed_send_is_kept_and_tried_again(lena):
    send_mail("Subject", "Body", "site@example.com", ["lena@example.com"])
    with mock.patch("django.core.mail.backends.locmem.EmailBackend.send_messages") as send:
        send.side_effect = OSError("connection refused")
        assert outbox.deliver_due() == 0
    row = OutgoingMail.objects.get()
    assert row.sent_at is None and "refused" in row.error
    OutgoingMail.objects.update(claimed_until=timezone.now())

    assert outbox.deliver_due() == 1


def test_fifteen_resets_for_one_email_mail_it_at_most_five_times(lena, settings):
    settings.RESETS_PER_ADDRESS_PER_HOUR = 100
    for i in range(15):
        assert reset(address=f"10.0.1.{i}").status_code == 302

    assert outbox.deliver_due() == 5


def test_fifteen_sign_ups_with_a_members_email_mail_her_at_most_five_times(lena):
    for i in range(15):
        assert signup(i).status_code == 302

    assert outbox.deliver_due() == 5
    assert all(m.to == ["lena@example.com"] for m in mail.outbox)


def test_one_address_may_ask_for_ten_resets_an_hour(lena):
    for _ in range(10):
        assert reset("nobody@example.com").status_code == 302

    refused = reset()

    assert refused.status_code == 429
    assert "Попробуйте снова через час" in refused.content.decode()
    assert not OutgoingMail.objects.filter(to="lena@example.com").exists()
    assert reset(address="10.0.0.2").status_code == 302  # another address is not held


def test_one_address_may_sign_up_thirty_times_an_hour(settings):
    settings.SIGNUPS_PER_ADDRESS_PER_HOUR = 3
    for i in range(3):
        assert signup(i, email=f"p{i}@example.com").status_code == 302

    refused = signup(9, email="p9@example.com")

    assert refused.status_code == 429
    assert "Попробуйте снова через час" in refused.content.decode()


def test_invitations_are_limited_per_address(settings, django_user_model):
    from prefscore.clubs.models import Club, Invitation, Membership

    settings.INVITATIONS_PER_ADDRESS_PER_HOUR = 2
    admin = django_user_model.objects.create_user("boss", password=PASSWORD)
    club = Club.objects.create(name="Club", slug="club")
    Membership.objects.create(club=club, user=admin, role="admin")
    client = Client(REMOTE_ADDR="10.0.0.1")
    client.force_login(admin)
    url = reverse("members:invite", args=["club"])
    for _ in range(3):
        client.post(url, {"role": "member", "days": 7})

    assert Invitation.objects.count() == 2


@pytest.mark.django_db(transaction=True)
def test_once_the_request_commits_a_thread_of_the_process_sends_it(settings, django_user_model):
    settings.MAIL_SEND_IN_THREAD = True
    django_user_model.objects.create_user("vera", "vera@example.com", PASSWORD)

    assert reset("vera@example.com").status_code == 302
    for thread in threading.enumerate():
        if thread.name == outbox.SENDER:
            thread.join(timeout=10)

    assert [m.to for m in mail.outbox] == [["vera@example.com"]]
    assert OutgoingMail.objects.filter(sent_at=None).count() == 0


def test_jobs_go_once_done_and_sent_mail_after_a_day(lena):
    reset()
    reset("nobody@example.com")
    outbox.deliver_due()
    assert list(OutgoingMail.objects.values_list("to", flat=True)) == ["lena@example.com"]
    OutgoingMail.objects.update(sent_at=timezone.now() - timedelta(days=2))

    outbox.deliver_due()

    assert not OutgoingMail.objects.exists()


def test_every_job_that_is_queued_has_its_composer():
    """The modules that queue a job register its composer (``outbox.composes``), and
    clubs' AppConfig imports them, so a worker that only sends has every one too."""
    queued = set()
    for path in (Path(outbox.__file__).parent).glob("*.py"):
        queued |= set(re.findall(r'defer\(\s*"(\w+)"', path.read_text(encoding="utf-8")))

    assert queued == {"password_reset", "email_in_use", "signin_code"}
    assert queued <= set(outbox.COMPOSERS)
