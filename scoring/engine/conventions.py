"""Conventions: every scoring option of docs/protocol.md, validated, and the four presets.

docs/rules.md §3.9 and docs/protocol.md ("Convention options", "Preset defaults") are the
contract: option names and values here are exactly theirs.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass, fields, replace
from typing import Any, Literal

from .contracts import LEVELS
from .errors import ConventionError
from .option_values import Allowed, Choice, Flag, Ladder, Levels, Prices, Subset, Whole
from .pickling import compact_pickle
from .preset_options import PRESET_OPTIONS

PRICE_KEYS = ("6", "7", "8", "9", "10", "misere")
CONSOLERS = ("whisters", "passer", "dealer")

WhistStyle = Literal["greedy", "gentleman"]
Liability = Literal["full", "half"]
JointLiability = Literal["second", "both", "second_own"]
Ten = Literal["whisted", "checked"]
ConsolationUnit = Literal["price", "flat10"]
AllpassScoring = Literal["gora", "whists"]
ZeroBonus = Literal["pulya", "pulya_scaled", "gora", "gora_double", "none"]
AllpassReset = Literal[
    "any_game",
    "whisted_game",
    "game_or_misere",
    "made_whisted_game",
    "made_game_or_misere",
    "played_game_or_misere",
    "made_played_game",
]
End = Literal["all_closed", "sum_reached", "deals"]
Rounding = Literal["exact", "codex"]
RoundingAdjusts = Literal["pairwise", "first_seat"]
CheckedTenConsolation = Literal["defenders", "none"]
HelpWriteoff = Literal["points", "pulya_rate"]
DealerWhist = Literal["none", "unliable", "liable"]
TalonShownPenalty = Literal["none", "whists", "gora"]
ReturnedWhistConsolation = Literal["whister", "both"]
HelpOrder = Literal["largest", "clockwise"]
MountainDivisor = Literal["players", "others"]

_CHOICES: dict[str, tuple[str, ...]] = {
    "whist_style": ("greedy", "gentleman"),
    "whister_liability": ("full", "half"),
    "joint_liability": ("second", "both", "second_own"),
    "ten": ("whisted", "checked"),
    "consolation_unit": ("price", "flat10"),
    "allpass_scoring": ("gora", "whists"),
    "allpass_zero_bonus": ("pulya", "pulya_scaled", "gora", "gora_double", "none"),
    "allpass_reset": (
        "any_game",
        "whisted_game",
        "game_or_misere",
        "made_whisted_game",
        "made_game_or_misere",
        "played_game_or_misere",
        "made_played_game",
    ),
    "end": ("all_closed", "sum_reached", "deals"),
    "rounding": ("exact", "codex"),
    "rounding_adjusts": ("pairwise", "first_seat"),
    "checked_ten_consolation": ("defenders", "none"),
    "help_writeoff": ("points", "pulya_rate"),
    "dealer_whist": ("none", "unliable", "liable"),
    "talon_shown_penalty": ("none", "whists", "gora"),
    "returned_whist_consolation": ("whister", "both"),
    "help_order": ("largest", "clockwise"),
    "mountain_divisor": ("players", "others"),
}
_BOOLS = (
    "misere_consolation",
    "prikup_whists",
    "allpass_amnesty",
    "allpass_dealer_talon",
    "allpass_zero_bonus_flat",
    "allpass_zero_bonus_dealer",
    "allpass_exit_round",
    "finish_after_allpass_run",
    "help",
    "help_excludes_remized_whister",
    "help_excludes_dealer",
    "indivisible_mountain",
    "gentleman_on_made",
    "personal_quota",
    "help_writeoff_stops_at_zero",
    "half_whist_first",
    "returned_whist_alone",
    "checked_ten_trick_whists",
    "allpass_zero_bonus_excludes_dealer",
    "half_whist_played",
)
# Upper bounds keep absurd files from producing absurd sheets (a price of 10**9).
_MAX_PRICE = 1000
_MAX_SCALE = 100
_MAX_COUNT = 100_000  # deals or all-passes in a row


@compact_pickle
@dataclass(frozen=True, slots=True)
class Convention:
    """Every option of docs/protocol.md, validated on construction (docs/rules.md §3.9).

    Build one with :func:`preset` and :func:`from_options`; constructing it directly
    also validates, and a bad value raises :class:`ConventionError` naming the option.
    """

    prices: tuple[int, int, int, int, int, int] = (2, 4, 6, 8, 10, 10)
    whist_scale: int = 1
    gora_scale: int = 1
    whist_style: WhistStyle = "greedy"
    whister_liability: Liability = "full"
    joint_liability: JointLiability = "second"
    half_whist_levels: tuple[int, ...] = (6, 7)
    ten: Ten = "whisted"
    consolation: tuple[str, ...] = ("whisters", "passer", "dealer")
    consolation_unit: ConsolationUnit = "price"
    misere_consolation: bool = False
    prikup_whists: bool = False
    allpass_scoring: AllpassScoring = "gora"
    allpass_ladder: tuple[int, ...] = (1,)
    allpass_amnesty: bool = True
    allpass_zero_bonus: ZeroBonus = "pulya"
    allpass_dealer_talon: bool = True
    allpass_whist_rate: int = 5
    allpass_reset: AllpassReset = "any_game"
    allpass_max_run: int | None = None
    exit_ladder: tuple[int, ...] = (6,)
    allpass_zero_bonus_flat: bool = False
    allpass_zero_bonus_dealer: bool = False
    allpass_exit_round: bool = False
    finish_after_allpass_run: bool = False
    help: bool = True
    help_excludes_remized_whister: bool = False
    help_excludes_dealer: bool = False
    end: End = "all_closed"
    deal_limit: int | None = None
    pulya_to_gora: int = 1
    rounding: Rounding = "codex"
    # Whose gora rule 4.2.12 adjusts by default (docs/rules.md §3.7, "Who x is"): where
    # the pairwise method needs it, or the seats clockwise from the first (the default
    # before; pulkas started then keep it in their snapshot, docs/protocol.md).
    rounding_adjusts: RoundingAdjusts = "pairwise"
    rounding_compensation_4: int = 2
    indivisible_mountain: bool = False
    # Options of the defence and of help (docs/rules.md §3.1, §3.4): the defaults are
    # today's behaviour under every preset.
    gentleman_on_made: bool = False
    personal_quota: bool = False
    checked_ten_consolation: CheckedTenConsolation = "defenders"
    help_writeoff: HelpWriteoff = "points"
    help_writeoff_stops_at_zero: bool = False
    # Rules that need a fact of their own in the deal (docs/rules.md §3.10).
    concede_levels: tuple[int, ...] = ()
    half_whist_first: bool = False
    returned_whist_alone: bool = False
    dealer_whist: DealerWhist = "none"
    totus_bonus: int = 0
    talon_shown_penalty: TalonShownPenalty = "none"
    # gchet's two rules (docs/rules.md §3.3, §3.10.3): added last, defaults change nothing.
    returned_whist_consolation: ReturnedWhistConsolation = "whister"
    # PU's three house rules (docs/rules.md §3.1, §3.3, §3.4).
    help_order: HelpOrder = "largest"
    checked_ten_trick_whists: bool = False
    allpass_zero_bonus_excludes_dealer: bool = False
    # RS's two rules (docs/rules.md §3.7, §3.10.7): the gora shared by the others only,
    # and a half-whist played out.
    mountain_divisor: MountainDivisor = "players"
    half_whist_played: bool = False

    def __post_init__(self) -> None:
        for name, allowed in OPTION_VALUES.items():
            allowed.check(name, getattr(self, name))
        _check_consistency(self)

    def price(self, level: int) -> int:
        """Price of a trick contract 6–10 (docs/rules.md §2, option ``prices``)."""
        return self.prices[level - 6]

    @property
    def misere_price(self) -> int:
        """Price of a misère (docs/rules.md §2: 10)."""
        return self.prices[5]

    def to_options(self) -> dict[str, Any]:
        """Every option as docs/protocol.md spells it (a JSON-ready mapping)."""
        options = asdict(self)
        options["prices"] = dict(zip(PRICE_KEYS, self.prices, strict=True))
        for name in _LIST_OPTIONS:
            options[name] = list(options[name])
        return options


_ALLOWED: dict[str, Allowed] = {
    "prices": Prices(PRICE_KEYS, _MAX_PRICE),
    "whist_scale": Whole(1, _MAX_SCALE),
    "gora_scale": Whole(1, _MAX_SCALE),
    "half_whist_levels": Levels((6, 7), "option.half_levels"),
    "consolation": Subset(CONSOLERS),
    "allpass_ladder": Ladder(1, _MAX_PRICE),
    "allpass_whist_rate": Whole(0, _MAX_PRICE),
    "allpass_max_run": Whole(1, _MAX_COUNT, optional=True),
    "exit_ladder": Ladder(6, 10),
    "deal_limit": Whole(1, _MAX_COUNT, optional=True),
    "pulya_to_gora": Choice((1, 2), "option.pulya_to_gora"),
    "rounding_compensation_4": Choice((2, 3), "option.compensation"),
    "concede_levels": Levels(LEVELS, "option.concede_levels", distinct=True),
    "totus_bonus": Whole(0, _MAX_PRICE),
    **{name: Choice(values) for name, values in _CHOICES.items()},
    **{name: Flag() for name in _BOOLS},
}
# What each option may hold (docs/protocol.md, "Convention options", column "values"):
# every option once, in the dataclass's order; each checks a value and describes itself.
OPTION_VALUES: dict[str, Allowed] = {
    field.name: _ALLOWED[field.name] for field in fields(Convention)
}


def _check_consistency(conv: Convention) -> None:
    """Refuse settings that contradict each other, naming the option to change."""
    # A deal limit with another end is "to the target or N deals, whichever comes first"
    # (docs/rules.md §3.5): nothing contradicts.
    for name in ("help_excludes_remized_whister", "help_excludes_dealer"):
        if getattr(conv, name) and not conv.help:
            raise ConventionError(name, "option.needs_help")
    if conv.help_writeoff != "points" and not conv.help:
        raise ConventionError("help_writeoff", "option.writeoff_needs_help")
    if conv.help_writeoff_stops_at_zero and not conv.help:
        raise ConventionError("help_writeoff_stops_at_zero", "option.needs_help")
    if conv.gentleman_on_made and conv.whist_style != "gentleman":
        raise ConventionError("gentleman_on_made", "option.needs_gentleman")
    if conv.allpass_scoring == "whists" and conv.allpass_amnesty:
        raise ConventionError("allpass_amnesty", "option.amnesty_in_whists")
    if conv.allpass_scoring == "whists" and conv.allpass_dealer_talon:
        raise ConventionError("allpass_dealer_talon", "option.dealer_talon_in_whists")
    if conv.allpass_zero_bonus_dealer and not conv.allpass_dealer_talon:
        raise ConventionError("allpass_zero_bonus_dealer", "option.needs_dealer_talon")
    if conv.allpass_scoring == "whists" and conv.allpass_zero_bonus == "pulya_scaled":
        raise ConventionError("allpass_zero_bonus", "option.scaled_bonus_in_whists")
    if conv.returned_whist_consolation != "whister" and not conv.returned_whist_alone:
        raise ConventionError("returned_whist_consolation", "option.needs_returned_whist_alone")
    if conv.help_order != "largest" and not conv.help:
        raise ConventionError("help_order", "option.order_needs_help")
    if conv.checked_ten_trick_whists and conv.ten != "checked":
        raise ConventionError("checked_ten_trick_whists", "option.needs_checked_ten")
    if conv.allpass_zero_bonus_excludes_dealer and conv.allpass_zero_bonus_dealer:
        raise ConventionError("allpass_zero_bonus_excludes_dealer", "option.zero_bonus_dealer_both")
    if conv.half_whist_played and not conv.half_whist_levels:
        raise ConventionError("half_whist_played", "option.needs_half_whist")


_LIST_OPTIONS = (
    "half_whist_levels",
    "consolation",
    "allpass_ladder",
    "exit_ladder",
    "concede_levels",
)


def _coerce(name: str, value: object) -> object:
    """Turn JSON values into the dataclass's types; the validators judge the result."""
    if name == "prices":
        return _coerce_prices(value)
    if name in _LIST_OPTIONS:
        if not isinstance(value, list | tuple):
            raise ConventionError(name, "option.not_list", value=value)
        items = tuple(value)
        return (
            tuple(c for c in CONSOLERS if c in items)
            if name == "consolation"
            and all(isinstance(c, str) and c in CONSOLERS for c in items)
            and len(set(items)) == len(items)
            else items
        )
    return value


