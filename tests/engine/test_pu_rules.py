"""PU's three house rules that came after its presets (help_order.py, checked_ten.py,
zero_bonus_dealer.py): each rule on and off, its refusals, and the properties with it on.

The figures are worked out by hand from docs/rules.md §3.4.2 (``help_order``), §3.1.7
(``checked_ten_trick_whists``) and §3.3 step 3 (``allpass_zero_bonus_excludes_dealer``);
PU's own figures are in tests/engine/examples/peers/pu-home-08, pu-home-12, pu-fspr-10,
and hand-made known answers in tests/engine/examples/200-…202-.
"""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

import pytest
from hypothesis import given

from scoring.engine.conventions import PRESET_NAMES, Convention, from_options, preset
from scoring.engine.errors import ConventionError
from scoring.engine.protocol import loads
from scoring.engine.pulka import Pulka, score_pulka
from scoring.engine.settlement import Totals

from .legal import DrawnPulka, legal_pulkas
from .support import ABCD, allpass, figures, played, score, unplayed, whists_on, written
from .test_properties import COMBINATIONS, IDS, PROPERTY, check_settlement

PU_OPTIONS = ("help_order", "checked_ten_trick_whists", "allpass_zero_bonus_excludes_dealer")


# --- the options: defaults and refusals --------------------------------------------------


@pytest.mark.parametrize("name", [n for n in PRESET_NAMES if not n.startswith("pu-")])
def test_every_other_preset_keeps_todays_scoring(name: str) -> None:
    conv = preset(name)
    assert conv.help_order == "largest"
    assert not conv.checked_ten_trick_whists and not conv.allpass_zero_bonus_excludes_dealer


def test_the_pu_presets_play_pus_rules() -> None:
    home, fspr = preset("pu-home"), preset("pu-fspr")
    assert (home.help_order, home.checked_ten_trick_whists) == ("clockwise", True)
    assert fspr.allpass_zero_bonus_excludes_dealer
    assert not home.allpass_zero_bonus_excludes_dealer and fspr.help_order == "largest"


@pytest.mark.parametrize(
    ("options", "option", "code"),
    [
        ({"help_order": "anticlockwise"}, "help_order", "option.choice"),
        ({"help_order": None}, "help_order", "option.choice"),
        ({"checked_ten_trick_whists": "yes"}, "checked_ten_trick_whists", "option.bool"),
        (
            {"allpass_zero_bonus_excludes_dealer": 1},
            "allpass_zero_bonus_excludes_dealer",
            "option.bool",
        ),
        ({"help": False, "help_order": "clockwise"}, "help_order", "option.order_needs_help"),
        (
            {"checked_ten_trick_whists": True},
            "checked_ten_trick_whists",
            "option.needs_checked_ten",
        ),
        (
            {"allpass_zero_bonus_dealer": True, "allpass_zero_bonus_excludes_dealer": True},
            "allpass_zero_bonus_excludes_dealer",
            "option.zero_bonus_dealer_both",
        ),
    ],
)
def test_a_bad_value_is_refused_naming_the_option(
    options: dict[str, Any], option: str, code: str
) -> None:
    with pytest.raises(ConventionError) as refused:
        from_options(options)
    assert (refused.value.option, refused.value.code) == (option, code)


def test_the_refusals_read_in_english() -> None:
    with pytest.raises(ConventionError, match="help_order 'clockwise' needs help"):
        from_options({"help": False, "help_order": "clockwise"})
    with pytest.raises(ConventionError, match="needs a checked ten"):
        from_options({"checked_ten_trick_whists": True})


def test_the_options_go_through_a_file_and_back() -> None:
    conv = from_options(
        {
            "help_order": "clockwise",
            "ten": "checked",
            "checked_ten_trick_whists": True,
            "allpass_zero_bonus_excludes_dealer": True,
        }
    )
    assert from_options(conv.to_options()) == conv
    assert {name: conv.to_options()[name] for name in PU_OPTIONS} == {
        "help_order": "clockwise",
        "checked_ten_trick_whists": True,
        "allpass_zero_bonus_excludes_dealer": True,
    }


def test_a_file_of_the_first_version_reads_as_before() -> None:
    """A convention spelled out without the new options scores as today (ADDED_OPTIONS)."""
    options = preset("sochi").to_options()
    for name in PU_OPTIONS:
        del options[name]
    out = score([unplayed("6S", "A", "BC")], convention=options)
    assert figures(out, "pulya")["A"] == 2


