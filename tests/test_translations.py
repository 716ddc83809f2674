"""The Russian catalogue is complete and its compiled .mo (committed, for machines
without gettext) matches the .po."""

import gettext
from pathlib import Path

import polib

ROOT = Path(__file__).resolve().parent.parent
PO = ROOT / "locale" / "ru" / "LC_MESSAGES" / "django.po"
MO = PO.with_suffix(".mo")


def read_po(path: Path) -> tuple[dict[str, str], list[str]]:
    """The catalogue's msgid -> msgstr, and the msgids marked fuzzy.

    A plural entry (msgid_plural, msgstr[n]) maps to its forms joined by "\x00", and
    to "" when any form is missing. Obsolete entries (``#~``) are not part of it.
    """
    entries: dict[str, str] = {}
    fuzzy: list[str] = []
    for entry in polib.pofile(str(path)):
        if entry.obsolete or not entry.msgid:
            continue
        if entry.msgid_plural:
            forms = [entry.msgstr_plural[k] for k in sorted(entry.msgstr_plural)]
            entries[entry.msgid] = "\x00".join(forms) if forms and all(forms) else ""
        else:
            entries[entry.msgid] = entry.msgstr
        if entry.fuzzy:
            fuzzy.append(entry.msgid)
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

    stale = [
        msgid
        for msgid, msgstr in entries.items()
        if "\x00" not in msgstr and compiled.gettext(msgid) != msgstr
    ]

    assert stale == [], "run `make messages` and commit the .mo"
