"""Each finished pulka's summary rows, and the club rating, kept in step with the sheet.

``games`` settles a sheet after any change that may move a pulka's settled figures
(``games.events``); the recount task (``recounts.py``, after the request) re-reads the
pulka with :func:`summarise`, writes one row per seat (or removes them when the pulka
is no longer finished: reopened by an undo, or abandoned), and recomputes the club's
rating from all its rows. A tournament import's many sheets are summarised at once,
within the import (``on_sheets_settled``). The figures are the
engine's: the settlement (docs/rules.md §3.7) and the statistics of the deals
(``scoring.engine.stats``).
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import asdict
from datetime import datetime
from decimal import Decimal
from fractions import Fraction
from typing import Any

from django.db import transaction
from django.utils import timezone

from prefscore.games import services
from prefscore.games.models import Correction, Deal, Pulka, PulkaSeat
from scoring.engine.pulka import ScoredPulka
from scoring.engine.settlement import exact_result, money, pairwise_method, whole_result
from scoring.engine.stats import ContractCount, PlayStats, play_stats

from .models import PulkaSummary
from .ratings import recompute_club


def on_sheets_settled(sender: Any, pulka_ids: list[int], **kwargs: Any) -> None:
    """Many pulkas settled at once (an import): their rows in bulk, each club rated once."""
    for club_id in summarise_many(pulka_ids):
        recompute_club(club_id)


def summarise(pulka_id: int, at: datetime | None = None) -> int | None:
    """Write (or remove) the pulka's summary rows; the pulka's club id, or None.

    ``at``: when it finished (the settle's moment, when the recount runs after it); a row
    the pulka had already keeps its own."""
    pulka = Pulka.objects.select_related("club").filter(pk=pulka_id).first()
    if pulka is None:
        return None
    with transaction.atomic():
        earlier = {row.player_id: row for row in PulkaSummary.objects.filter(pulka=pulka)}
        if pulka.status != Pulka.Status.FINISHED:
            PulkaSummary.objects.filter(pulka=pulka).delete()
            return pulka.club_id
        rows = summary_rows(pulka)
        for row in rows:
            if row.player_id in earlier:
                row.finished_at = earlier[row.player_id].finished_at
            elif at is not None:
                row.finished_at = at
        PulkaSummary.objects.filter(pulka=pulka).delete()
        PulkaSummary.objects.bulk_create(rows)
    return pulka.club_id


BATCH = 500  # pulkas read at once by summarise_many


def summarise_many(pulka_ids: list[int]) -> set[int]:
    """Write (or remove) the summary rows of many pulkas in a few queries per
    ``BATCH``: what :func:`summarise` does for each; the clubs they belong to."""
    clubs: set[int] = set()
    for start in range(0, len(pulka_ids), BATCH):
        clubs |= _summarise_batch(pulka_ids[start : start + BATCH])
    return clubs


def _summarise_batch(ids: list[int]) -> set[int]:
    pulkas = list(Pulka.objects.filter(pk__in=ids))
    finished = [p for p in pulkas if p.status == Pulka.Status.FINISHED]
    deals = _grouped(Deal.objects.current().filter(pulka__in=finished).order_by("number"))
    corrections = _grouped(Correction.objects.filter(pulka__in=finished))
    seats = _grouped(PulkaSeat.objects.filter(pulka__in=finished).order_by("seat"))
    with transaction.atomic():
        earlier = {
            (row.pulka_id, row.player_id): row.finished_at
            for row in PulkaSummary.objects.filter(pulka__in=pulkas).only(
                "pulka_id", "player_id", "finished_at"
            )
        }
        rows = []
        for pulka in finished:
            scored = services.score(pulka, deals[pulka.pk], corrections[pulka.pk])
            for row in summary_rows(pulka, scored, seats[pulka.pk]):
                row.finished_at = earlier.get((pulka.pk, row.player_id), row.finished_at)
                rows.append(row)
        PulkaSummary.objects.filter(pulka__in=pulkas).delete()
        PulkaSummary.objects.bulk_create(rows, batch_size=BATCH)
    return {pulka.club_id for pulka in pulkas}


def _grouped(rows: Any) -> dict[int, list[Any]]:
    grouped: dict[int, list[Any]] = defaultdict(list)
    for row in rows:
        grouped[row.pulka_id].append(row)
    return grouped


def summary_rows(
    pulka: Pulka, scored: ScoredPulka | None = None, seats: list[PulkaSeat] | None = None
) -> list[PulkaSummary]:
    """One unsaved row per seat of a finished pulka, from the engine's figures.

    ``scored`` and ``seats`` (in seat order) when the caller read them already.
    """
    if scored is None:
        scored = services.score(pulka)
    totals, convention = scored.totals, pulka.convention
    result = exact_result(totals, convention)
    nets = pairwise_method(totals, convention).nets
    paid = _money(pulka, totals, convention)
    if seats is None:
        seats = list(PulkaSeat.objects.filter(pulka=pulka).order_by("seat"))
    names = list(scored.pulka.names)
    best = max(result)
    now = timezone.now()
    return [
        PulkaSummary(
            pulka=pulka,
            player_id=row.player_id,
            club_id=pulka.club_id,
            seat=row.seat,
            finished_at=now,
            version=pulka.version,
            table_size=len(names),
            convention_name=pulka.convention_name,
            result=str(Fraction(result[row.seat])),
            won=result[row.seat] == best,
            money=paid[row.seat] if paid else None,
            play=play_json(play_stats(scored.records, names, names[row.seat])),
            against={
                str(other.player_id): str(Fraction(nets[row.seat][other.seat]))
                for other in seats
                if other.seat != row.seat
            },
        )
        for row in seats
    ]


def _money(pulka: Pulka, totals: Any, convention: Any) -> tuple[Decimal, ...] | None:
    stake = pulka.stake_decimal
    if stake is None:
        return None
    return money(whole_result(totals, convention).result, stake)


# --- PlayStats to JSON and back ---------------------------------------------------------


def play_json(stats: PlayStats) -> dict[str, Any]:
    data = asdict(stats)
    data["by_level"] = {str(level): asdict(c) for level, c in stats.by_level.items()}
    data["by_suit"] = {suit: asdict(c) for suit, c in stats.by_suit.items()}
    return data


def play_from_json(data: dict[str, Any]) -> PlayStats:
    counts = {k: v for k, v in data.items() if k not in ("by_level", "by_suit")}
    return PlayStats(
        by_level={int(k): ContractCount(**v) for k, v in data.get("by_level", {}).items()},
        by_suit={k: ContractCount(**v) for k, v in data.get("by_suit", {}).items()},
        **counts,
    )
