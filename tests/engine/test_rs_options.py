"""RS's two options (docs/rules.md §3.9): ``mountain_divisor`` and ``half_whist_played``.

scoring/engine/mountain.py and half_whist.py; docs/rules.md §3.7 and §3.10.7. Each rule:
figures worked out by hand with the option on and off, from rostiktc2-star/
preferans-score (``src/domain/finalize.ts``, ``engine.ts``, ``src/content/manual.ts``
§10, §18), the validation and the refusals, and properties over random legal pulkas.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scoring.engine.conventions import (
    ADDED_OPTIONS,
    FIRST_VERSION_OPTIONS,
    Convention,
    from_options,
    from_spec,
    preset,
)
from scoring.engine.errors import ConventionError, ScoringError
from scoring.engine.settlement import (
    Totals,
    average_mountain_method,
    compensation,
    exact_result,
    pairwise_method,
    whole_result,
)

from .legal import DrawnPulka, legal_pulkas
from .support import ABCD, allpass, figures, notation, played, score, written
from .test_properties import COMBINATIONS, IDS, PROPERTY, check_settlement

OTHERS = {"mountain_divisor": "others"}
PLAYED = {"half_whist_played": True}
HALF = {"B": "pass", "C": "half"}


def sheet(gora: tuple[int, ...], whists: tuple[tuple[int, ...], ...] | None = None) -> Totals:
    """A finished sheet: every pulya at 10, the goras and whists given."""
    size = len(gora)
    names = ABCD[:size] if size <= 4 else ("A", "B", "C", "D", "E")
    empty = tuple(tuple(0 for _ in range(size)) for _ in range(size))
    return Totals(names, 10, (10,) * size, gora, whists or empty)


# --- the options: defaults and refusals --------------------------------------------------


@pytest.mark.parametrize(
    "name", ["sochi", "leningrad", "rostov", "fspr", "pu-home", "pu-fspr", "gchet"]
)
def test_every_other_preset_keeps_the_mean_mountain_and_an_unplayed_half_whist(name: str) -> None:
    conv = preset(name)
    assert (conv.mountain_divisor, conv.half_whist_played) == ("players", False)


def test_rs_sochi_plays_both() -> None:
    conv = preset("rs-sochi")
    assert (conv.mountain_divisor, conv.half_whist_played) == ("others", True)


@pytest.mark.parametrize(
    ("options", "option", "code"),
    [
        ({"mountain_divisor": "owner"}, "mountain_divisor", "option.choice"),
        ({"mountain_divisor": 3}, "mountain_divisor", "option.choice"),
        ({"half_whist_played": "yes"}, "half_whist_played", "option.bool"),
        (
            {"half_whist_played": True, "half_whist_levels": []},
            "half_whist_played",
            "option.needs_half_whist",
        ),
    ],
)
def test_a_bad_value_is_refused_naming_the_option(
    options: dict[str, Any], option: str, code: str
) -> None:
    with pytest.raises(ConventionError) as refused:
        from_options(options)
    assert (refused.value.option, refused.value.code) == (option, code)


def test_the_refusal_says_what_to_change() -> None:
    with pytest.raises(ConventionError, match="half_whist_levels is empty"):
        from_options({"half_whist_played": True, "half_whist_levels": []})


def test_a_file_of_the_first_version_reads_as_before() -> None:
    """An older file spells out only the first options: these two take their defaults."""
    assert {"mountain_divisor", "half_whist_played"} <= ADDED_OPTIONS
    old = {k: v for k, v in preset("rs-sochi").to_options().items() if k in FIRST_VERSION_OPTIONS}
    conv = from_spec(old)
    assert (conv.mountain_divisor, conv.half_whist_played) == ("players", False)


def test_an_exported_rs_pulka_spells_both_out_and_scores_the_same() -> None:
    """An export writes every option (docs/protocol.md): the file scores as the preset."""
    deals = [played("6S", "A", HALF, {"A": 9, "B": 0, "C": 1})]
    spelled = preset("rs-sochi").to_options()
    assert (spelled["mountain_divisor"], spelled["half_whist_played"]) == ("others", True)
    by_name, by_options = score(deals, convention="rs-sochi"), score(deals, convention=spelled)
    assert by_name["sheet"] == by_options["sheet"]
    assert by_name["result"] == by_options["result"]


# --- mountain_divisor: the gora shared by the others (docs/rules.md §3.7) ----------------


def test_rs_manuals_example_splits_each_point_among_the_two_others() -> None:
    """RS manual.ts §18: goras 2, 5, 8 → 0, 3, 6; B owes 15 to A and C, C 30 to A and B."""
    totals = sheet((2, 5, 8))
    others = from_options(OTHERS)

    assert exact_result(totals, others) == (45, 0, -45)
    assert pairwise_method(totals, others).mountain_whists == (0, 15, 30)
    # The Кодекс's mean mountain: 10 × (3 − G'), two thirds of it.
    assert exact_result(totals, Convention()) == (30, 0, -30)


def test_with_four_players_each_point_is_ten_thirds_to_each_other() -> None:
    """Goras 0, 3, 6, 9: Σ 18; R = 10 × (18 − 4·G')/3 = 60, 20, −20, −60 (mean: 45 … −45)."""
    totals = sheet((0, 3, 6, 9))
    others = from_options(OTHERS)

    assert exact_result(totals, others) == (60, 20, -20, -60)
    assert average_mountain_method(totals, others).mountain_circle == (60, 20, -20, -60)
    assert average_mountain_method(totals, others).mean == Fraction(9, 2)
    assert exact_result(totals, Convention()) == (45, 15, -15, -45)


def test_both_methods_settle_the_whists_the_same_way_and_agree() -> None:
    whists = ((0, 4, 0), (0, 0, 6), (2, 0, 0))  # A on B 4, B on C 6, C on A 2
    totals = sheet((1, 0, 4), whists)
    others = from_options(OTHERS)

    # 10·(5 − 3·G')/2: +10, +25, −35; nets: A +4 −2, B −4 +6, C −6 +2.
    assert exact_result(totals, others) == (12, 27, -39)
    assert pairwise_method(totals, others).result == (12, 27, -39)
    assert average_mountain_method(totals, others).result == (12, 27, -39)


def test_with_two_players_the_others_are_the_indivisible_mountain() -> None:
    totals = sheet((3, 8))
    others = exact_result(totals, from_options(OTHERS))

    assert others == exact_result(totals, from_options({"indivisible_mountain": True}))
    assert others == (50, -50)


@pytest.mark.parametrize(("size", "expect"), [(3, 5), (4, 3), (5, 2)])
def test_rule_4_2_12_compensates_the_share_of_the_others(size: int, expect: int) -> None:
    others = from_options({**OTHERS, "rounding_compensation_4": 2})
    assert compensation(size, others) == expect
    assert compensation(4, Convention()) == 2  # the Кодекс's 10/4, unchanged


def test_codex_rounding_of_a_fractional_share_makes_whole_whists_that_add_up() -> None:
    totals = sheet((0, 1, 0, 0))  # B owes 10/3 to each other: not whole
    whole = whole_result(totals, from_options(OTHERS))

    assert sum(whole.result) == 0
    # Each whole result within one whist of the exact share (B's exact -10); who takes
    # the odd whist is the rounding's choice (docs/rules.md §3.7, Кодекс 4.2.12).
    assert whole.result[1] in (-9, -10, -11)
    assert all(abs(r - Fraction(10, 3)) < 1 for r in (whole.result[0], *whole.result[2:]))


def test_a_pulka_file_settles_with_the_option() -> None:
    deals = [played("6S", "A", {"B": "whist", "C": "pass"}, {"A": 10, "B": 0, "C": 0})]
    out = score(deals, target=2, options=OTHERS)  # B's shortfall: gora 8, A's pulya 2
    mean = score(deals, target=2)

    # Unclosed pulyas carried: G' = 0, 10, 2 → Σ 12; 10·(12 − 3·G')/2 = 60, −90, 30.
    assert out["result"] == {"A": 60, "B": -90, "C": 30}
    assert mean["result"] == {"A": 40, "B": -60, "C": 20}
    assert out["sheet"] == mean["sheet"]


# --- half_whist_played: a half-whist played out (docs/rules.md §3.10.7) ------------------


def test_without_the_option_a_half_whist_with_tricks_is_refused() -> None:
    deal = played("6S", "A", HALF, {"A": 9, "B": 0, "C": 1})
    with pytest.raises(ScoringError) as refused:
        score([deal])
    assert refused.value.code == "deal.half_tricks"


def test_the_half_whister_short_of_his_quota_writes_what_was_taken_and_pays_the_rest() -> None:
    """RS manual.ts §10: on a 6 with one trick he writes 2 whists and 2 gora."""
    out = score([played("6S", "A", HALF, {"A": 9, "B": 0, "C": 1})], options=PLAYED)

    assert written(out) == {("A", "pulya", 2): 1, ("C", "whists", "A", 2): 1, ("C", "gora", 2): 1}
    assert notation(out) == "6♠/½+3"


def test_the_defence_past_the_quota_writes_only_the_quota() -> None:
    """RS manual.ts §20: a half-whist on a 6 whose defence takes 4 writes 2 × 2 = 4."""
    out = score([played("6", "A", HALF, {"A": 6, "B": 3, "C": 1})], options=PLAYED)

    assert written(out) == {("A", "pulya", 2): 1, ("C", "whists", "A", 4): 1}
    assert notation(out) == "6/½="


def test_on_a_seven_the_quota_is_one_trick() -> None:
    out = score([played("7H", "A", HALF, {"A": 10, "B": 0, "C": 0})], options=PLAYED)
    assert written(out) == {("A", "pulya", 4): 1, ("C", "gora", 4): 1}


def test_a_remiz_writes_the_whole_half_and_the_consolation() -> None:
    """Sochi consoles: the half-whister as the whister, the passer as the passer."""
    out = score([played("6S", "A", HALF, {"A": 5, "B": 2, "C": 3})], options=PLAYED)

    assert written(out) == {
        ("A", "gora", 2): 1,
        ("C", "whists", "A", 4): 1,
        ("C", "whists", "A", 2): 1,
        ("B", "whists", "A", 2): 1,
    }
    assert notation(out) == "6♠/½-1"


def test_rs_consoles_nobody() -> None:
    deal = played("6S", "A", HALF, {"A": 5, "B": 2, "C": 3})
    out = score([deal], convention="rs-sochi")
    assert written(out) == {("A", "gora", 2): 1, ("C", "whists", "A", 4): 1}


def test_scales_and_half_liability_apply_as_to_any_whister() -> None:
    """Leningrad: 2 × 2 whists a trick; the shortfall 2 × 2, halved."""
    deal = played("6S", "A", HALF, {"A": 9, "B": 0, "C": 1})
    out = score([deal], convention="leningrad", options=PLAYED)
    assert written(out) == {("A", "pulya", 2): 1, ("C", "whists", "A", 4): 1, ("C", "gora", 2): 1}


def test_the_first_defenders_half_whist_is_played_out_too() -> None:
    deal = played("6S", "A", {"B": "half", "C": "pass"}, {"A": 8, "B": 0, "C": 2})
    out = score([deal], options={**PLAYED, "half_whist_first": True})
    assert written(out) == {("A", "pulya", 2): 1, ("B", "whists", "A", 4): 1}


def test_without_tricks_it_is_still_the_unplayed_half_whist() -> None:
    out = score([played("6S", "A", HALF)], options=PLAYED)
    assert written(out) == {("A", "pulya", 2): 1, ("C", "whists", "A", 4): 1}
    assert notation(out) == "6♠/½"


def test_its_tricks_are_checked_like_any_played_deals() -> None:
    with pytest.raises(ScoringError) as refused:
        score([played("6S", "A", HALF, {"A": 9, "B": 0, "C": 2})], options=PLAYED)
    assert refused.value.code == "deal.tricks_total"


def test_a_played_half_whist_ends_rss_run_of_all_passes_and_an_unplayed_one_does_not() -> None:
    """RS manual.ts §13: a contract played with a whist or a half-whist resets the run."""
    run = [allpass({"A": 4, "B": 3, "C": 3}), allpass({"A": 4, "B": 3, "C": 3})]
    played_out = played("6S", "A", HALF, {"A": 9, "B": 0, "C": 1})
    options = {**PLAYED, "allpass_reset": "played_game_or_misere", "allpass_ladder": [1, 2, 3]}

    assert score([*run, played_out], options=options)["next"]["allpass_price"] == 1
    assert score([*run, played("6S", "A", HALF)], options=options)["next"]["allpass_price"] > 1


def test_with_four_players_the_dealer_sits_out_and_writes_nothing() -> None:
    deal = played("6S", "A", HALF, {"A": 9, "B": 0, "C": 1})
    out = score([deal], players=ABCD, first_dealer="D", options=PLAYED)
    assert written(out) == {("A", "pulya", 2): 1, ("C", "whists", "A", 2): 1, ("C", "gora", 2): 1}
    assert figures(out, "gora")["D"] == 0


# --- properties ----------------------------------------------------------------------------


@pytest.mark.parametrize(("preset_name", "size"), COMBINATIONS, ids=IDS)
def test_shared_by_the_others_the_mountain_grows_by_n_over_n_minus_one(
    preset_name: str, size: int
) -> None:
    """Any sheet: both methods agree under either divisor, and with ``others`` each
    result's mountain part is n/(n − 1) of the mean mountain's (docs/rules.md §3.7)."""

    @PROPERTY
    @given(legal_pulkas(preset_name, size))
    def check(drawn: DrawnPulka) -> None:
        s = drawn.final
        totals = Totals(s.names, s.target, s.pulya, s.gora, s.whists)
        base = drawn.convention
        players = from_options({"mountain_divisor": "players"}, base)
        others = from_options({"mountain_divisor": "others"}, base)
        check_settlement(totals, others)
        nets = [sum(s.whists[i][j] - s.whists[j][i] for j in range(size)) for i in range(size)]
        mean_part = [r - n for r, n in zip(exact_result(totals, players), nets, strict=True)]
        others_part = [r - n for r, n in zip(exact_result(totals, others), nets, strict=True)]
        if size == 2 and base.indivisible_mountain:
            assert others_part == mean_part
        else:
            factor = Fraction(size, size - 1)
            assert others_part == [factor * m for m in mean_part]

    check()


@PROPERTY
@given(st.sampled_from([6, 7]), st.integers(0, 10), st.integers(0, 10))
def test_the_half_whister_answers_for_exactly_his_quota(level: int, taken: int, first: int) -> None:
    """Whatever the tricks, he writes in whists what the defence took of his quota and in
    his gora what it did not: together the quota × price (docs/rules.md §3.10.7; under
    RS, which consoles nobody, nothing else is his)."""
    first = min(first, 10 - taken)
    tricks = {"A": taken, "B": first, "C": 10 - taken - first}
    out = score([played(f"{level}S", "A", HALF, tricks)], convention="rs-sochi")

    price, quota = (2, 2) if level == 6 else (4, 1)
    mine = [e for e in out["deals"][0]["entries"] if e["player"] == "C"]
    gora = sum(e["points"] for e in mine if e["section"] == "gora")
    assert sum(e["points"] for e in mine) == price * quota
    assert gora == price * max(0, quota - (10 - taken))
    assert not [e for e in out["deals"][0]["entries"] if e["player"] == "B"]
