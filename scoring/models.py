"""Conventions as clubs edit them in the admin, mirrored by the engine's Convention.

Every option of docs/protocol.md ("Convention options") is a typed field
(``scoring.option_fields``, choices in ``scoring.choices``). The engine stays the one
judge of what is valid: ``clean()`` builds the engine's Convention and turns its
``ConventionError`` into a message next to the field it names.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.core.exceptions import NON_FIELD_ERRORS, ValidationError
from django.db import models
from django.db.models import Count, Q
from django.urls import reverse
from django.utils.functional import Promise
from django.utils.text import slugify
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from prefscore.clubs.models import Club, Role
from scoring.engine.conventions import Convention as EngineConvention
from scoring.engine.conventions import from_options
from scoring.engine.errors import ConventionError
from scoring.messages import message_for

from .choices import Consoler, HalfWhistLevel
from .option_fields import (
    OPTION_FIELD_NAMES,
    OPTION_TOPICS,
    PRICE_FIELDS,
    ConventionOptions,
    fields_by_topic,
    option_fields,
)
from .option_fields import SOCHI_OPTIONS as _SOCHI

if TYPE_CHECKING:
    from django.contrib.auth.models import AnonymousUser
    from django.contrib.auth.models import User as Account

    # The project's user model is Django's own (no AUTH_USER_MODEL of its own).
    User = Account | AnonymousUser

# The options' names and choices, defined beside (choices, option_fields), are named here
# too: the admin, the pages and the tests take them with the model.
__all__ = [
    "OPTION_FIELD_NAMES",
    "OPTION_TOPICS",
    "PRESET_DESCRIPTIONS",
    "PRESET_LABELS",
    "PRESET_SLUGS",
    "PRICE_FIELDS",
    "RESERVED_SLUGS",
    "Consoler",
    "Convention",
    "ConventionQuerySet",
    "HalfWhistLevel",
    "admin_clubs",
    "fields_by_topic",
    "free_slug",
    "option_fields",
    "translated",
]

# Slugs the player pages' URLs use for themselves (/conventions/compare/).
RESERVED_SLUGS = frozenset({"compare"})

PRESET_SLUGS = (
    "sochi",
    "leningrad",
    "rostov",
    "fspr",
    # The peers' own conventions (docs/rules.md §3.9, second table), read-only like the rest.
    "pu-home",
    "pu-fspr",
    "rs-sochi",
    "gchet",
)
# The presets' names in words, for their pages and for pulkas played under them
# (scoring.conventions).
PRESET_LABELS: dict[str, Promise] = {
    "sochi": _("Sochi"),
    "leningrad": _("Leningrad"),
    "rostov": _("Rostov"),
    "fspr": _("FSPR (tournament)"),
    "pu-home": _("PU home"),
    "pu-fspr": _("FSPR (PU)"),
    "rs-sochi": _("RS Sochi"),
    "gchet": _("gchet"),
}

# The presets' descriptions as scoring.0002_presets and 0006_presets_peers store them, for
# translation.
PRESET_DESCRIPTIONS: dict[str, Promise] = {
    "sochi": _("The convention of the Кодекс преферанса (сочинка)."),
    "leningrad": _("The Leningrad convention (ленинградка, питерка)."),
    "rostov": _("The Rostov convention (ростовка)."),
    "fspr": _("The tournament convention of the ФСПР («Ленинградская»), played on time."),
    "pu-home": _(
        "The home convention of the pulka app (refinishru-Andre/pulka): Piter prices, "
        "greedy whist, all-passes at 2-4-6, exit 6-7-8."
    ),
    "pu-fspr": _(
        "The ФСПР tournament convention as the pulka app (refinishru-Andre/pulka) plays it."
    ),
    "rs-sochi": _(
        "The Sochi convention of the Preferans Score app (rostiktc2-star/preferans-score): "
        "responsible greedy whist, no consolation, all-passes at 1-2-3."
    ),
    "gchet": _(
        "The default rules of gchet/Preferans: Piter prices, gentleman whist, checked ten, "
        "all-passes at 2-4-8, played to a total."
    ),
}


def _not_reserved(slug: str) -> None:
    if slug in RESERVED_SLUGS:
        raise ValidationError(
            _("“%(slug)s” is taken by the site's own pages: choose another."),
            params={"slug": slug},
            code="reserved",
        )


class ConventionQuerySet(models.QuerySet["Convention"]):
    def presets(self) -> ConventionQuerySet:
        return self.filter(is_preset=True)

    def available_to(self, club: Club | None) -> ConventionQuerySet:
        """What a pulka of ``club`` may be played under: presets and the club's own.

        A convention without an owner (the presets, or one a superuser made for every
        club) is available to all.
        """
        shared = Q(owner__isnull=True)
        return self.filter(shared | Q(owner=club) if club is not None else shared)

    def visible_to(self, user: User) -> ConventionQuerySet:
        """Presets and the conventions of the user's clubs: what the player pages show."""
        if not user.is_authenticated:
            return self.none()
        if user.is_superuser:
            return self.all()
        return self.filter(Q(owner__isnull=True) | Q(owner__in=Club.objects.for_user(user)))

    def editable_by(self, user: User) -> ConventionQuerySet:
        """Conventions the user may change: his admin clubs' own (all for a superuser).

        Presets are never editable: duplicate one to change it.
        """
        if not user.is_authenticated or not user.is_active:
            return self.none()
        editable = self.filter(is_preset=False)
        if user.is_superuser:
            return editable
        return editable.filter(owner__in=admin_clubs(user))

    def with_pulka_count(self) -> ConventionQuerySet:
        return self.annotate(pulka_count=Count("pulkas", distinct=True))


