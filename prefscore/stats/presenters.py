"""A player's page and the club leaderboard, as view models: figures formatted once here.

Every figure is the engine's (``scoring.engine.stats``, ``scoring.engine.rating``),
read from the summary rows; templates only place them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from itertools import accumulate

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from prefscore.clubs.models import Player
from prefscore.games.presenters import format_result, signed
from prefscore.games.presenters.numbers import BarChart, LineChart, bar_chart, line_chart
from scoring.conventions import convention_label
from scoring.engine.rating import Rating, leaderboard
from scoring.engine.stats import (
    NO_SUIT,
    ContractCount,
    PlayStats,
    PulkaResult,
    add_up,
    record_of,
    rivals_of,
)

from .models import PulkaSummary
from .summaries import play_from_json

LEVELS = (6, 7, 8, 9, 10)
SUITS = (
    ("S", "♠"),
    ("C", "♣"),
    ("D", "♦"),
    ("H", "♥"),
    ("NT", gettext_lazy("NT")),
    (NO_SUIT, gettext_lazy("no suit named")),
)


@dataclass(frozen=True, slots=True)
class Figure:
    label: str
    value: str


@dataclass(frozen=True, slots=True)
class ContractRow:
    label: str
    declared: int
    made: int
    down: int
    undertricks: str  # average per failed contract


@dataclass(frozen=True, slots=True)
class RivalRow:
    name: str
    pulkas: int
    balance: str


@dataclass(frozen=True, slots=True)
class ResultRow:
    """One pulka in the results chart's text alternative."""

    number: int
    date: str
    result: str
    running: str


@dataclass(frozen=True, slots=True)
class PlayerPage:
    totals: tuple[Figure, ...]
    by_level: tuple[ContractRow, ...]
    by_suit: tuple[ContractRow, ...]
    misere: tuple[Figure, ...]
    defence: tuple[Figure, ...]
    records: tuple[Figure, ...]
    rivals: tuple[RivalRow, ...]
    results_chart: LineChart | None
    results_rows: tuple[ResultRow, ...]
    levels_chart: BarChart | None
    empty: bool


def player_page(rows: Sequence[PulkaSummary], names: dict[int, str]) -> PlayerPage:
    """The page of one player from his summary rows (oldest first) and rivals' names."""
    results = [_result(row, names) for row in rows]
    play = add_up(play_from_json(row.play) for row in rows)
    record = record_of(results)
    running = list(accumulate(r.result for r in results))
    return PlayerPage(
        totals=_totals(record.pulkas, record.total, record.per_pulka, rows),
        by_level=tuple(_contract_row(str(level), play.by_level.get(level)) for level in LEVELS),
        by_suit=tuple(_contract_row(str(mark), play.by_suit.get(code)) for code, mark in SUITS),
        misere=_misere(play),
        defence=_defence(play),
        records=_records(record.best, record.worst, record.longest_winning_run),
        rivals=tuple(
            RivalRow(r.name, r.pulkas, signed(r.balance)) for r in rivals_of(results)[:10]
        ),
        results_chart=line_chart(
            [(_("Whists, running total"), running)], label_of=signed, x_label=_("pulkas")
        ),
        results_rows=tuple(
            ResultRow(i + 1, row.finished_at.date().isoformat(), signed(r.result), signed(total))
            for i, (row, r, total) in enumerate(zip(rows, results, running, strict=True))
        ),
        levels_chart=bar_chart(
            [
                (
                    str(level),
                    [
                        (count.made, "chart__bar--made", _("made: %(n)s") % {"n": count.made}),
                        (count.down, "chart__bar--down", _("down: %(n)s") % {"n": count.down}),
                    ],
                )
                for level in LEVELS
                for count in [play.by_level.get(level, ContractCount())]
            ]
        ),
        empty=not rows,
    )


def _result(row: PulkaSummary, names: dict[int, str]) -> PulkaResult:
    against = {names.get(int(pk), "?"): Fraction(net) for pk, net in row.against.items()}
    moment = int(row.finished_at.timestamp() * 1_000_000)
    return PulkaResult(moment, Fraction(row.result), row.won, against)


def _totals(
    pulkas: int, total: Fraction, per_pulka: Fraction | None, rows: Sequence[PulkaSummary]
) -> tuple[Figure, ...]:
    paid = [row.money for row in rows if row.money is not None]
    figures = [
        Figure(_("Pulkas played"), str(pulkas)),
        Figure(_("Whists in all"), signed(total)),
        Figure(_("Whists per pulka"), signed(per_pulka) if per_pulka is not None else "—"),
    ]
    if paid:
        figures.append(Figure(_("Money at the club's stakes"), signed(sum(paid, Decimal(0)), None)))
    return tuple(figures)


def _contract_row(label: str, count: ContractCount | None) -> ContractRow:
    count = count or ContractCount()
    average = count.average_undertricks
    return ContractRow(
        label,
        count.declared,
        count.made,
        count.down,
        format_result(average) if average is not None else "—",
    )


def _misere(play: PlayStats) -> tuple[Figure, ...]:
    per_deal = play.allpass_tricks_per_deal
    return (
        Figure(_("Misères declared"), str(play.misere_declared)),
        Figure(_("Misères made"), str(play.misere_made)),
        Figure(_("Misères caught"), str(play.misere_caught)),
        Figure(_("All-pass deals"), str(play.allpass_deals)),
        Figure(
            _("Tricks per all-pass deal"), format_result(per_deal) if per_deal is not None else "—"
        ),
    )


def _defence(play: PlayStats) -> tuple[Figure, ...]:
    return (
        Figure(_("Deals defended"), str(play.defended)),
        Figure(_("Whists declared"), str(play.whists)),
        Figure(_("Half-whists"), str(play.half_whists)),
        Figure(_("Whister's shortfalls (недовист)"), str(play.whister_remizes)),
    )


def _records(best: Fraction | None, worst: Fraction | None, run: int) -> tuple[Figure, ...]:
    return (
        Figure(_("Best pulka"), signed(best) if best is not None else "—"),
        Figure(_("Worst pulka"), signed(worst) if worst is not None else "—"),
        Figure(_("Longest run of pulkas won"), str(run)),
    )


# --- the leaderboard --------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class LeaderRow:
    place: int
    player: Player
    rating: str  # the conservative rating μ − 3σ
    mu: str
    sigma: str
    pulkas: int
    provisional: bool


def leader_rows(ratings: dict[int, Rating], players: dict[int, Player]) -> tuple[LeaderRow, ...]:
    """The club's players by conservative rating (docs/rating.md §1), best first."""
    rows = []
    by_key = {str(pk): rating for pk, rating in ratings.items()}
    for place, (key, rating) in enumerate(leaderboard(by_key), start=1):
        player = players.get(int(key))
        if player is None:
            continue
        rows.append(
            LeaderRow(
                place,
                player,
                format_result(Decimal(str(round(rating.conservative, 2)))),
                format_result(Decimal(str(round(rating.mu, 2)))),
                format_result(Decimal(str(round(rating.sigma, 2)))),
                rating.pulkas,
                rating.provisional,
            )
        )
    return tuple(rows)


def convention_choices(names: Sequence[str]) -> list[tuple[str, str]]:
    return [(name, str(convention_label(name))) for name in sorted(set(names))]
