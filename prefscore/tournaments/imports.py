"""A tournament file (docs/tournaments.md §6.4, version 1) back into the database.

``read_file`` validates the whole file before anything is saved: each field's type and
range, each table's pulka file through the engine (``games.io.read_text``), every player
at a table among the players, nobody at two tables of a round. Every refusal is an
:class:`ImportRefused` naming the place in the file, in the reader's language.
``import_tournament`` then stores it all in one transaction. Each model's reader pairs
with its writer in ``exports``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from prefscore.clubs.models import Club, Player
from prefscore.clubs.name_rules import NO_LETTER, shows
from prefscore.games import io
from prefscore.games.models import Deal, Pulka
from scoring.engine import protocol, ranking
from scoring.engine.conventions import from_options
from scoring.engine.errors import ConventionError, ScoringError
from scoring.engine.pulka import Pulka as EnginePulka
from scoring.engine.pulka import ScoredPulka
from scoring.messages import message_for

from .exports import ENTRY_STATES, FORMAT, OUT_STATES, ROUND_STATUSES, STAGES, VERSION
from .file_extras import Extras, read_extras, read_regulations, store_extras
from .file_fields import ImportRefused as ImportRefused  # re-exported: its callers' name
from .file_fields import as_list as _list
from .file_fields import as_object as _object
from .file_fields import choice as _choice
from .file_fields import flag as _flag
from .file_fields import moment as _moment
from .file_fields import refuse as _refuse
from .file_fields import text as _text
from .file_fields import whole as _int
from .import_store import draw_with_continued, store_tables
from .models import Round, TableClosure, Tournament, TournamentEntry
from .services import free_slug

MAX_FILE_BYTES = 16 * 1024 * 1024
MAX_ROUNDS = 100
MAX_PLAYERS = 2000
MAX_SEED = 2**31 - 1
MAX_TARGET = protocol.MAX_TARGET
MAX_WHISTS = 1_000_000  # as tables.close_table allows
MAX_ROUND_MINUTES = 1440
MAX_STAGE_ROUNDS = 10
ENTRY_ROUNDS = ("joined_round", "left_after_round", "forfeited_round")
NO_ROUNDS = (None, None, None)
CONVENTION_FIELDS = ["convention_name", "convention_source"]
TABLE_FIELDS = ["tournament", "round_number", "status", "title"] + CONVENTION_FIELDS


def _has_field(model: type[Any], name: str) -> bool:
    return any(field.name == name for field in model._meta.get_fields())


# --- reading a file --------------------------------------------------------------------


@dataclass(frozen=True)
class ClosureFile:
    reason: str
    whists: tuple[int, ...] | None
    note: str
    closed_at: datetime | None = None
    closed_by: str = ""  # an account name, matched among the club's members on import


@dataclass(frozen=True)
class TableFile:
    number: int
    status: str
    file: io.PulkaFile
    closure: ClosureFile | None = None
    # The engine's fold of the sheet, made while validating: storing it folds nothing again.
    scored: ScoredPulka | None = None
    # The sheet of three the table above played on with after a drop (§4.9): same number.
    continues: bool = False


@dataclass(frozen=True)
class DrawTable:
    """A draft's table (§4.5): the players by name, clockwise, and the first dealer."""

    players: tuple[str, ...]
    first_dealer: int


@dataclass(frozen=True)
class RoundFile:
    fields: dict[str, Any]
    tables: tuple[TableFile, ...]
    draw: tuple[DrawTable, ...] = ()


@dataclass(frozen=True)
class TournamentFile:
    """A validated tournament file, ready to be stored."""

    fields: dict[str, Any]
    players: tuple[tuple[str, str], ...]  # name, entry state
    rounds: tuple[RoundFile, ...]
    # By name: a late entry's first round, the rounds played before a drop, the round
    # forfeited (§4.2, §4.9).
    entry_rounds: Mapping[str, tuple[int | None, ...]] = field(default_factory=dict)
    # Home clubs, pairs kept apart, cards, fines and disqualifications (file_extras).
    extras: Extras = field(default_factory=Extras)


def _shown(data: Mapping[str, Any], key: str, place: str, longest: int) -> str:
    """A name of the file's own (the tournament's), which must show (clubs/name_rules.py)."""
    value = _text(data, key, place, longest)
    if not shows(value):
        raise _refuse(f"{place} → {key}", str(NO_LETTER))
    return value


