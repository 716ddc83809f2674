"""The peers' options of the defence and of help (docs/rules.md §3.9;
scoring/engine/defence.py, writeoff.py).

Each rule: a deal that writes differently with the option on and off, worked out by
hand from docs/rules.md §3.1 and §3.4 (the peers' files are named in the known answers,
tests/engine/examples/170-…175-). The validation and refusals of each option too.
"""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

import pytest
from hypothesis import given

from scoring.engine.conventions import Convention, from_options, preset
from scoring.engine.errors import ConventionError
from scoring.engine.protocol import loads
from scoring.engine.pulka import Pulka, score_pulka
from scoring.engine.settlement import Totals

from .legal import DrawnPulka, legal_pulkas
from .support import ABCD, allpass, figures, played, score, unplayed, written
from .test_properties import COMBINATIONS, IDS, PROPERTY, check_settlement

WHIST_PASS = {"B": "whist", "C": "pass"}
BOTH = {"B": "whist", "C": "whist"}


# --- the options: defaults and refusals --------------------------------------------------


@pytest.mark.parametrize("name", ["sochi", "leningrad", "rostov", "fspr"])
def test_every_preset_keeps_todays_defence_and_help(name: str) -> None:
    conv = preset(name)
    assert not conv.gentleman_on_made and not conv.personal_quota
    assert conv.checked_ten_consolation == "defenders"
    assert conv.help_writeoff == "points" and not conv.help_writeoff_stops_at_zero
    assert conv.joint_liability in ("second", "both")


@pytest.mark.parametrize(
    ("options", "option", "code"),
    [
        ({"gentleman_on_made": "yes"}, "gentleman_on_made", "option.bool"),
        ({"personal_quota": 1}, "personal_quota", "option.bool"),
        ({"help_writeoff_stops_at_zero": None}, "help_writeoff_stops_at_zero", "option.bool"),
        ({"checked_ten_consolation": "dealer"}, "checked_ten_consolation", "option.choice"),
        ({"help_writeoff": "double"}, "help_writeoff", "option.choice"),
        ({"joint_liability": "first"}, "joint_liability", "option.choice"),
        ({"gentleman_on_made": True}, "gentleman_on_made", "option.needs_gentleman"),
        (
            {"help": False, "help_writeoff": "pulya_rate"},
            "help_writeoff",
            "option.writeoff_needs_help",
        ),
        (
            {"help": False, "help_writeoff_stops_at_zero": True},
            "help_writeoff_stops_at_zero",
            "option.needs_help",
        ),
    ],
)
def test_a_bad_value_is_refused_naming_the_option(
    options: dict[str, Any], option: str, code: str
) -> None:
    with pytest.raises(ConventionError) as refused:
        from_options(options)
    assert (refused.value.option, refused.value.code) == (option, code)


def test_the_new_values_are_accepted_where_they_make_sense() -> None:
    conv = from_options(
        {
            "whist_style": "gentleman",
            "gentleman_on_made": True,
            "personal_quota": True,
            "joint_liability": "second_own",
            "ten": "checked",
            "checked_ten_consolation": "none",
            "help_writeoff": "pulya_rate",
            "help_writeoff_stops_at_zero": True,
        }
    )
    assert conv.to_options()["joint_liability"] == "second_own"
    assert from_options(conv.to_options()) == conv


# --- 2. gentleman split on a made contract ------------------------------------------------


def test_a_made_contract_splits_the_trick_whists_with_the_passer() -> None:
    deal = played("7S", "A", WHIST_PASS, {"A": 7, "B": 2, "C": 1})
    gentleman = {"whist_style": "gentleman"}
    off = score([deal], options=gentleman)
    on = score([deal], options={**gentleman, "gentleman_on_made": True})
    # A seven: 4 whists a trick, the defence took 3 = 12; split 6 + 6 when on.
    assert written(off) == Counter({("A", "pulya", 4): 1, ("B", "whists", "A", 12): 1})
    assert written(on) == Counter(
        {("A", "pulya", 4): 1, ("B", "whists", "A", 6): 1, ("C", "whists", "A", 6): 1}
    )


