"""Mail leaves the request: a row per mail, a task per mail, sent by the worker.

``EMAIL_BACKEND`` is :class:`QueueBackend`: every ``send_mail`` (sign-up's "your email
is in use", password resets, sign-in codes) writes one :class:`OutgoingMail` row per
recipient and queues one :func:`send_queued` task for it (docs/tasks.md), in the same
transaction: a millisecond's work, so a page answers in the same time whether it mails
or not. The worker sends it through ``MAIL_DELIVERY_BACKEND`` (SMTP, or the console).

Neither lost nor doubled: the row is the mail's record, and the task only ever sends a
row not yet marked sent. It claims the row (``claimed_until``) in a transaction of its
own, sends, and marks it sent; a worker killed between the SMTP server's "accepted" and
that mark leaves the task RUNNING, which another worker runs again once the dead one's
lease lapses, after the claim (``MAIL_CLAIM_SECONDS``): the mail goes again with the same Message-ID,
which mail clients show once. A send that fails is tried again with the library's
backoff, its error kept on the row. A recipient gets at most
``MAIL_PER_RECIPIENT_PER_HOUR`` mails an hour; more are dropped (logged), so nobody can
use the site to flood someone's inbox.

A password reset does not even look its email up in the request: it queues a *job*
(:func:`defer`), one task whatever the email, and :func:`compose` writes the mail, if
the email has an account, after the response. So the request does the same work, one
insert, for every email. A job run twice (its worker killed after composing) composes
once: its mails carry the job's task id, and a job that finds them is done.
bench/mail_timing.py measures the answer times with a slow SMTP server
(docs/benchmarks.md, "Mail timing").
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.core.mail import EmailMessage, EmailMultiAlternatives, get_connection
from django.core.mail.backends.base import BaseEmailBackend
from django.db import transaction
from django.utils import timezone, translation
from django.utils.translation import gettext_lazy as _
from django_tasks import TaskContext, task

from prefscore.deferred.titles import titled

from .models import OutgoingMail

log = logging.getLogger(__name__)
KEPT = timedelta(days=1)
# The key of a composed mail's message that names the job's task (``compose``).
COMPOSED_BY = "composed_by"
_composing: ContextVar[str] = ContextVar("composing", default="")


def _serialise(message: EmailMessage, recipient: str) -> dict[str, Any]:
    headers = dict(message.extra_headers)
    # Fixed now, so that a mail sent twice (a crash at the wrong instant) reads as one.
    headers.setdefault("Message-ID", message.message()["Message-ID"])
    data = {
        "subject": str(message.subject),
        "body": str(message.body),
        "from_email": message.from_email,
        "to": [recipient],
        "reply_to": list(message.reply_to),
        "headers": headers,
        "alternatives": [
            [str(content), mimetype] for content, mimetype in getattr(message, "alternatives", [])
        ],
    }
    if _composing.get():
        data[COMPOSED_BY] = _composing.get()
    return data


def _rebuild(data: dict[str, Any]) -> EmailMultiAlternatives:
    message = EmailMultiAlternatives(
        data["subject"],
        data["body"],
        data["from_email"],
        data["to"],
        reply_to=data["reply_to"],
        headers=data["headers"],
    )
    for content, mimetype in data["alternatives"]:
        message.attach_alternative(content, mimetype)
    return message


def over_limit(recipient: str) -> bool:
    """Has this address had its share of mail this hour?"""
    since = timezone.now() - timedelta(hours=1)
    recent = OutgoingMail.objects.filter(to__iexact=recipient, created_at__gt=since)
    return recent.count() >= settings.MAIL_PER_RECIPIENT_PER_HOUR


def queued() -> bool:
    """Is mail queued (the site's backend), rather than sent at once (the tests' mailbox)?"""
    return settings.EMAIL_BACKEND == f"{__name__}.QueueBackend"


def defer(job: str, to: str, **params: Any) -> None:
    """Queue a mail to be composed after the response by ``COMPOSERS[job]``; composed
    at once when ``EMAIL_BACKEND`` is not this queue (the tests' mailbox, say). ``to``
    names whom it is about, for the log; the composer finds the address itself."""
    if not queued():
        COMPOSERS[job](params)
        return
    compose.enqueue(job, params)


Composer = Callable[[dict[str, Any]], None]
# Each job's composer, named by the module that queues the job (``composes``): the queue
# imports none of them, so none of them is an import back into it. clubs' AppConfig
# imports those modules, so every process that runs tasks (the worker too) has them all.
COMPOSERS: dict[str, Composer] = {}


def composes(job: str) -> Callable[[Composer], Composer]:
    """Registers the decorated function as the composer of ``job``'s mail."""

    def register(compose: Composer) -> Composer:
        COMPOSERS[job] = compose
        return compose

    return register


@composes("password_reset")
def compose_password_reset(params: dict[str, Any]) -> None:
    """Django's reset mail, for each active account with this email, if any."""
    from django.contrib.auth.forms import PasswordResetForm

    form = PasswordResetForm({"email": params["email"]})
    if form.is_valid():
        with translation.override(params["language"]):
            form.save(domain_override=params["domain"], use_https=params["use_https"])


@contextmanager
def _composed_by(task_id: str) -> Iterator[None]:
    token = _composing.set(task_id)
    try:
        yield
    finally:
        _composing.reset(token)


@task(takes_context=True)
def compose(context: TaskContext, job: str, params: dict[str, Any]) -> None:
    """A job's mail, composed after the response: queued in one transaction with what
    the composer writes, and once only, however often the job runs."""
    task_id = str(context.task_result.id)
    with transaction.atomic():
        if OutgoingMail.objects.filter(**{f"message__{COMPOSED_BY}": task_id}).exists():
            return  # composed by an earlier try that died before it was marked done
        with _composed_by(task_id):
            COMPOSERS[job](params)


class QueueBackend(BaseEmailBackend):
    """Queue each mail, and its task for :func:`send_queued`; nothing goes out now."""

    def send_messages(self, email_messages: Sequence[EmailMessage]) -> int:
        queued = 0
        with transaction.atomic():
            for message in email_messages:
                for recipient in message.recipients():
                    if over_limit(recipient):
                        log.warning("mail to %s dropped: its hourly limit is reached", recipient)
                        continue
                    data = _serialise(message, recipient)
                    mail = OutgoingMail.objects.create(to=recipient, message=data)
                    send_queued.enqueue(mail.pk)
                    queued += 1
        return queued


class MailBusy(Exception):
    """Another sender holds this mail's claim: tried again later."""


def _claim(pk: int) -> OutgoingMail | None:
    """The mail, claimed for this sender in a transaction of its own; None when it is
    gone or already sent."""
    now = timezone.now()
    with transaction.atomic():
        mail = OutgoingMail.objects.select_for_update().filter(pk=pk).first()
        if mail is None or mail.sent_at is not None:
            return None
        if mail.claimed_until is not None and mail.claimed_until > now:
            raise MailBusy(f"mail {pk} is being sent until {mail.claimed_until:%H:%M:%S}")
        mail.claimed_until = now + timedelta(seconds=settings.MAIL_CLAIM_SECONDS)
        mail.attempts += 1
        mail.save(update_fields=["claimed_until", "attempts"])
    return mail


@task()
def send_queued(pk: int) -> bool:
    """Send one queued mail, unless it was sent already; whether it went now."""
    mail = _claim(pk)
    if mail is None:
        return False
    try:
        get_connection(settings.MAIL_DELIVERY_BACKEND).send_messages([_rebuild(mail.message)])
    except Exception as error:
        log.warning("mail %s to %s not sent: %s", mail.pk, mail.to, error)
        # Its claim let go: the next try (the library's, after its backoff) may take it.
        OutgoingMail.objects.filter(pk=mail.pk).update(error=str(error)[:1000], claimed_until=None)
        raise
    OutgoingMail.objects.filter(pk=mail.pk).update(sent_at=timezone.now(), error="")
    # Sent mail is kept a day: the hourly limits count it, then it is only a liability.
    OutgoingMail.objects.filter(sent_at__lt=timezone.now() - KEPT).delete()
    return True


titled(compose, _("Compose a mail (a reset, a sign-in code, a notice)"))
titled(send_queued, _("Send a mail"))