def _read_tournament(data: Any) -> dict[str, Any]:
    place = "tournament"
    data = _object(data, place)
    deals = data.get("deals_per_round")
    fields: dict[str, Any] = {
        "name": _shown(data, "name", place, Tournament._meta.get_field("name").max_length or 120),
        "public": _flag(data, "public", place),
        "table_size": _choice(data, "table_size", place, (3, 4)),
        "target": _int(data, "target", place, 1, MAX_TARGET),
        "deals_per_round": None if deals is None else _int(data, "deals_per_round", place, 1, 200),
        "normalisation": _choice(data, "normalisation", place, Tournament.Normalisation.values),
        "carry": _choice(data, "carry", place, Tournament.Carry.values),
        "seed": _int(data, "seed", place, 0, MAX_SEED),
        "status": _choice(data, "status", place, Tournament.Status.values),
        "convention_name": _text(data, "convention_name", place, 200),
        # Files before these settings have neither: no time limit, one round a stage.
        "round_minutes": None
        if data.get("round_minutes") is None
        else _int(data, "round_minutes", place, 1, MAX_ROUND_MINUTES),
        "stage_rounds": _int(
            {"stage_rounds": 1, **data}, "stage_rounds", place, 1, MAX_STAGE_ROUNDS
        ),
        **read_regulations(data, place),
    }
    tie_breaks = _list(data.get("tie_breaks"), f"{place} → tie_breaks", len(ranking.TIE_BREAKS))
    try:
        ranking.Rules(fields["normalisation"], tuple(tie_breaks), 0)
        convention = from_options(_object(data.get("convention"), f"{place} → convention"))
    except (ConventionError, ranking.RankingError) as error:
        raise _refuse(place, message_for(error)) from None
    except TypeError:  # a tie-break that is not a name: a list, an object
        raise _refuse(f"{place} → tie_breaks", _("must be names of tie-breaks.")) from None
    fields["tie_breaks"] = list(tie_breaks)
    fields["convention_options"] = convention.to_options()
    fields["slug"] = data.get("slug") if isinstance(data.get("slug"), str) else ""
    return fields


def _read_players(data: Any) -> tuple[tuple[str, str], ...]:
    """Each player's name and state (a file without states gives ``dropped`` alone)."""
    players = []
    longest = io.MAX_PLAYER_NAME
    for index, item in enumerate(_list(data, "players", MAX_PLAYERS), start=1):
        place = f"players → {index}"
        item = _object(item, place)
        name, dropped = _text(item, "name", place, longest), _flag(item, "dropped", place)
        state = "dropped" if dropped else "registered"
        if "state" in item:
            state = _choice(item, "state", place, ENTRY_STATES)
            if (state in OUT_STATES) != dropped:
                raise _refuse(f"{place} → dropped", _("does not agree with the state."))
        players.append((name, state))
    names = [name for name, _state in players]
    if len(set(names)) != len(names):
        raise _refuse("players", _("a player is listed twice."))
    for index, name in enumerate(names, start=1):
        if not shows(name):  # the one rule of names (clubs/name_rules.py)
            raise _refuse(f"players → {index} → name", str(NO_LETTER))
    try:
        io.check_look_alikes(names)
    except io.FileRefused as error:
        raise _refuse("players", str(error)) from None
    return tuple(players)


def _read_entry_rounds(data: Any) -> dict[str, tuple[int | None, ...]]:
    """Each player's late-entry round, drop round and forfeited round, where the file gives them."""
    found = {}
    for index, item in enumerate(data if isinstance(data, list) else [], start=1):
        rounds = tuple(_optional_round(item, key, f"players → {index}") for key in ENTRY_ROUNDS)
        if any(number is not None for number in rounds):
            found[item["name"].strip()] = rounds
    return found


