"""Pulkas in and out of the database as pulka files (docs/protocol.md).

**Export** (``games:export``) writes the docs/protocol.md *input* of a pulka, so that the
file can be imported again, followed by the engine's *output* for it:

- input: ``convention`` (every option spelled out: the pulka's snapshot), ``players``,
  ``target``, ``first_dealer`` (a name), ``stake`` (when set), and ``deals``: the facts
  of the standing deals, as the players reported them;
- output, exactly as ``scoring.engine.protocol.score_text`` prints it for that input:
  ``closed``, ``sheet``, ``result``, ``result_whole``, ``money`` (with a stake) and
  ``next``; each deal item carries the engine's per-deal output beside its facts
  (``number``, ``dealer``, ``notation``, ``entries``). The engine ignores those on
  reading, and the dealer it names is the one the rotation gives anyway.

**Import** reads such a file, or any pulka file of docs/protocol.md. When a file has
``deals``, the output fields above are ignored (they are recomputed from the deals), so
an export imports again and gives the same sheet. A file with ``sheet`` instead of
``deals`` is a finished paper pulka: it is settled, never stored (the paper-pulka
calculator).

Corrections travel both ways as docs/protocol.md ``correct`` items in ``deals``: an export
writes each stored correction right after the deal that was the last one when it was
made (``"penalty": false`` when it was made without the 4.2.7 penalty), which is where
``services.engine_pulka_of`` folds it; an import stores each as a correction row.

The engine validates everything (``scoring.engine.protocol.read``); every refusal is
a :class:`FileRefused` whose message a person can act on, and nothing is saved.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from prefscore.clubs.models import Club, Player
from prefscore.clubs.name_rules import first_look_alike, look_alike, shows
from prefscore.clubs.names import isolate, normalise_name
from scoring.conventions import name_of
from scoring.engine import protocol
from scoring.engine.conventions import Convention
from scoring.engine.errors import ScoringError
from scoring.engine.pulka import Pulka as EnginePulka
from scoring.engine.pulka import ScoredPulka, score_pulka
from scoring.messages import message_for

from . import events, services
from .models import AuditEvent, Correction, Deal, Pulka, PulkaSeat

MAX_FILE_BYTES = 1024 * 1024
# What an export adds to the input: recomputed on import, never trusted.
OUTPUT_FIELDS = frozenset(
    {"closed", "sheet", "result", "result_whole", "money", "next", "scored_deals", "corrections"}
)
# The model's limits, narrower than the engine's (Player.name, Pulka.stake).
MAX_PLAYER_NAME = Player._meta.get_field("name").max_length or 60
MAX_STAKE = Decimal("999999.9999")
STAKE_PLACES = Decimal("0.0001")
MAX_TITLE = 120  # Pulka.title


class FileRefused(ValueError):
    """A pulka file that cannot be read or imported; the message says why."""


@dataclass(frozen=True)
class PulkaFile:
    """A read pulka file: the engine's objects and the raw ``deals`` items to store."""

    parsed: EnginePulka | protocol.PaperSheet
    raw_deals: tuple[Mapping[str, Any], ...] = ()
    sha256: str = ""  # of the file's text, for the audit trail of an import
    # What the file says of itself: title, date, club (docs/protocol.md, "Input").
    descriptions: Mapping[str, str] = field(default_factory=dict)

    @property
    def is_paper(self) -> bool:
        return isinstance(self.parsed, protocol.PaperSheet)


# --- reading -----------------------------------------------------------------------


def decode(raw: bytes) -> str:
    """The text of an uploaded file: at most 1 MB of UTF-8 (a BOM is allowed)."""
    if len(raw) > MAX_FILE_BYTES:
        raise FileRefused(too_large_message())
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise FileRefused(_("The file is not UTF-8 text.")) from None


def too_large_message() -> str:
    return _("The file is larger than 1 MB.")


def read_text(text: str) -> PulkaFile:
    """Read a pulka file's text (docs/protocol.md): the engine validates every field."""
    if len(text.encode("utf-8", "surrogatepass")) > MAX_FILE_BYTES:
        raise FileRefused(too_large_message())
    data = _json(text)
    if isinstance(data, dict) and "deals" in data:
        data = {key: value for key, value in data.items() if key not in OUTPUT_FIELDS}
    try:
        parsed = protocol.read(data)
    except ScoringError as error:
        raise engine_refused(error) from None
    except RecursionError:
        raise FileRefused(_("The file is nested too deeply.")) from None
    digest = hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()
    described = protocol.descriptions(data)
    if isinstance(parsed, protocol.PaperSheet):
        return PulkaFile(parsed, sha256=digest, descriptions=described)
    return PulkaFile(parsed, tuple(data.get("deals", [])), digest, described)


