"""Every code name the design document (and CONTRIBUTING.md) cites is still in the code: a
name that moved or went fails here, so the documents cannot drift from what they describe.

docs/design.md names code in two ways, and both are read (CONTRIBUTING.md the second):

- the layout tree ("Layout"): each file and folder it lists, under its folder, exists;
- the names in backticks: a path (``games/recording.py``, ``presenters/table.py``,
  ``"games/sheet.html#sheet"``) is a file of the repository, a template or a static file;
  a dotted name (``render_cache.render_settled``, ``games.events.register``,
  ``Pulka.objects.in_progress()``) is a module of the project and what it holds; a
  single name written as code is (``TableLinks``, ``RELEASE_ROOTS``, ``_tail_variant``,
  ``X-Entry-Conflict``) occurs in the code; ``make X`` is a target of the Makefile and
  ``manage.py X`` a command.

Plain words in backticks (``user``, ``games``), template syntax, URLs and shell options
are not code names and are let be; a dotted name that is not the project's must be one
of ``OUTSIDE`` (the browser's and the request's own).
"""

from __future__ import annotations

import importlib
import importlib.util
import pkgutil
import re
from functools import cache
from pathlib import Path
from typing import Any

import pytest

import prefscore
import scoring

ROOT = Path(__file__).resolve().parent.parent
DESIGN = ROOT / "docs" / "design.md"
# The documents a newcomer reads for where the code is: the design, and how to work on it.
DOCUMENTS = [DESIGN, ROOT / "CONTRIBUTING.md"]
SELF = Path(__file__).resolve()  # its examples of names that went are in no code
# Where a name the document cites may live.
CODE_FOLDERS = ("prefscore", "scoring", "static", "templates", "tests", "bench")
CODE_SUFFIXES = {".py", ".js", ".html", ".css", ".toml", ".cfg", ".txt"}
# Dotted names that belong to the browser, the request, a Playwright test or Python, not
# to the project; another's module (``json.loads``) is imported and read as ours are.
OUTSIDE = {"request", "navigator", "crypto", "window", "document", "str", "context", "page"}
FILE_SUFFIXES = r"\.(py|js|html|md|toml|css|po|mo|json|txt|service|timer|example)$"
IDENTIFIER = r"[A-Za-z_][A-Za-z0-9_]*"
DOTTED = re.compile(rf"^{IDENTIFIER}(\.{IDENTIFIER})+(\(\))?$")
PATH = re.compile(r"^[A-Za-z0-9_.][A-Za-z0-9_.\-/]*(#[A-Za-z0-9_\-]+)?$")
CODE_WORD = re.compile(
    r"^@?(_*[A-Za-z][A-Za-z0-9]*_[A-Za-z0-9_]*|[A-Z][A-Z0-9_]+|[A-Z][a-z0-9]+[A-Z][A-Za-z0-9]*|[a-z]+[A-Z][A-Za-z0-9]*|[A-Z]+(-[A-Z][A-Za-z]*)+|_[a-z][a-z0-9_]*)$"
)


def design_text() -> str:
    return DESIGN.read_text(encoding="utf-8")


def document_spans() -> list[tuple[str, str]]:
    """(document, span) for every document of ``DOCUMENTS``."""
    return [
        (document.name, span)
        for document in DOCUMENTS
        for span in cited_spans(document.read_text(encoding="utf-8"))
    ]


def _outside_fences(text: str) -> str:
    """The text without its fenced blocks, nor the paragraph that names other projects'
    code as what not to copy ("Don't copy: …")."""
    text = re.sub(r"^```.*?^```", "", text, flags=re.S | re.M)
    return re.sub(r"^Don't copy:.*?(\n\n|\Z)", "", text, flags=re.S | re.M)


def cited_spans(text: str | None = None) -> list[str]:
    """Every span in single backticks outside the fenced blocks, once each, in order."""
    spans = re.findall(r"`([^`\n]+)`", _outside_fences(design_text() if text is None else text))
    return list(dict.fromkeys(spans))


@cache
def repository_files() -> tuple[str, ...]:
    found = [p.name + ("/" if p.is_dir() else "") for p in ROOT.iterdir()]
    for folder in (*CODE_FOLDERS, "docs", ".ci", "locale", "deploy", "tools"):
        for path in (ROOT / folder).rglob("*"):
            if "__pycache__" in path.parts or "node_modules" in path.parts:
                continue
            found.append(path.relative_to(ROOT).as_posix() + ("/" if path.is_dir() else ""))
    return tuple(found)


