"""Names isolated from the text around them, for sentences made in Python.

A name is data in any script. Written into a sentence, a right-to-left name carries
the figures beside it to its side ("2 :أحمد в пулю"). Templates put a standalone name
in ``<bdi>``; a sentence made here wraps the name in the Unicode isolates FSI … PDI
(U+2068, U+2069), the plain-text ``<bdi>``, which work inside SVG text too. A name
of left-to-right letters only needs nothing, and is left as typed.
"""

from __future__ import annotations

import unicodedata

FSI, PDI = "\u2068", "\u2069"
_PLAIN = frozenset({"L", "WS"})  # left-to-right letters and spaces


# Not cached: a page asks again from the version's kept regions without calling this,
# and a fresh 100-deal sheet spends about 1% of its CPU here (docs/benchmarks.md,
# "Names isolated: no cache").
def isolate(name: str) -> str:
    """``name`` between the isolates, unless it is left-to-right letters only."""
    if all(unicodedata.bidirectional(char) in _PLAIN for char in name):
        return name
    return f"{FSI}{name}{PDI}"
