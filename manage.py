#!/usr/bin/env python
"""Django's command-line utility for administrative tasks."""

import os
import secrets
import sys

# Commands that only read a file and print, touching no session, signature or database
# row: they run without SECRET_KEY or DEBUG. Each such run gets a random key of its own,
# used by nothing; everything else (runserver, migrate, gunicorn through wsgi.py) still
# refuses to start without SECRET_KEY when DEBUG is off.
PURE_COMMANDS = frozenset({"score", "seat"})


def main() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "prefscore.settings")
    if sys.argv[1:2] and sys.argv[1] in PURE_COMMANDS and not os.environ.get("SECRET_KEY"):
        os.environ["SECRET_KEY"] = secrets.token_urlsafe(50)
    from django.core.management import execute_from_command_line

    execute_from_command_line(sys.argv)


if __name__ == "__main__":
    main()
