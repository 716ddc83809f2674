"""The room: what the organiser's dashboard, the projector and "my table now" show.

docs/tournaments.md §4.11. Everything here is read from the database in a constant
number of queries however many players and tables there are: the rounds, the tables
of the current round with their seats and deal counts, and (for the projector's
standings) ``services.standings``' own constant set.

The current round is the latest round whose tables have been started (a drawn round
is published when its pulkas exist; a draft round has none yet). Its clock runs from
the moment its first pulka was created; a regulation's round length, when the
tournament has one, gives the time left.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.db.models import Count, Max, Prefetch, Q
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from prefscore.games.models import Pulka, PulkaSeat

from .. import results, services, titles
from ..models import Round, Tournament
from .tournament import standings_table

# How often the projector and the dashboard ask again (htmx polling), in seconds.
PROJECTOR_POLL_SECONDS = 10
DASHBOARD_POLL_SECONDS = 15
MY_TABLE_POLL_SECONDS = 30
# What fits a 1920x1080 screen in the projector's type (see the room CSS block).
# The standings take the whole width: three columns of 15 lines. A long name, set smaller,
# may wrap to a second line, so it counts as two of them in a page.
PROJECTOR_STANDINGS_PER_PAGE = 45
PROJECTOR_TABLES_PER_PAGE = 12
# A table with no deal for this long is flagged on the dashboard: a deal of preferans
# takes three to six minutes, so a quarter of an hour without one means the table is
# stuck (an argument, a player away) and wants the director.
STALLED_MINUTES = 15
# A name longer than this is set smaller on the projector (and still wraps if it must).
PROJECTOR_LONG_NAME = 22


# --- the current round and its tables --------------------------------------------------


@dataclass(frozen=True)
class RoomTable:
    number: int
    pulka_id: int
    names: tuple[str, ...]
    player_ids: tuple[int, ...]
    first_dealer: str
    deals: int
    deals_text: str
    running: bool
    last_deal: datetime | None = None  # when its latest standing deal was entered
    stalled: bool = False  # playing, and no deal for STALLED_MINUTES
    round_number: int = 0


@dataclass(frozen=True)
class Clock:
    """The round's clock: since when it runs, and how long is left if a length is set."""

    started: datetime | None
    elapsed: str
    remaining: str
    overtime: bool
    has_limit: bool
    stopped: bool = False  # the round (or the tournament) is over: the time it took
    waiting: bool = False  # the scheduled start is still ahead


@dataclass(frozen=True)
class RoomRound:
    round: Round | None
    title: str
    tables: tuple[RoomTable, ...]
    playing: tuple[RoomTable, ...]
    clock: Clock
    # Tables of earlier rounds playing again (reopened by a decision): shown, not lost.
    earlier: tuple[RoomTable, ...] = ()


def round_length(tournament: Tournament) -> timedelta | None:
    """The regulations' time for a round (docs/tournaments.md §4.1), if the tournament
    has one: a ``round_minutes`` field where the regulations carry it."""
    minutes = getattr(tournament, "round_minutes", None)
    return timedelta(minutes=minutes) if isinstance(minutes, int) and minutes > 0 else None


def _is_published(round_: Round) -> bool:
    # A draft round (docs/tournaments.md §4.5) is not the room's business yet; a model
    # without round states has published every round it drew.
    return getattr(round_, "status", "published") == "published"


def current_round(tournament: Tournament) -> Round | None:
    """The latest published round: one query."""
    return _current(list(tournament.rounds.order_by("-number")))


def _current(rounds: list[Round]) -> Round | None:
    published = [r for r in rounds if _is_published(r)]
    return published[0] if published else None


def round_title(tournament: Tournament, round_: Round | None, rounds: list[Round]) -> str:
    """The round's title (titles.py: "Final, round 2" in a stage of several rounds)."""
    if round_ is None:
        return _("No round has been drawn yet.")
    stages = ((r.number, r.stage) for r in rounds)
    return titles.titles_of(stages, tournament.stage_rounds)[round_.number]


