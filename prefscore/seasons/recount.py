"""A season table counted again from the sheets, by code of its own (docs/seasons.md).

What ``check_season`` holds the stored table against. The table is kept from the
statistics' summary rows and the tournaments' stored results (``standings.py``), and
ranked by the engine's ``season_table``; a checker that recounted through them would
pass whatever they got wrong. So this reads the deals themselves: each club pulka and
each tournament sheet is folded through the engine and settled (Кодекс 4.2.12), a
tournament's tables are joined, capped and closed by the tournaments' own recount
(``tournaments.recount``, itself apart from what the standings read), and the place
points, coefficients, aggregates, attendance, cards, tie-breaks and ranks are worked
out here plainly, as §2–§6 and §13 state them. Only the order in which the club was
rated (the rating measure, §2) is read from the summary rows: it is when each pulka
finished, not what it gave.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from fractions import Fraction

from django.utils import timezone
from django.utils.translation import gettext as _

from prefscore.games import services as games
from prefscore.games.models import Pulka
from prefscore.stats.models import PulkaSummary
from prefscore.tournaments import recount as tournament_recount
from prefscore.tournaments.models import Tournament, TournamentEvent
from prefscore.tournaments.services import tournament_pulkas
from scoring.engine import rating, settlement
from scoring.engine.errors import ScoringError

from .models import Season

HUNDREDTH = Fraction(1, 100)


@dataclass
class Table:
    """One table of an event: whists by player (seat order kept), its convention."""

    whists: dict[int, Fraction]
    convention: str
    pulka: int = 0  # a club pulka's id (its rating change, §2); 0 for a tournament's


@dataclass
class Line:
    """A player's recounted line, as ``SeasonLine`` stores it."""

    player: int
    points: list[tuple[str, Fraction]] = field(default_factory=list)
    counted: set[str] = field(default_factory=set)
    total: Fraction = Fraction(0)
    wins: int = 0
    needed: int = 0
    cards: list[tuple[str, int, int]] = field(default_factory=list)
    excluded: bool = False
    rank: int | None = None
    division: int | None = None


# --- the events, from the sheets ---------------------------------------------------------


def evenings(season: Season, problems: list[str]) -> list[tuple[str, list[Table]]]:
    """The club's finished club pulkas of the period, folded, grouped by the day they
    were started (§1): exact settled whists per player. A sheet that cannot be read is
    named in ``problems`` and left out."""
    pulkas = Pulka.objects.filter(
        club_id=season.club_id, tournament__isnull=True, status=Pulka.Status.FINISHED
    ).prefetch_related("seats", "corrections")
    if season.evenings == Season.Evenings.MARKED:
        pulkas = pulkas.filter(seasons=season)
    by_day: dict[str, list[Table]] = defaultdict(list)
    for pulka in pulkas.order_by("created_at", "pk"):
        day = timezone.localdate(pulka.created_at)
        if not season.starts_on <= day <= season.ends_on:
            continue
        whists = _settled(pulka)
        if whists is None:
            problems.append(
                _("the pulka of %(day)s, %(players)s, cannot be read from its sheet")
                % {"day": day.isoformat(), "players": ", ".join(pulka.player_names or ())}
            )
            continue
        by_day[day.isoformat()].append(Table(whists, pulka.convention_name, pulka.pk))
    return sorted(by_day.items())


def _settled(pulka: Pulka) -> dict[int, Fraction] | None:
    """Each seat's exact settled whists, by club player (Кодекс 4.2.12); None when the
    sheet cannot be read (its seats and names disagree, a deal the engine refuses)."""
    seats = sorted(pulka.seats.all(), key=lambda seat: seat.seat)
    try:
        scored = games.score(pulka, list(pulka.deals.filter(withdrawn_at__isnull=True)))
        exact = settlement.exact_result(scored.totals, pulka.convention)
        return {s.player_id: Fraction(v) for s, v in zip(seats, exact, strict=True)}
    except (ScoringError, ValueError, TypeError, KeyError):
        return None