def test_a_failed_contract_splits_as_before_and_two_whisters_keep_their_own() -> None:
    options = {"whist_style": "gentleman", "gentleman_on_made": True}
    down = played("6S", "A", WHIST_PASS, {"A": 5, "B": 3, "C": 2})
    both = played("6S", "A", BOTH, {"A": 6, "B": 3, "C": 1})
    assert written(score([down], options=options)) == written(
        score([down], options={"whist_style": "gentleman"})
    )
    assert written(score([both], options=options)) == Counter(
        {("A", "pulya", 2): 1, ("B", "whists", "A", 6): 1, ("C", "whists", "A", 2): 1}
    )


# --- 5. consolation on a failed checked ten -----------------------------------------------


def test_a_failed_checked_ten_consoles_nobody_with_none() -> None:
    deal = {
        "contract": "10",
        "declarer": "A",
        "tricks": {
            "A": 8,
            "B": 1,
            "C": 1,
        },
    }
    checked = {"ten": "checked"}
    today = score([deal], options=checked)
    none = score([deal], options={**checked, "checked_ten_consolation": "none"})
    assert written(today) == Counter(
        {("A", "gora", 20): 1, ("B", "whists", "A", 20): 1, ("C", "whists", "A", 20): 1}
    )
    assert written(none) == Counter({("A", "gora", 20): 1})


def test_with_none_the_dealer_sitting_out_does_not_console_either() -> None:
    # 4 players, A deals and sits out; B declares.
    deal = {"contract": "10", "declarer": "B", "tricks": {"B": 9, "C": 1, "D": 0}}
    options = {"ten": "checked", "checked_ten_consolation": "none"}
    assert written(score([deal], players=ABCD, options=options)) == Counter({("B", "gora", 10): 1})
    today = score([deal], players=ABCD, options={"ten": "checked"})
    assert written(today)[("A", "whists", "B", 10)] == 1


# --- 8. personal quota -----------------------------------------------------------------


def test_personal_quota_fines_a_whister_short_of_his_quota_when_the_pair_met_its_duty() -> None:
    deal = played("6S", "A", BOTH, {"A": 6, "B": 4, "C": 0})
    assert written(score([deal]))[("C", "gora", 4)] == 0
    on = score([deal], options={"personal_quota": True})
    assert written(on) == Counter(
        {("A", "pulya", 2): 1, ("B", "whists", "A", 8): 1, ("C", "gora", 4): 1}
    )


def test_personal_quota_applies_on_a_remiz_and_is_halved_for_half_liability() -> None:
    deal = played("7S", "A", BOTH, {"A": 6, "B": 4, "C": 0})
    out = score([deal], options={"personal_quota": True, "whister_liability": "half"})
    # A seven down one: gora 4; C's quota is 1: 4 × 1 halved = 2.
    assert written(out)[("C", "gora", 2)] == 1
    assert written(out)[("A", "gora", 4)] == 1
    assert written(score([deal]))[("C", "gora", 2)] == 0


def test_personal_quota_leaves_a_lone_whister_to_the_pairs_rule() -> None:
    deal = played("6S", "A", WHIST_PASS, {"A": 6, "B": 1, "C": 3})
    assert written(score([deal], options={"personal_quota": True})) == written(score([deal]))


# --- 9. two whisters on 8-10: the second whister's own tricks ----------------------------


@pytest.mark.parametrize(
    ("tricks", "second_pays"),
    [
        ({"A": 9, "B": 1, "C": 0}, True),  # the pair met its duty, C took none himself
        ({"A": 9, "B": 0, "C": 1}, False),  # the first whister never pays
        ({"A": 10, "B": 0, "C": 0}, True),  # as with "second"
        ({"A": 7, "B": 3, "C": 0}, True),  # a remiz: still his own tricks
    ],
)
def test_second_own_counts_only_the_second_whisters_tricks(
    tricks: dict[str, int], second_pays: bool
) -> None:
    out = score([played("8S", "A", BOTH, tricks)], options={"joint_liability": "second_own"})
    fines = {e for e in written(out) if e[1] == "gora" and e[0] != "A"}
    assert fines == ({("C", "gora", 6)} if second_pays else set())


