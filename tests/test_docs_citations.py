"""Every section the code cites exists in docs/: a citation must lead somewhere.

Docstrings cite ``rules.md §3.4``, ``rules.md §3.7.5`` (step 5 of §3.7),
``tournaments.md §4.10`` (item 10 of §4) and ``design.md, "How a deal flows"``.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
CODE = [
    path
    for folder in ("prefscore", "scoring", "tests", "bench")
    for path in sorted((ROOT / folder).rglob("*.py"))
    if "migrations" not in path.parts
]
# "rules.md §3.3 (runs, ladders, exit), §3.4" -> the § numbers up to the closing bracket.
CITATION = re.compile(r"\b(rules|tournaments|seasons)\.md\b([^)\"\n]*)")
SECTION = re.compile(r"§(\d+(?:\.\d+)*)")
HEADING = re.compile(r'\bdesign\.md, "([^"]+)"')
SPACES = re.compile(r"\s+")


def cited_sections() -> set[tuple[str, str]]:
    cited = set()
    for path in CODE:
        for doc, tail in CITATION.findall(path.read_text(encoding="utf-8")):
            cited |= {(doc, number) for number in SECTION.findall(tail)}
    return cited


def numbered_parts(doc: str) -> set[str]:
    """Headings ("## 3.", "### 3.7") and, inside each, its numbered steps ("3.7.5")."""
    parts: set[str] = set()
    heading = ""
    for line in (DOCS / f"{doc}.md").read_text(encoding="utf-8").splitlines():
        if match := re.match(r"#{2,3} (\d+(?:\.\d+)*)\.? ", line):
            heading = match.group(1)
            parts.add(heading)
        elif heading and (match := re.match(r"\s*(\d+)\. ", line)):
            parts.add(f"{heading}.{match.group(1)}")
    return parts


def test_the_code_cites_sections() -> None:
    assert len(cited_sections()) > 30


@pytest.mark.parametrize(("doc", "number"), sorted(cited_sections()))
def test_every_cited_section_exists(doc: str, number: str) -> None:
    assert number in numbered_parts(doc), f"{doc}.md has no §{number}"


def test_every_cited_design_heading_exists() -> None:
    headings = {
        line.removeprefix("## ")
        for line in (DOCS / "design.md").read_text(encoding="utf-8").splitlines()
        if line.startswith("## ")
    }
    cited = {
        SPACES.sub(" ", heading)
        for path in CODE
        for heading in HEADING.findall(path.read_text(encoding="utf-8"))
    }
    assert cited and cited <= headings
