"""The season table as CSV and JSON (docs/seasons.md §7): exact totals, stable column names.

Column names are fixed English identifiers, as the statistics' exports are
(docs/exports.md), so that a spreadsheet or a script reads them in any language; names
are made safe for a spreadsheet (``spreadsheet.text_cell``).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from fractions import Fraction
from typing import Any

from prefscore.spreadsheet import exact_cell, figure_cell, text_cell

from .models import Season, SeasonLine

COLUMNS = ("rank", "player", "total", "total_exact", "played", "counted", "needed")


def _lines(season: Season) -> list[SeasonLine]:
    return list(season.lines.select_related("player").order_by("position"))


def csv_rows(season: Season) -> Iterable[Sequence[Any]]:
    """The header, then one row per player in table order: one query."""
    yield COLUMNS
    for line in _lines(season):
        total = Fraction(line.total)
        yield (
            line.rank or "",
            text_cell(line.player.name),
            figure_cell(total),
            exact_cell(total),
            len(line.points),
            sum(1 for _, _, counts in line.points if counts),
            line.needed,
        )


def as_json(season: Season) -> dict[str, Any]:
    """The season, its policy and every line with its events: one query for the lines."""
    return {
        "season": season.name,
        "slug": season.slug,
        "club": season.club.slug,
        "starts_on": season.starts_on.isoformat(),
        "ends_on": season.ends_on.isoformat(),
        "policy": {
            "measure": season.measure,
            "aggregate": season.aggregate,
            "best_n": season.best_n,
            "minimum": season.minimum,
            "coefficients": season.coefficients,
            "tie_breaks": season.tie_breaks,
            "yellow_cards_limit": season.yellow_cards_limit,
        },
        "lines": [
            {
                "rank": line.rank,
                "player": line.player.name,
                "total": line.total,
                "needed": line.needed,
                "excluded": line.excluded,
                "cards": [
                    {"event": key, "yellow": yellow, "red": red} for key, yellow, red in line.cards
                ],
                "events": [
                    {"event": key, "points": points, "counts": counts}
                    for key, points, counts in line.points
                ],
            }
            for line in _lines(season)
        ],
    }
