"""The README is for the people who run prefscore, and the docs say where things are.

- The README stays under ``README_LINES`` lines and says first how to run it and how to
  test it (``make run``, ``make test``); the load, sizing and benchmark tables, push,
  accounts and security and the dependencies have pages of their own in docs/ that it
  links to.
- Every link of the README and of docs/ leads to a file, and every citation of a
  section (``README, "Run it"``, ``docs/load.md, "Sizing"``), in the code or in the docs,
  names a heading of that file.
- No issue numbers in the code, the tests, the docs or the README: an issue is where
  work was asked for, not where it is explained; cite the docs section instead.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
DOCS = ROOT / "docs"
README_LINES = 400
# Where the README's longer parts went.
MOVED_OUT = ["docs/load.md", "docs/push.md", "docs/accounts.md", "docs/dependencies.md"]
# What is read for issue numbers and for citations.
FOLDERS = ("prefscore", "scoring", "tests", "bench", "static", "templates", "docs", "deploy")
SUFFIXES = {".py", ".md", ".js", ".html", ".css", ".txt", ".service", ".timer", ".toml", ""}
# "issue 14", "Issue #5", "issues 7 and 12", "PR 31", "pull request #2", "(#12)", "GH-12";
# never "UTS #39" or a colour.
ISSUE = re.compile(
    r"\bissues?\s*#?\s*\d+|\bPR\s*#?\d+\b|\bpull request\s*#?\d+|\(#\d+\)|\bGH-\d+",
    re.IGNORECASE,
)
# README, "Run it" / README.md, "Run it" / docs/load.md, "Sizing" / load.md, "Sizing".
CITATION = re.compile(
    r'\b((?:docs/)?[a-z_]+\.md|README(?:\.md)?),\s+"([^"]+)"', re.MULTILINE | re.DOTALL
)
SPACES = re.compile(r"\s+")


def readme_lines() -> list[str]:
    return README.read_text(encoding="utf-8").splitlines()


def project_files() -> list[Path]:
    files = [README, ROOT / "CONTRIBUTING.md", ROOT / "Makefile", ROOT / ".ci" / "run"]
    for folder in FOLDERS:
        for path in sorted((ROOT / folder).rglob("*")):
            if (
                path.is_file()
                and path.suffix in SUFFIXES
                and "__pycache__" not in path.parts
                and "migrations" not in path.parts
            ):
                files.append(path)
    return files


def headings(document: Path) -> set[str]:
    """A document's headings, their numbers taken off ("7. What …" is "What …"), and the
    bold labels that open a paragraph or an item (``- **Corrections**: …``)."""
    found = set()
    for line in document.read_text(encoding="utf-8").splitlines():
        if match := re.match(r"#{1,4} (.+)", line):
            found.add(re.sub(r"^[\d.]+\s+", "", match.group(1).strip()))
        elif match := re.match(r"\s*(?:[-*]|\d+\.)?\s*\*\*([^*]+)\*\*", line):
            found.add(match.group(1).strip().rstrip(".:"))
    return found


def is_heading(section: str, titles: set[str]) -> bool:
    """The section as cited, or the start of a longer title ("Push" of "Push through …",
    a title's date or aside left off)."""
    return any(
        title == section or re.match(re.escape(section) + r"(\s|:|,|$)", title) for title in titles
    )


def document(name: str) -> Path:
    if name.startswith("README"):
        return README
    return ROOT / name if name.startswith("docs/") else DOCS / name


def test_the_readme_is_short():
    assert len(readme_lines()) < README_LINES


def test_the_readme_says_first_how_to_run_and_test_it():
    first = README.read_text(encoding="utf-8").split("\n## ", 1)[0]
    opening = first.split("\n\n")[1]  # the paragraph under the title

    assert opening.startswith("`make run`")
    assert "`make test`" in opening


def test_the_readme_links_the_pages_its_long_parts_went_to():
    text = README.read_text(encoding="utf-8")

    assert all(f"]({page})" in text for page in MOVED_OUT)
    assert all((ROOT / page).exists() for page in MOVED_OUT)


@pytest.mark.parametrize("page", [README, *sorted(DOCS.glob("*.md"))], ids=lambda p: p.name)
def test_every_link_leads_to_a_file(page):
    text = page.read_text(encoding="utf-8")
    targets = re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)|src=\"([^\"]+)\"", text)
    local = [a or b for a, b in targets if not re.match(r"[a-z]+:", a or b)]
    missing = [t for t in local if not (page.parent / t).exists()]

    assert missing == []


def cited_sections() -> set[tuple[str, str]]:
    cited = set()
    for path in project_files():
        text = path.read_text(encoding="utf-8", errors="replace")
        for name, section in CITATION.findall(text):
            if name.removeprefix("docs/") == "design.md":
                continue  # tests/test_docs_citations.py reads those
            # A citation broken over comment lines: "…on a\n# home screen".
            section = re.sub(r"\s*\n\s*(?:#|//|\*)?\s*", " ", section)
            cited.add((name, SPACES.sub(" ", section)))
    return cited


def test_sections_are_cited():
    assert len(cited_sections()) > 20


@pytest.mark.parametrize(("name", "section"), sorted(cited_sections()))
def test_every_cited_section_is_a_heading(name, section):
    target = document(name)

    assert target.exists(), f"{name} does not exist"
    assert is_heading(section, headings(target)), f'{name} has no heading "{section}"'


def issue_numbers() -> list[str]:
    found = []
    for path in project_files():
        if path == Path(__file__).resolve():
            continue
        text = path.read_text(encoding="utf-8", errors="replace")
        for number, line in enumerate(text.splitlines(), start=1):
            if match := ISSUE.search(line):
                found.append(f"{path.relative_to(ROOT)}:{number}: {match.group(0)}")
    return found


def test_no_issue_numbers_in_the_code_the_tests_or_the_docs():
    assert issue_numbers() == []


@pytest.mark.parametrize(
    ("line", "is_one"),
    [
        ("Tournament screens (issue 7): the standings", True),
        ("# Issue 14, defect 8: a table with no deals", True),
        ("fixed in PR #31", True),
        ("as in (#12)", True),
        ("equal UTS #39 confusable skeletons", False),
        ("color: #000;", False),
        ("docs/tournaments.md §4.7", False),
    ],
)
def test_an_issue_number_is_told_from_a_standard_or_a_section(line, is_one):
    assert bool(ISSUE.search(line)) is is_one
