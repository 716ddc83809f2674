"""docs/protocol.md read against the engine, so that the two cannot drift apart.

The option table ("Convention options"): every option of ``Convention`` once, in its
order, with exactly the values the engine allows (``conventions.OPTION_VALUES``, the
same objects that validate), which are also the model's choices. The preset tables
("Preset defaults"): every cell is that preset's value. The output's key table
("Output"): the keys ``score`` prints, each where the table says it is, and no other.
"""

from __future__ import annotations

import json
import re
import typing
from pathlib import Path
from typing import Any

import pytest

from scoring.engine.conventions import (
    OPTION_NAMES,
    OPTION_VALUES,
    PRESET_NAMES,
    PRICE_KEYS,
    Convention,
    from_options,
    preset,
)
from scoring.engine.errors import ConventionError
from scoring.engine.option_values import Choice, Flag
from scoring.engine.protocol import score_text

PROTOCOL = Path(__file__).resolve().parents[2] / "docs" / "protocol.md"


def section(title: str) -> str:
    """The text of the ``## title…`` section of docs/protocol.md, up to the next one."""
    text = PROTOCOL.read_text(encoding="utf-8")
    start = text.index(f"\n## {title}")
    end = text.find("\n## ", start + 1)
    return text[start : end if end != -1 else None]


def table(text: str) -> list[list[str]]:
    """The rows of the tables in ``text`` whose first cell is a key in backticks."""
    rows = []
    for line in text.splitlines():
        if re.match(r"^\| `[^`]+` \|", line):
            rows.append([cell.strip() for cell in line.strip().strip("|").split(" | ")])
    return rows


OPTION_ROWS = table(section("Convention options"))


def test_the_option_table_names_every_option_once_in_the_engines_order() -> None:
    assert [row[0].strip("`") for row in OPTION_ROWS] == list(OPTION_NAMES)


@pytest.mark.parametrize("row", OPTION_ROWS, ids=[row[0].strip("`") for row in OPTION_ROWS])
def test_each_options_values_are_what_the_engine_allows(row: list[str]) -> None:
    name = row[0].strip("`")
    assert row[1] == OPTION_VALUES[name].describe()
    assert row[2], f"{name} has no meaning in the table"


def test_half_whist_levels_allow_six_and_seven_only() -> None:
    """docs/rules.md §1: a half-whist is allowed on 6 or 7 (issue: the table said "list of
    levels"); the table and the engine now both say so."""
    assert "`6`, `7`" in dict((r[0], r[1]) for r in OPTION_ROWS)["`half_whist_levels`"]
    assert from_options({"half_whist_levels": [7]}).half_whist_levels == (7,)
    assert from_options({"half_whist_levels": []}).half_whist_levels == ()
    for level in (5, 8, 9, 10):
        with pytest.raises(ConventionError) as error:
            from_options({"half_whist_levels": [6, level]})
        assert error.value.code == "option.half_levels"


def _literal_values(name: str) -> tuple[object, ...]:
    return typing.get_args(typing.get_type_hints(Convention)[name])


@pytest.mark.parametrize(
    "name", [n for n, a in OPTION_VALUES.items() if isinstance(a, Choice | Flag)]
)
def test_a_choice_is_its_fields_type_and_every_other_value_is_refused(name: str) -> None:
    allowed = OPTION_VALUES[name]
    hint = typing.get_type_hints(Convention)[name]
    if isinstance(allowed, Flag):
        assert hint is bool
        bad: object = "yes"
    else:
        if typing.get_origin(hint) is typing.Literal:
            assert _literal_values(name) == allowed.values
        bad = "no such value" if isinstance(allowed.values[0], str) else 4
    with pytest.raises(ConventionError) as error:
        allowed.check(name, bad)
    assert error.value.option == name


# --- the output --------------------------------------------------------------------------

OUTPUT_ROWS = table(section("Output"))
DOCUMENTED = {row[0].strip("`"): row[1] for row in OUTPUT_ROWS}


