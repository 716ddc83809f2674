"""The season table: gathered from the summary rows, counted by the engine, stored as lines.

Club evenings are the club's finished pulkas (not tournament tables) started between the
season's first and last day, grouped by the date they were started (docs/seasons.md §1).
Each table's exact settled results come from the statistics' ``PulkaSummary`` rows, which
the statistics' recount task keeps in step with every correction; this module's receiver
runs in that task after them (``stats.recounts.club_recounted``) and counts the club's
season tables again (§1, §8).
"""

from __future__ import annotations

from collections import defaultdict
from fractions import Fraction
from typing import Any

from django.db import models, transaction
from django.db.models import QuerySet
from django.utils import timezone

from prefscore.games.models import Pulka
from prefscore.stats import ratings
from prefscore.stats.models import PulkaSummary
from prefscore.tournaments import results
from prefscore.tournaments.models import TournamentEvent
from scoring.engine import rating
from scoring.engine import season as engine

from .models import PendingCount, Season, SeasonLine

# The cards given at an event, ``{player id: (yellow, red)}`` (docs/seasons.md §13).
Cards = dict[int, tuple[int, int]]


def evening_rows(season: Season) -> QuerySet[PulkaSummary]:
    """The summary rows of the season's club evenings: its club's pulkas outside any
    tournament, played within its dates (only those marked, when it counts marked ones)."""
    rows = PulkaSummary.objects.filter(
        club_id=season.club_id,
        pulka__tournament__isnull=True,
        pulka__created_at__date__gte=season.starts_on,
        pulka__created_at__date__lte=season.ends_on,
    )
    if season.evenings == Season.Evenings.MARKED:
        rows = rows.filter(pulka__seasons=season)
    return rows


def season_events(season: Season, fresh: bool = False) -> tuple[engine.Event, ...]:
    """The season's club evenings in the order played, one query (docs/seasons.md §1).

    ``fresh``: under the rating measure, rate the club's pulkas in a pass of its own.
    """
    rows = evening_rows(season)
    rating_measure = season.measure == Season.Measure.RATING
    changes = rating_changes(season.club_id, fresh) if rating_measure else {}
    seats: dict[int, list[tuple[int, int, Fraction, str]]] = defaultdict(list)
    dates: dict[int, str] = {}
    for pulka_id, started, seat, player_id, result, convention in rows.values_list(
        "pulka_id", "pulka__created_at", "seat", "player_id", "result", "convention_name"
    ).order_by("pulka__created_at", "pulka_id", "seat"):
        seats[pulka_id].append((seat, player_id, Fraction(result), convention))
        if pulka_id not in dates:
            dates[pulka_id] = timezone.localdate(started).isoformat()
    evenings: dict[str, list[engine.Table]] = {}
    for pulka_id, table in seats.items():
        moved = changes.get(pulka_id, {})
        evenings.setdefault(dates[pulka_id], []).append(
            engine.Table(
                players=tuple(row[1] for row in table),
                whists=tuple(row[2] for row in table),
                convention=table[0][3],
                rating=tuple(moved.get(row[1], Fraction(0)) for row in table) if moved else (),
            )
        )
    played: list[tuple[str, str, tuple[engine.Table, ...], Cards]] = [
        (key, key, tuple(tables), {}) for key, tables in evenings.items()
    ]
    return tuple(
        engine.Event(key, tables, cards)
        for _, key, tables, cards in sorted(
            played + tournament_events(season), key=lambda event: event[:2]
        )
    )


def rating_changes(club_id: int, fresh: bool = False) -> dict[int, dict[int, Fraction]]:
    """What each club pulka changed of its players' displayed ratings, by pulka and player.

    The club rating is all-time (docs/rating.md): every finished club pulka is rated in
    order, the season's or not, and each is given the change it made (docs/seasons.md §2).
    The pass is the one the statistics just ran to store the club rating on the same
    settled sheet, when it rated the very same pulkas (``stats.ratings.rating_pass``);
    ``fresh`` (``check_season``) rates them again in a pass of its own.
    """
    pulkas = ratings.club_pulkas(club_id)
    passed = rating.rated(pulkas) if fresh else ratings.rating_pass(pulkas)
    out: dict[int, dict[int, Fraction]] = {}
    for pulka, before, after in passed:
        out[pulka.pulka] = {
            int(player): engine.rating_change(before[player].conservative, moved.conservative)
            for player, moved in after.items()
        }
    return out