def club_ratings(club_id: int) -> dict[int, dict[int, Fraction]]:
    """Each club pulka's change of its players' shown ratings (§2), from a pass over the
    sheets' own results, in the order the pulkas finished."""
    order = dict(
        PulkaSummary.objects.filter(club_id=club_id, pulka__tournament__isnull=True)
        .values_list("pulka_id", "finished_at")
        .distinct()
    )
    pulkas = Pulka.objects.filter(pk__in=list(order)).prefetch_related("seats", "corrections")
    finished = []
    for pulka in pulkas:
        whists = _settled(pulka)
        if whists is None:  # named among the evenings' problems when it is the season's
            continue
        results = {str(player): value for player, value in whists.items()}
        moment = int(order[pulka.pk].timestamp() * 1_000_000)
        finished.append(rating.FinishedPulka(moment, results, pulka.pk))
    changes: dict[int, dict[int, Fraction]] = {}
    for rated, before, after in rating.rated(sorted(finished, key=lambda p: p.pulka)):
        changes[rated.pulka] = {
            int(key): _shown(after[key].conservative) - _shown(before[key].conservative)
            for key in after
        }
    return changes


def _shown(value: float) -> Fraction:
    return Fraction(round(value / float(HUNDREDTH))) * HUNDREDTH


def tournaments(season: Season) -> list[tuple[str, list[Table], dict[int, tuple[int, int]]]]:
    """Each finished tournament of the season, and its final (§1): its tables from the
    sheets as the tournament counts them (joined, the arbiter's, capped), its cards."""
    chosen = {t.pk: t for t in season.tournaments.all()}
    if season.final is not None:
        chosen[season.final.pk] = season.final
    events = []
    for tournament in chosen.values():
        if not tournament.finished or tournament.finished_at is None:
            continue
        day = timezone.localdate(tournament.finished_at).isoformat()
        events.append((day, f"{day} {tournament.name}", _tables(tournament), _cards(tournament)))
    return [(key, tables, cards) for _day, key, tables, cards in sorted(events)]


def _tables(tournament: Tournament) -> list[Table]:
    sheets = {pulka.pk: tournament_recount.fold(pulka) for pulka in tournament_pulkas(tournament)}
    rounds = list(tournament.rounds.all())
    left = tournament.entries.filter(forfeited_round__isnull=False)
    forfeits = {(str(k), n) for k, n in left.values_list("player_id", "forfeited_round")}
    cap = tournament.forfeit_whists
    tables = []
    for at, table in tournament_recount.table_whists(sheets, rounds).items():
        number = sheets[at].pulka.round_number
        whists = {
            int(key): Fraction(min(w, cap) if cap is not None and (key, number) in forfeits else w)
            for key, w in table.items()
        }
        tables.append(Table(whists, tournament.convention_name))
    return tables


def _cards(tournament: Tournament) -> dict[int, tuple[int, int]]:
    cards: dict[int, list[int]] = defaultdict(lambda: [0, 0])
    for player, action in tournament.events.filter(
        action__in=TournamentEvent.CARDS, entry__isnull=False
    ).values_list("entry__player_id", "action"):
        cards[player][0 if action == TournamentEvent.Action.YELLOW_CARD else 1] += 1
    return {player: (yellow, red) for player, (yellow, red) in cards.items()}


# --- the table, as §2–§6 and §13 say ------------------------------------------------------


def place_points(whists: dict[int, Fraction]) -> dict[int, Fraction]:
    """3 for the best to 0 for the last, in equal steps, shared places split (§2)."""
    size = len(whists)
    step = Fraction(3, max(size - 1, 1))
    out = {}
    for player, mine in whists.items():
        above = sum(1 for other in whists.values() if other > mine)
        level = sum(1 for other in whists.values() if other == mine)
        places = range(above, above + level)
        out[player] = sum((step * (size - 1 - p) for p in places), Fraction(0)) / level
    return out