def engine_refused(error: ScoringError) -> FileRefused:
    """The engine's error, by its code in the reader's language, in a translated frame."""
    return FileRefused(_("The file was not accepted: %(error)s") % {"error": message_for(error)})


def _json(text: str) -> Any:
    try:
        return protocol.decode(text)
    except ScoringError as error:  # not JSON; NaN, Infinity, integers too long to read
        raise FileRefused(message_for(error)) from None
    except RecursionError:
        raise FileRefused(_("The file is nested too deeply.")) from None


# --- settling without storing --------------------------------------------------------


def settle(file: PulkaFile) -> dict[str, Any]:
    """The engine's output for a file, stored nowhere (the paper-pulka calculator)."""
    if isinstance(file.parsed, protocol.PaperSheet):
        return protocol.paper_json(file.parsed)
    return protocol.scored_json(_score(file.parsed))


def score_file(pulka: EnginePulka) -> ScoredPulka:
    """The engine's fold of a file's deals; a refusal is a :class:`FileRefused`."""
    return _score(pulka)


def _score(pulka: EnginePulka) -> ScoredPulka:
    try:
        return score_pulka(pulka)
    except ScoringError as error:
        raise engine_refused(error) from None


# --- creating pulkas -----------------------------------------------------------------


def create_pulka(
    club: Club,
    *,
    convention_name: str,
    convention: Convention,
    players: Sequence[Player],
    target: int,
    stake: Decimal | None,
    first_dealer: int,
    user: Any,
    title: str = "",
    source: Any = None,
) -> Pulka:
    """A new running pulka with its seats: the convention's options are snapshot now.

    The players' display names at the start are the names the deal log spells
    (``player_names``); club player names are unique, so they are unique here too.
    """
    pulka = new_pulka(
        club,
        convention_name=convention_name,
        options=convention.to_options(),
        names=[player.name for player in players],
        target=target,
        stake=stake,
        first_dealer=first_dealer,
        user=user,
        title=title,
        source=source,
    )
    return store_pulkas([(pulka, [player.pk for player in players])])[0]


def new_pulka(
    club: Club,
    *,
    convention_name: str,
    options: dict[str, Any],
    names: Sequence[str],
    target: int,
    stake: Decimal | None,
    first_dealer: int,
    user: Any,
    title: str = "",
    source: Any = None,
) -> Pulka:
    """An unsaved running pulka (``store_pulkas`` saves it with its seats). ``options``:
    the convention's snapshot (``Convention.to_options``), read once for many tables;
    ``names``: the players' names in seat order."""
    return Pulka(
        club=club,
        title=title,
        convention_name=convention_name,
        convention_options=options,
        player_names=list(names),
        target=target,
        stake=stake,
        first_dealer=first_dealer,
        created_by=user if getattr(user, "is_authenticated", False) else None,
        convention_source=source,
    )


def store_pulkas(tables: Sequence[tuple[Pulka, Sequence[int]]]) -> list[Pulka]:
    """Save unsaved pulkas, each with its players (their keys) seated in order, in one
    transaction.

    A fixed number of queries for any number of tables (the pulkas' inserts grow only
    past the database's batch size): a round of 250 tables is published in one request
    (docs/benchmarks.md, "Publishing a round in bulk").
    """
    pulkas = [pulka for pulka, _players in tables]
    with transaction.atomic():
        Pulka.objects.bulk_create(pulkas)
        _seat([(pulka.pk, players) for pulka, players in tables])
    return pulkas


def _seat(tables: Sequence[tuple[int, Sequence[int]]]) -> None:
    """Every seat of these pulkas in one statement (by the database's batch size)."""
    PulkaSeat.objects.bulk_create(
        PulkaSeat(pulka_id=pulka, seat=seat, player_id=player)
        for pulka, players in tables
        for seat, player in enumerate(players)
    )


