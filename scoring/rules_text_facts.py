"""The rules in words for the options of docs/rules.md §3.10 (deals with facts of their own).

One translated sentence per option value, as ``scoring.rules_text`` gives for the
others; that module registers these beside its own.
"""

from __future__ import annotations

from collections.abc import Callable

from django.utils.translation import gettext as _

from scoring.engine.conventions import Convention


def _concede_levels(conv: Convention) -> str:
    if not conv.concede_levels:
        return _("A declarer may not concede before play (no уход без трёх).")
    return _(
        "A declarer may concede a %(levels)s before play (уход без трёх): he writes "
        "three undertricks into his gora, and nobody writes whists."
    ) % {"levels": ", ".join(str(level) for level in sorted(conv.concede_levels))}


def _half_whist_first(conv: Convention) -> str | None:
    if not conv.half_whist_levels:
        return None
    if conv.half_whist_first:
        return _("Either defender may half-whist, the other passing.")
    return _("Only the second defender may half-whist, after the first passed.")


def _returned_whist_alone(conv: Convention) -> str | None:
    if not conv.half_whist_levels:
        return None
    if conv.returned_whist_alone:
        return _(
            "A defender who returns to whist after the other's half-whist writes every "
            "whist of the defence; the half-whister writes nothing."
        )
    return _("A whist returned after a half-whist is an ordinary whist and pass.")


def _dealer_whist(conv: Convention) -> str:
    if conv.dealer_whist == "unliable":
        return _(
            "With 4 players the dealer may whist when neither defender did: he writes every "
            "whist of the defence and one consolation, and pays nothing for missing tricks."
        )
    if conv.dealer_whist == "liable":
        return _(
            "With 4 players the dealer may whist when neither defender did: he writes every "
            "whist of the defence and both defenders' consolations, and pays for missing "
            "tricks as a lone whister."
        )
    return _("The dealer never whists.")


def _totus_bonus(conv: Convention) -> str:
    if conv.totus_bonus:
        return _(
            "A ten declared as totus writes %(bonus)s more into the pulya when it goes there."
        ) % {"bonus": conv.totus_bonus}
    return _("A totus is an ordinary ten.")


def _talon_shown_penalty(conv: Convention) -> str:
    if conv.talon_shown_penalty == "whists":
        return _(
            "When the talon was shown, the declarer writes twice the whist price of the "
            "contract on the dealer."
        )
    if conv.talon_shown_penalty == "gora":
        return _("When the talon was shown, the dealer writes one undertrick into his gora.")
    return _("A shown talon costs nothing.")


FACT_SENTENCES: dict[str, Callable[[Convention], str | None]] = {
    "concede_levels": _concede_levels,
    "half_whist_first": _half_whist_first,
    "returned_whist_alone": _returned_whist_alone,
    "dealer_whist": _dealer_whist,
    "totus_bonus": _totus_bonus,
    "talon_shown_penalty": _talon_shown_penalty,
}
