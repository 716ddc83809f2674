"""The fold's frozen dataclasses whose ``__init__`` is written out by hand
(``scoring.engine.pickling.slot_setters``, docs/design.md "How a deal flows").

Each must stay the dataclass's own constructor in all but speed: the same parameters in
the fields' order with their defaults, every field set to the value given for it, and
the object as frozen as before.
"""

from __future__ import annotations

import dataclasses
import inspect

import pytest

from scoring.engine.facts import Deal, Entry
from scoring.engine.manual import MANUAL_CONTRACT, ManualDeal, ManualLine
from scoring.engine.sheet import DealRecord, SheetState

WRITTEN_OUT = [Deal, Entry, SheetState, DealRecord]


def _expected_default(field: dataclasses.Field[object]) -> object:
    return inspect.Parameter.empty if field.default is dataclasses.MISSING else field.default


@pytest.mark.parametrize("cls", WRITTEN_OUT, ids=lambda cls: cls.__name__)
def test_the_constructor_takes_the_fields_in_order_with_their_defaults(cls: type) -> None:
    assert "__init__" in cls.__dict__
    parameters = list(inspect.signature(cls.__init__).parameters.values())[1:]
    fields = dataclasses.fields(cls)
    assert [p.name for p in parameters] == [f.name for f in fields]
    assert [p.default for p in parameters] == [_expected_default(f) for f in fields]
    assert all(p.kind is inspect.Parameter.POSITIONAL_OR_KEYWORD for p in parameters)


@pytest.mark.parametrize("cls", WRITTEN_OUT, ids=lambda cls: cls.__name__)
def test_every_field_is_set_to_its_own_value_and_stays_frozen(cls: type) -> None:
    fields = dataclasses.fields(cls)
    values = [object() for _ in fields]  # one distinct marker per field
    made = cls(*values)
    assert all(getattr(made, f.name) is v for f, v in zip(fields, values, strict=True))
    by_name = cls(**{f.name: v for f, v in zip(fields, values, strict=True)})
    assert by_name == made
    with pytest.raises(dataclasses.FrozenInstanceError):
        setattr(made, fields[0].name, None)


@pytest.mark.parametrize("cls", WRITTEN_OUT, ids=lambda cls: cls.__name__)
def test_the_defaults_are_set_when_left_out(cls: type) -> None:
    fields = dataclasses.fields(cls)
    required = [f for f in fields if f.default is dataclasses.MISSING]
    made = cls(*[object() for _ in required])
    for field in fields[len(required) :]:
        assert getattr(made, field.name) == field.default


def test_a_manual_deal_keeps_the_dataclass_constructor_with_its_line() -> None:
    line = ManualLine("A", "gora", 2, "fine")
    deal = ManualDeal(MANUAL_CONTRACT, line=line)
    assert "__init__" in ManualDeal.__dict__  # its own, with the line, not Deal's
    assert deal.line is line and deal.contract is MANUAL_CONTRACT and deal.tricks is None