# --- help_order (docs/rules.md §3.4.2) ----------------------------------------------------

# Target 6 with 3 players: B 2, C 4 before A's 10 written past his closed pulya.
HELP_DEALS = [unplayed("6S", "B", "CA"), unplayed("7S", "C", "AB"), unplayed("10NT", "A", "BC")]


def test_clockwise_help_fills_the_next_seat_before_the_largest() -> None:
    largest = score(HELP_DEALS, target=6)
    clockwise = score(HELP_DEALS, target=6, options={"help_order": "clockwise"})
    # A closes with 6 and gives 4. Largest: C (4) takes 2, then B 2. Clockwise: B takes 4.
    assert figures(largest, "pulya") == {"A": 6, "B": 4, "C": 6}
    assert whists_on(largest) == {("A", "B"): 20, ("A", "C"): 20}
    assert figures(clockwise, "pulya") == {"A": 6, "B": 6, "C": 4}
    assert whists_on(clockwise) == {("A", "B"): 40}


def test_clockwise_help_goes_on_round_the_table_when_the_next_seat_is_closed() -> None:
    deals = [unplayed("6S", "B", "CA"), unplayed("10NT", "A", "BC")]
    out = score(deals, target=6, options={"help_order": "clockwise"})
    # A gives 4: B (2) has room for exactly 4 and closes; C takes nothing.
    assert figures(out, "pulya") == {"A": 6, "B": 6, "C": 0}
    more = score([*deals, unplayed("6S", "A", "BC")], target=6, options={"help_order": "clockwise"})
    # A's next 2 pass closed B by and go to C.
    assert figures(more, "pulya") == {"A": 6, "B": 6, "C": 2}
    assert whists_on(more) == {("A", "B"): 40, ("A", "C"): 20}


def test_clockwise_help_skips_a_dealer_sitting_out_where_the_convention_says_so() -> None:
    """Example 200's deals: B deals the 10 and sits out; without him C is next."""
    deals = [unplayed("6S", "B", "CA"), unplayed("7S", "D", "BC"), unplayed("10NT", "A", "CD")]
    kwargs: dict[str, Any] = {"players": ABCD, "target": 6, "first_dealer": "D"}
    to_dealer = score(deals, options={"help_order": "clockwise"}, **kwargs)
    not_dealer = score(
        deals, options={"help_order": "clockwise", "help_excludes_dealer": True}, **kwargs
    )
    assert whists_on(to_dealer) == {("A", "B"): 40}
    assert whists_on(not_dealer) == {("A", "C"): 40}
    assert figures(not_dealer, "pulya") == {"A": 6, "B": 2, "C": 4, "D": 4}


def test_clockwise_help_stops_at_a_whister_who_went_down_where_the_convention_says_so() -> None:
    # Target 4: C 2, A 4; then A makes a 6 that B whisted short (the defence took 3 of
    # its 4): A's 2 go clockwise to B, who just went down, so they come off A's gora.
    # Given to the largest pulya, they go to C instead.
    deals = [
        unplayed("6S", "C", "AB"),
        unplayed("7S", "A", "BC"),
        played("6S", "A", {"B": "whist", "C": "pass"}, {"A": 7, "B": 2, "C": 1}),
    ]
    excluded = {"help_excludes_remized_whister": True}
    clockwise = score(deals, target=4, options={**excluded, "help_order": "clockwise"})
    largest = score(deals, target=4, options=excluded)
    assert figures(clockwise, "pulya") == {"A": 4, "B": 0, "C": 2}
    assert figures(clockwise, "gora") == {"A": -2, "B": 2, "C": 0}
    assert figures(largest, "pulya") == {"A": 4, "B": 0, "C": 4}
    assert whists_on(largest) == {("A", "C"): 20, ("B", "A"): 6}


def test_on_a_closed_sheet_the_write_off_is_the_same_whatever_the_order() -> None:
    deals = [unplayed("6S", "B", "CA"), unplayed("6S", "C", "AB"), unplayed("6S", "A", "BC")]
    closed = [*deals, unplayed("8S", "A", "BC")]
    on_time = {"end": "deals", "deal_limit": 10}  # so that a closed sheet plays on
    orders = ({}, {"help_order": "clockwise"})
    outs = [score(closed, target=2, options={**on_time, **o}) for o in orders]
    assert [figures(out, "gora")["A"] for out in outs] == [-6, -6]


