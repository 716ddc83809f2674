"""The rules in words for the house rules of the defence and of help.

One translated sentence per value, as ``rules_text`` has for the other options
(docs/rules.md §3.1, §3.4); ``None`` where the option changes nothing under the others.
"""

from __future__ import annotations

from collections.abc import Callable

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from scoring.engine.conventions import Convention


def _gentleman_on_made(conv: Convention) -> str | None:
    if conv.whist_style != "gentleman":
        return None
    if conv.gentleman_on_made:
        return _(
            "The whister and the passer split the defence's trick whists on a made contract "
            "too, not only on a failed one."
        )
    return _("On a made contract the whister keeps all the defence's trick whists.")


def _personal_quota(conv: Convention) -> str:
    if conv.personal_quota:
        return _(
            "Personal quota (личная норма): on a six or a seven each of two whisters pays for "
            "the tricks he himself took short of half the duty, even when the pair took enough."
        )
    return _(
        "Two whisters on a six or a seven pay only when the pair took fewer tricks than its duty."
    )


def _checked_ten_consolation(conv: Convention) -> str | None:
    if conv.ten != "checked":
        return None
    if conv.checked_ten_consolation == "defenders":
        return _("On a failed checked ten both defenders console, as for a whisted contract.")
    return _("On a failed checked ten nobody writes consolation.")


def _help_writeoff(conv: Convention) -> str | None:
    if not conv.help:
        return None
    if conv.help_writeoff == "points":
        return _(
            "When every pulya is closed, the points nobody can take come off the giver's gora, "
            "one gora point per pulya point."
        )
    return ngettext(
        "When every pulya is closed, the points nobody can take come off the giver's gora at "
        "the settlement rate, %(rate)s gora point per pulya point.",
        "When every pulya is closed, the points nobody can take come off the giver's gora at "
        "the settlement rate, %(rate)s gora points per pulya point.",
        conv.pulya_to_gora,
    ) % {"rate": conv.pulya_to_gora}


def _help_writeoff_stops_at_zero(conv: Convention) -> str | None:
    if not conv.help:
        return None
    if conv.help_writeoff_stops_at_zero:
        return _("That write-off never takes the gora below 0.")
    return _("That write-off may take the gora below 0.")


DEFENCE_SENTENCES: dict[str, Callable[[Convention], str | None]] = {
    "gentleman_on_made": _gentleman_on_made,
    "personal_quota": _personal_quota,
    "checked_ten_consolation": _checked_ten_consolation,
    "help_writeoff": _help_writeoff,
    "help_writeoff_stops_at_zero": _help_writeoff_stops_at_zero,
}
