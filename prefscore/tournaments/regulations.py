"""The regulations: editable until round 1 is published, then frozen (§4.1, §4.15).

Before round 1 is published the organiser may change every setting of the new
tournament form. From then on the regulations are frozen: only a club admin may
change what re-ranks the standings without re-seating or re-scoring a table (the
round scores, the tie-breaks, the carry into the final), and every such change is a
:class:`~.models.RegulationChange` row, shown on the tournament's page.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from prefscore.clubs.permissions import ADMINS, may

from .models import RegulationChange, Tournament
from .services import TournamentError

# What an admin may still change once the regulations are frozen.
AFTER_FREEZE = ("normalisation", "tie_breaks", "carry")
# And what changes no result already written: the clock's length and the discipline's
# threshold, which applies from the next card (logged like the others).
AFTER_FREEZE_CLOCK = (
    "round_minutes",
    "at_time",
    "yellow_cards_limit",
    "round_floor",
    "after_drop",
)
# The forfeit score changes results already written: an admin's, logged (as AFTER_FREEZE).
BEFORE_FREEZE = (
    "name",
    "convention_name",
    "convention_options",
    "convention_source",
    "table_size",
    "target",
    "deals_per_round",
    "round_minutes",
    "stage_rounds",
    "normalisation",
    "tie_breaks",
    "carry",
    "yellow_cards_limit",
    "round_floor",
    "at_time",
    "forfeit_whists",
    "after_drop",
)


def may_edit(tournament: Tournament, role: str) -> bool:
    """Organisers before the freeze; afterwards club admins only (and it is logged)."""
    if tournament.finished:
        return False
    return tournament.regulations_frozen_at is None or may(role, ADMINS)


def save_regulations(
    tournament: Tournament, values: dict[str, Any], frozen: bool, user: Any
) -> int:
    """Store the changed settings (``values``, by the tournament's field names, as the
    regulations' form gives them for a tournament ``frozen`` or not); after the freeze
    log each one. Returns how many changed."""
    with transaction.atomic():
        fresh = Tournament.objects.select_for_update().get(pk=tournament.pk)
        if frozen != (fresh.regulations_frozen_at is not None):
            raise TournamentError(_("Round 1 was published meanwhile: the regulations are frozen."))
        changed = {k: v for k, v in values.items() if getattr(fresh, k) != v}
        for name, value in changed.items():
            if frozen:
                RegulationChange.objects.create(
                    tournament=fresh,
                    field=name,
                    before=_shown(getattr(fresh, name)),
                    after=_shown(value),
                    changed_by=user if getattr(user, "is_authenticated", False) else None,
                )
            setattr(fresh, name, value)
        if changed:
            fresh.save(update_fields=list(changed))
    return len(changed)


def _shown(value: Any) -> str:
    return ", ".join(map(str, value)) if isinstance(value, list) else str(value)


def log_admin_change(tournament: Tournament, before: Tournament, user: Any) -> None:
    """The Django admin's changes to frozen regulations, one row per setting (§4.15)."""
    if before.regulations_frozen_at is None:
        return
    for name in BEFORE_FREEZE:
        old, new = getattr(before, name), getattr(tournament, name)
        if old != new:
            RegulationChange.objects.create(
                tournament=tournament,
                field=name,
                before=_shown(old),
                after=_shown(new),
                changed_by=user,
            )
