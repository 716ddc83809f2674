"""`manage.py approve_signin CODE`: approve a waiting sign-in from the server's terminal.

The last way in, which needs no other person and no mail: whoever holds the server's
terminal owns it, so the code a device shows (prefscore/clubs/approvals.py) is approved
here as by the server's owner, the owner's own sign-in included. Without a code, it
lists the sign-ins waiting (account, time, address), never their codes.
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils import timezone

from prefscore.clubs import approvals, owner


class Command(BaseCommand):
    help = "Approve the waiting sign-in whose device shows CODE; without one, list them."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("code", nargs="?", default="", help="the 6 digits the device shows")

    def handle(self, *args: Any, **options: Any) -> None:
        found = owner.server_owner()
        if found is None:
            raise CommandError("This server has no owner yet: make one first.", returncode=2)
        if not options["code"]:
            waiting = approvals.approvable_by(found).order_by("created_at")
            for row in waiting.values_list("user__username", "created_at", "address"):
                name, asked, address = row
                at = timezone.localtime(asked).strftime("%H:%M")
                self.stdout.write(f"{name} at {at} from {address or '?'}")
            return
        approved = approvals.approve(found, options["code"])
        if approved is None:
            raise CommandError("No sign-in is waiting with that code.", returncode=2)
        self.stdout.write(f"Approved: {approved.username} signs in on that device.")
