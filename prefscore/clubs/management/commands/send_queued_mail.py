"""Send the mail queued by requests (prefscore/clubs/outbox.py).

Once, or with ``--loop`` as a worker beside the app servers, every ``--every`` seconds:
what a process's own sender thread did not finish (a restart, an SMTP server that was
down) goes out here.
"""

from __future__ import annotations

import time
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from prefscore.clubs import outbox


class Command(BaseCommand):
    help = "Send the queued mail; with --loop, keep doing so."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--loop", action="store_true", help="keep sending until stopped")
        parser.add_argument("--every", type=float, default=5.0, help="seconds between rounds")

    def handle(self, *args: Any, **options: Any) -> None:
        while True:
            sent = outbox.deliver_due()
            if sent:
                self.stdout.write(f"sent {sent}")
            if not options["loop"]:
                return
            time.sleep(max(0.5, options["every"]))
