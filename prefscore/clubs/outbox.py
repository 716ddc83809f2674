"""Mail leaves the request: queued in a table, sent after the response.

``EMAIL_BACKEND`` is :class:`QueueBackend`: every ``send_mail`` (sign-up's "your email
is in use", password resets, sign-in codes) writes one :class:`OutgoingMail` row per
recipient, a millisecond's work, so a page answers in the same time whether it mails or
not. Once the request's transaction commits, a thread of the same process sends what is
due (:func:`deliver_due`) through ``MAIL_DELIVERY_BACKEND`` (SMTP, or the console);
``manage.py send_queued_mail --loop`` does the same as a worker, for what a restart left
behind. Why a table, not only a thread: a thread's mail dies with its process.

Neither lost nor doubled: a row is claimed (``claimed_until``) in its own transaction
before it is sent and marked sent right after, so two senders never take the same row;
a sender killed between the SMTP server's "accepted" and that mark leaves a claim that
lapses after ``CLAIM`` and is sent again, with the same Message-ID, which mail clients
show once. A recipient gets at most ``MAIL_PER_RECIPIENT_PER_HOUR`` mails an hour;
more are dropped (logged), so nobody can use the site to flood someone's inbox.

A password reset does not even look its email up in the request: it queues a *job*
(:func:`defer`), one row whatever the email, and the sender composes the mail, if the
email has an account, after the response. So the request does the same work, one
insert, for every email. bench/mail_timing.py measures the answer times with a slow
SMTP server (docs/benchmarks.md, "Mail timing").
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Sequence
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.core.mail import EmailMessage, EmailMultiAlternatives, get_connection
from django.core.mail.backends.base import BaseEmailBackend
from django.core.signals import request_finished, request_started
from django.db import connection, transaction
from django.dispatch import receiver
from django.utils import timezone, translation

from .models import OutgoingMail

log = logging.getLogger(__name__)
# How long a sender may take over one mail before another may take it over.
CLAIM = timedelta(minutes=5)
MAX_ATTEMPTS = 5
SENDER = "prefscore-mail"
KEPT = timedelta(days=1)


def _serialise(message: EmailMessage, recipient: str) -> dict[str, Any]:
    headers = dict(message.extra_headers)
    # Fixed now, so that a mail sent twice (a crash at the wrong instant) reads as one.
    headers.setdefault("Message-ID", message.message()["Message-ID"])
    return {
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
    """Has this address had its share of mail this hour? (Jobs are no mail.)"""
    since = timezone.now() - timedelta(hours=1)
    recent = OutgoingMail.objects.filter(to__iexact=recipient, created_at__gt=since)
    recent = recent.exclude(message__has_key=JOB)
    return recent.count() >= settings.MAIL_PER_RECIPIENT_PER_HOUR


JOB = "job"


def defer(job: str, to: str, **params: Any) -> None:
    """Queue a mail to be composed after the response by ``COMPOSERS[job]``; composed
    at once when ``EMAIL_BACKEND`` is not this queue (the tests' mailbox, say)."""
    if settings.EMAIL_BACKEND != f"{__name__}.QueueBackend":
        COMPOSERS[job](params)
        return
    OutgoingMail.objects.create(to=to[:254], message={JOB: job, "params": params})
    send_later()


Composer = Callable[[dict[str, Any]], None]
# Each job's composer, named by the module that queues the job (``composes``): the queue
# imports none of them, so none of them is an import back into it. clubs' AppConfig
# imports those modules, so every process that sends (a worker too) has them all.
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


class QueueBackend(BaseEmailBackend):
    """Queue each mail for :func:`deliver_due`; nothing goes out during the request."""

    def send_messages(self, email_messages: Sequence[EmailMessage]) -> int:
        queued = 0
        for message in email_messages:
            for recipient in message.recipients():
                if over_limit(recipient):
                    log.warning("mail to %s dropped: its hourly limit is reached", recipient)
                    continue
                OutgoingMail.objects.create(to=recipient, message=_serialise(message, recipient))
                queued += 1
        if queued:
            send_later()
        return queued


_request = threading.local()


def send_later() -> None:
    """Have the sender thread start once the response has gone (``request_finished``),
    or, outside a request, once the transaction commits."""
    if not settings.MAIL_SEND_IN_THREAD or _in_sender():
        return
    if getattr(_request, "active", False):
        _request.mail_waiting = True
    else:
        transaction.on_commit(start_sender)


@receiver(request_started)
def _request_started(**kwargs: Any) -> None:
    _request.active, _request.mail_waiting = True, False


@receiver(request_finished)
def _request_finished(**kwargs: Any) -> None:
    waiting = getattr(_request, "mail_waiting", False)
    _request.active, _request.mail_waiting = False, False
    if waiting:
        start_sender()


def _in_sender() -> bool:
    """A job composing its mail runs in the sender already, which sends it next."""
    return threading.current_thread().name == SENDER


def start_sender() -> None:
    """Send what is due in a thread of this process, after the response."""
    threading.Thread(target=_send_and_close, name=SENDER, daemon=True).start()


def _send_and_close() -> None:
    try:
        deliver_due()
    except Exception:  # the worker command or the next mail takes over
        log.exception("sending queued mail failed")
    finally:
        connection.close()


def _claim() -> OutgoingMail | None:
    """The oldest mail due, claimed for this sender in a transaction of its own."""
    now = timezone.now()
    with transaction.atomic():
        due = OutgoingMail.objects.filter(sent_at=None, attempts__lt=MAX_ATTEMPTS).exclude(
            claimed_until__gt=now
        )
        mail = due.order_by("pk").select_for_update(skip_locked=True).first()
        if mail is None:
            return None
        mail.claimed_until = now + CLAIM
        mail.attempts += 1
        mail.save(update_fields=["claimed_until", "attempts"])
    return mail


def deliver_due(limit: int = 100) -> int:
    """Send (or compose) up to ``limit`` queued rows; how many mails went out."""
    sent = 0
    for _ in range(limit):
        mail = _claim()
        if mail is None:
            break
        is_job = JOB in mail.message
        try:
            if is_job:  # its mail, if any, is queued now and sent in a later round
                COMPOSERS[mail.message[JOB]](mail.message["params"])
            else:
                backend = get_connection(settings.MAIL_DELIVERY_BACKEND)
                backend.send_messages([_rebuild(mail.message)])
        except Exception as error:  # noqa: BLE001 - kept on the row, tried again later
            log.warning("mail %s to %s not sent: %s", mail.pk, mail.to, error)
            OutgoingMail.objects.filter(pk=mail.pk).update(error=str(error)[:1000])
            continue
        done = OutgoingMail.objects.filter(pk=mail.pk)
        if is_job:  # done with: its mail, if any, is a row of its own
            done.delete()
            continue
        done.update(sent_at=timezone.now(), error="")
        sent += 1
    # Sent mail is kept a day: the hourly limits count it, then it is only a liability.
    OutgoingMail.objects.filter(sent_at__lt=timezone.now() - KEPT).delete()
    return sent
