"""The Russian catalogue is complete and its compiled .mo (committed, for machines
without gettext) matches the .po."""

import ast
import gettext
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PO = ROOT / "locale" / "ru" / "LC_MESSAGES" / "django.po"
MO = PO.with_suffix(".mo")


def read_po(path: Path) -> tuple[dict[str, str], list[str]]:
    """The catalogue's msgid -> msgstr, and the msgids marked fuzzy."""
    entries: dict[str, str] = {}
    fuzzy: list[str] = []
    msgid = msgstr = None
    target = None
    is_fuzzy = False

    def flush() -> None:
        nonlocal msgid, msgstr, is_fuzzy
        if msgid:  # the header has an empty msgid
            entries[msgid] = msgstr or ""
            if is_fuzzy:
                fuzzy.append(msgid)
        msgid = msgstr = None
        is_fuzzy = False

    for line in path.read_text(encoding="utf-8").splitlines() + [""]:
        if not line.strip():
            flush()
        elif line.startswith("#,") and "fuzzy" in line:
            is_fuzzy = True
        elif line.startswith("msgid "):
            msgid, target = ast.literal_eval(line[6:]), "id"
        elif line.startswith("msgstr "):
            msgstr, target = ast.literal_eval(line[7:]), "str"
        elif line.startswith('"'):
            if target == "id":
                msgid = (msgid or "") + ast.literal_eval(line)
            else:
                msgstr = (msgstr or "") + ast.literal_eval(line)
    return entries, fuzzy


def test_every_string_has_a_russian_translation():
    entries, fuzzy = read_po(PO)

    assert entries
    assert [msgid for msgid, msgstr in entries.items() if not msgstr] == []
    assert fuzzy == []


def test_the_compiled_catalogue_matches_the_po_file():
    entries, _ = read_po(PO)
    with MO.open("rb") as mo:
        compiled = gettext.GNUTranslations(mo)

    stale = [msgid for msgid, msgstr in entries.items() if compiled.gettext(msgid) != msgstr]

    assert stale == [], "run `make messages` and commit the .mo"
