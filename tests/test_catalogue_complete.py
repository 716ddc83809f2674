"""The Russian catalogue holds every string the code marks for translation.

tests/test_translations.py checks that the committed django.po is complete and that its
.mo matches it; this test adds that the .po is not behind the code. It runs
`makemessages -l ru` exactly as `make messages` does, in a temporary copy of the source
tree (so the real catalogue is never touched), then reads the merged catalogue: a msgid
that the code has and the committed .po lacks comes out with an empty msgstr, and one
whose source text changed comes out fuzzy.
"""

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.helpers import ROOT, SETTINGS_VARIABLES
from tests.test_translations import read_po

# What `make messages` ignores, plus what is not source at all.
NOT_SOURCE = (
    ".git",
    ".venv",
    "node_modules",
    "staticfiles",
    "data",
    "artifacts",
    ".hypothesis",
    ".mypy_cache",
    ".ruff_cache",
    ".pytest_cache",
    "__pycache__",
    "*.egg-info",
    "*.mo",
)
PO = Path("locale") / "ru" / "LC_MESSAGES" / "django.po"


def merged_catalogue(tmp_path: Path) -> Path:
    """The Russian .po as `make messages` would leave it, made in a copy of the tree."""
    copy = tmp_path / "tree"
    committed = (ROOT / PO).read_bytes()
    shutil.copytree(ROOT, copy, ignore=shutil.ignore_patterns(*NOT_SOURCE), symlinks=True)
    environment = {k: v for k, v in os.environ.items() if k not in SETTINGS_VARIABLES}
    result = subprocess.run(
        [
            sys.executable,
            "manage.py",
            "makemessages",
            "-l",
            "ru",
            "--add-location",
            "file",
            "--ignore",
            ".venv",
            "--ignore",
            "staticfiles",
            "--ignore",
            "node_modules",
            "--no-obsolete",
        ],
        # The copy's own settings, so that LOCALE_PATHS is the copy's locale folder.
        env={**environment, "DEBUG": "1", "DJANGO_SETTINGS_MODULE": "prefscore.settings"},
        cwd=copy,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stderr
    assert (ROOT / PO).read_bytes() == committed, "makemessages must run on the copy only"
    return copy / PO


def test_the_russian_catalogue_has_every_string_of_the_code(tmp_path):
    if shutil.which("xgettext") is None or shutil.which("msgmerge") is None:
        pytest.fail("gettext is missing: apt-get install gettext (.ci/run does)")

    entries, fuzzy = read_po(merged_catalogue(tmp_path))

    untranslated = sorted(msgid for msgid, msgstr in entries.items() if not msgstr)
    assert entries
    assert not untranslated, (
        f"{len(untranslated)} strings of the code have no Russian translation "
        "(run `make messages` and fill them in):\n" + listing(untranslated)
    )
    assert not fuzzy, f"{len(fuzzy)} strings changed since they were translated:\n" + listing(
        sorted(fuzzy)
    )


def listing(msgids: list[str], shown: int = 40) -> str:
    lines = [f"  {msgid!r}" for msgid in msgids[:shown]]
    if len(msgids) > shown:
        lines.append(f"  … and {len(msgids) - shown} more")
    return "\n".join(lines)
