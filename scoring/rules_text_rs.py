"""The rules in words for RS's two options (docs/rules.md §3.7 ``mountain_divisor``,
§3.10.7 ``half_whist_played``).

One translated sentence per option value, as ``scoring.rules_text`` gives for the others;
that module registers these beside its own.
"""

from __future__ import annotations

from collections.abc import Callable

from django.utils.translation import gettext as _

from scoring.engine.conventions import Convention


def _mountain_divisor(conv: Convention) -> str:
    if conv.mountain_divisor == "others":
        return _(
            "At settlement each gora point costs its owner 10 whists, shared by the other "
            "players (5 each with three players)."
        )
    return _(
        "At settlement each gora point is 10 whists shared by every player, its owner "
        "too: the average mountain."
    )


def _half_whist_played(conv: Convention) -> str | None:
    if not conv.half_whist_levels:
        return None
    if conv.half_whist_played:
        return _(
            "A half-whisted contract may be played out: the half-whister writes the "
            "defence's tricks up to half the duty (2 on a six, 1 on a seven) and pays for "
            "each trick short of it; with no tricks given it is not played."
        )
    return _("A half-whisted contract is never played out.")


RS_SENTENCES: dict[str, Callable[[Convention], str | None]] = {
    "mountain_divisor": _mountain_divisor,
    "half_whist_played": _half_whist_played,
}