# Maps keyed by the players' names: documented as one key each, not name by name.
BY_NAME = {"result", "result_whole", "money", "sheet.*.whists"}
# Documented as "shaped as ``entries``": checked against those below.
SHAPED_AS_ENTRIES = "corrections[].penalties"


def paths(value: Any, prefix: str = "") -> set[str]:
    """Every key path of ``value`` as the table writes them: ``deals[].entries[].on``,
    ``sheet.*.gora`` (``*`` for the level of ``sheet`` keyed by names)."""
    found: set[str] = set()
    if isinstance(value, list):
        for item in value:
            found |= paths(item, f"{prefix}[]")
    elif isinstance(value, dict):
        for key, item in value.items():
            if prefix == "sheet":
                found |= paths(item, "sheet.*")
                continue
            path = f"{prefix}.{key}" if prefix else key
            found.add(path)
            if path not in BY_NAME and path != SHAPED_AS_ENTRIES:
                found |= paths(item, path)
    return found


PLAYERS = ["A", "B", "C", "D"]
RICH = {
    "convention": "sochi",
    "players": PLAYERS,
    "target": 10,
    "stake": 0.1,
    "deals": [
        {"contract": "6S", "declarer": "B", "whists": {"C": "whist", "D": "pass"},
         "tricks": {"B": 6, "C": 3, "D": 1}},
        {"manual": {"player": "A", "section": "whists", "on": "B", "points": 4, "reason": "x"}},
        {"correct": 1, "deal": {"contract": "6S", "declarer": "B",
         "whists": {"C": "whist", "D": "pass"}, "tricks": {"B": 5, "C": 4, "D": 1}}},
        {"correct": 1, "deal": {"contract": "6S", "declarer": "B",
         "whists": {"C": "whist", "D": "pass"}, "tricks": {"B": 6, "C": 3, "D": 1}},
         "penalty": False},
    ],
}  # fmt: skip


def test_the_output_prints_every_documented_key_and_no_other() -> None:
    out = score_text(json.dumps(RICH))
    assert paths(out) == set(DOCUMENTED)
    penalties = [e for c in out["corrections"] for e in c["penalties"]]
    assert all(set(e) <= {"player", "section", "on", "points"} for e in penalties)


def test_keys_documented_as_conditional_are_left_out_when_their_condition_is_not_met() -> None:
    plain = dict(RICH, deals=RICH["deals"][:1])
    del plain["stake"]
    top = set(score_text(json.dumps(plain)))
    assert DOCUMENTED["corrections"] == "the file has corrections" and "corrections" not in top
    assert DOCUMENTED["money"] == "a `stake` is given" and "money" not in top
    always = {key for key, when in DOCUMENTED.items() if "." not in key and when == "always"}
    assert always <= top


def test_a_paper_sheet_prints_the_documented_keys_less_next() -> None:
    sheet = {name: {"pulya": 10, "gora": 2 * i, "whists": {}} for i, name in enumerate(PLAYERS)}
    paper = {"convention": "sochi", "players": PLAYERS, "target": 10, "sheet": sheet}
    top = set(score_text(json.dumps(paper)))
    assert DOCUMENTED["next"] == "a file of `deals`"
    assert top == {k for k in DOCUMENTED if "." not in k} - {"next", "corrections", "money"}


def test_each_entry_has_on_only_for_whists() -> None:
    out = score_text(json.dumps(RICH))
    entries = [e for d in out["deals"] for e in d["entries"]]
    entries += [e for c in out["corrections"] for e in c["penalties"]]
    assert DOCUMENTED["deals[].entries[].on"] == "`whists` only"
    assert entries and all(("on" in e) == (e["section"] == "whists") for e in entries)


