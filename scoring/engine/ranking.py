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
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction

from .contracts import Kind
from .deals import GORA
from .errors import ScoringError
from .pulka import ScoredPulka
from .settlement import whole_result

# Tie-breaks by name; True when more is better (docs/tournaments.md §4.8, Кодекс 4.1.3).
TIE_BREAKS: dict[str, bool] = {
    "whists": True,
    "allpass_won": True,
    "allpass_tricks": False,
    "remizes": False,
    "misere_tricks": False,
    "best_round": True,
    "opponents": True,
}
DEFAULT_TIE_BREAKS = ("whists", "allpass_won", "allpass_tricks", "remizes", "misere_tricks")
NORMALISATIONS = ("raw", "places", "serbian", "gambler", "elephant")
CARRY = {"kept": Fraction(1), "halved": Fraction(1, 2), "cleared": Fraction(0)}

# Piecewise compression of a positive round result: (up to, weight) segments.
# Gambler: «200 = 1, > 200 = 10:1, от 650 = 0»; Elephant: 51–100 ×0.5, above 100 ×0.1.
_SEGMENTS: dict[str, tuple[tuple[int | None, Fraction], ...]] = {
    "gambler": ((200, Fraction(1)), (650, Fraction(1, 10)), (None, Fraction(0))),
    "elephant": ((50, Fraction(1)), (100, Fraction(1, 2)), (None, Fraction(1, 10))),
}
_REMIZ_REASONS = frozenset({"remiz", "whister_shortfall"})