def import_file(club: Club, file: PulkaFile, user: Any) -> Pulka:
    """Store a pulka file's deals as a new pulka of ``club``, or refuse it whole.

    Players are the club's players of the same name; the others join as guests.
    """
    parsed = file.parsed
    if not isinstance(parsed, EnginePulka):
        raise FileRefused(
            _("This file gives a finished sheet, not deals: it can be settled, not imported.")
        )
    check_importable(parsed)
    check_look_alikes(parsed.names, club)
    scored = _score(parsed)
    with transaction.atomic():
        pulka = create_pulka(
            club,
            convention_name=name_of(parsed.convention),
            convention=parsed.convention,
            players=_players_by_name(club, parsed.names),
            target=parsed.target,
            stake=parsed.stake,
            first_dealer=parsed.first_dealer,
            user=user,
            title=file.descriptions.get("title", "").strip()[:MAX_TITLE],
        )
        corrections = _store_log(pulka, file.raw_deals, user)
        _audit_import(pulka, file, corrections, user)
        pulka.version = len(file.raw_deals)
        pulka.status = Pulka.Status.FINISHED if scored.state.closed else Pulka.Status.RUNNING
        pulka.save(update_fields=["version", "status"])
        if pulka.status == Pulka.Status.FINISHED:
            events.settled(pulka.pk)
        events.changed(pulka.pk, pulka.tournament_id)
    return pulka


def _audit_import(
    pulka: Pulka, file: PulkaFile, corrections: Sequence[Correction], user: Any
) -> None:
    """The import itself, with the file's hash, then each correction the file brings."""
    deals = pulka.deals.count()
    AuditEvent.objects.bulk_create(import_audit_rows(pulka, file, deals, corrections, user))


def import_audit_rows(
    pulka: Pulka, file: PulkaFile, deals: int, corrections: Sequence[Correction], user: Any
) -> list[AuditEvent]:
    """The unsaved audit lines of an import: the file's hash, then each correction."""
    Action = AuditEvent.Action
    who = user if getattr(user, "is_authenticated", False) else None
    details: dict[str, Any] = {
        "sha256": file.sha256,
        "deals": deals,
        "corrections": len(corrections),
    }
    # Where the file says it comes from (an export writes its club and date).
    details.update({f"file_{key}": value for key, value in file.descriptions.items()})
    rows = [AuditEvent(pulka=pulka, action=Action.IMPORTED, user=who, details=details)]
    for correction in corrections:
        kind = "imported" if correction.penalise else "imported-no-penalty"
        rows.append(
            AuditEvent(
                pulka=pulka,
                action=Action.CORRECTED,
                user=who,
                deal_number=correction.deal_number,
                details={
                    "facts": correction.facts,
                    "kind": kind,
                    "after_deal": correction.after_deal,
                },
            )
        )
    return rows


def earlier_imports(club: Club, file: PulkaFile) -> list[Pulka]:
    """The club's pulkas already imported from this very file (by its hash), newest first.

    Importing the same file twice is usually a slip of the finger: the form asks before
    making the duplicate.
    """
    events = AuditEvent.objects.filter(
        pulka__club=club, action=AuditEvent.Action.IMPORTED, details__sha256=file.sha256
    ).select_related("pulka")
    return [event.pulka for event in events.order_by("-at")[:5]]


def _store_log(pulka: Pulka, items: Sequence[Mapping[str, Any]], user: Any) -> list[Correction]:
    """Deal rows for the deals, correction rows for ``correct`` items, in log order."""
    deals, corrections = log_rows(pulka, items, user)
    Deal.objects.bulk_create(deals)
    # One by one: rows made in the same instant keep their order by primary key.
    for correction in corrections:
        correction.save()
    return corrections


def log_rows(
    pulka: Pulka, items: Sequence[Mapping[str, Any]], user: Any
) -> tuple[list[Deal], list[Correction]]:
    """The unsaved deal and correction rows of a file's ``deals`` items, in log order.

    Saved in that order (a bulk insert keeps it), the corrections' primary keys give
    their order among those made in the same instant (``services.in_log_order``).
    """
    entered_by = user if getattr(user, "is_authenticated", False) else None
    deals: list[Deal] = []
    corrections: list[Correction] = []
    for item in items:
        if "correct" not in item:
            deals.append(
                Deal(pulka=pulka, number=len(deals) + 1, facts=dict(item), entered_by=entered_by)
            )
            continue
        corrections.append(
            Correction(
                pulka=pulka,
                deal_number=item["correct"],
                after_deal=len(deals),
                facts=dict(item["deal"]),
                kind=Correction.Kind.CORRECTION,
                penalise=item.get("penalty", True),
                reason=_("imported from a pulka file"),
                asked_by=entered_by,
            )
        )
    return deals, corrections


