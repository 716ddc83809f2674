"""CSV and JSON exports of the statistics (their columns: docs/exports.md).

Text cells that a spreadsheet would read as a formula (starting with = + - @) are
written with a leading apostrophe: a player named "=HYPERLINK(…)" stays a name.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterable, Sequence
from typing import Any

from django.http import HttpResponse

from prefscore.clubs.models import Club, Membership, Player
from prefscore.games.models import AuditEvent, Deal, PulkaSeat
from prefscore.spreadsheet import exact_cell, figure_cell, text_cell

from .models import PulkaSummary
from .summaries import play_from_json

CLUB_COLUMNS = (
    "pulka", "finished", "title", "convention", "players_at_table",
    "seat", "player", "result", "result_exact", "won", "money",
)  # fmt: skip
PLAYER_COLUMNS = (
    "pulka", "finished", "convention", "players_at_table", "result", "result_exact", "won",
    "money",
    "deals", "contracts_declared", "contracts_made", "contracts_down", "undertricks",
    "misere_declared", "misere_made", "misere_caught", "allpass_deals", "allpass_tricks",
    "defended", "whists", "half_whists", "whister_shortfalls",
)  # fmt: skip


def csv_response(filename: str, rows: Iterable[Sequence[Any]]) -> HttpResponse:
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerows(rows)
    response = HttpResponse(out.getvalue(), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


def json_response(filename: str, data: Any) -> HttpResponse:
    text = json.dumps(data, ensure_ascii=False, indent=2, default=str)
    response = HttpResponse(text, content_type="application/json; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


def club_rows(club: Club) -> Iterable[Sequence[Any]]:
    """The header, then one row per player and finished pulka: one query."""
    yield CLUB_COLUMNS
    rows = (
        PulkaSummary.objects.filter(club=club)
        .select_related("pulka", "player")
        .order_by("finished_at", "pulka_id", "seat")
    )
    for row in rows:
        yield (
            row.pulka_id,
            row.finished_at.isoformat(),
            text_cell(str(row.pulka) if row.pulka.title_parts else row.pulka.title),
            row.convention_name,
            row.table_size,
            row.seat + 1,
            text_cell(row.player.name),
            figure_cell(row.result),
            exact_cell(row.result),
            int(row.won),
            "" if row.money is None else row.money,
        )


def player_rows(player: Player) -> Iterable[Sequence[Any]]:
    """The header, then the player's statistics per finished pulka: one query."""
    yield PLAYER_COLUMNS
    for row in PulkaSummary.objects.filter(player=player).order_by("finished_at", "pk"):
        play = play_from_json(row.play)
        contracts = play.contracts
        yield (
            row.pulka_id, row.finished_at.isoformat(), row.convention_name, row.table_size,
            figure_cell(row.result), exact_cell(row.result), int(row.won),
            "" if row.money is None else row.money,
            play.deals, contracts.declared, contracts.made, contracts.down,
            contracts.undertricks, play.misere_declared, play.misere_made, play.misere_caught,
            play.allpass_deals, play.allpass_tricks, play.defended, play.whists,
            play.half_whists, play.whister_remizes,
        )  # fmt: skip


def my_data(user: Any) -> dict[str, Any]:
    """Everything about one account: a fixed number of queries (docs/exports.md)."""
    players = list(Player.objects.filter(user=user).select_related("club"))
    return {
        "format": "prefscore-my-data/1",
        "account": {
            "username": user.get_username(),
            "email": user.email,
            "joined": user.date_joined.isoformat(),
        },
        "memberships": [
            {"club": m.club.name, "slug": m.club.slug, "role": m.role}
            for m in Membership.objects.filter(user=user).select_related("club")
        ],
        "players": [{"club": p.club.slug, "name": p.name, "id": p.pk} for p in players],
        "seats": [
            {
                "pulka": s.pulka_id,
                "title": str(s.pulka),
                "seat": s.seat + 1,
                "player": s.player_id,
                "status": s.pulka.status,
                "started": s.pulka.created_at.isoformat(),
            }
            for s in PulkaSeat.objects.filter(player__in=players).select_related("pulka")
        ],  # fmt: skip
        "results": [
            {
                "pulka": r.pulka_id,
                "player": r.player_id,
                "finished": r.finished_at.isoformat(),
                "result": r.result,
                "won": r.won,
                "money": r.money,
                "play": r.play,
            }
            for r in PulkaSummary.objects.filter(player__in=players).order_by("finished_at")
        ],  # fmt: skip
        "deals_recorded": [
            {
                "pulka": d.pulka_id,
                "number": d.number,
                "at": d.entered_at.isoformat(),
                "facts": d.facts,
            }
            for d in Deal.objects.filter(entered_by=user).order_by("entered_at")
        ],  # fmt: skip
        "audit": [
            {
                "pulka": e.pulka_id,
                "action": e.action,
                "at": e.at.isoformat(),
                "deal": e.deal_number,
                "details": e.details,
            }
            for e in AuditEvent.objects.filter(user=user).order_by("at")
        ],  # fmt: skip
    }