def _coerce_prices(value: object) -> object:
    if isinstance(value, tuple):
        return value
    if not isinstance(value, Mapping):
        raise ConventionError("prices", "option.prices_not_map")
    unknown = set(map(str, value)) - set(PRICE_KEYS)
    if unknown:
        raise ConventionError("prices", "option.prices_unknown_key", key=sorted(unknown)[0])
    missing = [k for k in PRICE_KEYS if k not in value]
    if missing:
        raise ConventionError("prices", "option.prices_lacks", missing=tuple(missing))
    return tuple(value[k] for k in PRICE_KEYS)


OPTION_NAMES: tuple[str, ...] = tuple(f.name for f in fields(Convention))
# The options of the file format's first version (docs/protocol.md, "Convention options"):
# a convention spelled out in full must give each of them. Every option added since scores
# as before at its default, so an older file that lacks it reads as it did.
FIRST_VERSION_OPTIONS: tuple[str, ...] = (
    "prices", "whist_scale", "gora_scale", "whist_style", "whister_liability",
    "joint_liability", "half_whist_levels", "ten", "consolation", "consolation_unit",
    "misere_consolation", "prikup_whists", "allpass_scoring", "allpass_ladder",
    "allpass_amnesty", "allpass_zero_bonus", "allpass_dealer_talon", "allpass_whist_rate",
    "allpass_reset", "allpass_max_run", "exit_ladder", "help",
    "help_excludes_remized_whister", "help_excludes_dealer", "end", "deal_limit",
    "pulya_to_gora", "rounding", "rounding_compensation_4", "indivisible_mountain",
)  # fmt: skip
ADDED_OPTIONS: frozenset[str] = frozenset(OPTION_NAMES) - frozenset(FIRST_VERSION_OPTIONS)

