"""Storing an imported round's tables in bulk (docs/tournaments.md §6.4).

A tournament file of 1,000 players over 5 rounds holds 1,250 pulkas and 15,000 deals.
Imported one pulka at a time (``games.io.import_file``) that is some 30,000 statements
and three folds of every sheet. Here each round's tables are written with one bulk
insert per kind of row (pulkas, seats, deals, corrections, audit lines, stored table
results), each sheet folded once: the fold the validation made (``imports.read_file``).
What is written is what ``games.io.import_file`` writes for each table, and the
statistics hear of each finished pulka as they would (``games.events.settled``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from prefscore.clubs.models import Player
from prefscore.games import events, io
from prefscore.games.models import AuditEvent, Correction, Deal, Pulka, PulkaSeat
from prefscore.games.titles import (
    QUALIFYING,
    continued_by,
    continuing,
    table_parts,
    table_title,
)
from scoring.conventions import name_of
from scoring.engine.conventions import Convention
from scoring.engine.pulka import ScoredPulka

from .models import Round, TableResult, Tournament
from .results import from_scored

BATCH = 2000  # rows per INSERT: well under SQLite's and PostgreSQL's parameter limits


def store_tables(
    tournament: Tournament,
    round_: Round,
    tables: Sequence[tuple[int, str, io.PulkaFile, ScoredPulka]],
    players: Mapping[str, Player],
    user: Any,
) -> list[Pulka]:
    """The round's tables as pulkas, in table order: ``(number, status, file, scored)``."""
    who = user if getattr(user, "is_authenticated", False) else None
    pulkas = Pulka.objects.bulk_create(
        [
            _pulka(tournament, round_, number, status, file, who)
            for number, status, file, _s in tables
        ],
        batch_size=BATCH,
    )
    seats, deals, corrections, audit, results = [], [], [], [], []
    for pulka, (_number, _status, file, scored) in zip(pulkas, tables, strict=True):
        names = list(pulka.player_names)
        seats += [PulkaSeat(pulka=pulka, seat=i, player=players[n]) for i, n in enumerate(names)]
        table_deals, table_corrections = io.log_rows(pulka, file.raw_deals, user)
        for deal in table_deals:  # recorded elsewhere: nobody holds a pencil on it (4.2.8)
            deal.entered_by = None
        deals += table_deals
        corrections += table_corrections
        audit += io.import_audit_rows(pulka, file, len(table_deals), table_corrections, user)
        results.append(from_scored(pulka, scored, len(table_deals)))
    PulkaSeat.objects.bulk_create(seats, batch_size=BATCH)
    Deal.objects.bulk_create(deals, batch_size=BATCH)
    Correction.objects.bulk_create(corrections, batch_size=BATCH)
    AuditEvent.objects.bulk_create(audit, batch_size=BATCH)
    TableResult.objects.bulk_create(results, batch_size=BATCH)
    # The statistics hear of every finished sheet at once (a pulka per table otherwise).
    closed = [p.pk for p, (*_r, scored) in zip(pulkas, tables, strict=True) if scored.state.closed]
    events.settled_many(closed)
    return pulkas


def _pulka(
    tournament: Tournament,
    round_: Round,
    number: int,
    status: str,
    file: io.PulkaFile,
    who: Any,
) -> Pulka:
    parsed = file.parsed
    io.check_importable(parsed)  # type: ignore[arg-type]  # read_file took only deals
    # Worded in each page's language (games/titles.py), as "round N" as before.
    parts = table_parts(tournament.name, round_.number, QUALIFYING, None, number)
    title = table_title(parts)
    return Pulka(
        club=tournament.club,
        title=title[: Pulka._meta.get_field("title").max_length],
        **_convention(tournament, parsed.convention),
        convention_options=parsed.convention.to_options(),
        player_names=list(parsed.names),  # type: ignore[union-attr]
        target=parsed.target,  # type: ignore[union-attr]
        stake=parsed.stake,
        first_dealer=parsed.first_dealer,  # type: ignore[union-attr]
        created_by=who,
        version=len(file.raw_deals),
        status=status,
        tournament=tournament,
        round_number=round_.number,
        title_parts=parts,
    )


def _convention(tournament: Tournament, convention: Convention) -> dict[str, Any]:
    """A table playing the tournament's convention is named by it, not "own options"
    (docs/tournaments.md §6.4: the round trip keeps it); another by its preset's name.

    ``name_of`` is asked again for each such table: remembering its answer across a file
    saved 0.05 s of CPU over 1,250 tables, under 1 % of the import (docs/benchmarks.md).
    """
    if convention == tournament.convention:
        return {
            "convention_name": tournament.convention_name,
            "convention_source": tournament.convention_source,
        }
    return {"convention_name": name_of(convention)}


def draw_with_continued(
    round_: Round,
    continues: Sequence[bool],
    stored: Sequence[Pulka],
    players: Mapping[str, Player],
) -> None:
    """A round with a sheet played on short after a drop keeps its draw, which names both
    sheets of that table (``continues``): each keeps the table's number (docs/tournaments.md
    §4.9, §4.11). ``continues``: for each stored table, whether it continues the one before."""
    drawn: list[dict[str, Any]] = []
    by_pk = {pulka.pk: pulka for pulka in stored}
    for goes_on, pulka in zip(continues, stored, strict=True):
        if goes_on:
            first = by_pk[drawn[-1]["pulka"]]
            _link_sheets(first, pulka)
            drawn[-1] = {**drawn[-1], "pulka": pulka.pk, "continues": first.pk}
            continue
        keys = [str(players[name].pk) for name in pulka.player_names]
        drawn.append({"players": keys, "first_dealer": pulka.first_dealer, "pulka": pulka.pk})
    round_.tables = drawn
    round_.save(update_fields=["tables"])


def _link_sheets(first: Pulka, then: Pulka) -> None:
    """The two sheets of a table played on short name each other in their title parts,
    as a drop at the table names them (``tables._play_on_short``, games/titles.py)."""
    if first.title_parts and then.title_parts:
        Pulka.objects.filter(pk=first.pk).update(
            title_parts=continued_by(first.title_parts, then.pk)
        )
        parts = continuing(then.title_parts, first.pk)
        title = table_title(parts)[: Pulka._meta.get_field("title").max_length]
        Pulka.objects.filter(pk=then.pk).update(title_parts=parts, title=title)
