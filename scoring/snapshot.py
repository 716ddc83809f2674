"""The convention a pulka or a tournament is played under, as it stood when it started.

Pulkas (``prefscore.games``) and tournaments (``prefscore.tournaments``) both keep one;
it lives here, next to ``scoring.models.Convention``, which it is copied from.
"""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _

from scoring.engine.conventions import Convention, from_options


class ConventionSnapshot(models.Model):
    """A convention's every option, copied when a pulka or tournament starts.

    Editing a convention never re-scores a game that started under it (docs/design.md).
    """

    convention_name = models.CharField(_("convention"), max_length=200)
    convention_options = models.JSONField(_("convention options (snapshot)"))
    # Where the snapshot came from, for "pulkas using it"; never read back for scoring.
    convention_source = models.ForeignKey(
        "scoring.Convention",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="%(class)ss",
        verbose_name=_("started from convention"),
    )

    class Meta:
        abstract = True

    @property
    def convention(self) -> Convention:
        """The engine's convention from the snapshot."""
        return from_options(self.convention_options)