def table(season: Season, problems: list[str]) -> list[Line]:
    """The season table, recounted: every line with its events, total and rank; what
    could not be read is named in ``problems``."""
    coefficients = {name: Fraction(value) for name, value in (season.coefficients or {}).items()}
    changes = club_ratings(season.club_id) if season.measure == Season.Measure.RATING else {}
    events: list[tuple[str, list[Table], dict[int, tuple[int, int]]]] = [
        (day, tables, {}) for day, tables in evenings(season, problems)
    ]
    events += tournaments(season)
    events.sort(key=lambda event: event[0])
    lines: dict[int, Line] = {}
    for key, tables, cards in events:
        points: dict[int, Fraction] = defaultdict(Fraction)
        for one in tables:
            weight = coefficients.get(one.convention, Fraction(1))
            for player, value in _measure(season, one, changes).items():
                points[player] += weight * value
            best = max(one.whists.values())
            winners = [p for p, w in one.whists.items() if w == best]
            if len(winners) == 1:
                lines.setdefault(winners[0], Line(winners[0])).wins += 1
        for player in sorted(points):
            lines.setdefault(player, Line(player)).points.append((key, points[player]))
        for player, (yellow, red) in sorted(cards.items()):
            if yellow or red:
                lines.setdefault(player, Line(player)).cards.append((key, yellow, red))
    for line in lines.values():
        _sum_up(season, line)
    return _ranked(season, [line for line in lines.values() if line.points])


def _measure(
    season: Season, one: Table, changes: dict[int, dict[int, Fraction]]
) -> dict[int, Fraction]:
    if season.measure == Season.Measure.PLACES:
        return place_points(one.whists)
    if season.measure == Season.Measure.WHISTS:
        return dict(one.whists)
    moved = changes.get(one.pulka, {})  # a tournament's table moves no rating (§2)
    return {player: moved.get(player, Fraction(0)) for player in one.whists}


def _sum_up(season: Season, line: Line) -> None:
    values = line.points
    if season.aggregate == Season.Aggregate.BEST:
        best = sorted(range(len(values)), key=lambda i: (-values[i][1], i))[: season.best_n]
        line.counted = {values[i][0] for i in best}
    else:
        line.counted = {key for key, _value in values}
    counted = [value for key, value in values if key in line.counted]
    line.total = sum(counted, Fraction(0))
    if season.aggregate == Season.Aggregate.AVERAGE and counted:
        line.total /= len(counted)
    line.needed = max(season.minimum - len(values), 0)
    yellow = sum(row[1] for row in line.cards)
    red = sum(row[2] for row in line.cards)
    limit = season.yellow_cards_limit
    line.excluded = red > 0 or (limit is not None and yellow >= limit)


def _key(season: Season, line: Line) -> tuple[Fraction, ...]:
    values = {
        "attended": Fraction(len(line.points)),
        "best_result": max((value for _key, value in line.points), default=Fraction(0)),
        "wins": Fraction(line.wins),
        "latest": line.points[-1][1] if line.points else Fraction(0),
    }
    return (line.total, *(values[name] for name in season.tie_breaks))


def _ranked(season: Season, lines: list[Line]) -> list[Line]:
    """Ranked players by total and tie-breaks, level ones sharing a rank (§5, §6, §13)."""
    ranked = [line for line in lines if not line.needed and not line.excluded]
    ranked.sort(key=lambda line: (tuple(-v for v in _key(season, line)), line.player))
    for position, line in enumerate(ranked, start=1):
        earlier = ranked[position - 2] if position > 1 else None
        same = earlier is not None and _key(season, earlier) == _key(season, line)
        line.rank = earlier.rank if same and earlier is not None else position
    rest = [line for line in lines if line.needed or line.excluded]
    rest.sort(key=lambda line: (tuple(-v for v in _key(season, line)), line.player))
    return ranked + rest


def divided(season: Season, lines: list[Line]) -> list[Line]:
    """With divisions, each division's lines in table order, ranked within it; a player
    in no division is left out (§10). Without, the table as it is."""
    divisions = list(season.divisions.order_by("order").prefetch_related("players"))
    if not divisions:
        return lines
    out = []
    for division in divisions:
        members = {player.pk for player in division.players.all()}
        rows = [line for line in lines if line.player in members]
        for line in rows:
            line.division = division.pk
        out += _ranked(season, rows)
    return out
