"""What happens to a tournament: drawing rounds, the cut, and the standings.

The seating and the ranking are the engine's (``scoring.engine.seating``,
``scoring.engine.ranking``); this module reads the database for them and stores what
they decide. Players are given to the engine by their club player id, as text.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.db.models import Prefetch
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from prefscore.clubs.models import Player
from prefscore.games import io, services
from prefscore.games.models import Correction, Deal, Pulka, PulkaSeat
from scoring.engine import ranking, seating

from .models import Round, Tournament, TournamentEntry


class TournamentError(Exception):
    """The organiser asked for something the tournament cannot do now; says why."""


# --- the tables ------------------------------------------------------------------------


def tournament_pulkas(tournament: Tournament) -> list[Pulka]:
    """Every table of every round with its seats, deals and corrections: four queries."""
    return list(
        tournament.pulkas.order_by("round_number", "pk").prefetch_related(
            Prefetch("seats", queryset=PulkaSeat.objects.select_related("player")),
            Prefetch(
                "deals",
                queryset=Deal.objects.current().order_by("number"),
                to_attr="standing_deals",
            ),
            Prefetch("corrections", queryset=Correction.objects.all(), to_attr="all_corrections"),
        )
    )


def _keys(pulka: Pulka) -> tuple[str, ...]:
    return tuple(str(seat.player_id) for seat in pulka.seats.all())


def history(pulkas: Sequence[Pulka]) -> list[list[tuple[str, ...]]]:
    """Past rounds' tables, oldest first, as the seating engine reads them."""
    by_round: dict[int, list[tuple[str, ...]]] = defaultdict(list)
    for pulka in pulkas:
        by_round[pulka.round_number or 0].append(_keys(pulka))
    return [by_round[number] for number in sorted(by_round)]


def active_players(tournament: Tournament) -> list[Player]:
    entries = tournament.entries.exclude(state__in=TournamentEntry.OUT).select_related("player")
    return [entry.player for entry in entries]


def draw_next_round(tournament_id: int, user: Any) -> Round:
    """Draw the next qualifying round and start a pulka per table (docs/tournaments.md §4.3).

    The engine avoids repeat meetings as far as possible; seats and the first dealer
    are by lot (Кодекс 3.1.1). Raises :class:`TournamentError` with the reason.
    """
    with transaction.atomic():
        tournament = _locked(tournament_id)
        if tournament.status in (Tournament.Status.FINAL, Tournament.Status.FINISHED):
            raise TournamentError(_("The final has been drawn: no more qualifying rounds."))
        players = {str(player.pk): player for player in active_players(tournament)}
        past = history(list(tournament.pulkas.prefetch_related("seats")))
        try:
            draw = seating.draw_round(list(players), past, tournament.table_size, tournament.seed)
        except seating.SeatingError:
            raise TournamentError(_seating_message(len(players), tournament)) from None
        round_ = Round.objects.create(
            tournament=tournament,
            number=len(past) + 1,
            seed=tournament.seed,
            method=draw.method,
            repeats=draw.repeats,
            repeats_forced=draw.repeats_forced,
        )
        _start_tables(tournament, round_, draw.tables, players, user)
        tournament.status = Tournament.Status.RUNNING
        tournament.save(update_fields=["status"])
    return round_


def draw_final(tournament_id: int, user: Any, size: int) -> Round:
    """Cut the field to the top ``size`` and seat them by standing (docs/tournaments.md §4.10)."""
    with transaction.atomic():
        tournament = _locked(tournament_id)
        if tournament.status in (Tournament.Status.FINAL, Tournament.Status.FINISHED):
            raise TournamentError(_("The final has already been drawn."))
        if tournament.status == Tournament.Status.REGISTRATION:
            raise TournamentError(_("Play at least one round before the cut."))
        active = {str(player.pk): player for player in active_players(tournament)}
        results = _results(tournament_pulkas(tournament))
        lines = ranking.standings(results, active, tournament.rules)
        ranked = [line for line in lines if line.player in active]
        if size > len(ranked):
            raise TournamentError(
                ngettext(
                    "Only %(count)s player is still in the tournament.",
                    "Only %(count)s players are still in the tournament.",
                    len(ranked),
                )
                % {"count": len(ranked)}
            )
        finalists = list(ranking.cut(ranked, size))
        try:
            tables = seating.tables_by_standing(finalists, tournament.table_size, tournament.seed)
        except seating.SeatingError:
            raise TournamentError(_seating_message(size, tournament)) from None
        number = (
            tournament.rounds.order_by("-number").values_list("number", flat=True).first()
        ) or 0
        round_ = Round.objects.create(
            tournament=tournament,
            number=number + 1,
            seed=tournament.seed,
            is_final=True,
            method="standing",
        )
        _start_tables(tournament, round_, tables, active, user)
        tournament.status = Tournament.Status.FINAL
        tournament.save(update_fields=["status"])
    return round_


