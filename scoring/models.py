"""Conventions as clubs edit them in the admin, mirrored by the engine's Convention.

Every option of protocol.md ("Convention options") is a typed field here. The engine
stays the one judge of what is valid: ``clean()`` builds the engine's Convention and
turns its ``ConventionError`` into a message next to the field it names.
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
from scoring.engine.conventions import OPTION_NAMES, PRICE_KEYS, from_options
from scoring.engine.conventions import Convention as EngineConvention
from scoring.engine.errors import ConventionError
from scoring.messages import message_for

if TYPE_CHECKING:
    from django.contrib.auth.models import AbstractBaseUser, AnonymousUser

    User = AbstractBaseUser | AnonymousUser

# The engine's defaults are Sochi's (protocol.md, "Preset defaults"): a new convention
# starts as a copy of Sochi, and a field the form rejected keeps a valid value.
_SOCHI = EngineConvention().to_options()

PRICE_FIELDS: dict[str, str] = {key: f"price_{key}" for key in PRICE_KEYS}

# The options by topic, in the order the admin and the player pages show them.
OPTION_TOPICS: tuple[tuple[Promise, tuple[str, ...]], ...] = (
    (_("Prices"), ("prices", "whist_scale", "gora_scale")),
    (
        _("Whist"),
        (
            "whist_style",
            "whister_liability",
            "joint_liability",
            "half_whist_levels",
            "ten",
            "consolation",
            "consolation_unit",
            "misere_consolation",
            "prikup_whists",
        ),
    ),
    (
        _("All-pass"),
        (
            "allpass_scoring",
            "allpass_ladder",
            "allpass_amnesty",
            "allpass_zero_bonus",
            "allpass_dealer_talon",
            "allpass_whist_rate",
            "allpass_reset",
            "allpass_max_run",
            "exit_ladder",
        ),
    ),
    (
        _("Pulya and help"),
        ("help", "help_excludes_remized_whister", "help_excludes_dealer", "end", "deal_limit"),
    ),
    (
        _("Settlement"),
        ("pulya_to_gora", "rounding", "rounding_compensation_4", "indivisible_mountain"),
    ),
)

# Slugs the player pages' URLs use for themselves (/conventions/compare/).
RESERVED_SLUGS = frozenset({"compare"})

PRESET_SLUGS = ("sochi", "leningrad", "rostov", "fspr")
# The same words as prefscore.games.conventions uses for pulkas played under a preset.
PRESET_LABELS: dict[str, Promise] = {
    "sochi": _("Sochi"),
    "leningrad": _("Leningrad"),
    "rostov": _("Rostov"),
    "fspr": _("FSPR (tournament)"),
}

# The presets' descriptions as scoring.0002_presets stores them, for translation.
PRESET_DESCRIPTIONS: dict[str, Promise] = {
    "sochi": _("The convention of the Кодекс преферанса (сочинка)."),
    "leningrad": _("The Leningrad convention (ленинградка, питерка)."),
    "rostov": _("The Rostov convention (ростовка)."),
    "fspr": _("The tournament convention of the ФСПР («Ленинградская»), played on time."),
}


def option_fields(option: str) -> tuple[str, ...]:
    """The model fields that hold one engine option (``prices`` takes six)."""
    if option == "prices":
        return tuple(PRICE_FIELDS.values())
    return (option,)


def fields_by_topic() -> list[tuple[Promise, list[str]]]:
    """Model field names grouped as :data:`OPTION_TOPICS` groups the options."""
    return [
        (title, [field for option in options for field in option_fields(option)])
        for title, options in OPTION_TOPICS
    ]


OPTION_FIELD_NAMES: tuple[str, ...] = tuple(
    field for _title, fields in fields_by_topic() for field in fields
)


def _not_reserved(slug: str) -> None:
    if slug in RESERVED_SLUGS:
        raise ValidationError(
            _("“%(slug)s” is taken by the site's own pages: choose another."),
            params={"slug": slug},
            code="reserved",
        )


class WhistStyle(models.TextChoices):
    GREEDY = "greedy", _("greedy (жлобский)")
    GENTLEMAN = "gentleman", _("gentleman (джентльменский)")


class Liability(models.TextChoices):
    FULL = "full", _("responsible (ответственный)")
    HALF = "half", _("half-responsible (полуответственный)")


class JointLiability(models.TextChoices):
    SECOND = "second", _("the second whister")
    BOTH = "both", _("both whisters")


class Ten(models.TextChoices):
    WHISTED = "whisted", _("whisted (вистуется)")
    CHECKED = "checked", _("checked, not whisted (проверяется)")


class Consoler(models.TextChoices):
    WHISTERS = "whisters", _("the whisters")
    PASSER = "passer", _("the passer")
    DEALER = "dealer", _("the dealer (4–5 players)")


class HalfWhistLevel(models.IntegerChoices):
    SIX = 6, _("six")
    SEVEN = 7, _("seven")


class ConsolationUnit(models.TextChoices):
    PRICE = "price", _("the contract's price")
    FLAT10 = "flat10", _("a flat 10 whists")


class AllpassScoring(models.TextChoices):
    GORA = "gora", _("in the gora (Sochi, Leningrad)")
    WHISTS = "whists", _("in whists (Rostov)")


class ZeroBonus(models.TextChoices):
    PULYA = "pulya", _("the price to the pulya")
    GORA = "gora", _("the price off the gora")
    GORA_DOUBLE = "gora_double", _("twice the price off the gora")
    NONE = "none", _("nothing")


class AllpassReset(models.TextChoices):
    ANY_GAME = "any_game", _("any game")
    WHISTED_GAME = "whisted_game", _("a whisted game")
    GAME_OR_MISERE = "game_or_misere", _("a game to the pulya or a misère")


class End(models.TextChoices):
    ALL_CLOSED = "all_closed", _("when every pulya is closed")
    SUM_REACHED = "sum_reached", _("when the pulyas add up to the total")
    DEALS = "deals", _("after a number of deals")


class Rounding(models.TextChoices):
    EXACT = "exact", _("exact, by largest remainder")
    CODEX = "codex", _("by the Кодекс 4.2.12")


class PulyaToGora(models.IntegerChoices):
    ONE = 1, _("1 gora point per pulya point")
    TWO = 2, _("2 gora points per pulya point")


class Compensation(models.IntegerChoices):
    TWO = 2, _("2 whists")
    THREE = 3, _("3 whists")


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


def _option(name: str) -> dict[str, Any]:
    """The default (Sochi's value) for an option's field."""
    return {"default": _SOCHI[name]}


# Lists need a callable default, so that no two conventions share one list object.
def sochi_half_whist_levels() -> list[int]:
    return list(_SOCHI["half_whist_levels"])


def sochi_consolation() -> list[str]:
    return list(_SOCHI["consolation"])


def sochi_allpass_ladder() -> list[int]:
    return list(_SOCHI["allpass_ladder"])


def sochi_exit_ladder() -> list[int]:
    return list(_SOCHI["exit_ladder"])


class Convention(models.Model):
    """A named set of every scoring option; a pulka keeps a copy of it (design.md)."""

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

    # Prices (rules.md §2)
    price_6 = models.PositiveIntegerField(
        _("price of a six"),
        default=_SOCHI["prices"]["6"],
        help_text=_("цена шестерной: pulya for a six made, gora per undertrick (2)."),
    )
    price_7 = models.PositiveIntegerField(
        _("price of a seven"),
        default=_SOCHI["prices"]["7"],
        help_text=_("цена семерной (4)."),
    )
    price_8 = models.PositiveIntegerField(
        _("price of an eight"),
        default=_SOCHI["prices"]["8"],
        help_text=_("цена восьмерной (6)."),
    )
    price_9 = models.PositiveIntegerField(
        _("price of a nine"),
        default=_SOCHI["prices"]["9"],
        help_text=_("цена девятерной (8)."),
    )
    price_10 = models.PositiveIntegerField(
        _("price of a ten"),
        default=_SOCHI["prices"]["10"],
        help_text=_("цена десятерной (10)."),
    )
    price_misere = models.PositiveIntegerField(
        _("price of a misère"),
        default=_SOCHI["prices"]["misere"],
        help_text=_("цена мизера (10)."),
    )
    whist_scale = models.PositiveIntegerField(
        _("whist scale"),
        **_option("whist_scale"),
        help_text=_("множитель вистов: whists per defence trick = price × this (Leningrad 2)."),
    )
    gora_scale = models.PositiveIntegerField(
        _("gora scale"),
        **_option("gora_scale"),
        help_text=_("множитель горы: gora per undertrick = price × this (Leningrad 2)."),
    )

    # Whist (rules.md §3.1)
    whist_style = models.CharField(
        _("whist style"),
        max_length=12,
        choices=WhistStyle.choices,
        **_option("whist_style"),
        help_text=_(
            "жлобский / джентльменский вист: with one whister and a passer on a failed "
            "contract, the whister writes all the defence's tricks, or they split them."
        ),
    )
    whister_liability = models.CharField(
        _("whister's liability"),
        max_length=12,
        choices=Liability.choices,
        **_option("whister_liability"),
        help_text=_(
            "ответственный / полуответственный вист: a whister short of his tricks pays "
            "the full or half price per missing trick."
        ),
    )
    joint_liability = models.CharField(
        _("two whisters without a trick"),
        max_length=12,
        choices=JointLiability.choices,
        **_option("joint_liability"),
        help_text=_(
            "недовист на 8, 9, 10: who pays when two whisters take no trick against an "
            "eight, nine or ten."
        ),
    )
    half_whist_levels = models.JSONField(
        _("half-whist on"),
        blank=True,
        default=sochi_half_whist_levels,
        help_text=_("полвиста: the contracts on which a half-whist is allowed."),
    )
    ten = models.CharField(
        _("a ten"),
        max_length=12,
        choices=Ten.choices,
        **_option("ten"),
        help_text=_("десятерная вистуется / проверяется: whether a ten is whisted."),
    )
    consolation = models.JSONField(
        _("consolation from"),
        blank=True,
        default=sochi_consolation,
        help_text=_("консоляция: who writes consolation whists on a declarer who went down."),
    )
    consolation_unit = models.CharField(
        _("consolation per undertrick"),
        max_length=12,
        choices=ConsolationUnit.choices,
        **_option("consolation_unit"),
        help_text=_("консоляция: the contract's price per undertrick, or a flat 10 whists."),
    )
    misere_consolation = models.BooleanField(
        _("consolation on a caught misère"),
        **_option("misere_consolation"),
        help_text=_("консоляция на мизере: the others write 10 whists per trick taken."),
    )
    prikup_whists = models.BooleanField(
        _("whists for the talon"),
        **_option("prikup_whists"),
        help_text=_("висты за прикуп: whists for fast tricks the declarer finds in the talon."),
    )

    # All-pass (rules.md §3.3)
    allpass_scoring = models.CharField(
        _("all-pass scored"),
        max_length=12,
        choices=AllpassScoring.choices,
        **_option("allpass_scoring"),
        help_text=_("распасы в гору / на висты: all-pass in the gora, or in whists as in Rostov."),
    )
    allpass_ladder = models.JSONField(
        _("all-pass prices"),
        default=sochi_allpass_ladder,
        help_text=_(
            "прогрессия на распасах: the price of a trick on the 1st, 2nd, … all-pass in "
            "a row, separated by commas; the last one repeats (1, 2, 3)."
        ),
    )
    allpass_amnesty = models.BooleanField(
        _("all-pass amnesty"),
        **_option("allpass_amnesty"),
        help_text=_("амнистия на распасах: subtract the smallest trick count first."),
    )
    allpass_zero_bonus = models.CharField(
        _("no trick on an all-pass earns"),
        max_length=12,
        choices=ZeroBonus.choices,
        **_option("allpass_zero_bonus"),
        help_text=_("ноль взяток на распасах: what a player who takes no trick gets."),
    )
    allpass_dealer_talon = models.BooleanField(
        _("dealer plays the talon"),
        **_option("allpass_dealer_talon"),
        help_text=_(
            "сдающий играет прикупом: with 4 players the dealer plays the talon cards on "
            "an all-pass (all-pass in the gora only)."
        ),
    )
    allpass_whist_rate = models.PositiveIntegerField(
        _("all-pass whists per trick"),
        **_option("allpass_whist_rate"),
        help_text=_("распасы на висты (Rostov): whists per trick (5)."),
    )
    allpass_reset = models.CharField(
        _("a run of all-passes ends with"),
        max_length=16,
        choices=AllpassReset.choices,
        **_option("allpass_reset"),
        help_text=_("what ends a run of all-passes (серия распасов)."),
    )
    allpass_max_run = models.PositiveIntegerField(
        _("longest run of all-passes"),
        null=True,
        blank=True,
        **_option("allpass_max_run"),
        help_text=_("the price falls back after this many all-passes in a row; empty: never."),
    )
    exit_ladder = models.JSONField(
        _("exit from all-pass"),
        default=sochi_exit_ladder,
        help_text=_(
            "выход из распасов: the lowest contract allowed after 0, 1, 2, … all-passes in "
            "a row, separated by commas; the last one repeats (6, 7, 8)."
        ),
    )

    # Pulya and help (rules.md §3.4, §3.5)
    help = models.BooleanField(
        _("help"),
        **_option("help"),
        help_text=_("помощь: a closed pulya helps the others, 10 whists per point."),
    )
    help_excludes_remized_whister = models.BooleanField(
        _("no help to a whister who went down"),
        **_option("help_excludes_remized_whister"),
        help_text=_("помощь: none to a whister who has just gone down (needs help)."),
    )
    help_excludes_dealer = models.BooleanField(
        _("no help to the dealer"),
        **_option("help_excludes_dealer"),
        help_text=_("помощь: none to a dealer sitting out (needs help)."),
    )
    end = models.CharField(
        _("the pulka ends"),
        max_length=12,
        choices=End.choices,
        **_option("end"),
        help_text=_("конец пульки: when the pulka is over."),
    )
    deal_limit = models.PositiveIntegerField(
        _("number of deals"),
        null=True,
        blank=True,
        **_option("deal_limit"),
        help_text=_("for a pulka that ends after a number of deals; empty: played by time."),
    )

    # Settlement (rules.md §3.7)
    pulya_to_gora = models.PositiveSmallIntegerField(
        _("pulya to gora"),
        choices=PulyaToGora.choices,
        **_option("pulya_to_gora"),
        help_text=_("перевод пули в гору: gora points per missing pulya point at settlement."),
    )
    rounding = models.CharField(
        _("rounding"),
        max_length=12,
        choices=Rounding.choices,
        **_option("rounding"),
        help_text=_("округление: how results are made whole whists."),
    )
    rounding_compensation_4 = models.PositiveSmallIntegerField(
        _("rounding compensation with 4 players"),
        choices=Compensation.choices,
        **_option("rounding_compensation_4"),
        help_text=_("whists per adjusted gora point with 4 players (Кодекс 4.2.12)."),
    )
    indivisible_mountain = models.BooleanField(
        _("indivisible mountain"),
        **_option("indivisible_mountain"),
        help_text=_("неделимая гора: with 2 players the gora is not halved."),
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

    # The engine <-> model bridge

    def options(self) -> dict[str, Any]:
        """Every option as protocol.md spells it, from the fields."""
        options = {name: getattr(self, name) for name in OPTION_NAMES if name != "prices"}
        options["prices"] = {key: getattr(self, field) for key, field in PRICE_FIELDS.items()}
        return options

    def to_engine(self) -> EngineConvention:
        """The engine's Convention; raises ConventionError for a bad combination."""
        return from_options(self.options())

    def snapshot(self) -> dict[str, Any]:
        """A fresh copy of every option for Pulka.convention_options (design.md)."""
        return self.to_engine().to_options()

    def apply_engine(self, conv: EngineConvention) -> None:
        """Set every option field from an engine Convention."""
        options = conv.to_options()
        for key, field in PRICE_FIELDS.items():
            setattr(self, field, options["prices"][key])
        for name in OPTION_NAMES:
            if name != "prices":
                setattr(self, name, options[name])

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
