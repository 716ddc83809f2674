"""What a tournament reads: its tables, the next draw's field, and the standings.

Drawing, publishing and cutting are ``rounds.py``; closing tables and drops
``tables.py``; player states ``entries.py``.

The seating and the ranking are the engine's (``scoring.engine.seating``,
``scoring.engine.ranking``); this module reads the database for them and stores what
they decide. Players are given to the engine by their club player id, as text.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, replace

from django.db.models import Prefetch, QuerySet

from prefscore.clubs.forms import free_among, slug_from_name
from prefscore.clubs.models import Club, Player
from prefscore.games import services
from prefscore.games.models import Correction, Deal, Pulka, PulkaSeat
from scoring.engine import ranking, seating

from . import results
from .models import Round, TableClosure, Tournament, TournamentEntry
from .results import table_numbers as table_numbers  # where the tables are numbered


class TournamentError(Exception):
    """The organiser asked for something the tournament cannot do now; says why."""


def free_slug(club: Club, name: str) -> str:
    """A slug for links from the name, unique within the club (``-2``, ``-3``…)."""
    base = slug_from_name(name, fallback="tournament")
    return free_among(club.tournaments.all(), base, {"new"})  # "new": the new-tournament form


# --- the tables ------------------------------------------------------------------------


def tournament_pulkas(tournament: Tournament) -> list[Pulka]:
    """Every table that counts with its seats, deals, corrections and closure: four queries.

    The deals and corrections are read in one query each and handed to their pulkas
    (``standing_deals``, ``all_corrections``) without the back-reference a prefetch sets
    on each of 15,000 rows, a third of a large export's time (docs/benchmarks.md).
    """
    pulkas = list(
        live_pulkas(tournament)
        .select_related("closure", "closure__closed_by")
        .order_by("round_number", "pk")
        .prefetch_related(Prefetch("seats", queryset=PulkaSeat.objects.select_related("player")))
    )
    deals: dict[int, list[Deal]] = {pulka.pk: [] for pulka in pulkas}
    corrections: dict[int, list[Correction]] = {pulka.pk: [] for pulka in pulkas}
    tables = live_pulkas(tournament).values("pk")
    standing = Deal.objects.current().filter(pulka__in=tables).order_by("pulka_id", "number")
    for deal in standing.only("pulka_id", "number", "facts", "entered_at"):
        deals[deal.pulka_id].append(deal)
    for correction in Correction.objects.filter(pulka__in=tables).order_by("pk"):
        corrections[correction.pulka_id].append(correction)
    for pulka in pulkas:
        pulka.standing_deals = deals[pulka.pk]  # type: ignore[attr-defined]
        pulka.all_corrections = corrections[pulka.pk]  # type: ignore[attr-defined]
    return pulkas


def stage_pulkas(tournament: Tournament, rounds: Sequence[Round]) -> list[Pulka]:
    """The tables of the stages after a cut with their seats and players: two queries.

    The bracket shows only these (docs/tournaments.md §4.10); the qualifying's 1,250
    tables of a large field are not read (docs/benchmarks.md, "Tournaments at scale").
    """
    numbers = [r.number for r in rounds if r.stage != Round.Stage.QUALIFYING]
    if not numbers:
        return []
    return list(
        live_pulkas(tournament)
        .filter(round_number__in=numbers)
        .order_by("round_number", "pk")
        .prefetch_related(Prefetch("seats", queryset=PulkaSeat.objects.select_related("player")))
    )


def closure_of(pulka: Pulka) -> TableClosure | None:
    """The organiser's closing of this table, if he closed it."""
    try:
        return pulka.closure
    except TableClosure.DoesNotExist:
        return None


def _keys(pulka: Pulka) -> tuple[str, ...]:
    return tuple(str(seat.player_id) for seat in pulka.seats.all())


