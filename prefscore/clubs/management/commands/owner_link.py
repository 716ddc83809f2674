"""`manage.py owner_link [--url URL]`: a new one-time link that makes the server's owner.

``make run`` prints one at every start while the server has no owner; this is for a
server started otherwise (a service, the hosted route) or a terminal lost. The links
printed before stop working. Refused when the server has its owner already.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.urls import reverse

from prefscore.clubs import owner


def owner_url(base: str, token: str) -> str:
    return base.rstrip("/") + reverse("owner_setup", args=[token])


class Command(BaseCommand):
    help = "Print a new one-time link that makes the server's owner (none while it has one)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--url",
            default="",
            help="The server's address, e.g. https://pref.example (default: PUBLIC_URL).",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        base = options["url"] or settings.PUBLIC_URL
        if not base:
            raise CommandError(
                "Give the server's address: --url https://pref.example", returncode=2
            )
        found = owner.server_owner()
        if found is not None:
            raise CommandError(
                f"This server has its owner already ({found.get_username()}).", returncode=2
            )
        self.stdout.write(owner_url(base, owner.new_link()))
