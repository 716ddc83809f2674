"""Rounds under the organiser's control: draft, swap, redraw, discard, publish.

A round is drawn as a draft (docs/tournaments.md §4.5, §7.1): its tables are kept on the
round (``Round.tables``) and no pulka exists yet, so nobody can record on a table the
organiser may still change. Publishing starts a pulka per table and locks the round.
The next round, or a cut, can be drawn only when no draft is pending and every table
of the rounds before is over or closed by the organiser (``tables.close_table``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from prefscore.games import io
from prefscore.games.models import Pulka
from prefscore.games.titles import continuing, table_parts, table_title
from scoring.engine import ranking, seating
from scoring.engine.conventions import Convention

from . import journal, seeds, titles
from .models import Round, Tournament, TournamentEntry, TournamentEvent
from .services import (
    TournamentError,
    current_standings,
    history,
    live_pulkas,
    seat_round,
    seated_entries,
    seatings,
)

# The seed of a redraw: the tournament's seed moved by this step per redraw, so each
# redraw is new and still reproducible from the round's stored seed.
REDRAW_STEP = 7919
SEED_LIMIT = 2**31


def _locked(tournament_id: int) -> Tournament:
    # One change at a time: two organisers pressing "draw" get one draft, never two.
    return Tournament.objects.select_for_update().select_related("club").get(pk=tournament_id)


def _draft(tournament: Tournament, number: int) -> Round:
    round_ = tournament.rounds.filter(number=number).first()
    if round_ is None:
        raise TournamentError(_("There is no such round."))
    if round_.status != Round.Status.DRAFT:
        raise TournamentError(_("This round is published: its tables are locked."))
    return round_


def guard(tournament: Tournament) -> None:
    """Refuse a new draw while a draft is pending or a table is still playing
    (docs/tournaments.md §7.2), and any draw once the tournament is finished
    (docs/tournaments.md §4.10)."""
    if tournament.status == Tournament.Status.FINISHED:
        raise TournamentError(_("The tournament is finished: nothing more is drawn."))
    draft = tournament.rounds.filter(status=Round.Status.DRAFT).first()
    if draft is not None:
        raise TournamentError(
            _("Round %(number)s is a draft: publish it or discard it first.")
            % {"number": draft.number}
        )
    playing = live_pulkas(tournament).filter(status=Pulka.Status.RUNNING).count()
    if playing:
        raise TournamentError(
            ngettext(
                "%(count)s table is still playing: wait for it to finish or close it.",
                "%(count)s tables are still playing: wait for them to finish or close them.",
                playing,
            )
            % {"count": playing}
        )


def _next_number(tournament: Tournament) -> int:
    last = tournament.rounds.order_by("-number").values_list("number", flat=True).first()
    return (last or 0) + 1


def _stored(tables: Sequence[seating.Table]) -> list[dict[str, Any]]:
    return [{"players": list(t.players), "first_dealer": t.first_dealer} for t in tables]


def draw_next_round(tournament_id: int, user: Any = None) -> Round:
    """Draw the next qualifying round as a draft (docs/tournaments.md §4.3, §4.5).

    The engine avoids repeat meetings as far as possible; seats and the first dealer
    are by lot (Кодекс 3.1.1). Raises :class:`TournamentError` with the reason.
    """
    with transaction.atomic():
        tournament = _locked(tournament_id)
        if tournament.rounds.exclude(stage=Round.Stage.QUALIFYING).exists():
            raise TournamentError(_("The field has been cut: no more qualifying rounds."))
        guard(tournament)
        round_ = Round(tournament=tournament, number=_next_number(tournament))
        _seat_draft(tournament, round_, tournament.seed)
    return round_


def _seat_draft(tournament: Tournament, round_: Round, seed: int) -> None:
    players = [str(entry.player_id) for entry in seated_entries(tournament)]
    try:
        draw = _seeded_round_one(tournament, round_, players, seed) or seat_round(
            tournament, players, seed
        )
    except seating.SeatingError as error:
        if error.code == "seating.forbidden":
            raise TournamentError(
                _("The players kept apart cannot all sit at different tables: allow a pair.")
            ) from None
        raise TournamentError(seating_message(len(players), tournament)) from None
    round_.seed = seed
    round_.method = draw.method
    round_.repeats = draw.repeats
    round_.repeats_forced = draw.repeats_forced
    round_.tables = _stored(draw.tables)
    round_.save()


def _seeded_round_one(
    tournament: Tournament, round_: Round, players: list[str], seed: int
) -> seating.Draw | None:
    """Round 1 of a final whose players come seeded from above (a season's, §4.10):
    tables filled in order of seed, as after a cut; None when nobody is seeded."""
    if round_.number != 1:
        return None
    given = seeds.outside_seeds(tournament)
    if not given:
        return None
    ordered = seeds.seeded_order(players, given)
    tables = seating.tables_by_standing(ordered, tournament.table_size, seed)
    return seating.Draw(
        tables=tables, repeats=0, max_meetings=1, repeats_forced=False, method=seeds.SEEDED
    )


def redraw(tournament_id: int, number: int) -> Round:
    """Draw a draft round again with the next seed (docs/tournaments.md §4.5)."""
    with transaction.atomic():
        tournament = _locked(tournament_id)
        round_ = _draft(tournament, number)
        if round_.stage != Round.Stage.QUALIFYING:
            raise TournamentError(
                _("Tables after a cut are seated by standing: discard the draft instead.")
            )
        _seat_draft(tournament, round_, (round_.seed + REDRAW_STEP) % SEED_LIMIT)
    return round_


def discard_draft(tournament_id: int, number: int) -> None:
    """Throw a draft away; nothing was played at its tables."""
    with transaction.atomic():
        _draft(_locked(tournament_id), number).delete()


def swap_players(tournament_id: int, number: int, first: int, second: int) -> Round:
    """Swap two players between the tables of a draft (docs/tournaments.md §4.5).

    ``first`` and ``second`` are club player ids seated in the draft; the repeats are
    counted again for the new tables.
    """
    with transaction.atomic():
        tournament = _locked(tournament_id)
        round_ = _draft(tournament, number)
        keys = {str(first): str(second), str(second): str(first)}
        tables = [list(table["players"]) for table in round_.tables]
        seated = {key for table in tables for key in table}
        if first == second or not set(keys) <= seated:
            raise TournamentError(_("Pick two different players seated in this round."))
        for table, stored in zip(tables, round_.tables, strict=True):
            stored["players"] = [keys.get(key, key) for key in table]
        past = history(seatings(tournament))
        round_.repeats = repeats_in(past, [tuple(t["players"]) for t in round_.tables])
        round_.method = "swapped"
        round_.save(update_fields=["tables", "repeats", "method"])
    return round_


def move_player(tournament_id: int, number: int, player: int, table_number: int) -> Round:
    """Move a player to table ``table_number`` of a draft (docs/tournaments.md §4.5).

    He may sit at another table of the draft, or be an entry not seated yet (one who
    came late, or whom the organiser seats though he did not check in). A table holds
    at most the regulations' size; one left short is refused at publishing, by name.
    """
    with transaction.atomic():
        tournament = _locked(tournament_id)
        round_ = _draft(tournament, number)
        key = str(player)
        entry = tournament.entries.filter(player_id=player).first()
        if entry is None or entry.state in TournamentEntry.OUT:
            raise TournamentError(_("Pick a player of the tournament who is still in it."))
        if not 1 <= table_number <= len(round_.tables):
            raise TournamentError(_("There is no such table in this draft."))
        target = round_.tables[table_number - 1]
        if key in target["players"]:
            raise TournamentError(_("This player already sits at that table."))
        if len(target["players"]) >= tournament.table_size:
            raise TournamentError(
                _("Table %(table)s is full: swap the players instead.") % {"table": table_number}
            )
        for table in round_.tables:
            table["players"] = [k for k in table["players"] if k != key]
        target["players"] = [*target["players"], key]
        past = history(seatings(tournament))
        round_.repeats = repeats_in(past, [tuple(t["players"]) for t in round_.tables])
        round_.method = "moved"
        round_.save(update_fields=["tables", "repeats", "method"])
    return round_


def repeats_in(past: Sequence[Sequence[tuple[str, ...]]], tables: list[tuple[str, ...]]) -> int:
    before = seating.meetings(past)
    return sum(
        1
        for table in tables
        for i, a in enumerate(table)
        for b in table[i + 1 :]
        if before[frozenset((a, b))]
    )


def publish_round(tournament_id: int, number: int, user: Any = None) -> Round:
    """Publish a draft: start a pulka per table and lock the round (§4.5).

    Round 1's publication freezes the regulations (docs/tournaments.md §4.1); the
    seated players become ``playing``.
    """
    with transaction.atomic():
        tournament = _locked(tournament_id)
        round_ = _draft(tournament, number)
        # Plain rows, not 1,000 entries and players as objects: the names are all we use.
        fields = ("player_id", "player__name", "state")
        rows = tournament.entries.values_list(*fields)
        players = {str(pk): name for pk, name, _state in rows}
        out = {str(pk) for pk, _name, state in rows if state in TournamentEntry.OUT}
        for index, table in enumerate(round_.tables, start=1):
            names = [players[k] for k in table["players"] if k in players]
            gone = [players[k] for k in table["players"] if k in out]
            if gone:
                raise TournamentError(
                    _(
                        "Table %(table)s of the draft seats a player who is out (%(names)s): "
                        "move a player or redraw it."
                    )
                    % {"table": index, "names": ", ".join(gone)}
                )
            if len(table["players"]) < 3:
                raise TournamentError(
                    ngettext(
                        "Table %(table)s of the draft has only %(count)s player "
                        "(%(names)s): move a player to it or redraw it.",
                        "Table %(table)s of the draft has only %(count)s players "
                        "(%(names)s): move a player to it or redraw it.",
                        len(names),
                    )
                    % {"table": index, "count": len(names), "names": ", ".join(names) or "—"}
                )
        numbered = list(enumerate(round_.tables, start=1))
        started = start_tables(tournament, round_, numbered, players, user)
        for table, pulka in zip(round_.tables, started, strict=True):
            # The table's pulka is named on the draw: its number stays (services.table_numbers).
            table["pulka"] = pulka.pk
        now = timezone.now()
        round_.status, round_.published_at = Round.Status.PUBLISHED, now
        round_.save(update_fields=["status", "published_at", "tables"])
        seated = [key for table in round_.tables for key in table["players"]]
        TournamentEntry.objects.filter(tournament=tournament, player_id__in=seated).update(
            state=TournamentEntry.State.PLAYING
        )
        if tournament.regulations_frozen_at is None:
            tournament.regulations_frozen_at = now
            _withdraw_no_shows(tournament, user)
        if round_.stage == Round.Stage.FINAL:
            tournament.status = Tournament.Status.FINAL
        elif tournament.status == Tournament.Status.REGISTRATION:
            tournament.status = Tournament.Status.RUNNING
        tournament.save(update_fields=["regulations_frozen_at", "status"])
    return round_


def _withdraw_no_shows(tournament: Tournament, user: Any) -> None:
    """Round 1 is out: whoever is still only registered did not come (§4.2).

    The organiser seated those he wanted (they are playing now); the others are absent,
    never ranked nor cut through, each kept as a decision in the tournament's audit.
    """
    absent = list(
        tournament.entries.filter(state=TournamentEntry.State.REGISTERED).select_related("player")
    )
    if not absent:
        return
    TournamentEntry.objects.filter(pk__in=[e.pk for e in absent]).update(
        state=TournamentEntry.State.ABSENT, left_after_round=0
    )
    who = user if getattr(user, "is_authenticated", False) else None
    TournamentEvent.objects.bulk_create(
        TournamentEvent(
            tournament=tournament,
            entry=entry,
            action=TournamentEvent.Action.NO_SHOW,
            details={"player": entry.player.name},
            user=who,
        )
        for entry in absent
    )


def start_table(
    tournament: Tournament,
    round_: Round,
    number: int,
    table: dict[str, Any],
    players: Mapping[str, str],
    user: Any,
    continues: int | None = None,
    convention: Convention | None = None,
) -> Pulka:
    """The pulka of one table of a published round (Кодекс 3.1.1: seats by lot).

    ``continues``: the pulka of the table of 4 whose other three play on at this sheet
    of three (§4.9); the title says it continues that table. ``convention``: the rules
    it plays by, when not the tournament's own (the sheet of three plays the deals the
    round has left). ``players``: each entered player's name by his key."""
    return start_tables(
        tournament, round_, [(number, table)], players, user, continues, convention
    )[0]


