"""``python manage.py import_pulka FILE --club SLUG``: a pulka file becomes a club's pulka.

Prints the new pulka's path (``/pulkas/<id>/``), exit 0. A file the engine refuses, an
unknown club or a paper sheet (nothing to import): exit 2 and one line on standard
error (in English, as the engine's messages), never a traceback; nothing is saved.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandParser, no_translations
from django.urls import reverse

from prefscore.clubs.models import Club
from prefscore.games import io


class Command(BaseCommand):
    help = "Import a pulka file (docs/protocol.md) with its deals into a club; print its path."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="a pulka file, or - for standard input")
        parser.add_argument("--club", required=True, help="the club's short name (slug)")

    # English, like the engine's own messages that it passes on.
    @no_translations
    def handle(self, *args: Any, **options: Any) -> None:
        try:
            club = _club(options["club"])
            pulka = io.import_file(club, io.read_text(_read(options["file"])), None)
        except io.FileRefused as error:
            self.stderr.write(str(error))
            sys.exit(2)
        self.stdout.write(reverse("games:sheet", args=[pulka.pk]))


def _club(slug: str) -> Club:
    try:
        return Club.objects.get(slug=slug)
    except Club.DoesNotExist:
        raise io.FileRefused(f"there is no club {slug!r}") from None


def _read(name: str) -> str:
    try:
        if name == "-":
            raw = sys.stdin.buffer.read(io.MAX_FILE_BYTES + 1)
        else:
            with Path(name).open("rb") as handle:
                raw = handle.read(io.MAX_FILE_BYTES + 1)
    except OSError as error:
        raise io.FileRefused(f"cannot read {name}: {error.strerror}") from None
    return io.decode(raw)
