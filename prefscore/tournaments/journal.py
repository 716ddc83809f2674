"""Writing a director's decision down: who, when, why and what (docs/tournaments.md §4.15).

Every decision that leaves a state behind (a table closed or archived, a player out or
back, a stage's field) is written here, in the same transaction as the state, so that
``check_tournament`` can prove each state against its record (``audit.py``).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from .models import Tournament, TournamentEntry, TournamentEvent


def who(user: Any) -> Any:
    """The account that decided, or None for the site itself (the clock, the floor)."""
    return user if getattr(user, "is_authenticated", False) else None


def record(
    tournament: Tournament,
    action: str,
    user: Any,
    reason: str = "",
    entry: TournamentEntry | None = None,
    **details: Any,
) -> TournamentEvent:
    """Write one decision; ``details`` are plain values (numbers, texts, lists)."""
    return TournamentEvent.objects.create(
        tournament=tournament,
        entry=entry,
        action=action,
        reason=reason[:300],
        details=details,
        user=who(user),
    )


def reconstruct(tournament: Tournament) -> int:
    """The records of the states a tournament holds without one, written now and marked
    ``reconstructed``: each closing (its author and moment as the closing keeps them),
    each player out of the tournament, each stage's field as its first round seats it.

    For a tournament file written before the decisions travelled with it (§6.4): the
    import keeps what the file says, and the record says it was rebuilt. How many
    records were written.
    """
    from .models import Round, TableClosure  # the decisions' states, read once each

    Action = TournamentEvent.Action
    events = list(tournament.events.all())
    closed = {(e.details or {}).get("pulka") for e in events if e.action == Action.TABLE_CLOSED}
    rows: list[TournamentEvent] = []
    moments: list[datetime | None] = []  # each row's moment: the closing's, or now
    closings = TableClosure.objects.filter(pulka__tournament=tournament).select_related("pulka")
    for closure in closings.exclude(pulka_id__in=[pk for pk in closed if isinstance(pk, int)]):
        pulka = closure.pulka
        row = TournamentEvent(
            tournament=tournament,
            action=Action.TABLE_CLOSED,
            reason=closure.note,
            user=closure.closed_by,
            details={
                "pulka": pulka.pk,
                "round": pulka.round_number,
                "kind": closure.reason,
                "whists": closure.whists,
                "players": list(pulka.player_names),
                "archived": pulka.status == "archived",
                "reconstructed": True,
            },
        )
        rows.append(row)
        moments.append(closure.closed_at)
    decided = {e.entry_id for e in events if e.action in TournamentEvent.LEAVING}
    by_state = {state: action for action, state in TournamentEvent.LEAVING.items()}
    for entry in tournament.entries.filter(state__in=TournamentEntry.OUT).select_related("player"):
        if entry.pk not in decided:
            moments.append(None)
            rows.append(
                TournamentEvent(
                    tournament=tournament,
                    entry=entry,
                    action=by_state[entry.state],
                    details={"player": entry.player.name, "reconstructed": True},
                )
            )
    cut = {(e.details or {}).get("stage") for e in events if e.action == Action.CUT}
    for round_ in tournament.rounds.exclude(stage=Round.Stage.QUALIFYING).order_by("number"):
        if round_.stage in cut or round_.method == "seeded":
            continue
        cut.add(round_.stage)
        players = stage_field(round_)
        moments.append(None)
        rows.append(
            TournamentEvent(
                tournament=tournament,
                action=Action.CUT,
                details={
                    "round": round_.number,
                    "stage": round_.stage,
                    "size": len(players),
                    "players": players,
                    "reconstructed": True,
                },
            )
        )
    made = TournamentEvent.objects.bulk_create(rows)
    # ``at`` is set to now on insert: a closing's record keeps the closing's moment.
    dated = [row for row, at in zip(made, moments, strict=True) if at is not None]
    for row, at in zip(made, moments, strict=True):
        if at is not None:
            row.at = at
    TournamentEvent.objects.bulk_update(dated, ["at"], batch_size=1000)
    return len(made)


def stage_field(round_: Any) -> list[str]:
    """The players a stage's round seats (club player ids): its draw's, or, for a round
    imported without one, its tables' (§4.10)."""
    drawn = [
        str(k) for t in round_.tables or () if isinstance(t, dict) for k in t.get("players", ())
    ]
    if drawn:
        return drawn
    from prefscore.games.models import PulkaSeat

    seats = PulkaSeat.objects.filter(
        pulka__tournament_id=round_.tournament_id, pulka__round_number=round_.number
    ).exclude(pulka__status="archived")
    return [
        str(key) for key in seats.order_by("pulka_id", "seat").values_list("player_id", flat=True)
    ]
