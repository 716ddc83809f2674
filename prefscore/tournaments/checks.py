"""Re-validating a whole tournament (docs/tournaments.md §4.13–4.14, §7.12).

What ``manage.py check_tournament`` runs. The tables: every player seated at most once
per round and only if entered, table sizes by the regulations, every drawn table still
in its round, the stages in order, every table's seats and closing well formed, no
table played on after it was closed, every table's result adding up to zero. The
results, against a recount by code of its own (``recount.py``): every stored table
result against its sheet's deals, the standings against each player's points counted
again, and each round's reported repeats. The decisions (``audit.py``): every state a
director's decision leaves has its record, and every record its state.

Each violation is one line in the reader's language, naming tables by round and number
and players by name; an empty list means the tournament is sound. A malformed table is
named and left out of the checks that would have to read it: nothing here raises on bad
data.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Callable, Mapping, Sequence

from django.db.models import Prefetch
from django.utils.translation import gettext as _

from prefscore.games.models import Pulka, PulkaSeat
from scoring.engine import seating
from scoring.engine.normalise import Score

from . import audit, recount, results
from .exports import Conventions
from .models import Round, TableResult, Tournament, TournamentEntry, TournamentEvent
from .recount import Sheet
from .services import _keys, closure_of, history, standings, tournament_pulkas

STAGE_RANK: dict[str, int] = {
    Round.Stage.QUALIFYING: 0,
    Round.Stage.SEMIFINAL: 1,
    Round.Stage.FINAL: 2,
}


def check(tournament: Tournament) -> list[str]:
    """Every violation found in ``tournament``, one line each (empty: sound)."""
    all_rounds = list(tournament.rounds.all())
    rounds = [r for r in all_rounds if r.status == Round.Status.PUBLISHED]
    live = tournament_pulkas(tournament)
    archived = _archived(tournament)
    entries = list(tournament.entries.select_related("player"))
    names = _names(entries, [*live, *archived])
    label = _labeller(all_rounds, live, names)
    conventions = Conventions()
    sheets = {pulka.pk: recount.fold(pulka, conventions) for pulka in live}
    sheets.update({pulka.pk: Sheet(pulka, _keys(pulka), over=True) for pulka in archived})
    problems = []
    # Before the standings are read: reading them writes stale rows back.
    problems += _stored_results(tournament, sheets, label)
    problems += _seating(tournament, live, rounds, label, names)
    problems += _drawn_tables(live, rounds)
    problems += _stages(rounds)
    sound = {}
    for pulka in live:
        malformed = _malformed(pulka, sheets[pulka.pk], label)
        if malformed:
            problems.append(malformed)
        else:
            sound[pulka.pk] = sheets[pulka.pk]
    problems += _played_on(tournament, live, label)
    problems += _zero_sums(sound, label)
    if len(sound) == len(live):  # the standings read every table
        forfeits = {
            (str(e.player_id), e.forfeited_round) for e in entries if e.forfeited_round is not None
        }
        expected = recount.points(tournament, sound, rounds, forfeits)
        problems += _standings(tournament, expected, entries, names)
    problems += _repeats(live, rounds)
    context = audit.Context(
        tournament,
        sheets,
        label,
        lambda key: names.get(key, key),
        all_rounds,
        entries,
        _events(tournament),
    )
    problems += audit.unexplained(context)
    return problems


def _archived(tournament: Tournament) -> list[Pulka]:
    """The sheets a drop re-seated: their seats and closing, not their deals."""
    seats = Prefetch("seats", queryset=PulkaSeat.objects.order_by("seat"))
    pulkas = tournament.pulkas.filter(status=Pulka.Status.ARCHIVED).select_related("closure")
    found = list(pulkas.order_by("round_number", "pk").prefetch_related(seats))
    for pulka in found:
        pulka.standing_deals = []  # type: ignore[attr-defined]
    return found


def _events(tournament: Tournament) -> list[TournamentEvent]:
    return list(tournament.events.select_related("user").order_by("at", "pk"))


def _names(entries: Sequence[TournamentEntry], pulkas: Sequence[Pulka]) -> dict[str, str]:
    """Each player's name by his key: the entries', then a seat's (a stranger's)."""
    names = {str(entry.player_id): entry.player.name for entry in entries}
    for pulka in pulkas:
        for seat, name in zip(pulka.seats.all(), pulka.player_names or (), strict=False):
            names.setdefault(str(seat.player_id), str(name))
    return names


def _labeller(
    rounds: Sequence[Round], live: Sequence[Pulka], names: dict[str, str]
) -> Callable[[Pulka], str]:
    """How a table is named: by round and number as every screen numbers it; a sheet
    of three played on after a drop, and an archived sheet, say which they are."""
    by_number = {r.number: r for r in rounds}
    by_round: dict[int, list[Pulka]] = defaultdict(list)
    for pulka in live:
        by_round[pulka.round_number or 0].append(pulka)
    numbers: dict[int, int] = {}
    for number, pulkas in by_round.items():
        numbers.update(results.table_numbers(by_number.get(number), pulkas))
    short = recount.continues(rounds)

    def label(pulka: Pulka) -> str:
        words = {"round": pulka.round_number or 0, "table": numbers.get(pulka.pk, "?")}
        if pulka.status == Pulka.Status.ARCHIVED:
            players = ", ".join(names.get(key, key) for key in _keys(pulka))
            return _("round %(round)s, the archived sheet of %(players)s") % {
                "round": words["round"],
                "players": players,
            }
        if pulka.pk in short:
            return _("round %(round)s, table %(table)s (the sheet of three)") % words
        return _("round %(round)s, table %(table)s") % words

    return label


def _seating(
    tournament: Tournament,
    pulkas: Sequence[Pulka],
    rounds: list[Round],
    label: Callable[[Pulka], str],
    names: dict[str, str],
) -> list[str]:
    entered = {str(key) for key in tournament.entries.values_list("player_id", flat=True)}
    published = {r.number for r in rounds}
    sizes = {3} if tournament.table_size == 3 else {3, 4}
    problems = []
    seated: dict[int, dict[str, list[Pulka]]] = defaultdict(lambda: defaultdict(list))
    # A sheet of three that played on after a drop seats its players again (§4.9).
    continued = recount.continues(rounds)
    by_pk = {pulka.pk: pulka for pulka in pulkas}
    for pulka in pulkas:
        number = pulka.round_number or 0
        keys = _keys(pulka)
        if len(keys) not in sizes:
            problems.append(
                _("%(table)s: %(count)s players") % {"table": label(pulka), "count": len(keys)}
            )
        if pulka.pk in continued:
            first = by_pk.get(continued[pulka.pk])
            if first is None or not set(keys) < set(_keys(first)):
                problems.append(
                    _("%(table)s continues no table of its players") % {"table": label(pulka)}
                )
            continue
        if number not in published:
            problems.append(
                _("%(table)s is in round %(round)s, which is not published")
                % {"table": label(pulka), "round": number}
            )
        for key in keys:
            seated[number][key].append(pulka)
            if key not in entered:
                problems.append(
                    _("round %(round)s: %(player)s is seated but not entered")
                    % {"round": number, "player": names.get(key, key)}
                )
    for number, players in sorted(seated.items()):
        for key, tables in sorted(players.items()):
            if len(tables) > 1:
                problems.append(
                    _("round %(round)s: %(player)s sits at %(tables)s")
                    % {
                        "round": number,
                        "player": names.get(key, key),
                        "tables": "; ".join(label(t) for t in tables),
                    }
                )
    return problems


def _stored_results(
    tournament: Tournament, sheets: dict[int, Sheet], label: Callable[[Pulka], str]
) -> list[str]:
    """Each table's stored result (``results``) against the sheet's own fold."""
    stored = {row.pulka_id: row for row in TableResult.objects.filter(tournament=tournament)}
    address = f"{tournament.club.slug}/{tournament.slug}"
    problems = []
    for pk, one in sheets.items():
        if one.pulka.status == Pulka.Status.ARCHIVED or one.error:
            continue
        row = stored.get(pk)
        fresh = (list(one.whists), [list(s) for s in one.stats], one.deals)
        if row is None and one.deals:
            how = _("no stored result")
        elif row is not None and (row.whists, row.stats, row.deals) != fresh:
            how = _("the stored result differs from the sheet")
        else:
            continue
        problems.append(
            _("%(table)s: %(how)s (manage.py rebuild_results %(address)s)")
            % {"table": label(one.pulka), "how": how, "address": address}
        )
    return problems


def _drawn_tables(pulkas: Sequence[Pulka], rounds: list[Round]) -> list[str]:
    """Each published round has a table in play for each table its draw made: a table
    re-seated after a drop is replaced, never lost (docs/tournaments.md §4.9)."""
    live: dict[int, set[int]] = defaultdict(set)
    for pulka in pulkas:
        live[pulka.round_number or 0].add(pulka.pk)
    problems = []
    for round_ in rounds:
        drawn = [t for t in round_.tables if isinstance(t, dict)]
        if not drawn:  # an imported round keeps no draw
            continue
        named = [t["pulka"] for t in drawn if isinstance(t.get("pulka"), int)]
        for number, table in enumerate(drawn, start=1):
            key = table.get("pulka")
            if isinstance(key, int) and key not in live[round_.number]:
                problems.append(
                    _("round %(round)s: table %(table)s of the draw is not in play")
                    % {"round": round_.number, "table": number}
                )
        count = len(live[round_.number]) - sum(1 for t in drawn if t.get("continues"))
        if not named and count != len(drawn):
            problems.append(
                _("round %(round)s: %(drawn)s tables drawn, %(count)s in play")
                % {"round": round_.number, "drawn": len(drawn), "count": count}
            )
    return problems


def _stages(rounds: list[Round]) -> list[str]:
    """Qualifying, then the stages after a cut, in order; each stage after a cut is
    seated by standing from the players of the stage before (§4.10)."""
    problems = []
    field: set[str] | None = None
    previous: str = Round.Stage.QUALIFYING
    for round_ in sorted(rounds, key=lambda r: r.number):
        stage: str = round_.stage
        words = {"round": round_.number, "stage": stage, "previous": previous}
        players = {k for t in round_.tables if isinstance(t, dict) for k in t.get("players", [])}
        if stage not in STAGE_RANK:
            problems.append(_("round %(round)s: unknown stage “%(stage)s”") % words)
            continue
        words["stage"] = str(Round.Stage(stage).label)
        words["previous"] = str(Round.Stage(previous).label)
        if STAGE_RANK[stage] < STAGE_RANK[previous]:
            problems.append(_("round %(round)s: a %(stage)s round after the %(previous)s") % words)
        if round_.is_final and stage == Round.Stage.QUALIFYING:
            problems.append(_("round %(round)s: a qualifying round marked as after a cut") % words)
        if not round_.is_final and stage != Round.Stage.QUALIFYING:
            problems.append(
                _("round %(round)s: a %(stage)s round not marked as after a cut") % words
            )
        if stage != Round.Stage.QUALIFYING and round_.method not in (
            "standing",
            "swapped",
            "moved",
            "seeded",
        ):
            problems.append(_("round %(round)s: a %(stage)s round not seated by standing") % words)
        if stage != previous and stage != Round.Stage.QUALIFYING:
            if field is not None and players and not players < field:
                problems.append(
                    _("round %(round)s: the %(stage)s does not seat a cut of the field before")
                    % words
                )
            field = players or field
        elif stage == Round.Stage.QUALIFYING:
            field = (field or set()) | players
        previous = stage
    return problems


def _malformed(pulka: Pulka, one: Sheet, label: Callable[[Pulka], str]) -> str:
    """Why the table's seats, closing or sheet cannot be read, or nothing: named, never
    raised."""
    names = list(pulka.player_names) if isinstance(pulka.player_names, list) else []
    seats = [seat.seat for seat in pulka.seats.all()]
    if seats != list(range(len(names))):
        return _(
            "%(table)s: its seats %(seats)s do not match the %(count)s players of its sheet"
        ) % {
            "table": label(pulka),
            "seats": seats,
            "count": len(names),
        }
    closure = closure_of(pulka)
    whists = closure.whists if closure is not None else None
    if whists is not None:
        whole = isinstance(whists, list) and all(
            isinstance(w, int) and not isinstance(w, bool) for w in whists
        )
        if not whole:
            return _("%(table)s: the closing's whists %(whists)r are not whole numbers") % {
                "table": label(pulka),
                "whists": whists,
            }
        if len(whists) != len(names):
            return _("%(table)s: the closing has %(count)s whists for %(players)s players") % {
                "table": label(pulka),
                "count": len(whists),
                "players": len(names),
            }
    if one.error:
        return _("%(table)s: its sheet cannot be scored (%(error)s)") % {
            "table": label(pulka),
            "error": one.error,
        }
    return ""


def _played_on(
    tournament: Tournament, pulkas: Sequence[Pulka], label: Callable[[Pulka], str]
) -> list[str]:
    """A closed table records no deal after its closing, and plays no more (§4.9)."""
    problems = []
    for pulka in pulkas:
        closure = closure_of(pulka)
        if closure is not None:
            if pulka.status == Pulka.Status.RUNNING:
                problems.append(
                    _("%(table)s: closed, yet it is still running") % {"table": label(pulka)}
                )
            later = [
                deal.number
                for deal in pulka.standing_deals  # type: ignore[attr-defined]
                if deal.entered_at > closure.closed_at
            ]
            if later:
                problems.append(
                    _("%(table)s: closed, yet deals %(deals)s came after the closing")
                    % {"table": label(pulka), "deals": ", ".join(map(str, later))}
                )
        if tournament.finished and pulka.status == Pulka.Status.RUNNING:
            problems.append(
                _("%(table)s: still running in a finished tournament") % {"table": label(pulka)}
            )
    return problems


def _zero_sums(sheets: dict[int, Sheet], label: Callable[[Pulka], str]) -> list[str]:
    problems = []
    for one in sheets.values():
        figures = recount.arbiter_whists(one.pulka)
        total = sum(figures if figures is not None else one.whists)
        if total != 0:
            problems.append(
                _("%(table)s: the whists add up to %(sum)s")
                % {"table": label(one.pulka), "sum": total}
            )
    return problems


def _standings(
    tournament: Tournament,
    expected: Mapping[str, Score],
    entries: Sequence[TournamentEntry],
    names: dict[str, str],
) -> list[str]:
    """The standings against the recount of each player's points, whom they rank
    (those who sat at a table, a no-show never) and their order."""
    absent = {str(e.player_id) for e in entries if e.state == TournamentEntry.State.ABSENT}
    lines = standings(tournament).lines
    problems = []
    ranked = {line.player for line in lines}
    for key in sorted(set(expected) - ranked - absent, key=lambda k: names.get(k, k)):
        problems.append(
            _("standings: %(player)s sat at a table and is not ranked")
            % {"player": names.get(key, key)}
        )
    for line in lines:
        who = names.get(line.player, line.player)
        if line.player not in expected:
            problems.append(_("standings: %(player)s is ranked without a table") % {"player": who})
        elif line.points != expected[line.player]:
            problems.append(
                _("standings: %(player)s has %(points)s points, the recount %(recount)s")
                % {"player": who, "points": line.points, "recount": expected[line.player]}
            )
    for before, after in zip(lines, lines[1:], strict=False):
        same_group = (before.out, before.finalist) == (after.out, after.finalist)
        if same_group and after.points > before.points:
            problems.append(
                _("standings: %(player)s is placed below %(other)s, with more points")
                % {
                    "player": names.get(after.player, after.player),
                    "other": names.get(before.player, before.player),
                }
            )
        if after.place < before.place:
            problems.append(
                _("standings: place %(after)s follows place %(before)s")
                % {"after": after.place, "before": before.place}
            )
    return problems


def _repeats(pulkas: Sequence[Pulka], rounds: list[Round]) -> list[str]:
    """Each qualifying round's reported repeats against a recount over the rounds before."""
    problems = []
    by_round: dict[int, list[Pulka]] = defaultdict(list)
    for pulka in pulkas:
        by_round[pulka.round_number or 0].append(pulka)
    # The meetings of the rounds before, each round added once as the loop passes it.
    met: Counter[frozenset[str]] = Counter()
    for round_ in sorted(rounds, key=lambda r: r.number):
        if round_.stage == Round.Stage.QUALIFYING:
            drawn = [t for t in round_.tables if isinstance(t, dict) and "players" in t]
            tables = [tuple(t["players"]) for t in drawn] or [
                _keys(p) for p in by_round[round_.number]
            ]
            counted = sum(
                1
                for table in tables
                for i, a in enumerate(table)
                for b in table[i + 1 :]
                if met[frozenset((a, b))]
            )
            if counted != round_.repeats:
                problems.append(
                    _("round %(round)s: %(reported)s repeats reported, %(counted)s counted")
                    % {"round": round_.number, "reported": round_.repeats, "counted": counted}
                )
        met.update(seating.meetings(history(by_round[round_.number])))
    return problems