# --- 7. help when every pulya is closed ---------------------------------------------------

# Target 3: B, C, B and A write sixes (B's second closes him and helps C with 1 point);
# then every pulya is closed and A's unwhisted 9 leaves 7 points nobody can take.
CLOSED = [
    unplayed("6", "B", "AC"),
    unplayed("6", "C", "AB"),
    unplayed("6", "B", "AC"),
    unplayed("6", "A", "BC"),
]
NINE = unplayed("9", "A", "BC")
ON_TIME = {"end": "deals", "deal_limit": 20}


def _gora_after(deals: list[dict[str, Any]], **options: Any) -> Any:
    return figures(score(deals, target=3, options={**ON_TIME, **options}), "gora")["A"]


def test_the_writeoff_goes_at_the_pulya_to_gora_rate() -> None:
    assert _gora_after([*CLOSED, NINE]) == -7
    assert _gora_after([*CLOSED, NINE], pulya_to_gora=2) == -7
    assert _gora_after([*CLOSED, NINE], help_writeoff="pulya_rate", pulya_to_gora=2) == -14
    assert _gora_after([*CLOSED, NINE], help_writeoff="pulya_rate") == -7


def test_an_indivisible_mountain_halves_the_writeoff_after_the_rate() -> None:
    two = [unplayed("6", "B", "A"), unplayed("6", "A", "B"), unplayed("9", "A", "B")]
    options = {**ON_TIME, "indivisible_mountain": True, "help_writeoff": "pulya_rate"}
    out = score(two, players=("A", "B"), target=2, options={**options, "pulya_to_gora": 2})
    # 8 points, none of them A's own: 8 × 2 halved = 8.
    assert figures(out, "gora")["A"] == -8


def test_the_writeoff_stops_at_a_zero_gora() -> None:
    one_point = allpass({"A": 4, "B": 3, "C": 3})  # amnesty 3: A's gora 1
    deals = [*CLOSED[:3], one_point, CLOSED[3], NINE]
    assert _gora_after(deals) == -6
    assert _gora_after(deals, help_writeoff_stops_at_zero=True) == 0


def test_at_a_zero_gora_nothing_is_written_off_at_all() -> None:
    out = score([*CLOSED, NINE], target=3, options={**ON_TIME, "help_writeoff_stops_at_zero": True})
    assert figures(out, "gora")["A"] == 0
    assert all(e[1] != "gora" for e in written(out, 5))


# --- properties: every option on, over random legal pulkas --------------------------------


def _all_on(conv: Convention) -> dict[str, Any]:
    """Every peers' option of this module at its non-default value, where allowed."""
    options: dict[str, Any] = {"checked_ten_consolation": "none"}
    # Help to a whister who went down moves with his fines: with that option the fines
    # stay as drawn, so that the same deals stay legal (the pulyas and the end stay put).
    if not conv.help_excludes_remized_whister:
        options |= {"personal_quota": True, "joint_liability": "second_own"}
    if conv.whist_style == "gentleman":
        options["gentleman_on_made"] = True
    if conv.help:
        options |= {"help_writeoff": "pulya_rate", "help_writeoff_stops_at_zero": True}
    return options


@pytest.mark.parametrize(("preset_name", "size"), COMBINATIONS, ids=IDS)
def test_with_every_option_on_the_sheet_adds_up_and_both_methods_agree(
    preset_name: str, size: int
) -> None:
    @PROPERTY
    @given(legal_pulkas(preset_name, size))
    def check(drawn: DrawnPulka) -> None:
        data = dict(drawn.data)
        data["options"] = {**data["options"], **_all_on(drawn.convention)}
        pulka = loads(json.dumps(data, ensure_ascii=False))
        assert isinstance(pulka, Pulka)
        final = score_pulka(pulka).state
        assert sum(final.pulya) == sum(drawn.final.pulya)  # pulyas and help stay put
        totals = Totals(final.names, final.target, final.pulya, final.gora, final.whists)
        check_settlement(totals, final.convention)

    check()