def _pulkas_of(tournament: Tournament, number: int | None, *, earlier: bool = False) -> list[Pulka]:
    """The round's live tables with their seats, standing deals counted, the time of the
    last one and the closing: two queries. ``earlier``: the tables of the rounds before
    ``number`` still playing (a reopened table).

    A table a drop re-seated leaves its old pulka archived: no screen shows it.
    """
    standing = Q(deals__withdrawn_at__isnull=True)
    pulkas = services.live_pulkas(tournament)
    if earlier:
        pulkas = pulkas.filter(round_number__lt=number, status=Pulka.Status.RUNNING)
    else:
        pulkas = pulkas.filter(round_number=number)
    return list(
        pulkas.order_by("round_number", "pk")
        .select_related("closure")
        .annotate(
            deal_count=Count("deals", filter=results.PLAYED_DEALS),
            last_deal_at=Max("deals__entered_at", filter=standing),
        )
        .prefetch_related(Prefetch("seats", queryset=PulkaSeat.objects.select_related("player")))
    )


def _deals_text(tournament: Tournament, deals: int, pulka: Pulka | None = None) -> str:
    """The deals played, of the table's limit: the round's, or for a sheet of three that
    played on after a drop the deals the round had left (§4.9)."""
    own = (pulka.convention_options or {}).get("deal_limit") if pulka is not None else None
    limit = (
        own if isinstance(own, int) and tournament.deals_per_round else tournament.deals_per_round
    )
    if limit:
        return _("%(played)s of %(limit)s deals") % {"played": deals, "limit": limit}
    return ngettext("%(count)s deal", "%(count)s deals", deals) % {"count": deals}


def room_table(
    tournament: Tournament, number: int, pulka: Pulka, now: datetime | None = None
) -> RoomTable:
    seats = list(pulka.seats.all())
    names = tuple(seat.player.name for seat in seats)
    deals: int = pulka.deal_count  # type: ignore[attr-defined]
    last: datetime | None = getattr(pulka, "last_deal_at", None)
    running = pulka.status == Pulka.Status.RUNNING
    quiet_since = last or pulka.created_at
    stalled = running and (now or timezone.now()) - quiet_since > timedelta(minutes=STALLED_MINUTES)
    return RoomTable(
        number=number,
        pulka_id=pulka.pk,
        names=names,
        player_ids=tuple(seat.player_id for seat in seats),
        first_dealer=names[pulka.first_dealer] if pulka.first_dealer < len(names) else "",
        deals=deals,
        deals_text=_deals_text(tournament, deals, pulka),
        running=running,
        last_deal=last,
        stalled=stalled,
        round_number=pulka.round_number or 0,
    )


