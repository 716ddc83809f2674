"""Does a page tell by its timing whether an email has an account? (prefscore/clubs/mail_queue.py)

    .venv/bin/python bench/mail_timing.py [--pairs 20] [--smtp-delay 0.15]

A slow SMTP server stands in on 127.0.0.1 (it answers every mail after ``--smtp-delay``
seconds, like a real one across a network). Password resets and sign-ups are sent in
pairs, one with an email that has an account and one without, alternating which goes
first, through the whole middleware stack (Django's test client, DEBUG off, a fresh
SQLite file). Each is timed; the medians of the two kinds and their difference are
printed, for two ways of sending:

- ``inline``: the mail sent inside the request (before: ``EMAIL_BACKEND`` SMTP);
- ``queue``: queued in the request as a task, sent by the worker (docs/tasks.md).

The goal: known and unknown medians within 10 ms of each other. The password hash, the
same work on both paths of a sign-up, is made cheap here (MD5): at production's cost
(a few hundred ms, varying by tens of ms on a shared machine) it would hide what the
mail costs, which is what is measured.
"""

from __future__ import annotations

import argparse
import os
import secrets
import socket
import socketserver
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

PASSWORD = "seven-hearts-in-the-talon"
MODES = ("inline", "queue")


class SlowSmtp(socketserver.StreamRequestHandler):
    """Just enough SMTP for Django's backend, slow to accept each mail."""

    delay = 0.15

    def reply(self, line: str) -> None:
        self.wfile.write(f"{line}\r\n".encode())

    def handle(self) -> None:
        self.reply("220 slow.localhost ESMTP")
        while line := self.rfile.readline():
            verb = line[:4].upper()
            if verb in (b"EHLO", b"HELO"):
                self.reply("250 slow.localhost")
            elif verb == b"DATA":
                self.reply("354 go on")
                while self.rfile.readline() not in (b".\r\n", b""):
                    pass
                time.sleep(self.delay)
                self.reply("250 queued")
            elif verb == b"QUIT":
                self.reply("221 bye")
                return
            else:
                self.reply("250 ok")


def start_smtp(delay: float) -> int:
    SlowSmtp.delay = delay
    server = socketserver.ThreadingTCPServer(("127.0.0.1", 0), SlowSmtp)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return int(server.server_address[1])


def setup(folder: str, port: int) -> None:
    many = "1000000"
    os.environ.update(
        DEBUG="0",
        SECRET_KEY="bench-" + secrets.token_hex(24),
        ALLOWED_HOSTS="testserver",
        SECURE_SSL_REDIRECT="0",
        DATABASE_URL=f"sqlite:///{folder}/mail.sqlite3",
        DJANGO_SETTINGS_MODULE="prefscore.settings",
        LOG_LEVEL="ERROR",
        EMAIL_HOST="127.0.0.1",
        EMAIL_PORT=str(port),
        EMAIL_USE_TLS="0",
        # The limits would drop the known email's mails after a few: not what is timed.
        MAIL_PER_RECIPIENT_PER_HOUR=many,
        RESETS_PER_ADDRESS_PER_HOUR=many,
        SIGNUPS_PER_ADDRESS_PER_HOUR=many,
    )
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    from django.test.utils import override_settings

    override_settings(PASSWORD_HASHERS=["django.contrib.auth.hashers.MD5PasswordHasher"]).enable()


def use(mode: str) -> None:
    from django.conf import settings

    if mode == "inline":
        settings.EMAIL_BACKEND = settings.MAIL_DELIVERY_BACKEND
    else:
        settings.EMAIL_BACKEND = "prefscore.clubs.mail_queue.QueueBackend"


def timed(post: Any) -> float:
    start = time.perf_counter()
    response = post()
    elapsed = time.perf_counter() - start
    assert response.status_code == 302, response.status_code
    return elapsed


def reset(email: str) -> Any:
    from django.test import Client

    return lambda: Client().post("/accounts/password/reset/", {"email": email})


def signup(email: str) -> Any:
    from django.test import Client

    name = "u" + secrets.token_hex(5)
    data = {"username": name, "email": email, "password1": PASSWORD, "password2": PASSWORD}
    return lambda: Client().post("/accounts/signup/", data)


def measure(kind: str, pairs: int) -> tuple[list[float], list[float]]:
    known, unknown = [], []
    make = reset if kind == "reset" else signup
    for i in range(pairs + 2):  # the first two pairs warm up
        first_known = i % 2 == 0
        fresh = f"nobody-{secrets.token_hex(5)}@example.com"
        requests = [("known", make("known@example.com")), ("unknown", make(fresh))]
        for label, post in requests if first_known else requests[::-1]:
            elapsed = timed(post)
            if i >= 2:
                (known if label == "known" else unknown).append(elapsed)
    return known, unknown


def drain() -> None:
    """Send what the previous mode left queued, so that it does not slow the next."""
    from prefscore.deferred.worker import run_due

    run_due()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=20)
    parser.add_argument("--smtp-delay", type=float, default=0.15)
    args = parser.parse_args()
    port = start_smtp(args.smtp_delay)
    with tempfile.TemporaryDirectory() as folder:
        setup(folder, port)
        from django.contrib.auth import get_user_model

        get_user_model().objects.create_user("known", "known@example.com", PASSWORD)
        print(f"SMTP stand-in answering after {args.smtp_delay * 1000:.0f} ms; {args.pairs} pairs")
        print(f"{'mode':<14}{'page':<9}{'known ms':>10}{'unknown ms':>12}{'diff ms':>10}")
        for mode in MODES:
            use(mode)
            for kind in ("reset", "signup"):
                known, unknown = measure(kind, args.pairs)
                k, u = statistics.median(known) * 1000, statistics.median(unknown) * 1000
                print(f"{mode:<14}{kind:<9}{k:>10.1f}{u:>12.1f}{k - u:>10.1f}")
                time.sleep(args.smtp_delay * 2)
                drain()
    socket.setdefaulttimeout(None)


if __name__ == "__main__":
    main()
