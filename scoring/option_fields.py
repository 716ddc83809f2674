"""Every option of docs/protocol.md ("Convention options") as a typed model field.

``ConventionOptions`` is abstract: ``scoring.models.Convention`` adds its name, owner and
the rest. The engine stays the one judge of what is valid; these fields only hold the
values and turn them into the engine's Convention and back.
"""

from __future__ import annotations

from typing import Any

from django.db import models
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from scoring.engine.conventions import OPTION_NAMES, PRICE_KEYS, from_options
from scoring.engine.conventions import Convention as EngineConvention

from .choices import (
    AllpassReset,
    AllpassScoring,
    CheckedTenConsolation,
    Compensation,
    ConsolationUnit,
    End,
    HelpWriteoff,
    JointLiability,
    Liability,
    PulyaToGora,
    Rounding,
    RoundingAdjusts,
    Ten,
    WhistStyle,
    ZeroBonus,
)
from .option_fields_facts import FactOptions
from .option_fields_gchet import GchetOptions
from .option_fields_pu import PuOptions
from .option_fields_rs import RsOptions

# The engine's defaults are Sochi's (docs/protocol.md, "Preset defaults"): a new convention
# starts as a copy of Sochi, and a field the form rejected keeps a valid value.
SOCHI_OPTIONS = EngineConvention().to_options()

PRICE_FIELDS: dict[str, str] = {key: f"price_{key}" for key in PRICE_KEYS}

# The options by topic, in the order the admin and the player pages show them.
OPTION_TOPICS: tuple[tuple[Promise, tuple[str, ...]], ...] = (
    (_("Prices"), ("prices", "whist_scale", "gora_scale")),
    (
        _("Whist"),
        (
            "whist_style",
            "gentleman_on_made",
            "whister_liability",
            "joint_liability",
            "personal_quota",
            "half_whist_levels",
            "ten",
            "checked_ten_consolation",
            "checked_ten_trick_whists",
            "consolation",
            "consolation_unit",
            "misere_consolation",
            "prikup_whists",
            # Deals with facts of their own (docs/rules.md §3.10)
            "concede_levels",
            "half_whist_first",
            "returned_whist_alone",
            "returned_whist_consolation",
            "half_whist_played",
            "dealer_whist",
            "totus_bonus",
            "talon_shown_penalty",
        ),
    ),
    (
        _("All-pass"),
        (
            "allpass_scoring",
            "allpass_ladder",
            "allpass_amnesty",
            "allpass_zero_bonus",
            "allpass_zero_bonus_flat",
            "allpass_dealer_talon",
            "allpass_zero_bonus_dealer",
            "allpass_zero_bonus_excludes_dealer",
            "allpass_whist_rate",
            "allpass_reset",
            "allpass_max_run",
            "exit_ladder",
            "allpass_exit_round",
        ),
    ),
    (
        _("Pulya and help"),
        (
            "help",
            "help_order",
            "help_excludes_remized_whister",
            "help_excludes_dealer",
            "help_writeoff",
            "help_writeoff_stops_at_zero",
            "end",
            "deal_limit",
            "finish_after_allpass_run",
        ),
    ),
    (
        _("Settlement"),
        (
            "pulya_to_gora",
            "mountain_divisor",
            "rounding",
            "rounding_adjusts",
            "rounding_compensation_4",
            "indivisible_mountain",
        ),
    ),
)


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


def _option(name: str) -> dict[str, Any]:
    """The default (Sochi's value) for an option's field."""
    return {"default": SOCHI_OPTIONS[name]}


# Lists need a callable default, so that no two conventions share one list object.
def sochi_half_whist_levels() -> list[int]:
    return list(SOCHI_OPTIONS["half_whist_levels"])


def sochi_consolation() -> list[str]:
    return list(SOCHI_OPTIONS["consolation"])


def sochi_allpass_ladder() -> list[int]:
    return list(SOCHI_OPTIONS["allpass_ladder"])


def sochi_exit_ladder() -> list[int]:
    return list(SOCHI_OPTIONS["exit_ladder"])


