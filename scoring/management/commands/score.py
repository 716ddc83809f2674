"""``python manage.py score FILE`` (or ``-``): score a pulka file (docs/protocol.md, "Output").

Prints the output JSON, exit 0. Bad input: one line on stderr naming the deal and the
problem, exit 2, never a traceback (docs/protocol.md).
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandParser, no_translations
from django.utils.translation import gettext as _

from scoring.engine.errors import ScoringError
from scoring.engine.protocol import dumps, score_text

MAX_FILE_BYTES = 5 * 1024 * 1024


class Command(BaseCommand):
    help = "Score a pulka file (docs/protocol.md) and print the sheet, result and settlement."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="a pulka file, or - for standard input")

    # English, like the engine's own messages that it passes on (as import_pulka).
    @no_translations
    def handle(self, *args: Any, **options: Any) -> None:
        try:
            text = _read(options["file"])
            output = score_text(text)
        except (ScoringError, _InputError) as error:
            self.stderr.write(str(error))
            sys.exit(2)
        except RecursionError:
            self.stderr.write(_("the file is nested too deeply"))
            sys.exit(2)
        self.stdout.write(dumps(output))


class _InputError(Exception):
    pass


def _read(name: str) -> str:
    try:
        if name == "-":
            raw = sys.stdin.buffer.read(MAX_FILE_BYTES + 1)
        else:
            with Path(name).open("rb") as handle:
                raw = handle.read(MAX_FILE_BYTES + 1)
    except OSError as error:
        raise _InputError(
            _("cannot read %(name)s: %(why)s") % {"name": name, "why": error.strerror}
        ) from None
    if len(raw) > MAX_FILE_BYTES:
        raise _InputError(_("the file is larger than 5 MB"))
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise _InputError(_("the file is not UTF-8 text")) from None