@dataclass(frozen=True, slots=True)
class Seating:
    """A live table as a draw reads it: its round, its first dealer and its players'
    keys in seat order."""

    round_number: int
    first_dealer: int
    keys: tuple[str, ...]


def seatings(tournament: Tournament) -> list[Seating]:
    """Every live table's seating, in the order of ``live_pulkas``: two queries of plain
    rows however many tables, no model per pulka or seat (a draw of a big field reads
    1,250 tables and 5,000 seats; bench/tournament_results.py times it)."""
    rows = list(live_pulkas(tournament).values_list("pk", "round_number", "first_dealer"))
    seats: dict[int, list[str]] = defaultdict(list)
    seated = PulkaSeat.objects.filter(pulka__tournament=tournament).order_by("pulka_id", "seat")
    for pulka_id, player_id in seated.values_list("pulka_id", "player_id"):
        seats[pulka_id].append(str(player_id))
    return [Seating(number or 0, first, tuple(seats[pk])) for pk, number, first in rows]


def history(pulkas: Sequence[Pulka] | Sequence[Seating]) -> list[list[tuple[str, ...]]]:
    """Past rounds' tables, oldest first, as the seating engine reads them."""
    by_round: dict[int, list[tuple[str, ...]]] = defaultdict(list)
    for table in pulkas:
        keys = table.keys if isinstance(table, Seating) else _keys(table)
        by_round[table.round_number or 0].append(keys)
    return [_met_once(by_round[number]) for number in sorted(by_round)]


def _met_once(tables: list[tuple[str, ...]]) -> list[tuple[str, ...]]:
    """A round's tables without a sheet of three that played on after a drop (§4.9):
    its players met at the table it continues, and meet there once."""
    seated = [frozenset(table) for table in tables]
    # A table that holds all of another holds its first player: only those compare.
    holding: dict[str, list[frozenset[str]]] = defaultdict(list)
    for players in seated:
        for key in players:
            holding[key].append(players)
    return [
        table
        for table, players in zip(tables, seated, strict=True)
        if not any(players < other for other in (holding[table[0]] if table else seated))
    ]


def live_pulkas(tournament: Tournament) -> QuerySet[Pulka]:
    """The tables that count: a table re-seated after a drop leaves its old pulka archived."""
    return tournament.pulkas.exclude(status=Pulka.Status.ARCHIVED)


def numbered(round_: Round | None, pulkas: Sequence[Pulka]) -> list[tuple[int, Pulka]]:
    """The round's live tables with their numbers (:func:`table_numbers`), in number order."""
    live = [p for p in pulkas if p.status != Pulka.Status.ARCHIVED]
    numbers = table_numbers(round_, live)
    return sorted(((numbers[p.pk], p) for p in live), key=lambda pair: pair[0])


def seated_players(tournament: Tournament) -> list[str]:
    """The players the next draw seats, as the engine's keys (docs/tournaments.md §4.2).

    Those checked in or playing; while nobody is checked in yet (a club evening that
    does not use check-in), the registered ones too. Dropped and disqualified never.
    One query of plain rows.
    """
    entries = tournament.entries.exclude(state__in=TournamentEntry.OUT)
    rows = list(entries.values_list("player_id", "state"))
    present = (TournamentEntry.State.CHECKED_IN, TournamentEntry.State.PLAYING)
    if any(state in present for _key, state in rows):
        return [str(key) for key, state in rows if state in present]
    return [str(key) for key, _state in rows]


def seat_round(tournament: Tournament, players: Sequence[str], seed: int) -> seating.Draw:
    """The seam between the tournament and the seating engine (docs/tournaments.md §3).

    Gathers what a draw may use: the past rounds' tables, the standings so far (from
    round 2 a Swiss-like round puts players of similar standing together, §3) and who
    was first dealer at a table of 4 (spread evenly: he sits out the most deals).
    """
    pulkas = seatings(tournament)
    past = history(pulkas)
    order = {player: index for index, player in enumerate(standing_order(tournament))}
    ranked = sorted(players, key=lambda key: order.get(key, len(order)))
    return seating.draw_round(
        ranked,
        past,
        tournament.table_size,
        seed,
        standings=ranked if past else None,
        dealt_first=_first_dealers(pulkas),
        forbidden=forbidden_pairs(tournament),
        clubs=home_clubs(tournament) if not past else None,
    )


