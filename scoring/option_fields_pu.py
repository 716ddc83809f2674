"""PU's three house rules, as model fields.

An abstract model that ``scoring.option_fields.ConventionOptions`` inherits, as it does
``FactOptions``: ``help_order`` (docs/rules.md §3.4), ``checked_ten_trick_whists``
(§3.1.7) and ``allpass_zero_bonus_excludes_dealer`` (§3.3), kept apart so that the
options module stays short. Their defaults are Sochi's, today's scoring.
"""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _

from scoring.engine.conventions import Convention as EngineConvention

from .choices import HelpOrder

_SOCHI = EngineConvention()


class PuOptions(models.Model):
    """Who receives help, a checked ten's trick whists, the dealer's zero bonus."""

    help_order = models.CharField(
        _("help goes to"),
        max_length=12,
        choices=HelpOrder.choices,
        default=_SOCHI.help_order,
        help_text=_("помощь: which unclosed pulya receives the points first (needs help)."),
    )
    checked_ten_trick_whists = models.BooleanField(
        _("trick whists on a checked ten"),
        default=_SOCHI.checked_ten_trick_whists,
        help_text=_(
            "проверяемая десятерная: on a failed checked ten the defenders write whists for "
            "their tricks as on any contract (needs a checked ten)."
        ),
    )
    allpass_zero_bonus_excludes_dealer = models.BooleanField(
        _("no bonus for no trick to the dealer"),
        default=_SOCHI.allpass_zero_bonus_excludes_dealer,
        help_text=_(
            "распасы: the dealer never earns the bonus for taking no trick, with three "
            "players neither."
        ),
    )

    class Meta:
        abstract = True
