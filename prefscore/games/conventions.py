"""Which conventions a club may start a pulka under: the one place that knows.

Today these are the engine's presets (protocol.md, "Preset defaults"). Club conventions
edited in the Django admin will join here, in these same functions, so that the
new-pulka form, import and the demo data never need to change.

A pulka stores the *name* returned by :func:`convention_for_key` and a snapshot of the
options; :func:`convention_label` turns a stored name back into words for people.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from scoring.engine.conventions import PRESET_NAMES, Convention, preset

if TYPE_CHECKING:
    from prefscore.clubs.models import Club

# The stored name of a pulka whose options match no preset (an imported file).
CUSTOM = "custom"

_LABELS: dict[str, Promise] = {
    "sochi": _("Sochi"),
    "leningrad": _("Leningrad"),
    "rostov": _("Rostov"),
    "fspr": _("FSPR (tournament)"),
    CUSTOM: _("own options"),
}


def convention_choices(club: Club | None) -> list[tuple[str, str]]:
    """(key, label) for each convention a pulka of ``club`` may be played under."""
    return [(name, str(_LABELS.get(name, name))) for name in PRESET_NAMES]


def convention_for_key(club: Club | None, key: str) -> tuple[str, Convention]:
    """The name to store and the engine's convention for a key of :func:`convention_choices`.

    Raises ``KeyError`` for a key the club does not offer.
    """
    if key not in PRESET_NAMES:
        raise KeyError(key)
    return key, preset(key)


def name_of(convention: Convention) -> str:
    """The preset whose options these are exactly, else :data:`CUSTOM` (for imports)."""
    for name in PRESET_NAMES:
        if preset(name) == convention:
            return name
    return CUSTOM


def convention_label(name: str) -> str:
    """A stored convention name in words: presets translated, other names as they are."""
    label = _LABELS.get(name)
    return str(label) if label is not None else name
