"""Who writes the consolations of a whist returned after a half-whist (docs/rules.md §3.10.3).

Under ``returned_whist_alone`` the half-whister is out of the deal's writing: the
returner is the only whister, and there is no passer. ``returned_whist_consolation``
says what becomes of the consolation the half-whister would have written as the
passer: ``whister`` (PU calc.ts) lets it lapse, the returner writes his own alone;
``both`` (gchet score.go, ``HalfSeat == b``) has the returner write it as well, so a
remiz costs the declarer both defenders' consolations as on an ordinary whist and pass.

``deals.py`` asks :func:`consoling_passers` whom to console as the passer; the rule is
here.
"""

from __future__ import annotations

from .conventions import Convention

# The word ``house_deals.returned_whist_words`` gives the half-whister of a returned whist.
OUT = "out"


def consoling_passers(
    convention: Convention,
    whisters: tuple[int, ...],
    passers: tuple[int, ...],
    words: tuple[str, ...],
) -> tuple[int, ...]:
    """The seats that write the passer's consolation on a remiz (docs/rules.md §3.10.3).

    Normally the passers themselves. On a returned whist (a defender ``out``) with
    ``returned_whist_consolation: both``, the returner writes the half-whister's share:
    the lone whister stands in for the passer (gchet score.go). Whether the passer
    consoles at all is still ``consolation``'s to say.
    """
    if OUT in words and convention.returned_whist_consolation == "both":
        return whisters
    return passers
