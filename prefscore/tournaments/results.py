"""Each table's settled figures, kept as its sheet changes (docs/tournaments.md §4.11).

The standings of a big field cannot fold every table's deals on each read (1,250 tables,
15,000 deals: seconds, and the projector asks every 10 s). So each tournament pulka keeps
one ``TableResult`` row: its whole whists and Кодекс 4.1.3 counts per seat, written by
:func:`refresh` after every change of the sheet (``games.events.sheet_changed``, sent
once the change commits, the way the statistics keep their summaries). The standings
read those rows (:func:`table_results`): a row counted at an older version of its pulka
(a change it missed, or none written yet) is counted again there, in one batch, and
written back. The figures are the engine's fold either way
(``scoring.engine.ranking.table_result``); ``manage.py rebuild_results`` writes them all
again, and ``check_tournament`` compares them with a recount (:func:`differences`).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import astuple
from typing import Any

from django.db import transaction

from prefscore.games import services
from prefscore.games.models import Correction, Deal, Pulka
from scoring.engine import ranking

from .models import TableResult, Tournament

ROW_FIELDS = ["tournament", "version", "deals", "whists", "stats"]


def keys_of(pulka: Pulka) -> tuple[str, ...]:
    """The players of the table in seat order, as the ranking names them (club player ids)."""
    return tuple(str(seat.player_id) for seat in pulka.seats.all())


def counted(pulka: Pulka, deals: Sequence[Deal], corrections: Sequence[Correction]) -> TableResult:
    """The unsaved row of one table from its standing deals and corrections (the fold)."""
    scored = services.score(pulka, list(deals), list(corrections))
    result = ranking.table_result(scored, pulka.round_number or 0)
    return TableResult(
        pulka_id=pulka.pk,
        tournament_id=pulka.tournament_id,
        version=pulka.version,
        deals=len(deals),
        whists=list(result.whists),
        stats=[list(astuple(stats)) for stats in result.stats],
    )


def store(rows: Iterable[TableResult]) -> None:
    """Write rows, replacing each pulka's earlier one (two writers race harmlessly)."""
    TableResult.objects.bulk_create(
        list(rows), update_conflicts=True, unique_fields=["pulka"], update_fields=ROW_FIELDS
    )


def recount(pulkas: Sequence[Pulka]) -> list[TableResult]:
    """Count these tables from their sheets: two queries however many tables."""
    if not pulkas:
        return []
    ids = [pulka.pk for pulka in pulkas]
    deals: dict[int, list[Deal]] = {pk: [] for pk in ids}
    for deal in Deal.objects.current().filter(pulka_id__in=ids).order_by("pulka_id", "number"):
        deals[deal.pulka_id].append(deal)
    corrections: dict[int, list[Correction]] = {pk: [] for pk in ids}
    for correction in Correction.objects.filter(pulka_id__in=ids):
        corrections[correction.pulka_id].append(correction)
    return [counted(pulka, deals[pulka.pk], corrections[pulka.pk]) for pulka in pulkas]


def refresh(pulka_id: int) -> TableResult | None:
    """Count one tournament table again and keep its row (after a change of its sheet)."""
    pulka = Pulka.objects.filter(pk=pulka_id, tournament__isnull=False).first()
    if pulka is None:
        return None
    with transaction.atomic():
        rows = recount([pulka])
        store(rows)
    return rows[0]


def on_sheet_changed(
    sender: Any, pulka_id: int, tournament_id: int | None = None, **kwargs: Any
) -> None:
    """``games.events.sheet_changed``: a tournament table's sheet changed; club games pass."""
    if tournament_id is not None:
        refresh(pulka_id)


def table_results(pulkas: Sequence[Pulka]) -> dict[int, TableResult]:
    """Each table's stored row by pulka id, stale ones counted again and written back.

    One query for the rows; when some are stale, two more for their deals and
    corrections and one write, however many they are.
    """
    stored = {row.pulka_id: row for row in TableResult.objects.filter(pulka__in=pulkas)}
    stale = [p for p in pulkas if p.pk not in stored or stored[p.pk].version != p.version]
    if stale:
        fresh = recount(stale)
        store(fresh)
        stored.update({row.pulka_id: row for row in fresh})
    return stored


def as_ranking(row: TableResult, pulka: Pulka) -> ranking.TableResult:
    """The engine's table result from a stored row, the players from the seats."""
    stats = tuple(ranking.PlayerStats(*counts) for counts in row.stats)
    return ranking.TableResult(pulka.round_number or 0, keys_of(pulka), tuple(row.whists), stats)


def rebuild(tournament: Tournament) -> int:
    """Count every table of the tournament again from its sheet; how many rows were written."""
    pulkas = list(tournament.pulkas.all())
    with transaction.atomic():
        rows = recount(pulkas)
        store(rows)
    return len(rows)


def differences(tournament: Tournament) -> list[tuple[Pulka, str]]:
    """Tables whose stored row is missing or differs from a recount of the sheet, and how.

    ``missing``: no row for a table with deals; ``differs``: the row's figures are not the sheet's. A row
    merely counted at an older version is not a difference when its figures still hold.
    """
    pulkas = list(
        tournament.pulkas.exclude(status=Pulka.Status.ARCHIVED).order_by("round_number", "pk")
    )
    by_id = {pulka.pk: pulka for pulka in pulkas}
    stored = {row.pulka_id: row for row in TableResult.objects.filter(pulka__in=pulkas)}
    found = []
    for fresh in recount(pulkas):
        row = stored.get(fresh.pulka_id)
        if row is None and fresh.deals:
            found.append((by_id[fresh.pulka_id], "missing"))
        elif row is not None and (row.whists, row.stats, row.deals) != (
            fresh.whists,
            fresh.stats,
            fresh.deals,
        ):
            found.append((by_id[fresh.pulka_id], "differs"))
    return found
