"""One event stream (docs/push.md; docs/design.md, "Layout"): the table's,
the spectator's and the room's screens each answer through ``games/streams.py``'s
``respond`` with their own check, and no other module writes a stream loop of its own."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
STREAM = ROOT / "prefscore/games/streams.py"
SCREENS = {
    ROOT / "prefscore/games/views/events.py": {"sheet_events", "watch_events"},
    ROOT / "prefscore/tournaments/views/events.py": {"_stream"},
}


def test_only_the_one_stream_module_answers_with_an_event_stream():
    writers = [
        path.relative_to(ROOT).as_posix()
        for path in sorted((ROOT / "prefscore").rglob("*.py"))
        if "text/event-stream" in path.read_text(encoding="utf-8")
    ]
    assert writers == [STREAM.relative_to(ROOT).as_posix()]


def _calls_respond(function: ast.AsyncFunctionDef) -> bool:
    return any(
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == "respond"
        and isinstance(node.func.value, ast.Name)
        and node.func.value.id == "streams"
        for node in ast.walk(function)
    )


def test_every_screen_answers_through_the_one_stream_and_yields_nothing_itself():
    for path, names in SCREENS.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        functions = {
            node.name: node for node in ast.walk(tree) if isinstance(node, ast.AsyncFunctionDef)
        }
        for name in names:
            assert _calls_respond(functions[name]), f"{path.name}: {name}"
        loops = [
            node
            for node in ast.walk(tree)
            if isinstance(node, (ast.Yield, ast.YieldFrom, ast.While))
        ]
        assert loops == [], path.name
