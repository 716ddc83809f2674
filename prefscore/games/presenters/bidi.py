"""Names isolated from the text around them, for sentences made in Python.

A name is data in any script. Written into a sentence, a right-to-left name carries
the figures beside it to its side ("2 :أحمد в пулю"). Templates put a standalone name
in ``<bdi>``; a sentence made here wraps the name in the Unicode isolates FSI … PDI
(U+2068, U+2069), the plain-text ``<bdi>``, which work inside SVG text too. A name
of left-to-right letters only needs nothing, and is left as typed.
"""

from __future__ import annotations

import unicodedata
from functools import lru_cache

FSI, PDI = "\u2068", "\u2069"
_PLAIN = frozenset({"L", "WS"})  # left-to-right letters and spaces


@lru_cache(maxsize=4096)  # a table's few names, asked once per entry of the protocol
def isolate(name: str) -> str:
    """``name`` between the isolates, unless it is left-to-right letters only."""
    if all(unicodedata.bidirectional(char) in _PLAIN for char in name):
        return name
    return f"{FSI}{name}{PDI}"