class RankingError(ScoringError):
    """Standings that cannot be computed as asked; the message names the setting."""


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
    """

    player: str
    place: int
    points: Fraction
    whists: int
    rounds: int
    best_round: Fraction | None
    opponents: Fraction
    stats: PlayerStats
    finalist: bool = False
    by_round: Mapping[int, Fraction] = field(default_factory=dict)

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


def round_points(result: TableResult, normalisation: str = "raw") -> tuple[Fraction, ...]:
    """A table's points per player after normalisation (docs/tournaments.md §4.7).

    ``raw``: whists. ``places``: place points within the table, k−1 for the best down
    to 0, shared places split. ``serbian``: 1st 3 (4 if the only positive score), 2nd 2
    if positive else 1, the rest 0; shared places get that place's points.
    ``gambler``/``elephant``: positive whists compressed piecewise; losses count in full
    (our reading of the sources, docs/tournaments.md §1).
    """
    whists = result.whists
    if normalisation == "raw":
        return tuple(Fraction(w) for w in whists)
    if normalisation in _SEGMENTS:
        return tuple(compress(w, normalisation) for w in whists)
    if normalisation == "places":
        return _place_points(whists)
    if normalisation == "serbian":
        return _serbian_points(whists)
    raise RankingError("ranking.unknown_normalisation", value=normalisation)


def compress(whists: int, preset: str) -> Fraction:
    """Piecewise compression of a positive result (docs/tournaments.md §1, Gambler/Elephant)."""
    if whists <= 0:
        return Fraction(whists)
    total, low = Fraction(0), 0
    for high, weight in _SEGMENTS[preset]:
        top = whists if high is None else min(whists, high)
        if top > low:
            total += weight * (top - low)
        if high is None or whists <= high:
            break
        low = high
    return total


def _place_points(whists: Sequence[int]) -> tuple[Fraction, ...]:
    size = len(whists)
    ranked = sorted(whists, reverse=True)
    points = []
    for w in whists:
        first = ranked.index(w)
        shared = ranked.count(w)
        places = range(first, first + shared)
        points.append(Fraction(sum(size - 1 - p for p in places), shared))
    return tuple(points)


def _serbian_points(whists: Sequence[int]) -> tuple[Fraction, ...]:
    ranked = sorted(whists, reverse=True)
    positive = sum(1 for w in whists if w > 0)

    def place_value(place: int, score: int) -> int:
        if place == 0:
            return 4 if positive == 1 and score > 0 else 3
        if place == 1:
            return 2 if score > 0 else 1
        return 0

    return tuple(Fraction(place_value(ranked.index(w), w)) for w in whists)


# --- standings -----------------------------------------------------------------------


@dataclass
class _Tally:
    points: Fraction = Fraction(0)
    whists: int = 0
    rounds: int = 0
    stats: PlayerStats = field(default_factory=PlayerStats)
    by_round: dict[int, Fraction] = field(default_factory=lambda: defaultdict(Fraction))
    opponents: list[str] = field(default_factory=list)


def _tally(
    results: Iterable[TableResult], players: Iterable[str], normalisation: str
) -> dict[str, _Tally]:
    tallies: dict[str, _Tally] = {player: _Tally() for player in players}
    for result in results:
        points = round_points(result, normalisation)
        stats = result.stats or (PlayerStats(),) * len(result.players)
        for i, player in enumerate(result.players):
            tally = tallies.setdefault(player, _Tally())
            tally.points += points[i]
            tally.whists += result.whists[i]
            tally.rounds += 1
            tally.stats += stats[i]
            tally.by_round[result.round_number] += points[i]
            tally.opponents.extend(p for p in result.players if p != player)
    return tallies


def _lot(seed: int, player: str) -> bytes:
    """A seeded, reproducible lot: the last tie-break (docs/tournaments.md §4.8)."""
    return hashlib.sha256(f"{seed}:{player}".encode()).digest()


def _criteria(line: Line, tie_breaks: Sequence[str]) -> tuple[Fraction | int, ...]:
    """The sort key without the lot: bigger is better in every position."""
    values: list[Fraction | int] = [line.points]
    for name in tie_breaks:
        value: Fraction | int
        if name == "whists":
            value = line.whists
        elif name == "best_round":
            value = line.best_round if line.best_round is not None else Fraction(0)
        elif name == "opponents":
            value = line.opponents
        else:
            value = getattr(line.stats, name)
        values.append(value if TIE_BREAKS[name] else -value)
    return tuple(values)


def _lines(tallies: Mapping[str, _Tally], carried: Mapping[str, Fraction]) -> list[Line]:
    totals = {p: t.points + carried.get(p, Fraction(0)) for p, t in tallies.items()}
    return [
        Line(
            player=player,
            place=0,
            points=totals[player],
            whists=tally.whists,
            rounds=tally.rounds,
            best_round=max(tally.by_round.values()) if tally.by_round else None,
            opponents=sum((totals.get(o, Fraction(0)) for o in tally.opponents), Fraction(0)),
            stats=tally.stats,
            by_round=dict(tally.by_round),
        )
        for player, tally in tallies.items()
    ]


def _ordered(lines: list[Line], rules: Rules, first_place: int = 1) -> list[Line]:
    """Sort by points and the tie-breaks, then the lot; shared places where all tie."""
    lines.sort(
        key=lambda line: (
            tuple(-v for v in _criteria(line, rules.tie_breaks)),
            _lot(rules.seed, line.player),
        )
    )
    placed: list[Line] = []
    for index, line in enumerate(lines):
        place = first_place + index
        if placed and _criteria(placed[-1], rules.tie_breaks) == _criteria(line, rules.tie_breaks):
            place = placed[-1].place
        placed.append(replace(line, place=place))
    return placed


def standings(
    results: Iterable[TableResult], players: Iterable[str] = (), rules: Rules | None = None
) -> tuple[Line, ...]:
    """The standings of a stage (Кодекс 4.1.3; docs/tournaments.md §4.7–4.8).

    ``players``: everyone entered, so that a player without a result yet has a line.
    Points (normalised whists) first; then each tie-break of ``rules`` in order; then
    the seeded lot, so the order is total and reproducible.
    """
    rules = rules or Rules()
    tallies = _tally(results, players, rules.normalisation)
    return tuple(_ordered(_lines(tallies, {}), rules))


def final_standings(
    qualifying: Iterable[TableResult],
    final: Iterable[TableResult],
    finalists: Sequence[str],
    carry: str = "kept",
    rules: Rules | None = None,
    players: Iterable[str] = (),
) -> tuple[Line, ...]:
    """Standings after a cut (docs/tournaments.md §4.10): finalists first, then the rest.

    A finalist's points are his final points plus his qualifying points ``kept``,
    ``halved`` or ``cleared``; the tie-break counts are those of the final. Players who
    did not make the cut follow in their qualifying order.
    """
    rules = rules or Rules()
    if carry not in CARRY:
        raise RankingError("ranking.unknown_carry", value=carry)
    qualifying = list(qualifying)
    before = standings(qualifying, players, rules)
    chosen = set(finalists)
    factor = CARRY[carry]
    carried = {line.player: line.points * factor for line in before if line.player in chosen}
    tallies = _tally(final, finalists, rules.normalisation)
    top = [replace(line, finalist=True) for line in _ordered(_lines(tallies, carried), rules)]
    rest = [line for line in before if line.player not in chosen]
    rest = [replace(line, place=max(line.place, len(top) + 1)) for line in rest]
    return tuple([*top, *rest])


def cut(lines: Sequence[Line], size: int) -> tuple[str, ...]:
    """The players who advance: the top ``size`` of the standings (docs/tournaments.md §4.10).

    The standings are totally ordered (the lot breaks the last ties), so the cut never
    needs a judgement call; ``size`` larger than the field takes everyone.
    """
    if size < 1:
        raise RankingError("ranking.empty_cut")
    return tuple(line.player for line in lines[:size])