# --- checked_ten_trick_whists (docs/rules.md §3.1.7) --------------------------------------

CHECKED = {"ten": "checked"}
ON = {**CHECKED, "checked_ten_trick_whists": True}


def _ten(words: dict[str, str] | None, tricks: dict[str, int]) -> dict[str, Any]:
    deal: dict[str, Any] = {"contract": "10NT", "declarer": "A", "tricks": tricks}
    if words is not None:
        deal["whists"] = words
    return deal


def test_off_a_failed_checked_ten_writes_only_gora_and_consolation() -> None:
    out = score([_ten({"B": "whist", "C": "pass"}, {"A": 8, "B": 1, "C": 1})], options=CHECKED)
    assert written(out) == Counter(
        {("A", "gora", 20): 1, ("B", "whists", "A", 20): 1, ("C", "whists", "A", 20): 1}
    )


def test_a_lone_greedy_whister_writes_the_defences_tricks() -> None:
    out = score([_ten({"B": "whist", "C": "pass"}, {"A": 8, "B": 0, "C": 2})], options=ON)
    # Sochi: 10 whists a trick; the defence took 2: B writes 20 and consolation 20.
    assert written(out) == Counter(
        {
            ("A", "gora", 20): 1,
            ("B", "whists", "A", 20): 2,
            ("C", "whists", "A", 20): 1,
        }
    )


def test_a_lone_gentleman_whister_splits_them_with_the_passer() -> None:
    options = {**ON, "whist_style": "gentleman"}
    out = score([_ten({"B": "pass", "C": "whist"}, {"A": 7, "B": 3, "C": 0})], options=options)
    # Down 3: gora 30; 3 tricks = 30 whists, 15 each; consolation 30 each.
    assert whists_on(out) == {("B", "A"): 45, ("C", "A"): 45}


def test_two_whisters_or_no_words_write_their_own_tricks() -> None:
    tricks = {"A": 8, "B": 2, "C": 0}
    both = score([_ten({"B": "whist", "C": "whist"}, tricks)], options=ON)
    unspoken = score([_ten(None, tricks)], options=ON)
    passed = score([_ten({"B": "pass", "C": "pass"}, tricks)], options=ON)
    for out in (both, unspoken, passed):
        assert whists_on(out) == {("B", "A"): 40, ("C", "A"): 20}


def test_a_made_checked_ten_writes_no_whists_and_no_consolation_option_changes_nothing() -> None:
    deal = _ten({"B": "whist", "C": "pass"}, {"A": 10, "B": 0, "C": 0})
    assert written(score([deal], options=ON)) == Counter({("A", "pulya", 10): 1})


def test_with_no_consolation_the_trick_whists_are_all_that_is_written() -> None:
    options = {**ON, "checked_ten_consolation": "none"}
    out = score([_ten({"B": "whist", "C": "pass"}, {"A": 9, "B": 1, "C": 0})], options=options)
    assert written(out) == Counter({("A", "gora", 10): 1, ("B", "whists", "A", 10): 1})


def test_two_players_the_defender_writes_his_tricks() -> None:
    out = score([_ten({"B": "whist"}, {"A": 9, "B": 1})], players=("A", "B"), options=ON)
    # The only defender: 10 for his trick and 10 consolation.
    assert whists_on(out) == {("B", "A"): 20}


def test_four_players_the_dealer_consoles_but_writes_no_trick_whists() -> None:
    out = score(
        [_ten({"B": "whist", "C": "pass"}, {"A": 9, "B": 1, "C": 0})],
        players=ABCD,
        first_dealer="D",
        options=ON,
    )
    assert whists_on(out) == {("B", "A"): 20, ("C", "A"): 10, ("D", "A"): 10}


# --- allpass_zero_bonus_excludes_dealer (docs/rules.md §3.3 step 3) -----------------------

EXCLUDED = {"allpass_zero_bonus_excludes_dealer": True}


def test_with_three_players_the_dealer_earns_no_bonus() -> None:
    deal = allpass({"A": 0, "B": 10, "C": 0})
    off = score([deal], first_dealer="C")
    on = score([deal], first_dealer="C", options=EXCLUDED)
    assert figures(off, "pulya") == {"A": 1, "B": 0, "C": 1}
    assert figures(on, "pulya") == {"A": 1, "B": 0, "C": 0}


