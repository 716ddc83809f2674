"""Hypothesis strategies for legal pulkas: every deal is drawn for the sheet it meets.

A deal is built from the state it will be applied to (``scoring.engine.sheet``): the
dealer's seating, the all-pass price and the lowest contract allowed, so every drawn
pulka is one a table could have played. Drawing stops when the pulka closes.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from hypothesis import strategies as st

from scoring.engine.conventions import Convention, from_options, from_spec
from scoring.engine.deals import parse_deal
from scoring.engine.seats import Seating, seating
from scoring.engine.sheet import DealRecord, SheetState, apply, start

from . import legal_facts

NAMES = ("Аня", "Boris", "Vera", "Gleb", "Dana")
ALLPASS_RESETS = (
    "any_game",
    "whisted_game",
    "game_or_misere",
    "made_whisted_game",
    "made_game_or_misere",
    "played_game_or_misere",
    "made_played_game",
)
SUITS = ("", "S", "C", "D", "H", "NT", "♠", "♥", "БК")


@dataclass(frozen=True)
class DrawnPulka:
    """A legal pulka: its file, its convention and every state the fold went through."""

    data: dict[str, Any]
    convention: Convention
    states: tuple[SheetState, ...]
    records: tuple[DealRecord, ...]

    @property
    def final(self) -> SheetState:
        return self.states[-1]


@st.composite
def option_overrides(draw: st.DrawFn, preset: str, size: int) -> dict[str, Any]:
    """A few options changed from the preset, keeping the convention consistent."""
    options: dict[str, Any] = {}
    whists_allpass = preset == "rostov"
    if draw(st.booleans()):
        options["help"] = draw(st.booleans())
        if not options["help"]:  # a peer preset's write-off needs help (pu-home, rs-sochi)
            options.update(
                help_writeoff="points", help_writeoff_stops_at_zero=False, help_order="largest"
            )
        if options["help"] and draw(st.booleans()):
            options["help_excludes_remized_whister"] = draw(st.booleans())
            options["help_excludes_dealer"] = draw(st.booleans())
    if draw(st.booleans()):
        options["whist_style"] = draw(st.sampled_from(["greedy", "gentleman"]))
        if options["whist_style"] == "greedy":  # pu-fspr's split on made needs gentleman
            options["gentleman_on_made"] = False
        options["whister_liability"] = draw(st.sampled_from(["full", "half"]))
        options["joint_liability"] = draw(st.sampled_from(["second", "both"]))
        options["ten"] = draw(st.sampled_from(["whisted", "checked"]))
        if options["ten"] == "whisted":  # pu-home's trick whists need a checked ten
            options["checked_ten_trick_whists"] = False
    if draw(st.booleans()):
        options["consolation"] = draw(
            st.sets(st.sampled_from(["whisters", "passer", "dealer"])).map(sorted)
        )
        options["consolation_unit"] = draw(st.sampled_from(["price", "flat10"]))
        options["misere_consolation"] = draw(st.booleans())
        options["prikup_whists"] = draw(st.booleans())
    if draw(st.booleans()):
        options["allpass_ladder"] = draw(st.lists(st.integers(1, 4), min_size=1, max_size=3))
        options["allpass_reset"] = draw(st.sampled_from(ALLPASS_RESETS))
        options["allpass_zero_bonus_flat"] = draw(st.booleans())
        options["allpass_exit_round"] = draw(st.booleans())
        options["finish_after_allpass_run"] = draw(st.booleans())
        options["allpass_max_run"] = draw(st.none() | st.integers(1, 4))
        options["exit_ladder"] = draw(st.lists(st.integers(6, 9), min_size=1, max_size=3))
        bonuses = ["pulya", "gora", "gora_double", "none"]
        if not whists_allpass:  # a trick's gora price scales gchet's bonus: gora style only
            bonuses.append("pulya_scaled")
        options["allpass_zero_bonus"] = draw(st.sampled_from(bonuses))
        if not whists_allpass:
            options["allpass_amnesty"] = draw(st.booleans())
            options["allpass_dealer_talon"] = draw(st.booleans())
            # gchet's zero bonus for the dealer needs him on the talon.
            options["allpass_zero_bonus_dealer"] = options["allpass_dealer_talon"] and draw(
                st.booleans()
            )
            if options["allpass_zero_bonus_dealer"]:  # pu-fspr denies every dealer the bonus
                options["allpass_zero_bonus_excludes_dealer"] = False
    if draw(st.booleans()):
        options["rounding"] = draw(st.sampled_from(["exact", "codex"]))
        options["rounding_compensation_4"] = draw(st.sampled_from([2, 3]))
        options["half_whist_levels"] = draw(st.sampled_from([[6, 7], [6], []]))
        if not options["half_whist_levels"]:  # rs-sochi's played half-whist needs a level
            options["half_whist_played"] = False
        options["mountain_divisor"] = draw(st.sampled_from(["players", "others"]))
    if draw(st.integers(0, 2)) == 0:
        half_levels = options.get("half_whist_levels") != []
        options.update(draw(legal_facts.fact_options(half_levels)))  # docs/rules.md §3.10
    if size == 2 and draw(st.booleans()):
        options["indivisible_mountain"] = True
    if draw(st.booleans()):
        options["prices"] = {
            "6": 2,
            "7": 4,
            "8": 6,
            "9": 8,
            "10": 10,
            "misere": draw(st.sampled_from([10, 15])),
        }
    if draw(st.booleans()):
        options.update(draw(defence_overrides(preset, options)))
    return options


@st.composite
def defence_overrides(draw: st.DrawFn, preset: str, options: dict[str, Any]) -> dict[str, Any]:
    """The peers' options of the defence and of help (docs/rules.md §3.9), where the others
    allow them."""
    base = from_options(options, from_spec(preset)) if options else from_spec(preset)
    drawn: dict[str, Any] = {
        "joint_liability": draw(st.sampled_from(["second", "both", "second_own"])),
        "personal_quota": draw(st.booleans()),
        "checked_ten_consolation": draw(st.sampled_from(["defenders", "none"])),
    }
    if base.whist_style == "gentleman":
        drawn["gentleman_on_made"] = draw(st.booleans())
    if base.help:
        drawn["help_writeoff"] = draw(st.sampled_from(["points", "pulya_rate"]))
        drawn["help_writeoff_stops_at_zero"] = draw(st.booleans())
        drawn["pulya_to_gora"] = draw(st.sampled_from([1, 2]))
        drawn["help_order"] = draw(st.sampled_from(["largest", "clockwise"]))  # PU home
    if base.ten == "checked":
        drawn["checked_ten_trick_whists"] = draw(st.booleans())  # PU home
    if not base.allpass_zero_bonus_dealer:
        drawn["allpass_zero_bonus_excludes_dealer"] = draw(st.booleans())  # PU FSPR
    return drawn


@st.composite
def split(draw: st.DrawFn, total: int, caps: list[int]) -> list[int]:
    """``total`` tricks over the hands, each at most its cap; the last takes the rest."""
    counts = []
    left = total
    for i, cap in enumerate(caps):
        rest_cap = sum(caps[i + 1 :])
        if i == len(caps) - 1:
            counts.append(left)
            break
        low = max(0, left - rest_cap)
        count = draw(st.integers(low, min(cap, left)))
        counts.append(count)
        left -= count
    return counts


@st.composite
def legal_deal(draw: st.DrawFn, state: SheetState) -> dict[str, Any]:
    """One deal a table could play on this sheet (docs/protocol.md, a deal's fields)."""
    conv, names, size = state.convention, state.names, state.size
    deal: dict[str, Any] = {}
    dealer = state.dealer
    if draw(st.integers(0, 9)) == 0:
        dealer = draw(st.integers(0, size - 1))
        deal["dealer"] = names[dealer]
    seats = seating(size, dealer)
    kinds = ["allpass", "tricks", "tricks", "tricks"]
    if state.min_contract <= 8:
        kinds.append("misere")
    kind = draw(st.sampled_from(kinds))
    if kind == "allpass":
        deal["contract"] = draw(st.sampled_from(["allpass", "P", "распасы"]))
        deal["tricks"] = draw(_allpass_tricks(state, seats))
        return deal
    declarer = draw(st.sampled_from(seats.active))
    deal["declarer"] = names[declarer]
    defenders = seats.defenders_of(declarer)
    if kind == "misere":
        deal["contract"] = "misere"
        taken = draw(st.integers(0, 10))
        if draw(st.booleans()):
            deal["tricks"] = {names[declarer]: taken}
        else:
            rest = draw(split(10 - taken, [10] * len(defenders)))
            deal["tricks"] = {
                names[declarer]: taken,
                **{names[p]: c for p, c in zip(defenders, rest, strict=True)},
            }
        return deal
    level = draw(st.integers(state.min_contract, 10))
    deal["contract"] = f"{level}{draw(st.sampled_from(SUITS))}"
    if draw(st.integers(0, 3)) == 0:
        deal["prikup"] = draw(st.integers(0, 3))
    hands = (declarer, *defenders)
    deal.update(draw(legal_facts.flags(conv, size, level)))
    if draw(legal_facts.concession(conv, level)):
        deal["conceded"] = True  # no words needed, no tricks (docs/rules.md §3.10.1)
        return deal
    if level == 10 and conv.ten == "checked":
        if draw(st.booleans()):
            # The words are taken and ignored (docs/protocol.md, "A checked 10").
            words = st.sampled_from(["pass", "whist"])
            deal["whists"] = {names[p]: draw(words) for p in defenders}
        if draw(st.booleans()):
            deal["tricks"] = _named(names, hands, draw(split(10, [10] * len(hands))))
        return deal
    choices: list[tuple[str, ...]]
    if len(defenders) == 1:
        choices = [("pass",), ("whist",), ("whist",)]
        if level in conv.half_whist_levels:
            choices.append(("half",))
    else:
        choices = [
            ("pass", "pass"),
            ("whist", "pass"),
            ("pass", "whist"),
            ("whist", "whist"),
            ("whist", "whist"),
        ]
        if level in conv.half_whist_levels:
            choices.append(("pass", "half"))
        choices += legal_facts.more_words(conv, level)
    words = draw(st.sampled_from(choices))
    deal["whists"] = {names[p]: w for p, w in zip(defenders, words, strict=True)}
    if legal_facts.dealer_may_whist(conv, size, words) and draw(st.booleans()):
        deal["whists"][names[seats.dealer]] = "whist"  # docs/rules.md §3.10.4
        words = (*words, "whist")
    if "whist" in words or legal_facts.half_whist_played_out(conv, words, draw(st.booleans())):
        taken = draw(st.integers(max(0, level - 3), 10) | st.integers(0, 10))
        rest = draw(split(10 - taken, [10] * len(defenders)))
        deal["tricks"] = _named(names, hands, [taken, *rest])
    return deal


def _named(names: tuple[str, ...], seats: tuple[int, ...], counts: list[int]) -> dict[str, int]:
    return {names[p]: c for p, c in zip(seats, counts, strict=True)}


@st.composite
def _allpass_tricks(draw: st.DrawFn, state: SheetState, seats: Seating) -> dict[str, int]:
    conv = state.convention
    hands = list(seats.active)
    caps = [10] * len(hands)
    talon = state.size == 4 and conv.allpass_dealer_talon and conv.allpass_scoring == "gora"
    if talon:
        hands.insert(0, seats.dealer)
        caps.insert(0, 2)
    counts = draw(split(10, caps))
    tricks = _named(state.names, tuple(hands), counts)
    if talon and tricks[state.names[seats.dealer]] == 0 and draw(st.booleans()):
        del tricks[state.names[seats.dealer]]  # a dealer left out took nothing
    return tricks


@st.composite
def legal_pulkas(draw: st.DrawFn, preset: str, size: int, max_deals: int = 40) -> DrawnPulka:
    """A legal pulka under ``preset`` for ``size`` players, drawn deal by deal."""
    options = draw(option_overrides(preset, size))
    convention = from_spec(preset, options)
    names = NAMES[:size]
    target = draw(st.integers(1, 24))
    first_dealer = draw(st.integers(0, size - 1))
    state = start(names, convention, target, first_dealer)
    states, records, deals = [state], [], []
    for _ in range(draw(st.integers(0, max_deals))):
        if state.closed:
            break
        raw = draw(legal_deal(state))
        state, record = apply(state, parse_deal(raw))
        states.append(state)
        records.append(record)
        deals.append(raw)
    data: dict[str, Any] = {
        "convention": preset,
        "options": options,
        "players": list(names),
        "target": target,
        "first_dealer": names[first_dealer],
        "deals": deals,
    }
    if draw(st.booleans()):
        data["stake"] = draw(st.sampled_from([0.01, 0.1, 0.5, 1, 2.5]))
    return DrawnPulka(data, convention, tuple(states), tuple(records))
