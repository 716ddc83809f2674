"""Names people type for players and clubs, made comparable.

"é" typed as one character and as "e" plus a combining accent are one name (Unicode
NFC), and characters that show nothing (zero-width spaces, bidirectional overrides and
isolates, soft hyphens, byte-order marks) are dropped, so that two names that look
alike are alike. The joiners U+200C and U+200D stay: Persian words and emoji sequences
need them. A name that still shows nothing, or passes for another player's, is refused
by the one rule of ``name_rules.py``.
"""

from __future__ import annotations

import re
import unicodedata

# Shown as nothing, or reorder the text around them: never part of a name. Besides the
# zero-width and direction marks: the combining grapheme joiner, the Hangul fillers and
# the Khmer inherent vowels (Default_Ignorable_Code_Point, UAX #44; the Khmer two are
# deprecated, "not to be used").
INVISIBLE = re.compile(
    "[\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180e\u200b\u200e\u200f\u202a-\u202e"
    "\u2060-\u2064\u2066-\u2069\u3164\ufeff\uffa0]"
)
SPACES = re.compile(r"\s+")


def normalise_text(text: str) -> str:
    """A reason or a note as stored: NFC, nothing invisible, trimmed; its line breaks kept.

    Zero-width characters alone are no reason, and a direction override would scramble
    the lines shown after it (the audit, the sheet's notes).
    """
    return INVISIBLE.sub("", unicodedata.normalize("NFC", text)).strip()


def normalise_name(text: str) -> str:
    """The name as stored and compared: NFC, nothing invisible, single spaces, trimmed."""
    return SPACES.sub(" ", normalise_text(text)).strip()


def display_name(user: object) -> str:
    """How an account is named to people: the name it gave itself (kept in the user's
    ``first_name``, which prefscore uses for nothing else), else its username."""
    # A row read without the name (a deferred field) is not read again for it: one
    # query per deal on a screen would be the price (tests/web/test_query_counts.py).
    deferred: set[str] = getattr(user, "get_deferred_fields", set)()
    own = "" if "first_name" in deferred else normalise_name(getattr(user, "first_name", "") or "")
    return own or str(getattr(user, "get_username", lambda: "")())


FSI, PDI = "\u2068", "\u2069"  # first-strong isolate … pop directional isolate
_PLAIN = frozenset({"L", "WS"})  # left-to-right letters and spaces


# Not cached: a page asks again from the version's kept regions without calling this,
# and a fresh 100-deal sheet spends about 1% of its CPU here (docs/benchmarks.md,
# "Names isolated: no cache").
def isolate(name: str) -> str:
    """``name`` between the isolates FSI … PDI (the plain-text ``<bdi>``), unless it is
    left-to-right letters only; for a name put into a translated sentence, in HTML text,
    in an attribute (an aria-label, a confirmation) or in SVG (docs/design.md,
    "Names, languages and taps")."""
    if all(unicodedata.bidirectional(char) in _PLAIN for char in name):
        return name
    return f"{FSI}{name}{PDI}"
