"""The regulations' form (docs/tournaments.md §4.1, §4.15): the new-tournament form over
an existing tournament, every setting until round 1 is published, then only what
re-ranks the standings without re-seating or re-scoring a table (``regulations``)."""

from __future__ import annotations

from typing import Any

from ..models import Tournament
from ..regulations import AFTER_FREEZE
from .tournament import TournamentForm


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

    def values(self) -> dict[str, Any]:
        """The settings the valid form sets, by the tournament's field names: once the
        regulations are frozen, only what an admin may still change."""
        data = self.cleaned_data
        if self.frozen:
            plain = (*AFTER_FREEZE, "round_minutes")
            return {name: data.get(name) for name in plain} | self.discipline_values()
        return {
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
            **self.discipline_values(),
        }


def _end_rule(tournament: Tournament) -> str:
    """ "first" when a table ends at the target or the deal limit, whichever comes first."""
    options = tournament.convention_options or {}
    return "first" if options.get("deal_limit") and options.get("end") != "deals" else "deals"


def _convention_key(tournament: Tournament) -> str:
    source = tournament.convention_source
    return str(source.slug) if source is not None else tournament.convention_name
