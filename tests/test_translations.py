"""The Russian catalogue is complete and its compiled .mo (committed, for machines
without gettext) matches the .po."""

import ast
import gettext
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PO = ROOT / "locale" / "ru" / "LC_MESSAGES" / "django.po"
MO = PO.with_suffix(".mo")


def read_po(path: Path) -> tuple[dict[str, str], list[str]]:
    """The catalogue's msgid -> msgstr, and the msgids marked fuzzy.

    A plural entry (msgid_plural, msgstr[n]) maps to its forms joined by "\x00", and
    to "" when any form is missing.
    """
    entries: dict[str, str] = {}
    fuzzy: list[str] = []
    state: dict[str, object] = {}

    def flush() -> None:
        msgid = state.get("id")
        if msgid:  # the header has an empty msgid
            forms = state.get("forms")
            if isinstance(forms, dict):
                texts = [forms[k] for k in sorted(forms)]
                entries[str(msgid)] = "\x00".join(texts) if all(texts) else ""
            else:
                entries[str(msgid)] = str(state.get("str") or "")
            if state.get("fuzzy"):
                fuzzy.append(str(msgid))
        state.clear()

    target = ""
    for line in path.read_text(encoding="utf-8").splitlines() + [""]:
        if not line.strip():
            flush()
        elif line.startswith("#,") and "fuzzy" in line:
            state["fuzzy"] = True
        elif line.startswith("#"):
            continue
        elif line.startswith("msgid_plural "):
            state["plural"], target = ast.literal_eval(line[13:]), "plural"
        elif line.startswith("msgid "):
            state["id"], target = ast.literal_eval(line[6:]), "id"
        elif line.startswith("msgstr["):
            index, text = line[7:].split("]", 1)
            forms = state.setdefault("forms", {})
            assert isinstance(forms, dict)
            forms[int(index)] = ast.literal_eval(text.strip())
            target = f"form{index}"
        elif line.startswith("msgstr "):
            state["str"], target = ast.literal_eval(line[7:]), "str"
        elif line.startswith('"'):
            piece = ast.literal_eval(line)
            if target.startswith("form"):
                forms = state["forms"]
                assert isinstance(forms, dict)
                forms[int(target[4:])] += piece
            else:
                state[target] = str(state.get(target) or "") + piece
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
