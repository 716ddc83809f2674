"""Every file the code's docstrings and comments name exists: a comment that points at a
module since moved or deleted is found here, not by the next reader who looks for it.

The 500-line guideline is read as "split where the code has a seam" (CONTRIBUTING.md):
a docstring is never cut to fit it, least of all to a line naming a file. What is read:
the docstrings and comments of the Python under prefscore/, scoring/ and bench/, the
comments of the page scripts and the stylesheet, and the comments of the templates. A
name is a path (``games/streams.py``, ``static/js/push.js``) or a file's name
(``render_cache.py``); it exists from the repository's root, as the end of a longer path,
or as a file of that name.
"""

from __future__ import annotations

import ast
import io
import os
import re
import tokenize
from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PATH = re.compile(
    r"(?<![\w/.:-])((?:[\w.-]+/)*[\w-]+\.(?:py|js|html|css|md|toml|json|service|timer))\b"
)
SKIPPED = {".venv", "node_modules", ".git", "__pycache__", "staticfiles", "artifacts"}
# Files named that are no file of ours, each with why.
OUTSIDE = {"SPEC.md": "the specification in PU's own repository (docs/rules.md §3.9)"}


@cache
def repository_files() -> tuple[str, ...]:
    found = []
    for folder, folders, files in os.walk(ROOT):
        folders[:] = [name for name in folders if name not in SKIPPED]
        base = Path(folder).relative_to(ROOT)
        found += [(base / name).as_posix() for name in files]
    return tuple(found)


def exists(name: str) -> bool:
    files = repository_files()
    return any(f == name or f.endswith("/" + name) for f in files) or served(name)


@cache
def served(name: str) -> bool:
    """A file the site serves (a URL of a URL conf ends with it): ``export.json``."""
    return any(
        re.search(
            rf"path\(\s*f?[\"'][^\"']*{re.escape(name)}[\"']", path.read_text(encoding="utf-8")
        )
        for path in (ROOT / "prefscore").rglob("urls.py")
    )


def python_prose(text: str) -> list[tuple[int, str]]:
    """The docstrings and the comments of a Python file, each with its first line."""
    found = []
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            if (doc := ast.get_docstring(node, clean=False)) is not None:
                found.append((node.body[0].lineno, doc))
    for token in tokenize.generate_tokens(io.StringIO(text).readline):
        if token.type == tokenize.COMMENT:
            found.append((token.start[0], token.string))
    return found


def other_prose(text: str, suffix: str) -> list[tuple[int, str]]:
    """The comments of a page script, the stylesheet or a template."""
    patterns = {
        ".js": r"/\*.*?\*/|(?<![:\"'])//[^\n]*",
        ".css": r"/\*.*?\*/",
        ".html": r"\{#.*?#\}|\{% comment %\}.*?\{% endcomment %\}|<!--.*?-->",
    }
    return [
        (text[: match.start()].count("\n") + 1, match.group(0))
        for match in re.finditer(patterns[suffix], text, re.DOTALL)
    ]


def sources() -> list[Path]:
    found = []
    for folder, suffixes in (
        ("prefscore", {".py"}),
        ("scoring", {".py"}),
        ("bench", {".py"}),
        ("static", {".js", ".css"}),
        ("templates", {".html", ".js"}),
    ):
        for path in sorted((ROOT / folder).rglob("*")):
            if path.suffix in suffixes and not SKIPPED & set(path.parts):
                if "migrations" not in path.parts and "vendor" not in path.parts:
                    found.append(path)
    return found


def named_files() -> list[tuple[str, str]]:
    """(where, name) for every file named in prose, where it is named."""
    named = []
    for path in sources():
        text = path.read_text(encoding="utf-8")
        prose = python_prose(text) if path.suffix == ".py" else other_prose(text, path.suffix)
        for line, words in prose:
            for match in PATH.finditer(words):
                named.append((f"{path.relative_to(ROOT)}:{line}", match.group(1)))
    return named


def test_the_code_names_files_in_its_prose():
    assert len(named_files()) > 200


def test_every_file_the_code_names_exists():
    missing = [
        f"{where}: {name}"
        for where, name in named_files()
        if not exists(name) and name not in OUTSIDE
    ]

    assert missing == []


@pytest.mark.parametrize(
    ("name", "found"),
    [
        ("games/streams.py", True),
        ("render_cache.py", True),
        ("static/js/push.js", True),
        ("presenters/viewer_class.py", False),
        ("views/replays.py", False),
        ("export.json", True),
        ("results.json", False),
    ],
)
def test_a_file_since_deleted_is_told_from_one_that_is_there(name, found):
    assert exists(name) is found