def tournament_events(season: Season) -> list[tuple[str, str, tuple[engine.Table, ...], Cards]]:
    """The season's finished tournaments and its final, one event each (docs/seasons.md §1).

    Each table of a tournament is a table of its event exactly as the tournament counts
    it (``tournaments.results.counted_tables``, docs/tournaments.md §4.9–§4.11): a table
    of 4 that played on as three is one table, with the arbiter's figures, the fines on
    its sheet and a forfeit's cap. Results are locked once the tournament is finished,
    so only finished ones count. Its cards count with it (§13). Its tables move no club
    rating (docs/rating.md §5): under the rating measure it counts nought.
    """
    chosen = {t.pk: t for t in season.tournaments.all()}
    if season.final is not None:
        chosen[season.final.pk] = season.final
    events = []
    finished = [t for t in chosen.values() if t.finished and t.finished_at is not None]
    cards = tournament_cards([t.pk for t in finished])
    for tournament in finished:
        counted = tuple(
            engine.Table(
                players=tuple(int(key) for key in table.result.players),
                whists=table.result.whists,
                convention=tournament.convention_name,
            )
            for table in results.counted_tables(tournament).tables
        )
        day = timezone.localdate(tournament.finished_at).isoformat()
        events.append((day, f"{day} {tournament.name}", counted, cards.get(tournament.pk, {})))
    return events


def tournament_cards(tournament_ids: list[int]) -> dict[int, Cards]:
    """Each tournament's cards, ``{player: (yellow, red)}``, in one query (§13)."""
    if not tournament_ids:
        return {}
    Action = TournamentEvent.Action
    counts: dict[int, dict[int, list[int]]] = defaultdict(lambda: defaultdict(lambda: [0, 0]))
    for tournament_id, player_id, action in TournamentEvent.objects.filter(
        tournament_id__in=tournament_ids,
        action__in=[Action.YELLOW_CARD, Action.RED_CARD],
        entry__isnull=False,
    ).values_list("tournament_id", "entry__player_id", "action"):
        counts[tournament_id][player_id][0 if action == Action.YELLOW_CARD else 1] += 1
    return {
        tournament: {player: (yellow, red) for player, (yellow, red) in players.items()}
        for tournament, players in counts.items()
    }


def compute(season: Season, fresh: bool = False) -> tuple[engine.Line, ...]:
    """The season table as the engine counts it from the events now (docs/seasons.md §4–§6).

    ``fresh``: shares no rating pass with the statistics (``season_events``).
    """
    return engine.season_table(season_events(season, fresh), season.policy)


def as_rows(season: Season, lines: tuple[engine.Line, ...]) -> list[SeasonLine]:
    """The lines to store: the whole table, or each division's ranked apart (§10)."""
    divisions = list(season.divisions.order_by("order").prefetch_related("players"))
    placed: list[tuple[int | None, engine.Line]] = [(None, line) for line in lines]
    if divisions:
        number_of = {d.order: d.pk for d in divisions}
        division_of = {p.pk: d.order for d in divisions for p in d.players.all()}
        split = engine.divided(lines, division_of, season.policy)
        placed = [(number_of[n], line) for n, rows in split.items() for line in rows]
    return [
        SeasonLine(
            season=season,
            player_id=line.player,
            division_id=division,
            position=position,
            rank=line.rank,
            total=str(line.total),
            needed=line.needed,
            wins=line.wins,
            points=[[key, str(value), key in line.counted] for key, value in line.points],
            cards=[list(row) for row in line.cards],
            excluded=line.excluded,
        )
        for position, (division, line) in enumerate(placed, start=1)
    ]


def as_line(row: SeasonLine) -> engine.Line:
    """A stored line as the engine's, the inverse of one line of ``as_rows``."""
    return engine.Line(
        player=row.player_id,
        rank=row.rank,
        total=Fraction(row.total),
        points=tuple((key, Fraction(value)) for key, value, _counted in row.points),
        counted=frozenset(key for key, _value, counted in row.points if counted),
        wins=row.wins,
        needed=row.needed,
        cards=tuple((key, yellow, red) for key, yellow, red in row.cards),
        excluded=row.excluded,
    )


def stored_divided(season: Season) -> dict[int, tuple[engine.Line, ...]]:
    """The stored table by division (their ``order``), each ranked within it as the count
    stored it (``engine.divided``, §10): one query, no count."""
    split: dict[int, list[engine.Line]] = defaultdict(list)
    rows = season.lines.filter(division__isnull=False).select_related("division")
    for row in rows.order_by("position"):
        assert row.division is not None  # filtered
        split[row.division.order].append(as_line(row))
    return {order: tuple(lines) for order, lines in sorted(split.items())}