def _locked(tournament_id: int) -> Tournament:
    # One draw at a time: two organisers pressing "draw" get two rounds, never one twice.
    return Tournament.objects.select_for_update().select_related("club").get(pk=tournament_id)


def _seating_message(count: int, tournament: Tournament) -> str:
    if count < 3:
        return ngettext(
            "A round needs at least 3 players; %(count)s is registered.",
            "A round needs at least 3 players; %(count)s are registered.",
            count,
        ) % {"count": count}
    if tournament.table_size == 3:
        return ngettext(
            "%(count)s player cannot sit at tables of 3: register or drop players so "
            "that the number divides by 3.",
            "%(count)s players cannot sit at tables of 3: register or drop players so "
            "that the number divides by 3.",
            count,
        ) % {"count": count}
    return ngettext(
        "%(count)s player cannot be seated at tables of 3 and 4.",
        "%(count)s players cannot be seated at tables of 3 and 4.",
        count,
    ) % {"count": count}


def _start_tables(
    tournament: Tournament,
    round_: Round,
    tables: Sequence[seating.Table],
    players: dict[str, Player],
    user: Any,
) -> None:
    for number, table in enumerate(tables, start=1):
        title = _("%(name)s · round %(round)s · table %(table)s") % {
            "name": tournament.name,
            "round": round_.number,
            "table": number,
        }
        pulka = io.create_pulka(
            tournament.club,
            convention_name=tournament.convention_name,
            convention=tournament.convention,
            players=[players[key] for key in table.players],
            target=tournament.target,
            stake=None,
            first_dealer=table.first_dealer,
            user=user,
            title=title[: Pulka._meta.get_field("title").max_length],
            source=tournament.convention_source,
        )
        pulka.tournament, pulka.round_number = tournament, round_.number
        pulka.save(update_fields=["tournament", "round_number"])


# --- standings -------------------------------------------------------------------------


def _results(pulkas: Sequence[Pulka]) -> list[ranking.TableResult]:
    """Each table's whole whists and counts, from the prefetched deals and corrections."""
    results = []
    for pulka in pulkas:
        deals: list[Deal] = pulka.standing_deals  # type: ignore[attr-defined]
        corrections: list[Correction] = pulka.all_corrections  # type: ignore[attr-defined]
        scored = services.score(pulka, deals, corrections)
        results.append(ranking.table_result(scored, pulka.round_number or 0, _keys(pulka)))
    return results


@dataclass(frozen=True)
class Standings:
    """Standings lines with the players they name, and what the page needs to say."""

    lines: tuple[ranking.Line, ...]
    players: dict[str, Player]
    rounds: tuple[Round, ...]
    pulkas: tuple[Pulka, ...]
    final: bool
    unfinished: int
    dropped: frozenset[str]


def standings(tournament: Tournament) -> Standings:
    """Live standings from every table's sheet (Кодекс 4.1.3; docs/tournaments.md §4.8, §4.10).

    A constant number of queries however many rounds and tables: entries, rounds,
    pulkas, and the seats, deals and corrections of all pulkas at once.
    """
    entries = list(TournamentEntry.objects.filter(tournament=tournament).select_related("player"))
    rounds = tuple(tournament.rounds.all())
    pulkas = tournament_pulkas(tournament)
    players = {str(entry.player_id): entry.player for entry in entries}
    for pulka in pulkas:
        players.update({str(seat.player_id): seat.player for seat in pulka.seats.all()})
    finals = frozenset(r.number for r in rounds if r.is_final)
    rules = tournament.rules
    if finals:
        final_pulkas = [p for p in pulkas if p.round_number in finals]
        lines = ranking.final_standings(
            _results([p for p in pulkas if p.round_number not in finals]),
            _results(final_pulkas),
            [key for pulka in final_pulkas for key in _keys(pulka)],
            tournament.carry,
            rules,
            players,
        )
    else:
        lines = ranking.standings(_results(pulkas), players, rules)
    unfinished = sum(1 for p in pulkas if p.status == Pulka.Status.RUNNING)
    dropped = frozenset(str(entry.player_id) for entry in entries if entry.dropped)
    return Standings(lines, players, rounds, tuple(pulkas), bool(finals), unfinished, dropped)
