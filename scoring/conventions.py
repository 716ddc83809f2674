"""Which conventions a club may start a pulka under: the one place that knows.

The presets (docs/protocol.md, "Preset defaults") and the club's own conventions edited in
the Django admin (``scoring.models.Convention``), presets first.

A pulka stores the *name* returned by :func:`convention_for_key` and a snapshot of the
options; :func:`convention_label` turns a stored name back into words for people.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from scoring.engine.conventions import PRESET_NAMES, Convention, preset
from scoring.models import PRESET_LABELS, PRESET_SLUGS
from scoring.models import Convention as ConventionRecord

if TYPE_CHECKING:
    from prefscore.clubs.models import Club

# The stored name of a pulka whose options match no preset (an imported file).
CUSTOM = "custom"

_LABELS: dict[str, Promise] = {**PRESET_LABELS, CUSTOM: _("own options")}


def _records(club: Club | None) -> list[ConventionRecord]:
    """Presets first in docs/protocol.md's order, then the club's own by name."""
    return _in_order(ConventionRecord.objects.available_to(club))


def _in_order(records: Iterable[ConventionRecord]) -> list[ConventionRecord]:
    order = {slug: i for i, slug in enumerate(PRESET_SLUGS)}
    return sorted(
        records,
        key=lambda r: (not r.is_preset, order.get(r.slug, len(order)), r.name.casefold()),
    )


def _choices(records: Iterable[ConventionRecord]) -> list[tuple[str, str]]:
    return [
        (r.slug, str(_LABELS[r.slug]) if r.is_preset and r.slug in _LABELS else r.display_name)
        for r in records
    ]


def convention_choices(club: Club | None) -> list[tuple[str, str]]:
    """(key, label) for each convention a pulka of ``club`` may be played under."""
    return _choices(_records(club))


def stored_names(club: Club | None) -> list[tuple[str, str]]:
    """(stored name, label) for each convention a pulka of ``club`` may be played under:
    the name :func:`convention_for_key` stores on the pulka, presets first."""
    records = _records(club)
    return [
        (record.slug if record.is_preset else record.name, label)
        for record, (_key, label) in zip(records, _choices(records), strict=True)
    ]


def user_convention_choices(user: Any) -> list[tuple[str, str]]:
    """(key, label) for the paper-pulka calculator: the presets and the user's clubs' own."""
    return _choices(_in_order(ConventionRecord.objects.visible_to(user)))


def user_convention(user: Any, key: str) -> Convention:
    """The engine's convention behind a key of :func:`user_convention_choices`; ``KeyError``
    for a key the user may not use."""
    record = ConventionRecord.objects.visible_to(user).filter(slug=key).first()
    if record is None:
        raise KeyError(key)
    return record.to_engine()


def convention_record(club: Club | None, key: str) -> ConventionRecord:
    """The admin's Convention behind a key; ``KeyError`` for a key the club does not offer."""
    record = ConventionRecord.objects.available_to(club).filter(slug=key).first()
    if record is None:
        raise KeyError(key)
    return record


def convention_for_key(club: Club | None, key: str) -> tuple[str, Convention]:
    """The name to store and the engine's convention for a key of :func:`convention_choices`.

    Presets keep their slug as the stored name so that :func:`convention_label`
    translates it. Raises ``KeyError`` for a key the club does not offer.
    """
    record = convention_record(club, key)
    return (record.slug if record.is_preset else record.name), record.to_engine()


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