def stored_as_compared(season: Season) -> list[tuple[object, ...]]:
    """The stored lines in the shape ``as_rows`` gives, to compare with a recomputation."""
    return compared(list(season.lines.order_by("position")))


def compared(rows: list[SeasonLine]) -> list[tuple[object, ...]]:
    return [
        (
            row.player_id,
            row.division_id,
            row.position,
            row.rank,
            row.total,
            row.needed,
            row.wins,
            row.points,
            row.cards,
            row.excluded,
        )
        for row in rows
    ]


def refresh(season: Season) -> None:
    """Count the table again and store it; the first event freezes the policy (§8). The
    counts asked of the worker before it began (``counts.py``) are done with it, whoever
    called it (a settle's recount too, after a count that failed)."""
    asked = list(PendingCount.objects.filter(season=season).values_list("pk", flat=True))
    lines = compute(season)
    with transaction.atomic():
        SeasonLine.objects.filter(season=season).delete()
        SeasonLine.objects.bulk_create(as_rows(season, lines))
        if asked:
            PendingCount.objects.filter(pk__in=asked).delete()
        if lines and season.policy_frozen_at is None:
            season.policy_frozen_at = timezone.now()
            Season.objects.filter(pk=season.pk).update(policy_frozen_at=season.policy_frozen_at)


def freeze_if_played(season: Season) -> None:
    """Freeze the policy now if the season has an event (§8), as its count will: a change
    saved before the worker counts it is then written down as it was when the request
    counted the table itself (docs/tasks.md §4). Two queries at most; nothing counted."""
    if season.policy_frozen_at is not None:
        return
    rows = evening_rows(season)
    chosen = list(season.tournaments.all()) + ([season.final] if season.final else [])
    if rows.exists() or any(t.finished and t.finished_at is not None for t in chosen):
        season.policy_frozen_at = timezone.now()
        Season.objects.filter(pk=season.pk).update(policy_frozen_at=season.policy_frozen_at)


def refresh_club(club_id: int) -> None:
    for season in Season.objects.filter(club_id=club_id):
        refresh(season)


def on_sheet_settled(sender: Any, pulka_id: int, **kwargs: Any) -> None:
    """Count again the seasons whose period holds the pulka: the others cannot change."""
    for season in _holding(pulka_id):
        refresh(season)


def _holding(pulka_id: int) -> list[Season]:
    """The seasons whose period holds the pulka, or that count its tournament."""
    found = Pulka.objects.filter(pk=pulka_id).values_list("club_id", "created_at").first()
    if found is None:
        return []
    club_id, started = found
    day = timezone.localdate(started)
    tournament = Pulka.objects.filter(pk=pulka_id).values_list("tournament_id", flat=True)
    in_period = models.Q(club_id=club_id, starts_on__lte=day, ends_on__gte=day)
    of_tournament = models.Q(tournaments__in=tournament) | models.Q(final__in=tournament)
    return list(Season.objects.filter(in_period | of_tournament).distinct())


def on_club_recounted(
    sender: Any, club_id: int, pulka_ids: list[int | None], **kwargs: Any
) -> None:
    """The statistics' recount task has counted the club's settled sheets again
    (``stats.recounts``): each season holding one of them is counted again, once; every
    season of the club when a player was merged (None), or a pulka is gone."""
    if None in pulka_ids:
        refresh_club(club_id)
        return
    seasons: dict[int, Season] = {}
    for pulka_id in pulka_ids:
        if pulka_id is None or not Pulka.objects.filter(pk=pulka_id).exists():
            refresh_club(club_id)
            return
        seasons.update((season.pk, season) for season in _holding(pulka_id))
    for season in seasons.values():
        refresh(season)


def on_tournament_saved(sender: Any, instance: Any, **kwargs: Any) -> None:
    """A tournament of a season finished (or changed): its seasons are counted again."""
    for season in Season.objects.filter(
        models.Q(tournaments=instance) | models.Q(final=instance)
    ).distinct():
        refresh(season)


def on_sheets_settled(sender: Any, pulka_ids: list[int], **kwargs: Any) -> None:
    clubs = set(Pulka.objects.filter(pk__in=pulka_ids).values_list("club_id", flat=True))
    for club_id in sorted(clubs):
        refresh_club(club_id)