def start_tables(
    tournament: Tournament,
    round_: Round,
    tables: Sequence[tuple[int, dict[str, Any]]],
    players: Mapping[str, str],
    user: Any,
    continues: int | None = None,
    convention: Convention | None = None,
) -> list[Pulka]:
    """The pulkas of numbered tables of a round, as ``start_table`` starts one.

    The convention's snapshot and the round's place are read once, and the pulkas and
    their seats are stored together (``io.store_pulkas``): publishing a round asks the
    same queries for 3 tables as for 10, and one more insert only per batch of the
    database (docs/benchmarks.md, "Publishing a round in bulk")."""
    # The title is kept as facts and worded in each page's language (games/titles.py).
    # A qualifying round needs no place in its stage: no query for it.
    qualifying = round_.stage == Round.Stage.QUALIFYING
    place = None if qualifying else titles.stage_place(tournament, round_)
    options = (convention or tournament.convention).to_options()
    longest = Pulka._meta.get_field("title").max_length
    started = []
    for number, table in tables:
        parts = table_parts(tournament.name, round_.number, round_.stage, place, number)
        if continues is not None:
            parts = continuing(parts, continues)
        seated = list(table["players"])
        pulka = io.new_pulka(
            tournament.club,
            convention_name=tournament.convention_name,
            options=options,
            names=[players[key] for key in seated],
            target=tournament.target,
            stake=None,
            first_dealer=table["first_dealer"] % len(seated),
            user=user,
            title=table_title(parts)[:longest],
            source=tournament.convention_source,
        )
        pulka.tournament, pulka.round_number = tournament, round_.number
        pulka.title_parts = parts
        started.append((pulka, [int(key) for key in seated]))
    return io.store_pulkas(started)