def forbidden_pairs(tournament: Tournament) -> list[tuple[str, str]]:
    """The organiser's pairs that never sit together, as the engine's keys (§4.3)."""
    return [(str(a), str(b)) for a, b in tournament.forbidden_pairs or ()]


def home_clubs(tournament: Tournament) -> dict[str, str] | None:
    """Each entered player's home club, for round 1's "clubmates apart" (§4.3); None
    when nobody has one."""
    clubs = dict(tournament.entries.exclude(home_club="").values_list("player_id", "home_club"))
    return {str(key): club.strip().casefold() for key, club in clubs.items()} or None


def _first_dealers(tables: Sequence[Seating]) -> dict[str, int]:
    """How often each player was first dealer at a table of 4 (docs/tournaments.md §4.3)."""
    counts: dict[str, int] = defaultdict(int)
    for table in tables:
        if len(table.keys) == 4:
            counts[table.keys[table.first_dealer % 4]] += 1
    return dict(counts)


# --- standings -------------------------------------------------------------------------


def _results(pulkas: Sequence[Pulka]) -> list[ranking.TableResult]:
    """Each table's whole whists and counts, folded from the prefetched deals and
    corrections: the recount the checks compare the stored results with.

    A table whose final sheet the arbiter entered (Кодекс 4.2.16) counts his figures.
    """
    results = []
    for pulka in pulkas:
        deals: list[Deal] = pulka.standing_deals  # type: ignore[attr-defined]
        corrections: list[Correction] = pulka.all_corrections  # type: ignore[attr-defined]
        scored = services.score(pulka, deals, corrections)
        result = ranking.table_result(scored, pulka.round_number or 0, _keys(pulka))
        closure = closure_of(pulka)
        if closure is not None and closure.whists is not None:
            result = ranking.TableResult(
                result.round_number, result.players, tuple(closure.whists), result.stats
            )
        results.append(result)
    return results


@dataclass(frozen=True)
class Standings:
    """Standings lines with the players they name, and what the page needs to say.

    ``stages``: the stages played, in order (qualifying first); ``cut``: there was at
    least one cut, so the qualifying, carried and stage figures are columns.
    """

    lines: tuple[ranking.Line, ...]
    players: dict[str, Player]
    rounds: tuple[Round, ...]
    tournament: Tournament
    final: bool
    unfinished: int
    dropped: frozenset[str]
    stages: tuple[str, ...] = (Round.Stage.QUALIFYING,)
    disqualified: frozenset[str] = frozenset()

    @property
    def cut(self) -> bool:
        return len(self.stages) > 1


STAGE_ORDER = (Round.Stage.QUALIFYING, Round.Stage.SEMIFINAL, Round.Stage.FINAL)


def standings(tournament: Tournament, before_round: int | None = None) -> Standings:
    """Live standings from every table's sheet (Кодекс 4.1.3; docs/tournaments.md §4.8, §4.10).

    The tables and each player's result on them are ``results.counted_tables``, which a
    season counts too: only published rounds, a table of 4 played on as three once, the
    arbiter's figures, a forfeited round counted at most the regulations'
    ``forfeit_whists`` (§4.9). Only players who sat at a counted table are ranked (§4.2).
    A constant number of queries however many players, tables and deals: entries,
    players, then those of ``counted_tables`` (its stored results, so the standings of
    1,000 players over 5 rounds read no deal). ``before_round``: the standings as the
    rounds before it left them (what a cut was made on).
    """
    players = {
        str(p.pk): p for p in Player.objects.filter(tournament_entries__tournament=tournament)
    }
    counted = results.counted_tables(tournament, before_round)
    _add_seated(players, counted.sheets)
    ranked = _ranked(tournament, counted, list(players))
    unfinished = sum(1 for t in counted.sheets if t.status == Pulka.Status.RUNNING)
    return Standings(
        ranked.lines,
        players,
        counted.rounds,
        tournament,
        Round.Stage.FINAL in ranked.stages,
        unfinished,
        ranked.dropped,
        ranked.stages,
        ranked.disqualified,
    )


