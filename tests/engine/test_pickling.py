"""The fold pickles through ``compact_pickle`` and comes back equal (docs/design.md, "How
the table screen is cached").

The web side keeps a pulka's fold in a shared cache, pickled on every deal: every
dataclass in it must take the fast path, and what comes back must be the fold itself.
"""

from __future__ import annotations

import dataclasses
import pickle
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scoring.engine.facts import Entry
from scoring.engine.pickling import compact_pickle
from scoring.engine.protocol import read
from scoring.engine.pulka import score_pulka

from .legal import legal_pulkas
from .test_manual import pulkas_with_manual_lines

PRESETS = ("sochi", "leningrad", "rostov", "fspr")
FOLDS = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def dataclasses_in(value: Any) -> Iterator[Any]:
    """Every dataclass instance reachable from ``value`` through fields and containers."""
    seen: set[int] = set()
    stack = [value]
    while stack:
        item = stack.pop()
        if id(item) in seen:
            continue
        seen.add(id(item))
        if dataclasses.is_dataclass(item) and not isinstance(item, type):
            yield item
            stack.extend(getattr(item, f.name) for f in dataclasses.fields(item))
        elif isinstance(item, (list, tuple, set, frozenset)):
            stack.extend(item)
        elif isinstance(item, dict):
            stack.extend(item.values())


@st.composite
def drawn(draw: st.DrawFn) -> dict[str, Any]:
    """A pulka file: legal deals, or deals with manual lines and a correction of one
    (which put ``ManualDeal``, ``Correction`` and ``CorrectionOutcome`` in the fold)."""
    if draw(st.booleans()):
        _preset, data = draw(pulkas_with_manual_lines())
        return data
    preset = draw(st.sampled_from(PRESETS))
    return draw(legal_pulkas(preset, draw(st.sampled_from((3, 4))), max_deals=25)).data


@FOLDS
@given(drawn())
def test_a_fold_comes_back_from_pickle_equal(data: dict[str, Any]) -> None:
    scored = score_pulka(read(data))

    assert pickle.loads(pickle.dumps(scored, pickle.HIGHEST_PROTOCOL)) == scored


@FOLDS
@given(drawn())
def test_every_dataclass_of_a_fold_takes_the_compact_path(data: dict[str, Any]) -> None:
    scored = score_pulka(read(data))

    slow = {
        type(item).__qualname__
        for item in dataclasses_in(scored)
        if "compact_pickle" not in type(item).__getstate__.__qualname__
    }
    assert not slow, f"pickled through dataclasses' own fields(): {sorted(slow)}"


def test_the_state_is_the_fields_in_order_and_dataclasses_own_state_reads_back() -> None:
    entry = Entry(1, "whists", 12, on=0, reason="contract")
    state = entry.__getstate__()

    assert state == tuple(getattr(entry, f.name) for f in dataclasses.fields(Entry))
    again = object.__new__(Entry)
    again.__setstate__(list(state))  # as an entry cached before compact_pickle was
    assert again == entry


def test_a_class_without_slots_is_refused() -> None:
    @dataclasses.dataclass(frozen=True)
    class Plain:
        value: int

    with pytest.raises(TypeError, match="not a dataclass with slots"):
        compact_pickle(Plain)