def check_importable(parsed: EnginePulka) -> None:
    """Refuse what the engine accepts but the database cannot hold, or the new-pulka form
    refuses: a name with invisible characters, two names alike but for case."""
    for name in parsed.names:
        if normalise_name(name) != name or not name:
            raise FileRefused(
                _("A player's name holds invisible characters or extra spaces: %(name)s")
                % {"name": normalise_name(name) or "?"}
            )
        if not shows(name):  # named by its characters' codes: it shows nothing
            raise FileRefused(
                _("A player's name shows no letter or digit: %(codes)s")
                % {"codes": " ".join(f"U+{ord(char):04X}" for char in name)}
            )
        if len(name) > MAX_PLAYER_NAME:
            raise FileRefused(
                _("A player's name is at most %(limit)s characters: %(name)s…")
                % {"limit": MAX_PLAYER_NAME, "name": name[:MAX_PLAYER_NAME]}
            )
    if len({name.casefold() for name in parsed.names}) != len(parsed.names):
        raise FileRefused(_("Two players' names differ only in case: give each his own."))
    check_look_alikes(parsed.names)
    stake = parsed.stake
    if stake is not None and (stake > MAX_STAKE or stake != stake.quantize(STAKE_PLACES)):
        raise FileRefused(_("The stake must be below 1000000 with at most 4 decimals."))


def check_look_alikes(names: Sequence[str], club: Club | None = None) -> None:
    """Refuse two of the file's names that look alike, or one that passes for a player of
    ``club`` it is not (the one rule, clubs/name_rules.py): it would become a second
    player whom nobody could tell from the first."""
    pair = first_look_alike(names)
    if pair is not None:
        raise FileRefused(
            _("%(name)s and %(other)s look the same: write one person's name one way.")
            % {"name": isolate(pair[0]), "other": isolate(pair[1])}
        )
    if club is None:
        return
    players = list(club.players.only("name"))
    for name in names:
        found = look_alike(name, players)
        if found is not None:
            raise FileRefused(
                _(
                    "%(name)s looks the same as %(other)s, a player of this club: write the name as the club has it."
                )
                % {"name": isolate(name), "other": isolate(found.name)}
            )


def _players_by_name(club: Club, names: Sequence[str]) -> list[Player]:
    """The club's players with these names, creating the missing ones as guests."""
    existing = {player.name: player for player in club.players.filter(name__in=names)}
    missing = [Player(club=club, name=name) for name in names if name not in existing]
    for player in missing:
        player.save()
        existing[player.name] = player
    return [existing[name] for name in names]


# --- export --------------------------------------------------------------------------


def export_data(pulka: Pulka) -> dict[str, Any]:
    """The pulka file of a stored pulka with the engine's output (see the module doc)."""
    deals = services.standing_deals(pulka)
    corrections = list(pulka.corrections.all())
    names = list(pulka.player_names)
    data: dict[str, Any] = {
        # Descriptive fields first, for the reader of the file (docs/protocol.md, "Input").
        "title": str(pulka),
        "date": timezone.localtime(pulka.created_at).date().isoformat(),
        "club": pulka.club.name,
        "convention": pulka.convention.to_options(),
        "players": names,
        "target": pulka.target,
        "first_dealer": names[pulka.first_dealer],
    }
    if pulka.stake is not None:
        data["stake"] = json_number(pulka.stake_decimal)
    output = protocol.scored_json(services.score(pulka, deals, corrections))
    output.pop("players")
    data["deals"] = with_output(log_items(deals, corrections), output.pop("deals"))
    data.update(output)
    return data


def with_output(items: list[dict[str, Any]], scored: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Each deal's facts followed by what the engine wrote for it (number, dealer,
    notation, entries); correction items stay as they are."""
    scored_deals = iter(scored)
    return [item if "correct" in item else {**item, **next(scored_deals)} for item in items]


def log_items(deals: Sequence[Deal], corrections: Sequence[Correction]) -> list[dict[str, Any]]:
    """``deals`` of the file: the order in which ``services.engine_pulka_of`` folds them."""
    pending = sorted(corrections, key=lambda c: (c.after_deal, c.created_at, c.pk))
    items: list[dict[str, Any]] = []

    def corrections_up_to(number: int) -> None:
        while pending and pending[0].after_deal <= number:
            correction = pending.pop(0)
            item = {"correct": correction.deal_number, "deal": correction.facts}
            if not correction.penalise:
                item["penalty"] = False
            items.append(item)

    corrections_up_to(0)
    for deal in deals:
        items.append(deal.facts)
        corrections_up_to(deal.number)
    corrections_up_to(len(deals) + 1_000_000)
    return items


def export_text(pulka: Pulka) -> str:
    return protocol.dumps(export_data(pulka))


def json_number(value: Decimal | None) -> int | float | None:
    """A decimal as the file writes numbers: whole as an integer."""
    if value is None:
        return None
    return int(value) if value == value.to_integral_value() else float(value)
