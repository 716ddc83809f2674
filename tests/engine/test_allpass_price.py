"""The real price of a trick on an all-pass, the convention's scale applied (docs/rules.md §3.3)."""

import pytest

from scoring.engine.allpass import trick_price
from scoring.engine.conventions import preset
from scoring.engine.facts import GORA, WHISTS


@pytest.mark.parametrize(
    ("convention", "ladder_price", "section", "points"),
    [
        ("sochi", 1, GORA, 1),  # flat ladder [1], kg = 1
        ("leningrad", 1, GORA, 2),  # [1, 2, 3] × kg = 2: 2-4-6
        ("leningrad", 2, GORA, 4),
        ("leningrad", 3, GORA, 6),
        ("fspr", 1, GORA, 2),  # ФСПР writes 2-4-6-6-6
        ("rostov", 1, WHISTS, 5),  # r = 5 whists a trick, shared by the fewest
    ],
)
def test_a_trick_on_an_all_pass_costs_the_ladder_price_times_the_scale(
    convention, ladder_price, section, points
):
    price = trick_price(preset(convention), ladder_price)

    assert (price.section, price.points) == (section, points)


@pytest.mark.parametrize("convention", ["sochi", "leningrad", "fspr"])
def test_the_price_is_what_an_all_pass_writes_per_trick(convention):
    """Scored through the engine: a player's gora grows by the price per trick above the
    fewest (amnesty), so the chip and the sheet agree."""
    import json

    from scoring.engine.protocol import score_text

    names = ["A", "B", "C"]
    text = json.dumps(
        {
            "convention": convention,
            "players": names,
            "target": 10,
            "deals": [{"contract": "allpass", "tricks": {"A": 1, "B": 4, "C": 5}}],
        }
    )
    out = score_text(text)
    price = trick_price(preset(convention), 1).points
    gora = {name: out["sheet"][name]["gora"] for name in names}
    amnesty = preset(convention).allpass_amnesty
    base = 1 if amnesty else 0
    assert gora["B"] == price * (4 - base) and gora["C"] == price * (5 - base)