def _read_table(
    item: Any, place: str, names: set[str]
) -> tuple[str, io.PulkaFile, tuple[str, ...], ScoredPulka]:
    item = _object(item, place)
    status = _choice(item, "status", place, Pulka.Status.values)
    pulka = _object(item.get("pulka"), f"{place} → pulka")
    try:
        file = io.read_text(protocol.dumps(pulka))
    except io.FileRefused as error:
        raise _refuse(f"{place} → pulka", str(error)) from None
    except (TypeError, ValueError, RecursionError):
        raise _refuse(f"{place} → pulka", _("is not a pulka file.")) from None
    if not isinstance(file.parsed, EnginePulka):
        raise _refuse(f"{place} → pulka", _("must give the deals, not a finished sheet."))
    try:
        # The engine scores it now, so that storing it cannot fail later.
        scored = io.score_file(file.parsed)
        io.check_importable(file.parsed)
    except io.FileRefused as error:
        raise _refuse(f"{place} → pulka", str(error)) from None
    seated = tuple(file.parsed.names)
    strangers = [name for name in seated if name not in names]
    if strangers:
        raise _refuse(place, _("%(name)s is not among the players.") % {"name": strangers[0]})
    return status, file, seated, scored


def _read_closure(item: Any, place: str, seats: int) -> ClosureFile | None:
    """The organiser's closing of a table (Кодекс 4.2.16), checked as ``tables`` checks it."""
    if item is None:
        return None
    place = f"{place} → closure"
    item = _object(item, place)
    reason = _choice(item, "reason", place, TableClosure.Reason.values)
    note = _text(item, "note", place, 300, blank=True)
    figures = item.get("whists")
    when = _moment(item, "closed_at", place)
    who = _text(item, "closed_by", place, 150, blank=True) if item.get("closed_by") else ""
    if reason != TableClosure.Reason.ARBITER:
        if figures is not None:
            raise _refuse(f"{place} → whists", _("only the arbiter's final sheet has whists."))
        return ClosureFile(reason, None, note, when, who)
    values = _list(figures, f"{place} → whists", seats)
    whists = tuple(
        _int({"whists": value}, "whists", place, -MAX_WHISTS, MAX_WHISTS) for value in values
    )
    if len(whists) != seats or sum(whists) != 0:
        raise _refuse(f"{place} → whists", _("one whole figure per player, adding up to zero."))
    return ClosureFile(reason, whists, note, when, who)


def _optional_round(data: Mapping[str, Any], key: str, place: str) -> int | None:
    return None if data.get(key) is None else _int(data, key, place, 0, MAX_ROUNDS)


def _read_round(item: Any, place: str, names: set[str]) -> RoundFile:
    item = _object(item, place)
    fields = {
        "number": _int(item, "number", place, 1, MAX_ROUNDS),
        "seed": _int(item, "seed", place, 0, MAX_SEED),
        "is_final": _flag(item, "is_final", place),
        "status": _choice({"status": "published", **item}, "status", place, ROUND_STATUSES),
        "stage": _choice(
            {"stage": "final" if item.get("is_final") is True else "qualifying", **item},
            "stage",
            place,
            STAGES,
        ),
        "method": _text(item, "method", place, 12, blank=True),
        "repeats": _int(item, "repeats", place, 0, 32767),
        "repeats_forced": _flag(item, "repeats_forced", place),
        "starts_at": _moment(item, "starts_at", place),
    }
    tables: list[TableFile] = []
    seated: set[str] = set()
    for index, table in enumerate(_list(item.get("tables"), f"{place} → tables", 1000), start=1):
        here = f"{place} → tables → {index}"
        status, file, at_table, scored = _read_table(table, here, names)
        closure = _read_closure(table.get("closure"), here, len(at_table))
        continues = _flag({"continues": False, **table}, "continues", here)
        if continues:
            _check_continues(tables, at_table, here)
        else:
            twice = seated.intersection(at_table)
            if twice:
                name = sorted(twice)[0]
                raise _refuse(place, _("%(name)s sits at two tables.") % {"name": name})
        seated.update(at_table)
        number = tables[-1].number if continues else len(tables) + 1 - _continuing(tables)
        tables.append(TableFile(number, status, file, closure, scored, continues))
    draw = _read_draw(item.get("draw", []), place, names)
    if fields["status"] == "draft" and tables:
        raise _refuse(f"{place} → tables", _("a draft round has no tables in play yet."))
    if fields["status"] != "draft" and draw:
        raise _refuse(f"{place} → draw", _("only a draft round has a draw."))
    return RoundFile(fields, tuple(tables), draw)


def _continuing(tables: Sequence[TableFile]) -> int:
    return sum(1 for table in tables if table.continues)


