"""The stylesheet's blocks are all closed: one rule left open (a merge dropped its "}")
nested every rule after it inside it, so none of them styled the page they were for."""

from __future__ import annotations

import re
from pathlib import Path

from django.conf import settings

SHEET = Path(settings.BASE_DIR) / "static" / "css" / "prefscore.css"


def test_every_block_of_the_stylesheet_is_closed_where_it_is_opened():
    text = re.sub(
        r"/\*.*?\*/", lambda m: "\n" * m.group(0).count("\n"), SHEET.read_text(), flags=re.S
    )
    open_at: list[int] = []
    for number, line in enumerate(text.splitlines(), start=1):
        # A rule that starts at the left margin is never inside another block.
        if open_at and re.match(r"[.#a-z:\[*]", line):
            raise AssertionError(f"line {number} is inside the block opened at line {open_at[-1]}")
        for char in line:
            if char == "{":
                open_at.append(number)
            elif char == "}":
                assert open_at, f"line {number} closes a block never opened"
                open_at.pop()
    assert open_at == [], f"blocks opened at lines {open_at} are never closed"