def test_the_corrections_items_say_what_the_table_says() -> None:
    """Known answer, Кодекс 4.2.7 by hand (Sochi, A deals and sits out): deal 1 was
    written 6♠ made, C whisting with 3 tricks. The first correction has B down one, C with
    4: the wrong record gave B a pulya of 2 he was not due and spared him a gora of 2,
    while C and D wrote fewer whists than due (no favour to them). Only B was favoured,
    and it is his first time: a warning, no penalty. The second puts deal 1 back as it
    was written, without penalty: nobody is warned. Both follow the log's two items."""
    out = score_text(json.dumps(RICH))
    first, second = out["corrections"]
    assert first["correct"] == 1 and first["after_deal"] == 2 and first["penalty"] is True
    assert first["warned"] == ["B"] and first["penalties"] == []
    assert second == {"correct": 1, "after_deal": 2, "warned": [], "penalties": [],
                      "penalty": False}  # fmt: skip


@pytest.mark.parametrize("name", [n for n, a in OPTION_VALUES.items() if isinstance(a, Choice)])
def test_the_convention_models_choices_are_the_engines(name: str) -> None:
    """scoring/option_fields.py: each option of a few values is a model field with the
    engine's values as its choices, no more and no fewer."""
    from scoring.models import Convention as ConventionModel

    field = ConventionModel._meta.get_field(name)
    allowed = OPTION_VALUES[name]
    assert isinstance(allowed, Choice)
    assert {value for value, _label in field.choices or ()} == set(allowed.values)


# --- the preset tables ---------------------------------------------------------------------


def _preset_value(text: str, name: str) -> object:
    """A cell of the preset tables as the value ``Convention.to_options`` gives."""
    text = text.removesuffix(" (played by time)").strip()
    if name == "prices":
        levels, misere = text.split("; misère ")
        return dict(zip(PRICE_KEYS, [*map(int, levels.split(", ")), int(misere)], strict=True))
    if name == "consolation":
        return [] if text == "none" else text.split(", ")
    if text.startswith("`"):
        return text.strip("`")
    return json.loads(text)  # true, false, null, a number or a list


def preset_cells() -> list[tuple[str, str, object]]:
    """(preset, option, value) for every cell of both tables of "Preset defaults"."""
    cells = []
    for block in section("Preset defaults").split("\n\n"):
        lines = [line for line in block.splitlines() if line.startswith("|")]
        if not lines:
            continue
        presets = re.findall(r"`([\w-]+)`", lines[0])
        for line in lines[2:]:
            row = [cell.strip() for cell in line.strip().strip("|").split(" | ")]
            names = re.findall(r"`(\w+)`", row[0])
            for preset_name, cell in zip(presets, row[1:], strict=True):
                cell = row[1] if cell == "=" else cell
                parts = cell.split(", ") if len(names) > 1 else [cell]
                for name, part in zip(names, parts, strict=True):
                    cells.append((preset_name, name, _preset_value(part, name)))
    return cells


PRESET_CELLS = preset_cells()


def test_the_preset_tables_name_every_preset() -> None:
    assert {p for p, _name, _value in PRESET_CELLS} == set(PRESET_NAMES)


@pytest.mark.parametrize(
    ("preset_name", "name", "value"), PRESET_CELLS, ids=[f"{p}-{n}" for p, n, _v in PRESET_CELLS]
)
def test_each_preset_value_in_the_tables_is_the_engines(
    preset_name: str, name: str, value: object
) -> None:
    assert preset(preset_name).to_options()[name] == value


def test_an_option_the_tables_leave_out_has_sochis_value() -> None:
    """ "Every option not listed under a preset has the Sochi value" (docs/protocol.md)."""
    listed = {(p, name) for p, name, _value in PRESET_CELLS}
    sochi = preset("sochi").to_options()
    for preset_name in PRESET_NAMES:
        options = preset(preset_name).to_options()
        left_out = [name for name in OPTION_NAMES if (preset_name, name) not in listed]
        assert {n: options[n] for n in left_out} == {n: sochi[n] for n in left_out}
