"""Tournament standings: whists first, then the tie-breaks (Кодекс 4.1.3; docs/tournaments.md §4).

Кодекс 4.1.3: the tournament criterion is the largest sum of whists; organisers may add
secondary criteria — most all-pass deals won, fewest all-pass tricks, fewest remizes or
misère tricks — but the whist difference stays primary. docs/tournaments.md §4.8 adds best
round, opponents' score sum (Buchholz-like) and lot; the order is the organiser's.

docs/tournaments.md §4.7 allows normalising a round's whists before they are summed, so
that one huge pulka cannot decide the event: place points within the table (split or
the Serbian ± rule) or a piecewise compression (the Gambler and Elephant online
events). Raw whists stay a column and a tie-break whatever the normalisation.

A table's result is each player's whole whists (``result_whole``, Кодекс 4.2.12) and
a few counts read from the engine's deal records. Players are identified by any
string key the caller chooses (the web uses the club player's id).
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction

from .contracts import Kind
from .deals import GORA
from .normalise import NORMALISATIONS, RankingError, Score, compress, normalised
from .pulka import ScoredPulka
from .settlement import whole_result

__all__ = ["NORMALISATIONS", "RankingError", "Score", "compress", "normalised"]

# Tie-breaks by name; True when more is better (docs/tournaments.md §4.8, Кодекс 4.1.3).
TIE_BREAKS: dict[str, bool] = {
    "whists": True,
    "allpass_won": True,
    "allpass_tricks": False,
    "remizes": False,
    "misere_tricks": False,
    "best_round": True,
    "head_to_head": True,
    "opponents": True,
}
DEFAULT_TIE_BREAKS = ("whists", "allpass_won", "allpass_tricks", "remizes", "misere_tricks")
CARRY = {"kept": Fraction(1), "halved": Fraction(1, 2), "cleared": Fraction(0)}
_REMIZ_REASONS = frozenset({"remiz", "whister_shortfall"})


@dataclass(frozen=True, slots=True)
class PlayerStats:
    """Counts for the Кодекс 4.1.3 secondary criteria, for one player at one table.

    ``allpass_won``: all-pass deals in which the player, playing (not the 4-table
    dealer), took no trick; ``allpass_tricks``: tricks he took on all-pass deals;
    ``remizes``: deals in which he went down as declarer or as whister; ``misere_tricks``:
    tricks he took on his own misères.
    """

    allpass_won: int = 0
    allpass_tricks: int = 0
    remizes: int = 0
    misere_tricks: int = 0

    def __add__(self, other: PlayerStats) -> PlayerStats:
        return PlayerStats(
            self.allpass_won + other.allpass_won,
            self.allpass_tricks + other.allpass_tricks,
            self.remizes + other.remizes,
            self.misere_tricks + other.misere_tricks,
        )


@dataclass(frozen=True, slots=True)
class TableResult:
    """One table of one round: its players (keys, seat order), whole whists and counts."""

    round_number: int
    players: tuple[str, ...]
    whists: tuple[int, ...]
    stats: tuple[PlayerStats, ...] = ()

    def __post_init__(self) -> None:
        if len(self.whists) != len(self.players):
            raise RankingError("ranking.whists_per_player")
        if self.stats and len(self.stats) != len(self.players):
            raise RankingError("ranking.counts_per_player")
        if len(set(self.players)) != len(self.players):
            raise RankingError("ranking.sits_twice")


@dataclass(frozen=True, slots=True)
class Rules:
    """How standings are computed (docs/tournaments.md §4.7–4.8, §4.10).

    ``normalisation``: one of :data:`NORMALISATIONS`; ``tie_breaks``: names of
    :data:`TIE_BREAKS` in the order they apply; ``seed``: the lot that settles what
    every criterion leaves tied.
    """

    normalisation: str = "raw"
    tie_breaks: tuple[str, ...] = DEFAULT_TIE_BREAKS
    seed: int = 0

    def __post_init__(self) -> None:
        if self.normalisation not in NORMALISATIONS:
            raise RankingError("ranking.unknown_normalisation", value=self.normalisation)
        unknown = [name for name in self.tie_breaks if name not in TIE_BREAKS]
        if unknown:
            raise RankingError("ranking.unknown_tie_break", value=unknown[0])
        if len(set(self.tie_breaks)) != len(self.tie_breaks):
            raise RankingError("ranking.tie_break_twice")


@dataclass(frozen=True, slots=True)
class Line:
    """One player's line of the standings; every criterion is shown as a column (§4.8).

    ``place`` is shared by players whom every criterion but the lot leaves tied.
    After a cut (§4.10) ``qualifying`` is the player's qualifying points, ``carried``
    what of them he took into his last stage, and ``stage_points`` what he scored in
    that stage: ``points`` = ``carried`` + ``stage_points``. ``head_to_head`` is
    counted only among players tied before it (None elsewhere); ``opponents`` only
    when it is a tie-break (0 otherwise). ``out``: dropped or disqualified, ranked
    after everyone still playing (docs/tournaments.md §7.4).
    """

    player: str
    place: int
    points: Score
    whists: int
    rounds: int
    best_round: Score | None
    opponents: Score
    stats: PlayerStats
    finalist: bool = False
    by_round: Mapping[int, Score] = field(default_factory=dict)
    qualifying: Score | None = None
    carried: Score | None = None
    stage_points: Score | None = None
    head_to_head: Fraction | None = None
    out: bool = False

    @property
    def allpass_won(self) -> int:
        return self.stats.allpass_won

    @property
    def allpass_tricks(self) -> int:
        return self.stats.allpass_tricks

    @property
    def remizes(self) -> int:
        return self.stats.remizes

    @property
    def misere_tricks(self) -> int:
        return self.stats.misere_tricks


# --- from a scored pulka ------------------------------------------------------------


def table_result(
    scored: ScoredPulka, round_number: int, players: Sequence[str] | None = None
) -> TableResult:
    """A table's whole whists (Кодекс 4.2.12, ``result_whole``) and 4.1.3 counts.

    ``players``: the keys of the seats in order; the pulka's names when omitted. A
    running pulka gives its result as it stands (live standings, docs/tournaments.md §4.11).
    """
    names = scored.pulka.names
    keys = tuple(players) if players is not None else names
    if len(keys) != len(names):
        raise RankingError("ranking.key_per_seat")
    whole = whole_result(scored.totals, scored.pulka.convention).result
    return TableResult(round_number, keys, tuple(whole), deal_stats(scored))


def deal_stats(scored: ScoredPulka) -> tuple[PlayerStats, ...]:
    """Кодекс 4.1.3 counts per seat, from the deals as written (corrections applied)."""
    names = scored.pulka.names
    size = len(names)
    won, allpass, remizes, misere = [0] * size, [0] * size, [0] * size, [0] * size
    for record in scored.records:
        deal = record.deal
        kind = deal.contract.kind
        tricks = deal.trick_counts or {}
        if kind is Kind.ALLPASS:
            for name, taken in tricks.items():
                seat = names.index(name)
                # At a 4-table the dealer sits out: his talon tricks are not his play.
                if size > 3 and seat == record.dealer:
                    continue
                allpass[seat] += taken
                won[seat] += taken == 0
        elif kind is Kind.MISERE and deal.declarer is not None:
            misere[names.index(deal.declarer)] += tricks.get(deal.declarer, 0)
        down = {
            e.player for e in record.entries if e.section == GORA and e.reason in _REMIZ_REASONS
        }
        for seat in down:
            remizes[seat] += 1
    return tuple(PlayerStats(*counts) for counts in zip(won, allpass, remizes, misere, strict=True))


# --- normalisation -------------------------------------------------------------------


def round_points(result: TableResult, normalisation: str = "raw") -> tuple[Score, ...]:
    """A table's points per player after normalisation (docs/tournaments.md §4.7).

    See :func:`scoring.engine.normalise.normalised` for each way.
    """
    return normalised(result.whists, normalisation)


# --- standings -----------------------------------------------------------------------


@dataclass(slots=True)
class _Tally:
    points: Score = 0
    whists: int = 0
    rounds: int = 0
    # The Кодекс 4.1.3 counts, summed as plain ints (PlayerStats at the end: speed).
    counts: list[int] = field(default_factory=lambda: [0, 0, 0, 0])
    by_round: dict[int, Score] = field(default_factory=dict)
    # Index of each table result the player sat at (head-to-head, opponents' points).
    tables: list[int] = field(default_factory=list)

    @property
    def stats(self) -> PlayerStats:
        return PlayerStats(*self.counts)


def _tally(
    results: Sequence[TableResult], players: Iterable[str], normalisation: str
) -> dict[str, _Tally]:
    tallies: dict[str, _Tally] = {player: _Tally() for player in players}
    raw = normalisation == "raw"
    for index, result in enumerate(results):
        whists = result.whists
        points = whists if raw else normalised(whists, normalisation)
        stats = result.stats
        number = result.round_number
        for i, player in enumerate(result.players):
            tally = tallies.get(player)
            if tally is None:
                tally = tallies[player] = _Tally()
            point = points[i]
            tally.points += point
            tally.whists += whists[i]
            tally.rounds += 1
            if stats:
                seat, counts = stats[i], tally.counts
                counts[0] += seat.allpass_won
                counts[1] += seat.allpass_tricks
                counts[2] += seat.remizes
                counts[3] += seat.misere_tricks
            by_round = tally.by_round
            by_round[number] = by_round.get(number, 0) + point
            tally.tables.append(index)
    return tallies


def _lot(seed: int, player: str) -> bytes:
    """A seeded, reproducible lot: the last tie-break (docs/tournaments.md §4.8)."""
    return hashlib.sha256(f"{seed}:{player}".encode()).digest()


def _criteria(line: Line, tie_breaks: Sequence[str]) -> tuple[Score, ...]:
    """The sort key without the lot: bigger is better in every position."""
    values: list[Score] = [line.points]
    for name in tie_breaks:
        value: Score
        if name == "whists":
            value = line.whists
        elif name == "best_round":
            value = line.best_round if line.best_round is not None else 0
        elif name == "opponents":
            value = line.opponents
        elif name == "head_to_head":
            value = line.head_to_head if line.head_to_head is not None else 0
        else:
            value = getattr(line.stats, name)
        values.append(value if TIE_BREAKS[name] else -value)
    return tuple(values)


def _lines(
    tallies: Mapping[str, _Tally],
    carried: Mapping[str, Score],
    results: Sequence[TableResult],
    rules: Rules,
) -> list[Line]:
    totals = {p: t.points + carried.get(p, 0) for p, t in tallies.items()}
    # The opponents' score is summed only when it is a tie-break: it is the costly column.
    with_opponents = "opponents" in rules.tie_breaks
    lines = []
    for player, tally in tallies.items():
        opponents: Score = 0
        if with_opponents:
            opponents = sum(
                (totals.get(o, 0) for i in tally.tables for o in results[i].players if o != player),
                start=0,
            )
        lines.append(
            Line(
                player=player,
                place=0,
                points=totals[player],
                whists=tally.whists,
                rounds=tally.rounds,
                best_round=max(tally.by_round.values()) if tally.by_round else None,
                opponents=opponents,
                stats=tally.stats,
                by_round=tally.by_round,
            )
        )
    return lines


def head_to_head(
    group: Sequence[str], tallies: Mapping[str, _Tally], results: Sequence[TableResult]
) -> dict[str, Fraction]:
    """Head-to-head among tied players (docs/tournaments.md §4.8).

    Each time two players of the group sat at one table, the one with more whists there
    scores 1 against the other, and equal whists score ½ each; a player's figure is the
    sum over the others of the group.
    """
    members = set(group)
    scores: dict[str, Fraction] = {}
    for player in group:
        score = Fraction(0)
        for index in tallies[player].tables:
            result = results[index]
            mine = result.whists[result.players.index(player)]
            for other, theirs in zip(result.players, result.whists, strict=True):
                if other != player and other in members:
                    score += 1 if mine > theirs else Fraction(1, 2) if mine == theirs else 0
        scores[player] = score
    return scores


def _with_head_to_head(
    lines: list[Line], rules: Rules, tallies: Mapping[str, _Tally], results: Sequence[TableResult]
) -> list[Line]:
    """Fill in head-to-head for the groups the criteria before it leave tied."""
    if "head_to_head" not in rules.tie_breaks:
        return lines
    before = rules.tie_breaks[: rules.tie_breaks.index("head_to_head")]
    groups: dict[tuple[Score, ...], list[str]] = {}
    for line in lines:
        groups.setdefault(_criteria(line, before), []).append(line.player)
    figures: dict[str, Fraction] = {}
    for group in groups.values():
        if len(group) > 1:
            figures.update(head_to_head(group, tallies, results))
    return [replace(line, head_to_head=figures.get(line.player)) for line in lines]


def _ordered(lines: list[Line], rules: Rules, first_place: int = 1) -> list[Line]:
    """Sort by points and the tie-breaks, then the lot; shared places where all tie.

    Players out of the tournament (dropped, disqualified) come after the others.
    """
    keyed = [(line.out, _criteria(line, rules.tie_breaks), line) for line in lines]
    keyed.sort(
        key=lambda item: (item[0], tuple(-v for v in item[1]), _lot(rules.seed, item[2].player))
    )
    placed: list[Line] = []
    previous: tuple[bool, tuple[Score, ...]] | None = None
    for index, (out, criteria, line) in enumerate(keyed):
        place = first_place + index
        if placed and previous == (out, criteria):
            place = placed[-1].place
        placed.append(replace(line, place=place))
        previous = (out, criteria)
    return placed


def _mark_out(lines: list[Line], out: frozenset[str]) -> list[Line]:
    return [replace(line, out=True) if line.player in out else line for line in lines]


def standings(
    results: Iterable[TableResult],
    players: Iterable[str] = (),
    rules: Rules | None = None,
    out: Iterable[str] = (),
) -> tuple[Line, ...]:
    """The standings of a stage (Кодекс 4.1.3; docs/tournaments.md §4.7–4.8).

    ``players``: everyone entered, so that a player without a result yet has a line.
    Points (normalised whists) first; then each tie-break of ``rules`` in order; then
    the seeded lot, so the order is total and reproducible. ``out``: players who
    dropped or were disqualified, ranked after all the others (docs/tournaments.md §7.4).
    """
    rules = rules or Rules()
    results = list(results)
    tallies = _tally(results, players, rules.normalisation)
    lines = _mark_out(_lines(tallies, {}, results, rules), frozenset(out))
    return tuple(_ordered(_with_head_to_head(lines, rules, tallies, results), rules))


def _carry(points: Score, factor: Fraction) -> Score:
    if factor == 1:
        return points
    return 0 if factor == 0 else points * factor


def stage_standings(
    stages: Sequence[tuple[Iterable[TableResult], Sequence[str]]],
    carry: str = "kept",
    rules: Rules | None = None,
    players: Iterable[str] = (),
    out: Iterable[str] = (),
) -> tuple[Line, ...]:
    """Standings through the stages: qualifying, then each cut (docs/tournaments.md §4.10).

    ``stages[0]`` is the qualifying (its entrants are ignored: everyone in ``players``
    and at its tables ranks); each later stage gives its tables and the players who
    advanced to it. An advancing player's points are his points in that stage plus
    those he had before it ``kept``, ``halved`` or ``cleared``. The rest of his line is
    his whole tournament (docs/tournaments.md §6.3): whists in total, the rounds played
    and each round's score, the Кодекс 4.1.3 counts and the best round, and so are the
    tie-breaks they give (§4.8: total whists); head-to-head and the opponents' score
    look at the stage's tables. Those who reached the last stage come first, then those
    who stopped at each earlier stage in their order there; places run on without gaps.
    """
    rules = rules or Rules()
    if carry not in CARRY:
        raise RankingError("ranking.unknown_carry", value=carry)
    factor, gone = CARRY[carry], frozenset(out)
    first_results = list(stages[0][0]) if stages else []
    ranked = list(standings(first_results, players, rules, gone))
    qualifying = {line.player: line.points for line in ranked}
    ranked = (
        [replace(line, qualifying=line.points) for line in ranked] if len(stages) > 1 else ranked
    )
    for results_iter, entrants in stages[1:]:
        results = list(results_iter)
        before = {line.player: line for line in ranked}
        carried = {p: _carry(before[p].points if p in before else 0, factor) for p in entrants}
        tallies = _tally(results, entrants, rules.normalisation)
        lines = [
            _whole(line, before.get(line.player))
            for line in _mark_out(_lines(tallies, carried, results, rules), gone)
        ]
        lines = [
            replace(
                line,
                finalist=True,
                qualifying=qualifying.get(line.player, 0),
                carried=carried[line.player],
                stage_points=tallies[line.player].points,
            )
            for line in _with_head_to_head(lines, rules, tallies, results)
        ]
        top = _ordered(lines, rules)
        chosen = set(entrants)
        rest = [replace(line, finalist=False) for line in ranked if line.player not in chosen]
        ranked = top + _renumbered(rest, len(top) + 1)
    return tuple(ranked)


def _whole(line: Line, earlier: Line | None) -> Line:
    """A stage's line with what the player did before it added (§6.3): whists, rounds,
    each round's score, the Кодекс 4.1.3 counts, the best round. Points stay the stage's
    with the carry."""
    if earlier is None:
        return line
    by_round = {**earlier.by_round, **line.by_round}
    return replace(
        line,
        whists=earlier.whists + line.whists,
        rounds=earlier.rounds + line.rounds,
        by_round=by_round,
        stats=earlier.stats + line.stats,
        best_round=max(by_round.values()) if by_round else None,
    )


def _renumbered(lines: Sequence[Line], first_place: int) -> list[Line]:
    """Places from ``first_place`` on in the given order; shared where they were shared."""
    placed: list[Line] = []
    for index, line in enumerate(lines):
        place = first_place + index
        if placed and lines[index - 1].place == line.place:
            place = placed[-1].place
        placed.append(replace(line, place=place))
    return placed


def final_standings(
    qualifying: Iterable[TableResult],
    final: Iterable[TableResult],
    finalists: Sequence[str],
    carry: str = "kept",
    rules: Rules | None = None,
    players: Iterable[str] = (),
    out: Iterable[str] = (),
) -> tuple[Line, ...]:
    """Standings after one cut (docs/tournaments.md §4.10): finalists first, then the rest.

    :func:`stage_standings` with two stages: the qualifying and the final.
    """
    return stage_standings([(qualifying, ()), (final, finalists)], carry, rules, players, out)


def cut(lines: Sequence[Line], size: int) -> tuple[str, ...]:
    """The players who advance: the top ``size`` of the standings (docs/tournaments.md §4.10).

    The standings are totally ordered (the lot breaks the last ties), so the cut never
    needs a judgement call; players out of the tournament never advance; ``size``
    larger than the field takes everyone still in it.
    """
    if size < 1:
        raise RankingError("ranking.empty_cut")
    return tuple(line.player for line in lines if not line.out)[:size]