PRESET_NAMES: tuple[str, ...] = tuple(PRESET_OPTIONS)


def from_options(options: Mapping[str, object], base: Convention | None = None) -> Convention:
    """Apply option overrides to ``base`` (Sochi when omitted); docs/protocol.md ``options``.

    Unknown names are an error, never ignored (docs/protocol.md).
    """
    if not isinstance(options, Mapping):
        raise ConventionError("options", "options.not_map")
    unknown = [str(name) for name in options if name not in OPTION_NAMES]
    if unknown:
        raise ConventionError(unknown[0], "option.unknown")
    changes = {name: _coerce(name, value) for name, value in options.items()}
    try:
        return replace(base or Convention(), **changes)  # type: ignore[arg-type]
    except TypeError as error:  # a value of a type replace() cannot take
        raise ConventionError("options", "options.bad_value", detail=str(error)) from None


def preset(name: str) -> Convention:
    """A preset by name: ``sochi``, ``leningrad``, ``rostov``, ``fspr``, or one of the peers'
    conventions ``pu-home``, ``pu-fspr``, ``rs-sochi``, ``gchet`` (docs/protocol.md, presets;
    docs/rules.md §3.9).
    """
    if name not in PRESET_OPTIONS:
        raise ConventionError("convention", "convention.unknown", value=name, presets=PRESET_NAMES)
    return from_options(PRESET_OPTIONS[name])


def from_spec(spec: object, overrides: Mapping[str, object] | None = None) -> Convention:
    """A pulka file's ``convention`` (a preset name or a full option map) plus ``options``.

    docs/protocol.md: "a preset name, or an object with every option spelled out".
    """
    if isinstance(spec, str):
        base = preset(spec)
    elif isinstance(spec, Mapping):
        missing = [name for name in OPTION_NAMES if name not in spec and name not in ADDED_OPTIONS]
        if missing:
            raise ConventionError(missing[0], "convention.incomplete")
        base = from_options(spec)
    else:
        raise ConventionError("convention", "convention.not_spec")
    return from_options(overrides, base) if overrides else base
