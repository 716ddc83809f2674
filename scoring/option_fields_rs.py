"""RS's two options (docs/rules.md §3.7 ``mountain_divisor``, §3.10.7 ``half_whist_played``)
as model fields.

An abstract model that ``scoring.option_fields.ConventionOptions`` inherits, kept apart so
that the options module stays short; the engine's Sochi values are the defaults.
"""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _

from scoring.engine.conventions import Convention as EngineConvention

from .choices import MountainDivisor

_SOCHI = EngineConvention().to_options()


class RsOptions(models.Model):
    """How the gora is shared at settlement, and a half-whist played out."""

    mountain_divisor = models.CharField(
        _("each gora point is shared by"),
        max_length=12,
        choices=MountainDivisor.choices,
        default=_SOCHI["mountain_divisor"],
        help_text=_(
            "At settlement a gora point is worth 10 whists, shared by every player (the "
            "Кодекс) or by the other players only."
        ),
    )
    half_whist_played = models.BooleanField(
        _("a half-whist may be played out"),
        default=_SOCHI["half_whist_played"],
        help_text=_(
            "полвиста с розыгрышем: with the tricks given, the half-whister writes the "
            "defence's tricks up to his quota and pays for the tricks short of it."
        ),
    )

    class Meta:
        abstract = True