def test_the_gora_bonus_of_pu_fspr_with_three_players() -> None:
    """pu-fspr-10's deal under FSPR's −2 prices: the dealer C writes no −4."""
    deal = allpass({"A": 5, "B": 5, "C": 0})
    fspr = {"allpass_zero_bonus": "gora_double", "allpass_amnesty": False, "gora_scale": 2}
    off = score([deal], first_dealer="C", options=fspr)
    on = score([deal], first_dealer="C", options={**fspr, **EXCLUDED})
    assert figures(off, "gora") == {"A": 10, "B": 10, "C": -4}
    assert figures(on, "gora") == {"A": 10, "B": 10, "C": 0}


def test_with_two_players_the_dealer_holds_a_hand_and_is_left_out_too() -> None:
    deal = allpass({"A": 10, "B": 0})
    players = ("A", "B")
    assert figures(score([deal], players=players, first_dealer="B"), "pulya")["B"] == 1
    on = score([deal], players=players, first_dealer="B", options=EXCLUDED)
    assert figures(on, "pulya")["B"] == 0


def test_with_four_players_nothing_changes_for_a_dealer_on_the_talon() -> None:
    deal = allpass({"A": 0, "B": 4, "C": 6, "D": 0})
    kwargs: dict[str, Any] = {"players": ABCD, "first_dealer": "D"}
    assert score([deal], **kwargs)["sheet"] == score([deal], options=EXCLUDED, **kwargs)["sheet"]


def test_rostov_the_four_player_dealers_pulya_goes_too() -> None:
    deal = allpass({"A": 0, "B": 4, "C": 6})
    kwargs: dict[str, Any] = {"convention": "rostov", "players": ABCD, "first_dealer": "D"}
    off, on = score([deal], **kwargs), score([deal], options=EXCLUDED, **kwargs)
    assert figures(off, "pulya") == {"A": 1, "B": 0, "C": 0, "D": 1}
    assert figures(on, "pulya") == {"A": 1, "B": 0, "C": 0, "D": 0}
    assert whists_on(off) == whists_on(on)


def test_rostov_with_three_players_the_dealer_with_no_trick_writes_no_pulya() -> None:
    deal = allpass({"A": 4, "B": 6, "C": 0})
    kwargs: dict[str, Any] = {"convention": "rostov", "first_dealer": "C"}
    assert figures(score([deal], **kwargs), "pulya")["C"] == 1
    assert figures(score([deal], options=EXCLUDED, **kwargs), "pulya")["C"] == 0


# --- properties: PU's options on, over random legal pulkas --------------------------------


def _pu_on(conv: Convention) -> dict[str, Any]:
    """PU's options at their non-default value, where the convention allows them.

    The help order moves pulya points between players but never changes how many are
    taken (each request adds the least of it and the room left); an exclusion of help
    depends on who receives, so the order is changed only without one. The dealer's
    zero bonus changes the pulyas only when it is written there.
    """
    options: dict[str, Any] = {}
    if conv.help and not (conv.help_excludes_dealer or conv.help_excludes_remized_whister):
        options["help_order"] = "clockwise"
    if conv.ten == "checked":
        options["checked_ten_trick_whists"] = True
    if not conv.allpass_zero_bonus_dealer and conv.allpass_zero_bonus not in (
        "pulya",
        "pulya_scaled",
    ):
        options["allpass_zero_bonus_excludes_dealer"] = True
    return options


@pytest.mark.parametrize(("preset_name", "size"), COMBINATIONS, ids=IDS)
def test_with_pus_options_on_the_sheet_adds_up_and_both_methods_agree(
    preset_name: str, size: int
) -> None:
    @PROPERTY
    @given(legal_pulkas(preset_name, size))
    def check(drawn: DrawnPulka) -> None:
        data = dict(drawn.data)
        data["options"] = {**data["options"], **_pu_on(drawn.convention)}
        pulka = loads(json.dumps(data, ensure_ascii=False))
        assert isinstance(pulka, Pulka)
        final = score_pulka(pulka).state
        assert sum(final.pulya) == sum(drawn.final.pulya)  # the pulyas' total stays put
        totals = Totals(final.names, final.target, final.pulya, final.gora, final.whists)
        check_settlement(totals, final.convention)

    check()