def _check_continues(tables: Sequence[TableFile], players: tuple[str, ...], place: str) -> None:
    """A sheet played on short after a drop (§4.9) follows the table of 4 it continues,
    closed, and seats three of its players."""
    before = tables[-1] if tables else None
    if (
        before is None
        or before.continues
        or before.closure is None
        or len(players) != 3
        or not set(players) < set(before.file.parsed.names)  # type: ignore[union-attr]
    ):
        raise _refuse(
            place, _("continues no closed table of 4 above it with three of its players.")
        )


def _read_draw(value: Any, place: str, names: set[str]) -> tuple[DrawTable, ...]:
    """A draft's tables by player name: 3 or 4 players each, nobody twice (§4.5)."""
    place = f"{place} → draw"
    seated: set[str] = set()
    tables = []
    for index, item in enumerate(_list(value, place, 1000), start=1):
        here = f"{place} → {index}"
        item = _object(item, here)
        players = _list(item.get("players"), f"{here} → players", 4)
        if len(players) < 3 or not all(isinstance(name, str) for name in players):
            raise _refuse(f"{here} → players", _("3 or 4 player names."))
        strangers = [name for name in players if name not in names]
        if strangers:
            raise _refuse(here, _("%(name)s is not among the players.") % {"name": strangers[0]})
        twice = [name for name in players if name in seated or players.count(name) > 1]
        if twice:
            raise _refuse(place, _("%(name)s sits at two tables.") % {"name": twice[0]})
        seated.update(players)
        dealer = _int(item, "first_dealer", here, 0, len(players) - 1)
        tables.append(DrawTable(tuple(players), dealer))
    return tuple(tables)


def read_file(text: str, progress: Callable[[int, int], None] | None = None) -> TournamentFile:
    """Validate a tournament file's text (format version 1); nothing is stored.

    ``progress(done, total)`` is told after each round is read (a job's page, ``jobs``)."""
    if len(text.encode("utf-8", "surrogatepass")) > MAX_FILE_BYTES:
        raise ImportRefused(too_large_message())
    try:
        data = protocol.decode(text)
    except ScoringError as error:
        raise ImportRefused(message_for(error)) from None
    except RecursionError:
        raise ImportRefused(_("The file is nested too deeply.")) from None
    data = _object(data, _("the file"))
    if data.get("format") != FORMAT:
        raise ImportRefused(_("This is not a prefscore tournament file."))
    if data.get("version") != VERSION:
        raise ImportRefused(
            _("This file is of a version this prefscore cannot read; it reads version %(v)s.")
            % {"v": VERSION}
        )
    fields = _read_tournament(data.get("tournament"))
    players = _read_players(data.get("players"))
    entry_rounds = _read_entry_rounds(data.get("players"))
    names = {name for name, _state in players}
    items = _list(data.get("rounds"), "rounds", MAX_ROUNDS)
    rounds = []
    for index, item in enumerate(items, start=1):
        rounds.append(_read_round(item, f"rounds → {index}", names))
        if progress is not None:
            progress(index, len(items))
    numbers = [r.fields["number"] for r in rounds]
    if numbers != list(range(1, len(rounds) + 1)):
        raise _refuse("rounds", _("the rounds must be numbered 1, 2, 3… in order."))
    extras = read_extras(data, names)
    return TournamentFile(fields, players, tuple(rounds), entry_rounds, extras)


def already(club: Club, fields: Mapping[str, Any]) -> Tournament | None:
    """The club's tournament a file already is: the same short name or the same name
    (an export imported back into its own club, or the same file twice)."""
    name = str(fields.get("name") or "")
    slug = str(fields.get("slug") or "")
    found = club.tournaments.filter(name__iexact=name)
    if slug:
        found = found | club.tournaments.filter(slug=slug)
    return found.order_by("pk").first()


def too_large_message() -> str:
    return _("The file is larger than 16 MB.")


def decode(raw: bytes) -> str:
    if len(raw) > MAX_FILE_BYTES:
        raise ImportRefused(too_large_message())
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise ImportRefused(_("The file is not UTF-8 text.")) from None


# --- storing it ------------------------------------------------------------------------