def draw_stage(
    tournament_id: int,
    size: int,
    stage: str = Round.Stage.FINAL,
    user: Any = None,
    reason: str = "",
) -> Round:
    """Cut the field to the top ``size`` and seat them by standing (docs/tournaments.md §4.10).

    ``stage``: a semi-final (qualifying → semi-final → final) or the final. The cut is
    made on the standings so far, finalists of the stage before first; players who
    dropped never advance. The new stage is drawn as a draft like any round. The cut is
    a decision: written down with who made it and whom it took (§4.15).
    """
    with transaction.atomic():
        tournament = _locked(tournament_id)
        stages = set(tournament.rounds.values_list("stage", flat=True))
        if Round.Stage.FINAL in stages:
            raise TournamentError(_("The final has already been drawn."))
        if stage == Round.Stage.SEMIFINAL and Round.Stage.SEMIFINAL in stages:
            raise TournamentError(_("The semi-final has already been drawn."))
        if not tournament.rounds.filter(status=Round.Status.PUBLISHED).exists():
            raise TournamentError(_("Play at least one round before the cut."))
        guard(tournament)
        _stage_played(tournament)
        lines = [line for line in current_standings(tournament).lines if not line.out]
        if size > len(lines):
            raise TournamentError(
                ngettext(
                    "Only %(count)s player is still in the tournament.",
                    "Only %(count)s players are still in the tournament.",
                    len(lines),
                )
                % {"count": len(lines)}
            )
        advancing = list(ranking.cut(lines, size))
        try:
            tables = seating.tables_by_standing(advancing, tournament.table_size, tournament.seed)
        except seating.SeatingError:
            raise TournamentError(seating_message(size, tournament)) from None
        round_ = Round.objects.create(
            tournament=tournament,
            number=_next_number(tournament),
            seed=tournament.seed,
            is_final=True,
            stage=stage,
            method="standing",
            tables=_stored(tables),
        )
        journal.record(
            tournament,
            TournamentEvent.Action.CUT,
            user,
            reason,
            round=round_.number,
            stage=stage,
            size=size,
            players=advancing,
        )
    return round_


def _stage_played(tournament: Tournament) -> None:
    """A cut out of a stage after a cut waits for all the stage's rounds (§4.10)."""
    last = tournament.rounds.order_by("-number").first()
    if last is None or last.stage == Round.Stage.QUALIFYING:
        return
    if tournament.rounds.filter(stage=last.stage).count() < tournament.stage_rounds:
        raise TournamentError(
            _("This stage plays %(count)s rounds: draw its next round before the cut.")
            % {"count": tournament.stage_rounds}
        )


def seating_message(count: int, tournament: Tournament) -> str:
    """Why this many players cannot be seated (docs/tournaments.md §4.2, table plans)."""
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
