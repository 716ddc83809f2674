"""The rules in words for PU's three house rules (docs/rules.md §3.9, second table).

One translated sentence per value, as ``scoring.rules_text`` gives for the others, which
registers these beside its own: ``help_order`` (docs/rules.md §3.4),
``checked_ten_trick_whists`` (§3.1.7), ``allpass_zero_bonus_excludes_dealer`` (§3.3).
``None`` where the option changes nothing under the others.
"""

from __future__ import annotations

from collections.abc import Callable

from django.utils.translation import gettext as _

from scoring.engine.conventions import Convention


def help_clockwise() -> str:
    """The help sentence when help goes to the next pulya clockwise (docs/rules.md §3.4)."""
    return _(
        "Help (помощь): a player whose pulya is closed gives his further pulya points to "
        "the next unclosed pulya clockwise, whatever its size, and writes 10 whists per "
        "point on its owner."
    )


def _help_order(conv: Convention) -> str | None:
    if not conv.help:
        return None
    if conv.help_order == "clockwise":
        return _("Help fills the pulyas clockwise from the giver, one after another.")
    return _("Of two pulyas as large, the one nearer clockwise from the giver is helped first.")


def _checked_ten_trick_whists(conv: Convention) -> str | None:
    if conv.ten != "checked":
        return None
    if conv.checked_ten_trick_whists:
        return _(
            "On a failed checked ten the defenders write whists for their tricks, as on any "
            "contract."
        )
    return _("On a failed checked ten nobody writes whists for tricks.")


def _allpass_zero_bonus_excludes_dealer(conv: Convention) -> str | None:
    if not conv.allpass_zero_bonus_excludes_dealer or conv.allpass_zero_bonus == "none":
        return None
    return _("The dealer never earns the bonus for taking no trick, with three players neither.")


PU_SENTENCES: dict[str, Callable[[Convention], str | None]] = {
    "help_order": _help_order,
    "checked_ten_trick_whists": _checked_ten_trick_whists,
    "allpass_zero_bonus_excludes_dealer": _allpass_zero_bonus_excludes_dealer,
}
