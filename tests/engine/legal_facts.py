"""Hypothesis strategies for the deal facts of docs/rules.md §3.10.

``legal.py`` calls these where it draws options and trick contracts, so that the
property tests (sum zero, both settlement methods agree, replay deterministic) meet
concessions, the first defender's half-whist, returned whists, the dealer's whist,
totus and shown talons whenever the drawn convention allows them.
"""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

from scoring.engine.conventions import Convention


@st.composite
def fact_options(draw: st.DrawFn, half_levels: bool = True) -> dict[str, Any]:
    """Options of §3.10, each drawn on or off (a half-whist played out needs a level)."""
    alone = draw(st.booleans())
    return {
        "half_whist_played": half_levels and draw(st.booleans()),
        "concede_levels": draw(st.sets(st.integers(6, 10)).map(sorted)),
        "half_whist_first": draw(st.booleans()),
        "returned_whist_alone": alone,
        # gchet's both consolations need the returner alone (§3.10.3).
        "returned_whist_consolation": draw(st.sampled_from(["whister", "both"]))
        if alone
        else "whister",
        "dealer_whist": draw(st.sampled_from(["none", "unliable", "liable"])),
        "totus_bonus": draw(st.sampled_from([0, 0, 5, 10])),
        "talon_shown_penalty": draw(st.sampled_from(["none", "whists", "gora"])),
    }


def more_words(conv: Convention, level: int) -> list[tuple[str, ...]]:
    """Two defenders' words that §3.10.2–3 add to the usual ones."""
    if level not in conv.half_whist_levels:
        return []
    choices: list[tuple[str, ...]] = []
    if conv.half_whist_first:
        choices.append(("half", "pass"))
    if conv.returned_whist_alone:
        choices.append(("whist", "half"))
        if conv.half_whist_first:
            choices.append(("half", "whist"))
    return choices


@st.composite
def concession(draw: st.DrawFn, conv: Convention, level: int) -> bool:
    """Whether this trick contract is conceded without three (§3.10.1)."""
    return level in conv.concede_levels and draw(st.integers(0, 4)) == 0


def dealer_may_whist(conv: Convention, size: int, words: tuple[str, ...]) -> bool:
    """The 4-player dealer may whist when neither defender did (§3.10.4)."""
    return conv.dealer_whist != "none" and size == 4 and "whist" not in words


@st.composite
def flags(draw: st.DrawFn, conv: Convention, size: int, level: int) -> dict[str, bool]:
    """Totus on a 10 and a shown talon with a dealer sitting out (§3.10.5–6)."""
    drawn: dict[str, bool] = {}
    if level == 10 and conv.totus_bonus and draw(st.booleans()):
        drawn["totus"] = True
    if conv.talon_shown_penalty != "none" and size >= 4 and draw(st.integers(0, 3)) == 0:
        drawn["talon_shown"] = True
    return drawn


def half_whist_played_out(conv: Convention, words: tuple[str, ...], drawn: bool) -> bool:
    """Whether a half-whist (§3.10.7) is given with tricks: played out, where allowed.

    The dealer's whist (§3.10.4) is played anyway; a returned whist has a ``whist``.
    """
    return conv.half_whist_played and "half" in words and drawn
