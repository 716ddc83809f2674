"""The rules in words for gchet's two rules (docs/rules.md §3.3, §3.10.3).

The zero-trick bonus scaled to the gora (``allpass_zero_bonus: pulya_scaled``) and whose
consolations a returned whist writes (``returned_whist_consolation``); ``scoring.rules_text``
registers these beside its own.
"""

from __future__ import annotations

from collections.abc import Callable

from django.utils.translation import gettext as _

from scoring.engine.conventions import Convention


def zero_bonus_scaled(conv: Convention) -> str:
    """The sentence for ``allpass_zero_bonus: pulya_scaled`` (docs/rules.md §3.3)."""
    if conv.gora_scale == 1:
        return _(
            "A player who takes no trick on an all-pass writes the all-pass price to his pulya."
        )
    return _(
        "A player who takes no trick on an all-pass writes to his pulya what a trick of "
        "that all-pass costs in the gora: the all-pass price times %(scale)s."
    ) % {"scale": conv.gora_scale}


def _returned_whist_consolation(conv: Convention) -> str | None:
    if not conv.half_whist_levels or not conv.returned_whist_alone:
        return None
    if conv.returned_whist_consolation == "both":
        return _(
            "When the declarer goes down against a returned whist, the returner writes "
            "the half-whister's consolation as well as his own."
        )
    return _(
        "When the declarer goes down against a returned whist, the returner writes his own "
        "consolation only."
    )


GCHET_SENTENCES: dict[str, Callable[[Convention], str | None]] = {
    "returned_whist_consolation": _returned_whist_consolation,
}