def _hours_minutes(delta: timedelta, *, up: bool = False) -> str:
    """h:mm; time left is rounded up, so "0:00" means the time is up."""
    seconds = max(0, int(delta.total_seconds()))
    minutes = -(-seconds // 60) if up else seconds // 60
    return f"{minutes // 60}:{minutes % 60:02d}"


def clock(
    tournament: Tournament,
    started: datetime | None,
    now: datetime | None = None,
    ended: datetime | None = None,
) -> Clock:
    """Time played since the round's tables started, and what is left of its length.

    ``ended``: when the round's last table ended (or the tournament did); the clock
    stops there and shows the time the round took.
    """
    length = round_length(tournament)
    if started is None:
        return Clock(None, "", "", False, length is not None)
    if ended is not None:
        took = _hours_minutes(max(ended, started) - started)
        return Clock(started, took, "", False, length is not None, stopped=True)
    now = now or timezone.now()
    if now < started:
        return Clock(started, "", "", False, length is not None, waiting=True)
    elapsed = now - started
    remaining = (length - elapsed) if length is not None else None
    return Clock(
        started=started,
        elapsed=_hours_minutes(elapsed),
        remaining=_hours_minutes(remaining, up=True) if remaining is not None else "",
        overtime=remaining is not None and remaining <= timedelta(0),
        has_limit=length is not None,
    )


def room_round(tournament: Tournament, now: datetime | None = None) -> RoomRound:
    """The current round's tables, those still playing, and its clock: three queries."""
    rounds = list(tournament.rounds.order_by("-number"))
    round_ = _current(rounds)
    if round_ is None:
        return RoomRound(
            None, round_title(tournament, None, []), (), (), clock(tournament, None, now)
        )
    pulkas = _pulkas_of(tournament, round_.number)
    numbered = services.numbered(round_, pulkas)
    tables = tuple(room_table(tournament, n, p, now) for n, p in numbered)
    first_table = min((p.created_at for p in pulkas), default=None)
    # The clock runs from the round's scheduled start (timecontrol.py), else its publishing.
    started = getattr(round_, "starts_at", None) or getattr(round_, "published_at", None)
    started = started or first_table
    playing = tuple(t for t in tables if t.running)
    ended = None if playing and not tournament.finished else _ended(tournament, pulkas)
    return RoomRound(
        round=round_,
        title=round_title(tournament, round_, rounds),
        tables=tables,
        playing=playing,
        clock=clock(tournament, started, now, ended),
        earlier=_earlier(tournament, round_, rounds, now),
    )


def _ended(tournament: Tournament, pulkas: Sequence[Pulka]) -> datetime | None:
    """When the round ended: its last closing or last deal, or the tournament's finish."""
    moments = [getattr(p, "last_deal_at", None) for p in pulkas]
    moments += [p.closure.closed_at for p in pulkas if services.closure_of(p) is not None]
    if tournament.finished_at is not None:
        moments.append(tournament.finished_at)
    known = [moment for moment in moments if moment is not None]
    return max(known) if known else timezone.now()


def _earlier(
    tournament: Tournament, round_: Round, rounds: Sequence[Round], now: datetime | None
) -> tuple[RoomTable, ...]:
    """Tables of earlier rounds playing again, each with its own round's number."""
    pulkas = _pulkas_of(tournament, round_.number, earlier=True)
    by_number = {r.number: r for r in rounds}
    found: list[RoomTable] = []
    for number in sorted({p.round_number or 0 for p in pulkas}):
        mine = [p for p in pulkas if p.round_number == number]
        numbered = services.numbered(by_number.get(number), mine)
        found += [room_table(tournament, n, p, now) for n, p in numbered]
    return tuple(found)


# --- the dashboard ---------------------------------------------------------------------


@dataclass(frozen=True)
class Dashboard:
    current: RoomRound
    rounds_played: int
    players_in_play: int
    deals_recorded: int
    summary: str
    stalled_minutes: int = STALLED_MINUTES


def dashboard(tournament: Tournament, now: datetime | None = None) -> Dashboard:
    """Tables playing, deals per table and the round's clock for the organiser."""
    current = room_round(tournament, now)
    # ``dropped`` read on each entry: a field today, the entry state's property later.
    active = sum(1 for entry in tournament.entries.all() if not entry.dropped)
    played = tournament.rounds.count()
    deals = sum(t.deals for t in current.tables)
    if current.round is None:
        summary = ""
    elif current.playing:
        summary = ngettext(
            "%(count)s table of %(total)s is still playing.",
            "%(count)s tables of %(total)s are still playing.",
            len(current.playing),
        ) % {"count": len(current.playing), "total": len(current.tables)}
    else:
        summary = _("Every table of this round has finished.")
    return Dashboard(current, played, active, deals, summary)


# --- the projector ---------------------------------------------------------------------


@dataclass(frozen=True)
class ProjectorLine:
    place: int
    name: str
    points: str
    negative: bool
    out: str = ""  # "dropped" or "disqualified", marked on the wall too
    provisional: bool = False  # his table is still playing: the figure may change
    divider: bool = False  # the first line below the finalists, after a cut
    long_name: bool = False  # set smaller so that it fits (and wraps if it must)
    disqualified: bool = False


@dataclass(frozen=True)
class Projector:
    current: RoomRound
    show: str  # "standings" or "seating"
    standings: tuple[ProjectorLine, ...]
    tables: tuple[RoomTable, ...]
    page: int
    pages: int
    next_page: int
    unfinished: int


SHOWS = ("standings", "seating")


def _page(items: Sequence[Any], page: int, size: int) -> tuple[tuple[Any, ...], int, int]:
    pages = max(1, -(-len(items) // size))
    page = page % pages
    return tuple(items[page * size : (page + 1) * size]), page, pages


def _lines_page(
    lines: Sequence[ProjectorLine], page: int, budget: int
) -> tuple[tuple[ProjectorLine, ...], int, int]:
    """Pages of the standings that fit the wall: a long name takes two lines' room."""
    pages: list[list[ProjectorLine]] = [[]]
    used = 0
    for line in lines:
        weight = 2 if line.long_name else 1
        if used + weight > budget and pages[-1]:
            pages.append([])
            used = 0
        pages[-1].append(line)
        used += weight
    page = page % len(pages)
    return tuple(pages[page]), page, len(pages)


def _wall_lines(tournament: Tournament, current: RoomRound) -> list[ProjectorLine]:
    """The standings for the wall: provisional marks, the finalists' divider, long names."""
    standings = services.standings(tournament)
    table = standings_table(tournament, standings)
    running = {
        str(player_id) for t in (*current.playing, *current.earlier) for player_id in t.player_ids
    }
    lines = []
    previous_finalist = False
    for line, row in zip(standings.lines, table.rows, strict=True):
        lines.append(
            ProjectorLine(
                row.place,
                row.name,
                row.points or row.whists,
                row.negative,
                row.out_label,
                provisional=line.player in running,
                divider=table.cut and previous_finalist and not row.finalist,
                long_name=len(row.name) > PROJECTOR_LONG_NAME,
                disqualified=line.player in standings.disqualified,
            )
        )
        previous_finalist = row.finalist
    return lines


def projector(
    tournament: Tournament, show: str | None, page: int, now: datetime | None = None
) -> Projector:
    """What the projector shows: the seating while the round is being played, the
    standings once every table has finished (or as asked), a page at a time; each
    poll asks for the next page, so a long list goes round by itself."""
    current = room_round(tournament, now)
    if show not in SHOWS:
        show = "seating" if current.playing else "standings"
    lines: tuple[ProjectorLine, ...] = ()
    tables: tuple[RoomTable, ...] = ()
    unfinished = len(current.playing)
    if show == "standings":
        every = _wall_lines(tournament, current)
        lines, page, pages = _lines_page(every, page, PROJECTOR_STANDINGS_PER_PAGE)
        unfinished = len(current.playing) + len(current.earlier)
    else:
        tables, page, pages = _page(current.tables, page, PROJECTOR_TABLES_PER_PAGE)
    return Projector(
        current=current,
        show=show,
        standings=lines,
        tables=tables,
        page=page,
        pages=pages,
        next_page=(page + 1) % pages,
        unfinished=unfinished,
    )


# --- my table now ----------------------------------------------------------------------


@dataclass(frozen=True)
class MyTable:
    current: RoomRound
    player_name: str
    table: RoomTable | None
    seat: int  # 1-based, clockwise from the first seat
    others: tuple[str, ...]
    dealer_first: bool
    entered: bool


def my_table(tournament: Tournament, user: Any, now: datetime | None = None) -> MyTable:
    """The signed-in player's table and seat in the current round (§4.11)."""
    current = room_round(tournament, now)
    mine = set(
        tournament.entries.filter(player__user=user).values_list("player_id", "player__name")
    )
    ids = {pk for pk, _name in mine}
    name = next(iter(sorted(n for _pk, n in mine)), "")
    # A player left a table of 4 in play and the three play on (§4.9): the round shows
    # both sheets under one number, and a player of the three is at the sheet of three,
    # the running one (the newer, once both are over), not the closed sheet of four.
    for table in sorted(current.tables, key=lambda t: (not t.running, -t.pulka_id)):
        for index, player_id in enumerate(table.player_ids):
            if player_id in ids:
                others = tuple(n for i, n in enumerate(table.names) if i != index)
                return MyTable(
                    current=current,
                    player_name=table.names[index],
                    table=table,
                    seat=index + 1,
                    others=others,
                    dealer_first=table.first_dealer == table.names[index],
                    entered=True,
                )
    return MyTable(current, name, None, 0, (), False, bool(ids))


def players_alphabetically(tables: Sequence[RoomTable]) -> list[tuple[str, int, int]]:
    """Every seated player with his table and seat, by name (the printed list)."""
    rows = [
        (name, table.number, seat)
        for table in tables
        for seat, name in enumerate(table.names, start=1)
    ]
    return sorted(rows, key=lambda row: (row[0].casefold(), row[1]))