def import_tournament(club: Club, file: TournamentFile, user: Any, slug: str = "") -> Tournament:
    """A new tournament of ``club`` from a validated file; all of it or nothing.

    Players are the club's players of the same name; the others join as guests. Each
    table is imported as its pulka file would be (``games.io.import_file``).
    """
    try:  # a player who would pass for one of the club's (clubs/name_rules.py)
        io.check_look_alikes([name for name, _state in file.players], club)
    except io.FileRefused as error:
        raise _refuse("players", str(error)) from None
    fields = dict(file.fields)
    wanted = slug or fields.pop("slug")
    fields.pop("slug", None)
    with transaction.atomic():
        taken = club.tournaments.filter(slug=wanted).exists() or wanted in ("", "new")
        chosen = free_slug(club, fields["name"]) if taken else wanted
        tournament = Tournament.objects.create(
            club=club, slug=chosen, created_by=_user(user), **fields
        )
        players = _club_players(club, [name for name, _state in file.players])
        TournamentEntry.objects.bulk_create(
            TournamentEntry(
                tournament=tournament,
                player=players[name],
                **dict(zip(ENTRY_ROUNDS, file.entry_rounds.get(name, NO_ROUNDS), strict=True)),
                **_entry_state(state),
            )
            for name, state in file.players
        )
        tables: dict[tuple[int, int, int], int] = {}
        for round_file in file.rounds:
            tables.update(_import_round(tournament, round_file, user, players))
        store_extras(tournament, file.extras, players, tables)
    return tournament


def _user(user: Any) -> Any:
    return user if getattr(user, "is_authenticated", False) else None


def _club_players(club: Club, names: Sequence[str]) -> dict[str, Player]:
    existing = {p.name: p for p in club.players.filter(name__in=names)}
    missing = [Player(club=club, name=name) for name in names if name not in existing]
    for player in Player.objects.bulk_create(missing, batch_size=1000):
        existing[player.name] = player
    return existing


def _entry_state(state: str) -> dict[str, Any]:
    if _has_field(TournamentEntry, "state"):
        return {"state": state}
    return {"dropped": state in OUT_STATES}


def _round_fields(fields: dict[str, Any]) -> dict[str, Any]:
    """The round's fields that the model has (states and stages where it keeps them)."""
    kept = {key: value for key, value in fields.items() if _has_field(Round, key)}
    if kept.get("status") == "published" and _has_field(Round, "published_at"):
        kept["published_at"] = timezone.now()
    return kept


def _import_round(
    tournament: Tournament, round_file: RoundFile, user: Any, players: Mapping[str, Player]
) -> dict[tuple[int, int, int], int]:
    """The round and its tables; each stored pulka's id by round, table number and sheet
    (2: the sheet of three a table of 4 played on with, §4.9)."""
    draw = [
        {
            "players": [str(players[name].pk) for name in table.players],
            "first_dealer": table.first_dealer,
        }
        for table in round_file.draw
    ]
    round_ = Round.objects.create(
        tournament=tournament, tables=draw, **_round_fields(round_file.fields)
    )
    stored = store_tables(
        tournament,
        round_,
        [(t.number, t.status, t.file, _scored(t)) for t in round_file.tables],
        players,
        user,
    )
    for table, pulka in zip(round_file.tables, stored, strict=True):
        if table.closure is not None:
            _import_closure(tournament, pulka, table.closure)
    if any(table.continues for table in round_file.tables):
        continued = [table.continues for table in round_file.tables]
        draw_with_continued(round_, continued, stored, players)
    return {
        (round_.number, t.number, 2 if t.continues else 1): p.pk
        for t, p in zip(round_file.tables, stored, strict=True)
    }


def _import_closure(tournament: Tournament, pulka: Pulka, closure: ClosureFile) -> None:
    """The closing as the file has it: when, and who, when he is a member of the club."""
    members = get_user_model().objects.filter(memberships__club=tournament.club)
    closer = members.filter(username=closure.closed_by).first() if closure.closed_by else None
    row = TableClosure.objects.create(
        pulka=pulka,
        reason=closure.reason,
        whists=None if closure.whists is None else list(closure.whists),
        note=closure.note,
        closed_by=closer,
    )
    if closure.closed_at is not None:  # auto_now_add set it to now: the file's moment instead
        TableClosure.objects.filter(pk=row.pk).update(closed_at=closure.closed_at)
        # The file's deals were all played before the closing: recorded here now, they are
        # dated no later than it, or check_tournament would see the table play on.
        Deal.objects.filter(pulka=pulka, entered_at__gt=closure.closed_at).update(
            entered_at=closure.closed_at
        )


def _scored(table: TableFile) -> ScoredPulka:
    if table.scored is not None:
        return table.scored
    return io.score_file(table.file.parsed)  # type: ignore[arg-type]  # deals, never a sheet
