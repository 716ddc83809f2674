"""Names isolated from the text around them, for sentences made in Python.

A name is data in any script. Written into a sentence, a right-to-left name carries
the figures beside it to its side ("2 :أحمد в пулю"). Templates put a standalone name
in ``<bdi>`` and a name inside a translated sentence through the ``isolate`` filter
(clubs/templatetags/people.py); a sentence made here wraps the name in the Unicode
isolates FSI … PDI (U+2068, U+2069), the plain-text ``<bdi>``, which work inside SVG
text too. A name of left-to-right letters only needs nothing, and is left as typed.
The function lives with the names themselves (clubs/names.py), so the clubs' own
messages use it too.
"""

from __future__ import annotations

from prefscore.clubs.names import FSI, PDI, isolate

__all__ = ["FSI", "PDI", "isolate"]
