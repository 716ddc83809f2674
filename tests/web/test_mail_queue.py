"""Mail leaves the request (prefscore/clubs/mail_queue.py): a row and a task per mail,
sent by the worker after the response, never lost or doubled, and limited per recipient
and per client address."""

import re
from datetime import timedelta
from pathlib import Path
from unittest import mock

import pytest
from django.core import mail
from django.core.mail import send_mail
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from django_tasks import TaskResultStatus
from django_tasks_db.models import DBTaskResult

from prefscore.clubs import mail_queue
from prefscore.clubs.models import OutgoingMail
from prefscore.deferred.worker import claim_next, recover_lost, run_due

pytestmark = pytest.mark.django_db

PASSWORD = "seven-hearts-in-the-talon"


@pytest.fixture(autouse=True)
def queued_mail(settings):
    settings.EMAIL_BACKEND = "prefscore.clubs.mail_queue.QueueBackend"
    settings.MAIL_DELIVERY_BACKEND = "django.core.mail.backends.locmem.EmailBackend"


@pytest.fixture
def lena(django_user_model):
    return django_user_model.objects.create_user("lena", "lena@example.com", PASSWORD)


def reset(email="lena@example.com", address="10.0.0.1"):
    return Client().post(reverse("password_reset"), {"email": email}, REMOTE_ADDR=address)


def signup(number, email="lena@example.com", address="10.0.0.1"):
    data = {"username": f"n{number}", "email": email, "password1": PASSWORD, "password2": PASSWORD}
    return Client().post(reverse("signup"), data, REMOTE_ADDR=address)


def tasks(path: str) -> list[DBTaskResult]:
    return list(DBTaskResult.objects.filter(task_path=f"prefscore.clubs.mail_queue.{path}"))


def due_now() -> None:
    DBTaskResult.objects.filter(status=TaskResultStatus.READY).update(run_after=timezone.now())


def test_a_reset_is_queued_in_the_request_and_sent_by_the_worker(lena):
    response = reset()

    assert response.status_code == 302
    assert mail.outbox == []  # nothing went out during the request
    assert not OutgoingMail.objects.exists()  # the job is looked up after the response
    (job,) = tasks("compose")
    assert job.args_kwargs["args"][0] == "password_reset"

    run_due()  # the job composes the mail, which queues its own task; both run

    (row,) = OutgoingMail.objects.all()
    assert row.to == "lena@example.com" and row.sent_at is not None
    assert [m.to for m in mail.outbox] == [["lena@example.com"]]
    assert "lena" in mail.outbox[0].body
    assert {t.status for t in tasks("compose") + tasks("send_queued")} == {
        TaskResultStatus.SUCCESSFUL
    }


def test_an_unknown_email_does_the_same_work_in_the_request_and_gets_no_mail(lena):
    known, unknown = reset(), reset("nobody@example.com")

    assert known.status_code == unknown.status_code == 302
    assert known["Location"] == unknown["Location"]
    assert len(tasks("compose")) == 2  # one job each, looked up after the response
    run_due()
    assert [m.to for m in mail.outbox] == [["lena@example.com"]]


def test_a_mail_is_one_task_sent_once(lena):
    send_mail("Subject", "Body", "site@example.com", ["lena@example.com"])
    (row,) = OutgoingMail.objects.all()
    (job,) = tasks("send_queued")
    assert job.args_kwargs["args"] == [row.pk]

    assert run_due() == 1 and run_due() == 0
    # The same mail's task run again (a second task, a retry) sends nothing more.
    assert mail_queue.send_queued.call(row.pk) is False
    assert len(mail.outbox) == 1


def test_a_mail_whose_worker_died_is_sent_again_with_the_same_message_id(lena):
    send_mail("Subject", "Body", "site@example.com", ["lena@example.com"])
    killed = claim_next("killed-worker")  # a worker took its task ...
    row = mail_queue._claim(killed.args_kwargs["args"][0])  # ... claimed it, and died
    assert run_due() == 0  # its task is RUNNING and not yet lost: nobody doubles it

    recover_lost()  # the dead worker never beat: its task is queued again
    due_now()
    assert run_due() == 1
    (job,) = tasks("send_queued")
    assert job.status == TaskResultStatus.READY  # the mail's claim holds: later, once
    assert "MailBusy" in job.traceback and mail.outbox == []

    OutgoingMail.objects.update(claimed_until=timezone.now())  # the claim lapses
    due_now()
    assert run_due() == 1
    assert mail.outbox[0].extra_headers["Message-ID"] == row.message["headers"]["Message-ID"]
    assert len(mail.outbox) == 1


def test_a_failed_send_is_kept_and_tried_again_with_the_librarys_backoff(lena):
    send_mail("Subject", "Body", "site@example.com", ["lena@example.com"])
    with mock.patch("django.core.mail.backends.locmem.EmailBackend.send_messages") as send:
        send.side_effect = OSError("connection refused")
        run_due()
    row = OutgoingMail.objects.get()
    assert row.sent_at is None and "refused" in row.error and row.attempts == 1
    (job,) = tasks("send_queued")
    assert job.status == TaskResultStatus.READY and job.run_after > timezone.now()

    due_now()
    assert run_due() == 1
    row.refresh_from_db()
    assert row.sent_at is not None and row.attempts == 2 and len(mail.outbox) == 1


def test_a_job_run_again_after_its_worker_died_composes_its_mail_once(lena):
    reset()
    run_due()
    (job,) = tasks("compose")
    # Its worker died after the mail was queued, before the job was marked done.
    DBTaskResult.objects.filter(id=job.id).update(status=TaskResultStatus.READY)

    assert run_due() == 1

    assert OutgoingMail.objects.count() == 1 and len(mail.outbox) == 1


def test_fifteen_resets_for_one_email_mail_it_at_most_five_times(lena, settings):
    settings.RESETS_PER_ADDRESS_PER_HOUR = 100
    for i in range(15):
        assert reset(address=f"10.0.1.{i}").status_code == 302

    run_due()
    assert len(mail.outbox) == 5


def test_fifteen_sign_ups_with_a_members_email_mail_her_at_most_five_times(lena):
    for i in range(15):
        assert signup(i).status_code == 302

    run_due()
    assert len(mail.outbox) == 5
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


def test_sent_mail_goes_after_a_day(lena):
    reset()
    reset("nobody@example.com")
    run_due()
    assert list(OutgoingMail.objects.values_list("to", flat=True)) == ["lena@example.com"]
    OutgoingMail.objects.update(sent_at=timezone.now() - timedelta(days=2))

    send_mail("Subject", "Body", "site@example.com", ["vera@example.com"])
    run_due()

    assert list(OutgoingMail.objects.values_list("to", flat=True)) == ["vera@example.com"]


def test_every_job_that_is_queued_has_its_composer():
    """The modules that queue a job register its composer (``mail_queue.composes``), and
    clubs' AppConfig imports them, so a worker has every one too."""
    queued = set()
    for path in (Path(mail_queue.__file__).parent).glob("*.py"):
        queued |= set(re.findall(r'defer\(\s*"(\w+)"', path.read_text(encoding="utf-8")))

    assert queued == {"password_reset", "email_in_use", "signin_code"}
    assert queued <= set(mail_queue.COMPOSERS)
