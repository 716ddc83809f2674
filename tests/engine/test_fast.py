"""Faster constructors for hot frozen dataclasses (scoring/engine/_fast.py)."""

from __future__ import annotations

import dataclasses
import inspect

import pytest

from scoring.engine._fast import fast_init
from scoring.engine.deals import Deal, DealContext, DealOutcome, Entry
from scoring.engine.sheet import DealRecord, SheetState


@fast_init
@dataclasses.dataclass(frozen=True, slots=True)
class Sample:
    number: int
    name: str = "x"
    seen: frozenset[int] = dataclasses.field(default_factory=frozenset)


def test_it_keeps_the_fields_defaults_and_keywords() -> None:
    assert Sample(1) == Sample(1, "x", frozenset())
    assert Sample(number=2, seen=frozenset({3})).seen == frozenset({3})
    assert Sample(1).seen is not None
    assert repr(Sample(4, "y")) == "Sample(number=4, name='y', seen=frozenset())"
    assert list(inspect.signature(Sample).parameters) == ["number", "name", "seen"]


def test_the_object_stays_frozen_and_hashable() -> None:
    sample = Sample(1)
    with pytest.raises(dataclasses.FrozenInstanceError):
        sample.number = 2  # type: ignore[misc]
    assert hash(sample) == hash(Sample(1))
    assert dataclasses.replace(sample, name="z") == Sample(1, "z")


def test_it_refuses_the_wrong_number_of_arguments() -> None:
    with pytest.raises(TypeError):
        Sample()  # type: ignore[call-arg]
    with pytest.raises(TypeError):
        Sample(1, "a", frozenset(), 4)  # type: ignore[call-arg]


def test_it_refuses_classes_it_cannot_speed_up() -> None:
    @dataclasses.dataclass(frozen=True)
    class Plain:
        number: int

    with pytest.raises(TypeError, match="must be a slotted dataclass"):
        fast_init(Plain)

    @dataclasses.dataclass(frozen=True, slots=True)
    class Checked:
        number: int

        def __post_init__(self) -> None:
            pass

    with pytest.raises(TypeError, match="has __post_init__"):
        fast_init(Checked)


@pytest.mark.parametrize("cls", [Deal, Entry, DealOutcome, DealContext, SheetState, DealRecord])
def test_the_engines_hot_classes_keep_their_dataclass_signature(cls: type) -> None:
    names = [field.name for field in dataclasses.fields(cls)]
    assert list(inspect.signature(cls).parameters) == names
    assert cls.__dataclass_params__.frozen  # type: ignore[attr-defined]


def test_an_entry_is_built_alike_by_position_and_keyword() -> None:
    assert Entry(0, "whists", 8, 1, "help") == Entry(
        player=0, section="whists", points=8, on=1, reason="help"
    )
    assert Entry(0, "pulya", 2).on is None and Entry(0, "pulya", 2).reason == ""
    assert DealOutcome((), "P", False, True).remized_whisters == frozenset()
