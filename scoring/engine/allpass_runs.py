"""Runs of all-passes: which deal ends one, the exit after a round at the top of the
exit ladder, and a finish held back until the run ends (docs/rules.md §3.3, §3.5).

``deals.py`` names each deal's outcome with one of :data:`OUTCOMES`; the sheet asks
:func:`next_run` for the run after the deal and :func:`finish_held` before it closes
the pulka.
"""

from __future__ import annotations

from .conventions import Convention

# What a deal that is not an all-pass came to (docs/rules.md §3.3 "Streak reset"):
# a contract not played (nobody whisted, or a half-whist), a whisted contract made or
# failed, a checked 10 made or failed, a misère made or caught.
UNPLAYED = "unplayed"
WHISTED_MADE = "whisted_made"
WHISTED_FAILED = "whisted_failed"
TEN_MADE = "ten_made"
TEN_FAILED = "ten_failed"
MISERE_MADE = "misere_made"
MISERE_FAILED = "misere_failed"
OUTCOMES = (
    UNPLAYED,
    WHISTED_MADE,
    WHISTED_FAILED,
    TEN_MADE,
    TEN_FAILED,
    MISERE_MADE,
    MISERE_FAILED,
)

# Each value of ``allpass_reset``: the outcomes that end a run (docs/protocol.md,
# "Runs of all-passes"). The first three are the values files have always used.
RESETTING: dict[str, frozenset[str]] = {
    "any_game": frozenset(OUTCOMES),
    "whisted_game": frozenset({WHISTED_MADE, WHISTED_FAILED}),
    "game_or_misere": frozenset({UNPLAYED, WHISTED_MADE, TEN_MADE, MISERE_MADE, MISERE_FAILED}),
    "made_whisted_game": frozenset({WHISTED_MADE}),
    "made_game_or_misere": frozenset({UNPLAYED, WHISTED_MADE, TEN_MADE, MISERE_MADE}),
    "played_game_or_misere": frozenset(OUTCOMES) - {UNPLAYED},
    "made_played_game": frozenset({WHISTED_MADE, TEN_MADE, MISERE_MADE}),
}


def ends_run(convention: Convention, outcome: str) -> bool:
    """Whether a deal with this outcome ends a run of all-passes.

    docs/rules.md §3.3 "Streak reset": option ``allpass_reset``, one set of outcomes
    per value.
    """
    return outcome in RESETTING[convention.allpass_reset]


def next_run(
    convention: Convention,
    run: int,
    led: int,
    *,
    is_allpass: bool,
    resets: bool,
    first_hand: int,
    size: int,
) -> tuple[int, int]:
    """The run of all-passes after a deal, and the seats that have led at the top.

    The deal is an all-pass or not, ends the run or not (:func:`ends_run`), and was
    led by ``first_hand`` at a table of ``size``. docs/rules.md §3.3: an all-pass adds one to the run, which starts again after
    ``allpass_max_run`` of them; a deal that ``allpass_reset`` counts ends it. With
    ``allpass_exit_round`` ("Exit after a round"), from the first all-pass dealt at
    the top of ``exit_ladder`` on, every deal that leaves the run going marks its
    first hand in ``led`` (a bit per seat); once every seat has led, the run ends.
    """
    if not is_allpass:
        after = 0 if resets else run
    else:
        after = run + 1
        limit = convention.allpass_max_run
        if limit is not None and after >= limit:
            after = 0
    if after == 0:
        return 0, 0
    if not convention.allpass_exit_round:
        return after, led
    at_top = run >= len(convention.exit_ladder) - 1
    if not at_top or (not led and not is_allpass):
        return after, led
    led |= 1 << first_hand
    if led == (1 << size) - 1:
        return 0, 0
    return after, led


def finish_held(convention: Convention, run: int) -> bool:
    """Whether a pulka that has reached its end must play on until the run ends.

    docs/rules.md §3.5, option ``finish_after_allpass_run`` (gchet: the finish waits
    for the all-pass run to be broken).
    """
    return convention.finish_after_allpass_run and run > 0
