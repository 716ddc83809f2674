"""The 4.2.11 notation in the reader's language.

The engine writes a deal's notation as the Кодекс does (``7БК``, ``7♠/пас``,
``6♠/уход``: docs/protocol.md, "Output"), the same in every language, since files and
exports keep it. The pages show it in the page's language: on an English page
``7NT``, ``7♠/pass``, ``6♠/conceded``; on a Russian page as the Кодекс writes it.
"""

from __future__ import annotations

from collections.abc import Callable

from django.utils.translation import gettext, gettext_lazy

NO_TRUMPS = gettext_lazy("NT")  # БК in Russian (stats/presenters.py says the same)

# The Russian marks of the notation, each with its translation (the Russian
# catalogue gives each mark back as the Кодекс writes it).
_MARKS: tuple[tuple[str, Callable[[], str]], ...] = (
    ("БК", lambda: gettext("NT")),
    ("/пас", lambda: "/" + gettext("pass")),
    ("/уход", lambda: "/" + gettext("conceded")),  # without three (docs/rules.md §3.10.1)
)


def reader_notation(notation: str) -> str:
    """``notation`` with its Russian marks in the active language (docs/protocol.md)."""
    for mark, translated in _MARKS:
        if mark in notation:
            notation = notation.replace(mark, translated())
    return notation


def no_trumps() -> str:
    """The no-trump mark in the active language: ``БК`` in Russian, ``NT`` in English."""
    return gettext("NT")
