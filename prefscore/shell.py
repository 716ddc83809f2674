"""What the site's management commands share with the shell they run in.

A command a director types answers in his shell's language, as the programs around it
do (POSIX: ``LC_ALL``, then ``LC_MESSAGES``, then ``LANG``), whatever the site's own
``LANGUAGE_CODE``: Russian in a Russian shell, English otherwise. And a club's
tournament or season is named the way its pages' addresses name it, ``club/slug``, or
by its short name alone where only one club has it.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any

from django.core.management.base import CommandError
from django.db.models import QuerySet
from django.utils.translation import gettext as _

# The POSIX order: the first of these that is set decides the messages' language.
LOCALE_VARIABLES = ("LC_ALL", "LC_MESSAGES", "LANG")


def shell_language(environ: Mapping[str, str] | None = None) -> str:
    """``ru`` when the shell's locale is Russian, else ``en`` (``C``, ``POSIX``, unset)."""
    environ = os.environ if environ is None else environ
    for name in LOCALE_VARIABLES:
        value = environ.get(name, "")
        if value:
            return "ru" if value.lower().startswith("ru") else "en"
    return "en"


def find(objects: QuerySet[Any], address: str) -> Any:
    """The one object of ``objects`` at ``club/slug`` (or ``slug`` where it is unique).

    Raises ``CommandError`` with exit status 2 for none, or for several clubs' where the
    club was not given, in the shell's language (the caller has activated it).
    """
    club, _sep, slug = address.rpartition("/")
    found = objects.filter(slug=slug)
    if club:
        found = found.filter(club__slug=club)
    rows = list(found.select_related("club")[:2])
    if not rows:
        raise CommandError(
            _("Nothing is called “%(address)s”.") % {"address": address}, returncode=2
        )
    if len(rows) > 1:
        raise CommandError(
            _("“%(address)s” is in several clubs: write it as club/%(address)s.")
            % {"address": address},
            returncode=2,
        )
    return rows[0]
