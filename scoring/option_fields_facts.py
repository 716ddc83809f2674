"""The options of docs/rules.md §3.10 (deals with facts of their own) as model fields.

An abstract model that ``scoring.option_fields.ConventionOptions`` inherits: the six
options of those rare deals, kept apart so that the options module stays short.
"""

from __future__ import annotations

from typing import Any

from django.db import models
from django.utils.translation import gettext_lazy as _

from scoring.engine.conventions import Convention as EngineConvention

from .choices import DealerWhist, TalonShownPenalty

_SOCHI = EngineConvention().to_options()


def _option(name: str) -> dict[str, Any]:
    """The default (Sochi's value, which allows none of these deals) for a field."""
    return {"default": _SOCHI[name]}


def sochi_concede_levels() -> list[int]:
    return list(_SOCHI["concede_levels"])


class FactOptions(models.Model):
    """Rare deals: each option allows a fact of the deal (docs/rules.md §3.10)."""

    # Rare deals: facts of their own in the deal (docs/rules.md §3.10)
    concede_levels = models.JSONField(
        _("conceding without three on"),
        blank=True,
        default=sochi_concede_levels,
        help_text=_(
            "уход без трёх: the contracts the declarer may concede before play, writing "
            "three undertricks and no whists; empty: never."
        ),
    )
    half_whist_first = models.BooleanField(
        _("half-whist by the first defender"),
        **_option("half_whist_first"),
        help_text=_("полвиста первого защитника: the first defender may half-whist too."),
    )
    returned_whist_alone = models.BooleanField(
        _("a returned whist is played alone"),
        **_option("returned_whist_alone"),
        help_text=_(
            "пас — полвиста — вист: the defender who returns to whist writes every whist; "
            "the half-whister writes nothing."
        ),
    )
    dealer_whist = models.CharField(
        _("the dealer whists"),
        max_length=12,
        choices=DealerWhist.choices,
        **_option("dealer_whist"),
        help_text=_(
            "вистующий сдатчик: with 4 players the dealer may whist when neither defender did."
        ),
    )
    totus_bonus = models.PositiveIntegerField(
        _("totus bonus"),
        **_option("totus_bonus"),
        help_text=_(
            "тотус: pulya added to a ten declared as totus when it is written to the pulya; "
            "0: no totus of its own."
        ),
    )
    talon_shown_penalty = models.CharField(
        _("a shown talon costs the dealer"),
        max_length=12,
        choices=TalonShownPenalty.choices,
        **_option("talon_shown_penalty"),
        help_text=_("засвеченный прикуп: what the dealer pays when the talon was shown."),
    )

    class Meta:
        abstract = True