class ConventionOptions(PuOptions, FactOptions, GchetOptions, RsOptions):
    """Every scoring option, Sochi's by default, and the bridge to the engine."""

    # Prices (docs/rules.md §2)
    price_6 = models.PositiveIntegerField(
        _("price of a six"),
        default=SOCHI_OPTIONS["prices"]["6"],
        help_text=_("цена шестерной: pulya for a six made, gora per undertrick (2)."),
    )
    price_7 = models.PositiveIntegerField(
        _("price of a seven"),
        default=SOCHI_OPTIONS["prices"]["7"],
        help_text=_("цена семерной (4)."),
    )
    price_8 = models.PositiveIntegerField(
        _("price of an eight"),
        default=SOCHI_OPTIONS["prices"]["8"],
        help_text=_("цена восьмерной (6)."),
    )
    price_9 = models.PositiveIntegerField(
        _("price of a nine"),
        default=SOCHI_OPTIONS["prices"]["9"],
        help_text=_("цена девятерной (8)."),
    )
    price_10 = models.PositiveIntegerField(
        _("price of a ten"),
        default=SOCHI_OPTIONS["prices"]["10"],
        help_text=_("цена десятерной (10)."),
    )
    price_misere = models.PositiveIntegerField(
        _("price of a misère"),
        default=SOCHI_OPTIONS["prices"]["misere"],
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

    # Whist (docs/rules.md §3.1)
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
    gentleman_on_made = models.BooleanField(
        _("gentleman split on a made contract"),
        **_option("gentleman_on_made"),
        help_text=_(
            "джентльменский вист и на сыгранной: the whister and the passer split the trick "
            "whists on a made contract too (needs gentleman whist)."
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
    personal_quota = models.BooleanField(
        _("personal quota"),
        **_option("personal_quota"),
        help_text=_(
            "личная норма: on a six or seven each of two whisters pays for his own missing "
            "tricks, even when the pair took enough."
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
    checked_ten_consolation = models.CharField(
        _("consolation on a failed checked ten"),
        max_length=12,
        choices=CheckedTenConsolation.choices,
        **_option("checked_ten_consolation"),
        help_text=_("консоляция на проверяемой десятерной: who consoles when it fails."),
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

    # All-pass (docs/rules.md §3.3)
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
    allpass_zero_bonus_flat = models.BooleanField(
        _("zero-trick bonus of 1"),
        **_option("allpass_zero_bonus_flat"),
        help_text=_("the bonus for no trick is 1 whatever the all-pass price."),
    )
    allpass_zero_bonus_dealer = models.BooleanField(
        _("zero-trick bonus for the dealer"),
        **_option("allpass_zero_bonus_dealer"),
        help_text=_(
            "with 4 players the dealer who plays the talon and takes no trick with it "
            "earns the bonus too."
        ),
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
        max_length=24,
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
    allpass_exit_round = models.BooleanField(
        _("all-passes end after a round at the top"),
        **_option("allpass_exit_round"),
        help_text=_(
            "once the lowest contract stops rising, the run ends when every player has "
            "been first hand since the first all-pass there."
        ),
    )
    finish_after_allpass_run = models.BooleanField(
        _("finish waits for the all-passes"),
        **_option("finish_after_allpass_run"),
        help_text=_("the pulka does not end while a run of all-passes goes on."),
    )
    exit_ladder = models.JSONField(
        _("exit from all-pass"),
        default=sochi_exit_ladder,
        help_text=_(
            "выход из распасов: the lowest contract allowed after 0, 1, 2, … all-passes in "
            "a row, separated by commas; the last one repeats (6, 7, 8)."
        ),
    )

    # Pulya and help (docs/rules.md §3.4, §3.5)
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
    help_writeoff = models.CharField(
        _("help nobody can take"),
        max_length=12,
        choices=HelpWriteoff.choices,
        **_option("help_writeoff"),
        help_text=_(
            "списание с горы: gora points written off per pulya point when every pulya is "
            "closed (needs help)."
        ),
    )
    help_writeoff_stops_at_zero = models.BooleanField(
        _("write-off stops at a zero gora"),
        **_option("help_writeoff_stops_at_zero"),
        help_text=_("списание с горы: never below 0 (needs help)."),
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

    # Settlement (docs/rules.md §3.7)
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
    rounding_adjusts = models.CharField(
        _("rounding adjusts"),
        max_length=12,
        choices=RoundingAdjusts.choices,
        **_option("rounding_adjusts"),
        help_text=_(
            "whose gora the Кодекс 4.2.12 rounding adjusts by default: the players whose "
            "gora the pairwise method cannot divide, or the seats clockwise from the first."
        ),
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

    class Meta:
        abstract = True

    # The engine <-> model bridge

    def options(self) -> dict[str, Any]:
        """Every option as docs/protocol.md spells it, from the fields."""
        options = {name: getattr(self, name) for name in OPTION_NAMES if name != "prices"}
        options["prices"] = {key: getattr(self, field) for key, field in PRICE_FIELDS.items()}
        return options

    def to_engine(self) -> EngineConvention:
        """The engine's Convention; raises ConventionError for a bad combination."""
        return from_options(self.options())

    def snapshot(self) -> dict[str, Any]:
        """A fresh copy of every option for Pulka.convention_options (docs/design.md)."""
        return self.to_engine().to_options()

    def apply_engine(self, conv: EngineConvention) -> None:
        """Set every option field from an engine Convention."""
        options = conv.to_options()
        for key, field in PRICE_FIELDS.items():
            setattr(self, field, options["prices"][key])
        for name in OPTION_NAMES:
            if name != "prices":
                setattr(self, name, options[name])
