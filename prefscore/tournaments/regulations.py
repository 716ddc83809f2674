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

from .forms import TournamentForm
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


class RegulationsForm(TournamentForm):
    """The new-tournament form over an existing tournament; frozen: the ranking fields only."""

    def __init__(self, *args: Any, tournament: Tournament, **kwargs: Any) -> None:
        initial = {
            "name": tournament.name,
            "convention": _convention_key(tournament),
            "table_size": tournament.table_size,
            "target": tournament.target,
            "deals_per_round": tournament.deals_per_round,
            "round_minutes": tournament.round_minutes,
            "end_rule": _end_rule(tournament),
            "stage_rounds": tournament.stage_rounds,
            "normalisation": tournament.normalisation,
            "carry": tournament.carry,
            "yellow_cards_limit": tournament.yellow_cards_limit,
            "round_floor": tournament.round_floor,
            "forfeit_whists": tournament.forfeit_whists,
            "at_time": tournament.at_time,
            "after_drop": tournament.after_drop,
            "public": tournament.public,
        }
        for slot, name in enumerate(tournament.tie_breaks, start=1):
            initial[f"tie_break_{slot}"] = name
        super().__init__(*args, club=tournament.club, initial=initial, **kwargs)
        for slot in range(len(tournament.tie_breaks) + 1, len(self.tie_break_fields()) + 1):
            self.fields[f"tie_break_{slot}"].initial = ""
        self.frozen = tournament.regulations_frozen_at is not None
        del self.fields["public"]
        if self.frozen:
            frozen = ("name", "convention", "table_size", "target", "deals_per_round", "end_rule")
            for name in (*frozen, "stage_rounds"):
                del self.fields[name]


def _end_rule(tournament: Tournament) -> str:
    """ "first" when a table ends at the target or the deal limit, whichever comes first."""
    options = tournament.convention_options or {}
    return "first" if options.get("deal_limit") and options.get("end") != "deals" else "deals"


def _convention_key(tournament: Tournament) -> str:
    source = tournament.convention_source
    return str(source.slug) if source is not None else tournament.convention_name


def save_regulations(tournament: Tournament, form: RegulationsForm, user: Any) -> int:
    """Store the changed settings; after the freeze log each one. Returns how many changed."""
    data = form.cleaned_data
    if form.frozen:
        plain = (*AFTER_FREEZE, "round_minutes")
        values = {name: data.get(name) for name in plain} | form.discipline_values()
    else:
        values = {
            "name": data["name"],
            "convention_name": data["convention_name"],
            "convention_options": data["engine_convention"].to_options(),
            "convention_source": data["convention_source"],
            "table_size": data["table_size"],
            "target": data["target"],
            "deals_per_round": data.get("deals_per_round"),
            "round_minutes": data.get("round_minutes"),
            "stage_rounds": data.get("stage_rounds") or 1,
            "normalisation": data["normalisation"],
            "tie_breaks": data["tie_breaks"],
            "carry": data["carry"],
            **form.discipline_values(),
        }
    with transaction.atomic():
        fresh = Tournament.objects.select_for_update().get(pk=tournament.pk)
        if form.frozen != (fresh.regulations_frozen_at is not None):
            raise TournamentError(_("Round 1 was published meanwhile: the regulations are frozen."))
        changed = {k: v for k, v in values.items() if getattr(fresh, k) != v}
        for name, value in changed.items():
            if form.frozen:
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
