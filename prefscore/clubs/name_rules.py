"""One rule for every name people type: a player (a guest, a pulka's or a tournament's
file, an account joining a club), an account (its username, its name at the table), a
club, a tournament, a season (docs/design.md, "Names, languages and taps").

1. **A name shows.** After ``names.normalise_name`` (NFC, nothing invisible, single
   spaces) it holds at least one letter or digit that is drawn: not a joiner, a
   combining mark on nothing, a Braille blank or a Hangul filler (letters by their
   category that show nothing: Unicode's Default_Ignorable_Code_Point, UAX #44). Else
   the name would show as nothing on the sheet, the settlement, the chart's legend, the
   join requests and the seat pickers.
2. **A player's name does not pass for another player of the club.** Two names whose
   confusable skeletons are equal (Unicode UTS #39: ``Aнна`` with a Latin A and
   ``Анна``, ``Ａnna`` in full width and ``Anna``, ``Bepa`` in Latin letters and
   ``Вера``) are one name to the eye; the second is refused with the question "is this
   Анна?", so that the person picks the player who is there. Where nobody types it
   (an account joining a club under its name at the table) the new player takes the
   next free name instead (``players.free_name``: "Aнна 2").

The skeletons are disarm's (``skeleton_key``: UTS #39's confusables.txt of the Unicode
version it names, with case folded, as the club's names are compared): docs/dependencies.md.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable
from typing import TypeVar

from disarm import skeleton_key
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from .names import isolate, normalise_name

# Letters by their category that show nothing (Default_Ignorable_Code_Point, UAX #44).
FILLERS = frozenset("\u115f\u1160\u3164\uffa0")

NO_LETTER = _("A name needs at least one letter or digit that shows.")
LOOKS_LIKE = _(
    "Is this %(name)s? A player of this club has a name that looks the same: pick "
    "%(name)s, or type a name that looks different."
)

T = TypeVar("T")


def shows(name: str) -> bool:
    """Whether the name holds a letter or digit that is drawn (rule 1)."""
    return any(
        unicodedata.category(char)[0] in "LN" and char not in FILLERS
        for char in normalise_name(name)
    )


def shown_name(name: str) -> str:
    """The name as stored (``normalise_name``); ``ValidationError`` if something was typed
    and it shows nothing (invisible characters that ``normalise_name`` drops included).
    A blank name is the caller's to refuse, or to allow where the field is optional."""
    stored = normalise_name(name)
    if name.strip() and not shows(stored):
        raise ValidationError(NO_LETTER, code="no_letter")
    return stored


def skeleton(name: str) -> str:
    """The name's confusable skeleton (UTS #39, case folded): equal for names that look
    alike."""
    return skeleton_key(normalise_name(name))


def look_alike(name: str, others: Iterable[T]) -> T | None:
    """The first of ``others`` (names, or objects with a ``name``) that looks like
    ``name`` without being it (case aside): the one the person may have meant."""
    key = skeleton(name)
    folded = normalise_name(name).casefold()
    for other in others:
        text = other if isinstance(other, str) else str(getattr(other, "name", ""))
        if text.casefold() != folded and skeleton(text) == key:
            return other
    return None


def refuse_look_alike(name: str, others: Iterable[T]) -> None:
    """``ValidationError`` asking "is this …?" if ``name`` passes for one of ``others``."""
    found = look_alike(name, others)
    if found is not None:
        text = found if isinstance(found, str) else str(getattr(found, "name", ""))
        raise ValidationError(LOOKS_LIKE, code="looks_like", params={"name": isolate(text)})


def first_look_alike(names: Iterable[str]) -> tuple[str, str] | None:
    """Two of ``names`` that look alike but differ, as (the later, the earlier): a file's
    players, among themselves."""
    seen: dict[str, str] = {}
    for name in names:
        key = skeleton(name)
        earlier = seen.get(key)
        if earlier is not None and earlier.casefold() != name.casefold():
            return name, earlier
        seen.setdefault(key, name)
    return None
