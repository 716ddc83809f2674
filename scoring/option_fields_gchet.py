"""gchet's returned-whist consolation (docs/rules.md §3.10.3) as a model field.

An abstract model that ``scoring.option_fields.ConventionOptions`` inherits, kept apart so
that the options module stays short. (gchet's other rule, the zero-trick bonus scaled to
the gora, is a value of ``allpass_zero_bonus``: ``scoring.choices.ZeroBonus``.)
"""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _

from scoring.engine.conventions import Convention as EngineConvention

from .choices import ReturnedWhistConsolation

_SOCHI = EngineConvention().to_options()


class GchetOptions(models.Model):
    """Whose consolations a returned whist writes on a remiz (docs/rules.md §3.10.3)."""

    returned_whist_consolation = models.CharField(
        _("a returned whist consoles with"),
        max_length=12,
        choices=ReturnedWhistConsolation.choices,
        default=_SOCHI["returned_whist_consolation"],
        help_text=_(
            "пас — полвиста — вист: on a remiz the returner writes his own consolation, or "
            "the half-whister's too (needs a returned whist played alone)."
        ),
    )

    class Meta:
        abstract = True
