"""Manual entries (docs/rules.md §3.11; docs/protocol.md, "Manual entries").

Known answers worked by hand, the refusals with their codes, and properties over legal
pulkas with manual entries mixed in: the settlement adds up to zero, both Кодекс methods
agree, and replaying the file gives the same sheet.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scoring.engine.conventions import from_spec
from scoring.engine.deals import parse_deal
from scoring.engine.errors import DealError
from scoring.engine.manual import MAX_POINTS, MAX_REASON, ManualDeal, describe, is_manual
from scoring.engine.protocol import loads, read, score_text
from scoring.engine.pulka import Pulka, score_pulka
from scoring.engine.settlement import Totals
from scoring.engine.sheet import apply, start

from .legal import NAMES, legal_deal
from .test_properties import check_settlement

SOURCE_PS = (
    "mathfewmatthews-dev/preferans-score app.js addManual (a figure into gora, pulya or "
    "whists on another player, with a note); docs/rules.md §3.11"
)


def manual(player: str, section: str, points: int, reason: str, on: str | None = None) -> dict:
    body: dict[str, Any] = {"player": player, "section": section, "points": points}
    if on is not None:
        body["on"] = on
    body["reason"] = reason
    return {"manual": body}


def pulka_file(deals: list[dict], convention: str = "sochi", **extra: Any) -> str:
    data = {"convention": convention, "players": ["A", "B", "C"], "target": 10, "deals": deals}
    data.update(extra)
    return json.dumps(data, ensure_ascii=False)


# --- known answers ------------------------------------------------------------------


def test_a_fine_into_the_gora_is_written_as_it_stands_and_settles_by_hand() -> None:
    """Source: SOURCE_PS. Sochi, 3 players to 10, one manual line: A's gora +6.

    Settlement by hand (docs/rules.md §3.7): unclosed pulyas go to the gora, so the goras
    are A 10 + 6 = 16, B 10, C 10; the mean is 12; each point above it is worth 10/3
    whists against each other player: A pays (16 − 12) × 10 = 40 in all, −40; B and C
    get (12 − 10) × 10 = 20 each.
    """
    out = score_text(pulka_file([manual("A", "gora", 6, "fine: showed a card")]))
    assert out["deals"] == [
        {
            "number": 1,
            "dealer": "A",
            "notation": "✎",
            "entries": [{"player": "A", "section": "gora", "points": 6}],
        }
    ]
    assert out["sheet"]["A"]["gora"] == 6
    assert out["result"] == {"A": -40, "B": 20, "C": 20}
    # Nobody dealt it: A still deals the first deal.
    assert out["next"] == {"dealer": "A", "allpass_price": 1, "min_contract": 6}


def test_whists_are_written_by_one_player_on_another() -> None:
    """Source: SOURCE_PS. B writes 20 whists on A; the goras stay equal (all 10 at the end).

    By hand: B's whists +20, A's −20, C 0 (pairwise: whists written minus whists received).
    """
    out = score_text(pulka_file([manual("B", "whists", 20, "carried balance", on="A")]))
    assert out["deals"][0]["entries"] == [
        {"player": "B", "section": "whists", "on": "A", "points": 20}
    ]
    assert out["sheet"]["B"]["whists"] == {"A": 20, "C": 0}
    assert out["result"] == {"A": -20, "B": 20, "C": 0}


def test_a_pulya_line_goes_through_help_like_any_pulya() -> None:
    """Source: SOURCE_PS (its manual pulya, then redistributePoolOverflow) and docs/rules.md
    §3.4. Sochi to 10: A has 8 after a 6♠ made twice… here 8 by hand, then 4 more by hand:
    2 close his pulya, 2 help B (the largest unclosed, ties clockwise) for 20 whists.
    """
    out = score_text(
        pulka_file(
            [manual("A", "pulya", 8, "carried from the first sheet"), manual("A", "pulya", 4, "x")]
        )
    )
    assert out["deals"][1]["entries"] == [
        {"player": "A", "section": "pulya", "points": 2},
        {"player": "B", "section": "pulya", "points": 2},
        {"player": "A", "section": "whists", "on": "B", "points": 20},
    ]
    assert out["sheet"]["A"]["pulya"] == 10 and out["sheet"]["B"]["pulya"] == 2


def test_a_minus_in_the_gora_writes_it_off() -> None:
    """Source: docs/rules.md §3.11 (the gora takes a minus, as help's write-off does)."""
    out = score_text(pulka_file([manual("C", "gora", -12, "balance of last week")]))
    assert out["sheet"]["C"]["gora"] == -12


def test_the_dealer_stays_and_the_allpass_run_stands() -> None:
    """Source: docs/rules.md §3.11 and §3.3; Leningrad ladder [1, 2, 3], exit [6, 7, 8].

    Two all-passes raise the price to 3 and the lowest contract to 8; a manual line between
    them changes neither, and the deal after it is dealt by the player due to deal.
    """
    allpass = {"contract": "allpass", "tricks": {"A": 2, "B": 3, "C": 5}}
    text = pulka_file(
        [allpass, manual("B", "gora", 2, "late"), allpass], convention="leningrad", target=20
    )
    out = score_text(text)
    assert [d["dealer"] for d in out["deals"]] == ["A", "B", "B"]
    assert out["next"] == {"dealer": "C", "allpass_price": 3, "min_contract": 8}
    # The second all-pass was priced 2 a trick (the second of the run), gora ×2 (Leningrad).
    assert {"player": "C", "section": "gora", "points": 12} in out["deals"][2]["entries"]


def test_a_manual_line_does_not_count_against_the_deal_limit() -> None:
    """Source: docs/rules.md §3.11 (``end: deals`` counts deals dealt)."""
    allpass = {"contract": "allpass", "tricks": {"A": 2, "B": 3, "C": 5}}
    options = {"end": "deals", "deal_limit": 2}
    out = score_text(
        pulka_file([allpass, manual("A", "gora", 1, "fine"), allpass], options=options)
    )
    assert out["closed"] is True
    # Closed after two deals dealt: a third is refused, a manual line after it too.
    with pytest.raises(DealError) as error:
        score_text(pulka_file([allpass, allpass, manual("A", "gora", 1, "x")], options=options))
    assert error.value.code == "deal.pulka_over"


def test_a_correction_that_closes_the_pulka_before_a_later_deal_is_refused() -> None:
    """Source: docs/rules.md §3.5 and §3.11: corrected, C's pulya line closes the pulka
    after line 3, so the all-pass written after it could not have been dealt."""
    allpass = {"contract": "allpass", "tricks": {"A": 2, "B": 3, "C": 5}}
    lines = [manual("A", "pulya", 10, "carried"), manual("B", "pulya", 10, "carried")]
    lines += [manual("C", "pulya", 5, "carried"), allpass]
    correction = {"correct": 3, "deal": manual("C", "pulya", 10, "carried")}
    with pytest.raises(DealError) as error:
        score_text(pulka_file([*lines, correction]))
    assert error.value.code == "deal.pulka_over"
    assert error.value.places[0][0] == "correction"


def test_a_manual_line_can_close_the_pulka() -> None:
    """Source: docs/rules.md §3.5 and §3.11: the end is decided from the pulyas."""
    lines = [manual(p, "pulya", 10, "carried") for p in "ABC"]
    assert score_text(pulka_file(lines))["closed"] is True


def test_correcting_a_manual_line_replaces_it_and_penalises_nobody() -> None:
    """Source: Кодекс 4.2.7 and docs/rules.md §3.11: a fine of 10 written as 4 is corrected;
    A was "favoured" by 6 gora, but the line was not his own record: no warning, no penalty.
    """
    lines = [
        manual("A", "gora", 4, "fine"),
        {"correct": 1, "deal": manual("A", "gora", 10, "fine, corrected")},
    ]
    out = score_text(pulka_file(lines))
    assert out["sheet"]["A"]["gora"] == 10
    assert out["corrections"] == [
        {"correct": 1, "after_deal": 1, "warned": [], "penalties": [], "penalty": False}
    ]


def test_a_correction_keeps_the_kind_of_the_line() -> None:
    """Source: docs/rules.md §3.11: a deal is corrected by a deal, a manual line by a line."""
    six = {"contract": "6S", "declarer": "A", "whists": {"B": "pass", "C": "pass"}}
    for wrong, right in ((six, manual("A", "gora", 1, "x")), (manual("A", "gora", 1, "x"), six)):
        with pytest.raises(DealError) as error:
            score_text(pulka_file([wrong, {"correct": 1, "deal": right}]))
        assert error.value.code == "correction.manual_kind"


def test_a_player_who_sits_out_may_be_fined() -> None:
    """Source: docs/rules.md §3.11: any player of the pulka, whoever sits out now."""
    four = json.dumps(
        {
            "convention": "sochi",
            "players": ["A", "B", "C", "D"],
            "target": 10,
            "deals": [manual("A", "gora", 2, "phone at the table")],
        }
    )
    assert score_text(four)["sheet"]["A"]["gora"] == 2


def test_the_reason_is_kept_and_trimmed() -> None:
    deal = parse_deal(manual("A", "gora", 2, "  fine  "))
    assert isinstance(deal, ManualDeal) and is_manual(deal)
    line = describe(deal)
    assert line is not None and line.reason == "fine"
    assert describe(parse_deal({"contract": "allpass"})) is None


# --- refusals -------------------------------------------------------------------------

BAD = [
    ({"manual": []}, "manual.not_object"),
    (
        {"manual": {"player": "A", "section": "gora", "points": 1, "reason": "x", "y": 1}},
        "manual.unknown_field",
    ),
    ({"manual": {"player": "A", "section": "talon", "points": 1, "reason": "x"}}, "manual.section"),
    ({"manual": {"section": "gora", "points": 1, "reason": "x"}}, "manual.player_missing"),
    ({"manual": {"player": 3, "section": "gora", "points": 1, "reason": "x"}}, "manual.not_name"),
    (manual("A", "whists", 1, "x"), "manual.on_missing"),
    (manual("A", "whists", 1, "x", on="A"), "manual.on_self"),
    (manual("A", "gora", 1, "x", on="B"), "manual.on_not_whists"),
    (manual("A", "pulya", 0, "x"), "manual.points"),
    (manual("A", "pulya", -1, "x"), "manual.points"),
    (manual("A", "whists", -5, "x", on="B"), "manual.points"),
    (manual("A", "pulya", MAX_POINTS + 1, "x"), "manual.points"),
    (manual("A", "gora", 0, "x"), "manual.points_signed"),
    (manual("A", "gora", -MAX_POINTS - 1, "x"), "manual.points_signed"),
    (manual("A", "gora", True, "x"), "manual.points_signed"),  # type: ignore[arg-type]
    (manual("A", "gora", 1.5, "x"), "manual.points_signed"),  # type: ignore[arg-type]
    (manual("A", "gora", 1, "   "), "manual.reason_missing"),
    ({"manual": {"player": "A", "section": "gora", "points": 1}}, "manual.reason_missing"),
    (manual("A", "gora", 1, "x" * (MAX_REASON + 1)), "manual.reason_long"),
    (manual("A", "gora", 1, "two\nlines"), "manual.reason_long"),
    ({**manual("A", "gora", 1, "x"), "contract": "6S"}, "deal.unknown_field"),
    # Nobody deals a manual entry: a dealer beside it is no field of its own, whether it
    # names the player due to deal or another (docs/protocol.md, "Manual entries").
    ({**manual("A", "gora", 1, "x"), "dealer": "B"}, "deal.unknown_field"),
    ({**manual("A", "gora", 1, "x"), "dealer": "A"}, "deal.unknown_field"),
    ({**manual("A", "gora", 1, "x"), "number": 1, "dealer": "A"}, "deal.unknown_field"),
]


@pytest.mark.parametrize(("item", "code"), BAD, ids=[code for _item, code in BAD])
def test_a_bad_manual_entry_is_refused_with_its_code(item: dict, code: str) -> None:
    with pytest.raises(DealError) as error:
        parse_deal(item)
    assert error.value.code == code


def test_a_dealer_beside_a_manual_entry_is_refused_in_a_file() -> None:
    """docs/protocol.md, "Manual entries": any field beside ``manual``, a ``dealer``
    say, is ``deal.unknown_field``; A is due to deal, and the item names B."""
    item = {**manual("A", "gora", 2, "fine"), "dealer": "B"}
    with pytest.raises(DealError) as error:
        score_text(pulka_file([{"contract": "allpass", "tricks": {"A": 2, "B": 4, "C": 4}}, item]))
    assert error.value.code == "deal.unknown_field"
    assert str(error.value) == "deal 2: unknown field 'dealer'"


def test_an_exported_manual_item_reads_with_its_output() -> None:
    """An export writes the engine's output beside the line (number, dealer, notation,
    entries; docs/protocol.md): read again, all four are recomputed, never read."""
    first = score_text(pulka_file([manual("A", "gora", 2, "fine")]))
    exported = {**manual("A", "gora", 2, "fine"), **first["deals"][0]}
    assert set(exported) == {"manual", "number", "dealer", "notation", "entries"}
    assert score_text(pulka_file([exported])) == first


@pytest.mark.parametrize("field", ["player", "on"])
def test_a_manual_entry_names_players_of_the_pulka(field: str) -> None:
    item = manual("A", "whists", 4, "x", on="B")
    item["manual"][field] = "Zed"
    with pytest.raises(DealError) as error:
        score_text(pulka_file([item]))
    assert error.value.code == "deal.unknown_player"
    assert str(error.value) == f"deal 1: unknown player 'Zed' in {field}"


def test_a_file_with_a_bad_manual_entry_names_the_deal() -> None:
    with pytest.raises(DealError) as error:
        loads(pulka_file([{"contract": "allpass"}, manual("A", "gora", 0, "x")]))
    assert str(error.value).startswith("deal 2: gora points must be a whole number")


# --- properties -----------------------------------------------------------------------

PROPERTY = settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


@st.composite
def manual_items(draw: st.DrawFn, names: tuple[str, ...]) -> dict[str, Any]:
    player = draw(st.sampled_from(names))
    section = draw(st.sampled_from(["pulya", "gora", "whists"]))
    if section == "gora":
        points = draw(st.integers(-MAX_POINTS, MAX_POINTS).filter(bool))
    else:
        points = draw(st.integers(1, 40))
    on = draw(st.sampled_from([n for n in names if n != player])) if section == "whists" else None
    return manual(player, section, points, draw(st.sampled_from(["fine", "арбитр", "перенос"])), on)


@st.composite
def pulkas_with_manual_lines(draw: st.DrawFn) -> tuple[str, dict[str, Any]]:
    preset = draw(st.sampled_from(["sochi", "leningrad", "rostov", "fspr"]))
    size = draw(st.integers(2, 5))
    names = NAMES[:size]
    convention = from_spec(preset)
    state = start(names, convention, draw(st.integers(1, 24)), 0)
    items: list[dict[str, Any]] = []
    for _ in range(draw(st.integers(1, 25))):
        if state.closed:
            break
        if draw(st.integers(0, 3)) == 0:
            raw = draw(manual_items(names))
            before = state
            state, record = apply(state, parse_deal(raw))
            assert state.dealer == before.dealer and state.run == before.run
            assert record.notation == "✎"
        else:
            raw = draw(legal_deal(state))
            state, _record = apply(state, parse_deal(raw))
        items.append(raw)
    data = {"convention": preset, "players": list(names), "target": state.target, "deals": items}
    if items and draw(st.booleans()):  # correct one manual line by another
        lines = [i for i, item in enumerate(items, start=1) if "manual" in item]
        if lines:
            number = draw(st.sampled_from(lines))
            correction = {"correct": number, "deal": draw(manual_items(names))}
            if _replays(data | {"deals": [*items, correction]}):
                items.append(correction)
    return preset, data


def _replays(data: dict[str, Any]) -> bool:
    """Whether the file replays: a corrected pulya line may close the pulka before a
    later deal, which the engine refuses (``deal.pulka_over``, known answer above), so
    the strategy keeps such a correction out and draws only legal pulkas."""
    try:
        score_pulka(read(data))
    except DealError as error:
        assert error.places[0][0] == "correction" and error.code == "deal.pulka_over"
        return False
    return True


@PROPERTY
@given(pulkas_with_manual_lines())
def test_with_manual_lines_the_settlement_adds_up_and_replays(drawn: tuple[str, dict]) -> None:
    preset, data = drawn
    text = json.dumps(data, ensure_ascii=False)
    pulka = loads(text)
    assert isinstance(pulka, Pulka) and read(json.loads(text)) == pulka
    scored = score_pulka(pulka)
    assert scored == score_pulka(pulka)
    assert score_text(text) == score_text(text)
    s = scored.state
    check_settlement(Totals(s.names, s.target, s.pulya, s.gora, s.whists), pulka.convention)
    out = score_text(text)
    assert sum(out["result_whole"].values()) == 0


def test_a_manual_line_is_not_a_deal_played_in_the_statistics() -> None:
    """Source: docs/rules.md §3.11: written by hand, not played (scoring/engine/stats.py)."""
    from scoring.engine.stats import play_stats

    allpass = {"contract": "allpass", "tricks": {"A": 2, "B": 3, "C": 5}}
    with_line = loads(pulka_file([allpass, manual("A", "gora", 4, "fine")]))
    without = loads(pulka_file([allpass]))
    assert isinstance(with_line, Pulka) and isinstance(without, Pulka)
    names = with_line.names
    for player in names:
        assert play_stats(score_pulka(with_line).records, names, player) == play_stats(
            score_pulka(without).records, names, player
        )