def standing_order(tournament: Tournament) -> list[str]:
    """The players' keys in the order of the live :func:`standings`, best first: what a
    Swiss round is seated by (docs/tournaments.md §3, §4.3). The same ranking with the
    players read as keys, not models. A player seated without an entry ranks by his
    tables' results all the same, and the lot orders ties whatever order the keys
    come in (§4.8), so his model is not looked for as the standings' names need it."""
    everyone = Player.objects.filter(tournament_entries__tournament=tournament)
    keys = [str(pk) for pk in everyone.values_list("pk", flat=True)]
    counted = results.counted_tables(tournament)
    return [line.player for line in _ranked(tournament, counted, keys).lines]


@dataclass(frozen=True)
class _Ranking:
    lines: tuple[ranking.Line, ...]
    dropped: frozenset[str]
    stages: tuple[str, ...]
    disqualified: frozenset[str]


def _ranked(tournament: Tournament, counted: results.Counted, players: list[str]) -> _Ranking:
    """The counted tables ranked (§4.8, §4.10); ``players``: those entered (and, for
    the standings' names, those seated without an entry)."""
    entries = list(tournament.entries.values_list("player_id", "state"))
    stage_of = {r.number: r.stage for r in counted.rounds}
    dropped = frozenset(str(key) for key, state in entries if state in TournamentEntry.OUT)
    state = {str(key): state for key, state in entries}
    played = [s for s in STAGE_ORDER if s in stage_of.values() or s == Round.Stage.QUALIFYING]
    stages = []
    for stage in played:
        at = [table.result for table in counted.tables if table.stage == stage]
        stages.append((at, [key for result in at for key in result.players]))
    seated = counted.seated
    ranked_players = [key for key in players if key in seated and state.get(key) != ABSENT]
    lines = ranking.stage_standings(
        stages, tournament.carry, tournament.rules, ranked_players, dropped
    )
    disqualified = frozenset(k for k, v in state.items() if v == DISQUALIFIED)
    return _Ranking(_disqualified_last(lines, disqualified), dropped, tuple(played), disqualified)


def _add_seated(players: dict[str, Player], tables: Sequence[results.Table]) -> None:
    """Players seated at a table without an entry (never in a sound tournament) rank too."""
    missing = {key for table in tables for key in table.keys} - players.keys()
    if missing:
        found = Player.objects.filter(pk__in=[int(key) for key in missing])
        players.update({str(player.pk): player for player in found})


ABSENT = TournamentEntry.State.ABSENT
DISQUALIFIED = TournamentEntry.State.DISQUALIFIED


def _disqualified_last(
    lines: Sequence[ranking.Line], disqualified: frozenset[str]
) -> tuple[ranking.Line, ...]:
    """Who is ranked where (docs/tournaments.md §4.2): a disqualified player keeps no place
    above anyone who finished, finalist or not; a no-show is not ranked at all (above)."""
    if not any(line.player in disqualified for line in lines):
        return tuple(lines)
    kept = [line for line in lines if line.player not in disqualified]
    moved = [replace(line, finalist=False) for line in lines if line.player in disqualified]
    placed: list[ranking.Line] = []
    for group in (kept, moved):
        for index, line in enumerate(group):
            shared = index > 0 and group[index - 1].place == line.place
            place = placed[-1].place if shared else len(placed) + 1
            placed.append(replace(line, place=place))
    return tuple(placed)


current_standings = standings
