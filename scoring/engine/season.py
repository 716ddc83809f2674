"""A club's season table: events measured, weighted, aggregated and ranked (docs/seasons.md).

An event is one club evening (the tables the club finished on one date) or one
tournament. Each player's points for an event come from his tables (§2: place points
normalised for tables of 3 and 4, whists, or the change of his club rating), times the
coefficient of the table's convention (§3). The aggregate (§4: sum, average, or best N) runs over a player's
events; players below the minimum attendance are listed after the ranked ones with the
number of events they still need (§5); ties are broken in the policy's order (§6).
Cards given at the season's tournaments add up across its events (§13): a red card, or
the policy's number of yellow cards, takes the player out of the ranking.

Everything is exact (``Fraction``) so that a recomputation gives the same table.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction

from .errors import ScoringError
from .normalise import place_points

MEASURES = ("places", "whists", "rating")
AGGREGATES = ("sum", "average", "best")
TIE_BREAKS = ("attended", "best_result", "wins", "latest")
DEFAULT_TIE_BREAKS = ("best_result", "attended")
# Yellow cards across the season that take a player out of the ranking (§13): the
# tournament regulations' own default (docs/tournaments.md §4.9).
DEFAULT_YELLOW_CARDS_LIMIT = 2
# A rating change is counted to the hundredth, as the leaderboard shows it (§2).
RATING_STEP = Fraction(1, 100)


class SeasonError(ScoringError):
    """A season policy that cannot be applied; the code names the setting."""


@dataclass(frozen=True)
class Table:
    """One table of an event: its players and their whole whists, in seat order.

    ``rating``: each seat's change of club rating the table caused (§2); empty where
    the table moves no rating (a tournament's, docs/rating.md §5).
    """

    players: tuple[int, ...]
    whists: tuple[Fraction | int, ...]
    convention: str = ""
    rating: tuple[Fraction, ...] = ()


@dataclass(frozen=True)
class Event:
    """One event of the season (§1): a key to show, its tables, and the cards given
    there, ``{player: (yellow, red)}`` (§13)."""

    key: str
    tables: tuple[Table, ...]
    cards: Mapping[int, tuple[int, int]] = field(default_factory=dict)


@dataclass(frozen=True)
class Policy:
    """The standings policy (§2–§6)."""

    measure: str = "places"
    aggregate: str = "sum"
    best_n: int = 0
    minimum: int = 0
    coefficients: Mapping[str, Fraction] = field(default_factory=dict)
    tie_breaks: tuple[str, ...] = DEFAULT_TIE_BREAKS
    # None: yellow cards are shown and never take a player out (a red card still does).
    yellow_cards_limit: int | None = DEFAULT_YELLOW_CARDS_LIMIT


@dataclass(frozen=True)
class Line:
    """A player's season line (§7): every event's points, which count, which are dropped."""

    player: int
    rank: int | None
    total: Fraction
    points: tuple[tuple[str, Fraction], ...]
    counted: frozenset[str]
    wins: int
    needed: int
    # Cards by event, ``(key, yellow, red)``, where he got any (§13).
    cards: tuple[tuple[str, int, int], ...] = ()
    # Out of the ranking by his cards (§13): listed without a rank.
    excluded: bool = False

    @property
    def yellow(self) -> int:
        return sum(yellow for _, yellow, _red in self.cards)

    @property
    def red(self) -> int:
        return sum(red for _, _yellow, red in self.cards)

    @property
    def attended(self) -> int:
        return len(self.points)

    @property
    def dropped(self) -> frozenset[str]:
        return frozenset(key for key, _ in self.points) - self.counted


def check_policy(policy: Policy) -> None:
    """Refuse a policy the table cannot be computed by (docs/seasons.md §2–§6)."""
    if policy.measure not in MEASURES:
        raise SeasonError("season.unknown_measure", value=policy.measure)
    if policy.aggregate not in AGGREGATES:
        raise SeasonError("season.unknown_aggregate", value=policy.aggregate)
    if policy.aggregate == "best" and policy.best_n < 1:
        raise SeasonError("season.best_n_missing", value=str(policy.best_n))
    if policy.minimum < 0:
        raise SeasonError("season.negative_minimum", value=str(policy.minimum))
    if policy.yellow_cards_limit is not None and policy.yellow_cards_limit < 1:
        raise SeasonError("season.yellow_cards_limit", value=str(policy.yellow_cards_limit))
    for name in policy.tie_breaks:
        if name not in TIE_BREAKS:
            raise SeasonError("season.unknown_tie_break", value=name)
    for convention, weight in policy.coefficients.items():
        if weight <= 0:
            raise SeasonError("season.coefficient_not_positive", value=convention)


def table_points(table: Table, policy: Policy) -> tuple[Fraction, ...]:
    """Each seat's points at one table, weighted by its convention (docs/seasons.md §2, §3)."""
    if policy.measure == "places":
        # Place points depend on the order only: rank the exact results as whole numbers.
        levels = sorted(set(table.whists))
        raw = place_points([levels.index(w) for w in table.whists])
    elif policy.measure == "rating":
        raw = table.rating or tuple(Fraction(0) for _ in table.players)
    else:
        raw = tuple(Fraction(w) for w in table.whists)
    weight = policy.coefficients.get(table.convention, Fraction(1))
    return tuple(weight * value for value in raw)


def event_points(event: Event, policy: Policy) -> tuple[dict[int, Fraction], dict[int, int]]:
    """Each player's points for one event, summed over his tables, and how many of its
    tables he won (§2, §6: a table is won where his whists are its single best)."""
    points: dict[int, Fraction] = defaultdict(Fraction)
    wins: dict[int, int] = defaultdict(int)
    for table in event.tables:
        scored = table_points(table, policy)
        best = max(table.whists, default=0)
        for player, value, whists in zip(table.players, scored, table.whists, strict=True):
            points[player] += value
            if whists == best and table.whists.count(best) == 1:
                wins[player] += 1
    return dict(points), dict(wins)


def rating_change(before: float, after: float) -> Fraction:
    """The change of a displayed rating, to the hundredth, exactly (docs/seasons.md §2).

    Both figures are rounded as the leaderboard shows them before they are subtracted,
    so the changes of a player's events add up to what he sees move.
    """
    return (_hundredths(after) - _hundredths(before)) * RATING_STEP


def _hundredths(value: float) -> int:
    return int(round(value / float(RATING_STEP)))


def excluded_by_cards(yellow: int, red: int, policy: Policy) -> bool:
    """A red card, or the policy's number of yellow cards, across the season (§13)."""
    limit = policy.yellow_cards_limit
    return red > 0 or (limit is not None and yellow >= limit)


def counted_keys(points: Sequence[tuple[str, Fraction]], policy: Policy) -> frozenset[str]:
    """The events that count (docs/seasons.md §4): all, or the best N by points.

    Of equal results the earlier event counts, so the choice is the same on every read.
    """
    if policy.aggregate != "best":
        return frozenset(key for key, _ in points)
    order = sorted(range(len(points)), key=lambda i: (-points[i][1], i))
    return frozenset(points[i][0] for i in order[: policy.best_n])


def aggregate(points: Sequence[tuple[str, Fraction]], policy: Policy) -> Fraction:
    """A player's season total over the events that count (docs/seasons.md §4)."""
    return _total(points, counted_keys(points, policy), policy)


def _total(
    points: Sequence[tuple[str, Fraction]], counted: frozenset[str], policy: Policy
) -> Fraction:
    values = [value for key, value in points if key in counted]
    if not values:
        return Fraction(0)
    if policy.aggregate == "average":
        return sum(values, Fraction(0)) / len(values)
    return sum(values, Fraction(0))


def season_table(events: Sequence[Event], policy: Policy) -> tuple[Line, ...]:
    """The season table (docs/seasons.md §4–§6): ranked players first, then the rest.

    ``events`` in the order they were played. A player ranks once he has played
    ``policy.minimum`` events; tied players (total and every tie-break) share a rank.
    """
    check_policy(policy)
    per_player: dict[int, list[tuple[str, Fraction]]] = defaultdict(list)
    wins: dict[int, int] = defaultdict(int)
    cards: dict[int, list[tuple[str, int, int]]] = defaultdict(list)
    for event in events:
        points, won = event_points(event, policy)
        for player in sorted(points):
            per_player[player].append((event.key, points[player]))
        for player, tables in won.items():
            wins[player] += tables
        for player, (yellow, red) in sorted(event.cards.items()):
            if yellow or red:
                cards[player].append((event.key, yellow, red))
    lines = [
        _line(player, tuple(rows), wins[player], tuple(cards[player]), policy)
        for player, rows in per_player.items()
    ]
    lines.sort(key=lambda line: (_unranked(line), _order_key(line, policy), line.player))
    return tuple(_ranked(lines, policy))


def _line(
    player: int,
    points: tuple[tuple[str, Fraction], ...],
    wins: int,
    cards: tuple[tuple[str, int, int], ...],
    policy: Policy,
) -> Line:
    counted = counted_keys(points, policy)
    yellow = sum(row[1] for row in cards)
    red = sum(row[2] for row in cards)
    return Line(
        player=player,
        rank=None,
        total=_total(points, counted, policy),
        points=points,
        counted=counted,
        wins=wins,
        needed=max(policy.minimum - len(points), 0),
        cards=cards,
        excluded=excluded_by_cards(yellow, red, policy),
    )


def _unranked(line: Line) -> bool:
    return line.needed > 0 or line.excluded


def tie_break_value(line: Line, name: str) -> Fraction:
    """One tie-break's value, higher is better (docs/seasons.md §6)."""
    if name == "attended":
        return Fraction(line.attended)
    if name == "best_result":
        return max((value for _, value in line.points), default=Fraction(0))
    if name == "wins":
        return Fraction(line.wins)
    if name == "latest":
        return line.points[-1][1] if line.points else Fraction(0)
    raise SeasonError("season.unknown_tie_break", value=name)


def _order_key(line: Line, policy: Policy) -> tuple[Fraction, ...]:
    return (-line.total, *(-tie_break_value(line, name) for name in policy.tie_breaks))


def _ranked(lines: list[Line], policy: Policy) -> list[Line]:
    out: list[Line] = []
    previous: tuple[Fraction, ...] | None = None
    rank = 0
    for position, line in enumerate(lines, start=1):
        if _unranked(line):
            out.append(line)
            continue
        key = _order_key(line, policy)
        if key != previous:
            rank, previous = position, key
        out.append(_with_rank(line, rank))
    return out


def _with_rank(line: Line, rank: int) -> Line:
    return replace(line, rank=rank)


def parse_coefficients(text: Mapping[str, str]) -> dict[str, Fraction]:
    """Coefficients stored as ``{"convention": "4/3"}`` read exactly (docs/seasons.md §3)."""
    out: dict[str, Fraction] = {}
    for convention, value in text.items():
        try:
            out[convention] = Fraction(value)
        except (ValueError, ZeroDivisionError) as error:
            raise SeasonError("season.bad_coefficient", value=convention) from error
    return out


@dataclass(frozen=True)
class Qualifier:
    """A player entering the season's final, seeded by his standing (docs/seasons.md §9)."""

    player: int
    seed: int
    wildcard: bool


def qualifiers(
    lines: Sequence[Line], top: int, wildcards: Sequence[int] = ()
) -> tuple[Qualifier, ...]:
    """The top ``top`` ranked players, then the organiser's wildcards (docs/seasons.md §9).

    Everyone is seeded by his place in the season table (ranked players first); a
    wildcard already among the top is no second entry; a wildcard who played no event of
    the season is seeded last, in the order the organiser gave.
    """
    if top < 0:
        raise SeasonError("season.negative_top", value=str(top))
    ranked = [line.player for line in lines if line.rank is not None][:top]
    chosen = set(ranked) | set(wildcards)
    order = [line.player for line in lines if line.player in chosen]
    order += [player for player in dict.fromkeys(wildcards) if player not in order]
    top_set = set(ranked)
    return tuple(
        Qualifier(player=player, seed=seed, wildcard=player not in top_set)
        for seed, player in enumerate(order, start=1)
    )


def divided(
    lines: Sequence[Line], division_of: Mapping[int, int], policy: Policy
) -> dict[int, tuple[Line, ...]]:
    """The table split by division and ranked within each (docs/seasons.md §10).

    ``division_of`` maps a player to his division (0 the highest); a player in none is
    left out. The order within a division is the season table's; ranks start at 1 again,
    shared as in the whole table.
    """
    out: dict[int, list[Line]] = defaultdict(list)
    for line in lines:
        if line.player in division_of:
            out[division_of[line.player]].append(line)
    return {number: tuple(_ranked(rows, policy)) for number, rows in sorted(out.items())}


@dataclass(frozen=True)
class Move:
    """A player promoted (``to`` < ``from_``) or relegated between divisions (§10)."""

    player: int
    from_: int
    to: int


def promotions(
    divisions: Mapping[int, Sequence[Line]], count: int, lowest: int
) -> tuple[Move, ...]:
    """The top ``count`` ranked of each division but the highest move up, the bottom
    ``count`` of each but the lowest move down (docs/seasons.md §10).

    The bottom are the last ranked lines, then those below the minimum, in table order
    from the end; a player is moved at most once (a division smaller than twice
    ``count`` moves its top up and what is left of its bottom down).
    """
    if count < 0:
        raise SeasonError("season.negative_top", value=str(count))
    moves: list[Move] = []
    for number in range(lowest + 1):
        rows = list(divisions.get(number, ()))
        ranked = [line.player for line in rows if line.rank is not None]
        up = ranked[:count] if number > 0 else []
        moves += [Move(player, number, number - 1) for player in up]
        if number < lowest:
            rest = [line.player for line in reversed(rows) if line.player not in up]
            moves += [Move(player, number, number + 1) for player in rest[:count]]
    return tuple(moves)