def admin_clubs(user: User) -> models.QuerySet[Club]:
    """The clubs in which the user holds the admin role."""
    if not user.is_authenticated:
        return Club.objects.none()
    return Club.objects.filter(memberships__user=user, memberships__role=Role.ADMIN)


class Convention(ConventionOptions):
    """A named set of every scoring option; a pulka keeps a copy of it (docs/design.md)."""

    name = models.CharField(_("name"), max_length=200)
    slug = models.SlugField(
        _("short name for links"),
        max_length=60,
        unique=True,
        validators=[_not_reserved],
        help_text=_("Latin letters, digits and hyphens, as in /conventions/sochi/."),
    )
    description = models.TextField(_("description"), blank=True)
    owner = models.ForeignKey(
        Club,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="conventions",
        verbose_name=_("club"),
        help_text=_("The club that plays it. Empty: every club may use it."),
    )
    is_preset = models.BooleanField(
        _("built-in preset"),
        default=False,
        editable=False,
        help_text=_("Presets are read-only: duplicate one to change it."),
    )

    objects = ConventionQuerySet.as_manager()

    class Meta:
        verbose_name = _("convention")
        verbose_name_plural = _("conventions")
        ordering = ["-is_preset", "name"]

    def __str__(self) -> str:
        return self.display_name

    def get_absolute_url(self) -> str:
        return reverse("conventions:detail", args=[self.slug])

    @property
    def display_name(self) -> str:
        """The name in the reader's language for a preset; a club's name as written."""
        label = PRESET_LABELS.get(self.slug) if self.is_preset else None
        return str(label) if label is not None else self.name

    @property
    def display_description(self) -> str:
        """A preset's description in the reader's language; a club's as written."""
        label = PRESET_DESCRIPTIONS.get(self.slug) if self.is_preset else None
        return str(label) if label is not None else self.description

    @classmethod
    def from_engine(cls, conv: EngineConvention, **fields: Any) -> Convention:
        """An unsaved Convention with ``conv``'s options and the given other fields."""
        convention = cls(**fields)
        convention.apply_engine(conv)
        return convention

    def duplicate(self, owner: Club | None) -> Convention:
        """An editable copy, saved, under a free slug: how a club changes a preset."""
        copy = Convention.from_engine(
            self.to_engine(),
            name=gettext("%(name)s (copy)") % {"name": self.display_name},
            slug=free_slug(f"{self.slug}-copy"),
            description=self.description,
            owner=owner,
        )
        copy.name = copy.name[: Convention._meta.get_field("name").max_length]
        copy.save()
        return copy

    def clean(self) -> None:
        super().clean()
        try:
            conv = self.to_engine()
        except ConventionError as error:
            raise ValidationError(self._errors_for(error)) from None
        # Store lists as the engine orders them (consolers in seat-role order).
        self.apply_engine(conv)

    def _errors_for(self, error: ConventionError) -> dict[str, list[ValidationError]]:
        message = translated(error)
        if error.option == "prices":
            fields = self._bad_price_fields() or [PRICE_FIELDS["6"]]
        elif error.option in OPTION_FIELD_NAMES:
            fields = [error.option]
        else:
            fields = [NON_FIELD_ERRORS]
        return {field: [message] for field in fields}

    def _bad_price_fields(self) -> list[str]:
        """The price fields the engine refuses each on its own (Sochi's others)."""
        bad = []
        for key, field in PRICE_FIELDS.items():
            prices = {**_SOCHI["prices"], key: getattr(self, field)}
            try:
                from_options({"prices": prices})
            except ConventionError:
                bad.append(field)
        return bad


def free_slug(wanted: str) -> str:
    """``wanted`` slugified, with -2, -3, … added until no convention has it."""
    max_length = Convention._meta.get_field("slug").max_length or 60
    base = (slugify(wanted) or "convention")[: max_length - 4]
    taken = set(
        Convention.objects.filter(slug__startswith=base).values_list("slug", flat=True)
    ) | set(RESERVED_SLUGS)
    slug, number = base, 1
    while slug in taken:
        number += 1
        slug = f"{base}-{number}"
    return slug


def translated(error: ConventionError) -> ValidationError:
    """The engine's error, by its code, in the reader's language."""
    return ValidationError(message_for(error), code="convention")