@cache
def code_text() -> str:
    parts = [(ROOT / "Makefile").read_text(encoding="utf-8")]
    for folder in CODE_FOLDERS:
        for path in sorted((ROOT / folder).rglob("*")):
            if path.suffix in CODE_SUFFIXES and "migrations" not in path.parts and path != SELF:
                parts.append(path.read_text(encoding="utf-8", errors="replace"))
    parts.append((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    return "\n".join(parts)


@cache
def project_modules() -> tuple[str, ...]:
    names = []
    for package in (prefscore, scoring):
        names.append(package.__name__)
        for module in pkgutil.walk_packages(package.__path__, f"{package.__name__}."):
            if ".migrations" not in module.name:
                names.append(module.name)
    return tuple(names)


def _file_exists(path: str) -> bool:
    """A path as the document writes it: from the root, under an app, a template, a
    static file, or the tail of a longer path (``presenters/table.py``)."""
    path = path.strip("/")
    wanted = path + "/" if not Path(path).suffix and not path.endswith("/") else path
    files = repository_files()
    candidates = {path, wanted}
    return any(
        name in candidates
        or name.endswith("/" + path)
        or name.endswith("/" + wanted)
        or name.rstrip("/").endswith("/" + path.rstrip("/"))
        for name in files
    )


def _resolve(dotted: str) -> bool:
    """``module.attribute…`` where the module is the project's, named by the tail of its
    dotted path (``render_cache`` is ``prefscore.games.render_cache``), or a class the
    project defines (``Pulka.objects.in_progress``)."""
    parts = dotted.removesuffix("()").split(".")
    for cut in range(len(parts), 0, -1):
        head, rest = ".".join(parts[:cut]), parts[cut:]
        modules = [m for m in project_modules() if m == head or m.endswith("." + head)]
        if modules:
            return any(_has(importlib.import_module(m), rest) for m in modules)
    owner = _project_class(parts[0])
    if owner is None and importlib.util.find_spec(parts[0]) is not None:
        owner = importlib.import_module(parts[0])  # another's: json.loads
    return owner is not None and _has(owner, parts[1:])


def _has(owner: Any, names: list[str]) -> bool:
    for name in names:
        if not hasattr(owner, name):
            return False
        owner = getattr(owner, name)
    return True


def _project_class(name: str) -> Any:
    for module_name in project_modules():
        if module_name.endswith(".models"):
            found = getattr(importlib.import_module(module_name), name, None)
            if isinstance(found, type):
                return found
    return None


def _make_targets() -> set[str]:
    text = (ROOT / "Makefile").read_text(encoding="utf-8")
    return {
        target
        for line in text.splitlines()
        if (match := re.match(r"^([A-Za-z0-9_ .-]+):(?!=)", line))
        for target in match.group(1).split()
    }


def _commands() -> set[str]:
    """The project's commands and Django's own (``createcachetable``)."""
    from django.core.management import get_commands

    return set(get_commands())


def problem(span: str) -> str | None:
    """Why the span names nothing the code has, or None when it does (or is no name)."""
    if span.startswith("make "):
        target = span.split()[1]
        return None if target in _make_targets() else f"no Makefile target {target}"
    if span.startswith("manage.py "):
        command = span.split()[1]
        return None if command in _commands() else f"no command {command}"
    bare = span.strip('"')
    if bare != span and not PATH.match(bare):
        return None  # a quoted value: "tournament:<id>"
    if bare.startswith("/") or "://" in bare:
        return None  # a URL
    if DOTTED.match(bare) and not re.search(FILE_SUFFIXES, bare):
        if bare.split(".")[0] in OUTSIDE:
            return None
        return None if _resolve(bare) else f"{bare} is no module, class or attribute"
    if "/" in bare or re.search(FILE_SUFFIXES, bare):
        if not PATH.match(bare):
            return None  # "7♠/pass": notation, not a path
        path, _, _partial = bare.partition("#")
        if _file_exists(path) or path in code_text():
            return None  # a file of the repository, or one the code names (a vendored one)
        module, dot, attribute = path.rpartition(".")
        if dot and "/" in module and _file_exists(module + ".py"):
            source = next(
                (ROOT / f).read_text(encoding="utf-8")
                for f in repository_files()
                if f == module + ".py" or f.endswith("/" + module + ".py")
            )
            if re.search(rf"^(def|class) {re.escape(attribute)}\b", source, re.M):
                return None
            return f"{module}.py has no {attribute}"
        return f"no file {path}"
    word = bare.removeprefix("@")
    if CODE_WORD.match(span) and not re.search(
        rf"(?<![\w-]){re.escape(word)}(?![\w-])", code_text()
    ):
        return f"{word} occurs nowhere in the code"
    return None


def layout_paths() -> list[str]:
    """The files and folders of the layout tree, each with its folders (four spaces a
    level; a line indented past its level, or with no name first, describes the one
    above it)."""
    text = design_text()
    block = text.split("## Layout", 1)[1].split("```", 2)[1]
    paths: list[str] = []
    folders: list[str] = []
    for line in block.splitlines():
        if not line.strip():
            continue
        indent = len(line) - len(line.lstrip(" "))
        if indent % 4 or indent // 4 > len(folders):
            continue
        names = re.split(r"\s{2,}", line.strip(), maxsplit=1)[0].split(" ")
        if not all(re.match(r"^[\w.\-/]+$", name) for name in names):
            continue
        level = indent // 4
        folders = folders[:level]
        for name in names:
            paths.append("/".join([*folders, name]))
        if len(names) == 1 and names[0].endswith("/"):
            folders.append(names[0].rstrip("/"))
    return paths


def test_the_document_cites_code_names():
    assert len(cited_spans()) > 100
    assert len(layout_paths()) > 80


@pytest.mark.parametrize(("document", "span"), document_spans())
def test_every_code_name_the_design_cites_is_in_the_code(document, span):
    assert problem(span) is None, f"{document}: {problem(span)}"


@pytest.mark.parametrize("path", layout_paths())
def test_every_file_of_the_layout_exists(path):
    assert (ROOT / path).exists(), f"docs/design.md's layout lists {path}: it is gone"


@pytest.mark.parametrize(
    ("span", "gone"),
    [
        ("pencil.undone_fact", True),
        ("tournament.standings_of()", True),
        ("games/no_such_module.py", True),
        ("NoSuchPresenter", True),
        ("make no-such-target", True),
        ("manage.py no_such_command", True),
        ("manage.py check_tournament", False),
        ("manage.py createcachetable", False),
        ("render_cache.render_settled", False),
        ("Pulka.objects.in_progress()", False),
        ("clubs/names.isolate", False),
        ('"games/sheet.html#sheet"', False),
        ("json.no_such_function", True),
        ("json.loads", False),
        ("locale/ru/LC_MESSAGES/django.po", False),
    ],
)
def test_a_name_that_went_is_told(span, gone):
    assert (problem(span) is not None) is gone
