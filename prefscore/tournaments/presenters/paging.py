"""The tournament page in pages: one round's tables and one page of players at a time.

A tournament of 1,000 players over 5 rounds has 1,250 tables: listed whole, its page
was 2 MB. The page shows one round (the latest, or ``?round=N``) with its tables
``TABLES_PER_PAGE`` at a time (``?tables=K``), and the players ``ENTRIES_PER_PAGE`` at a
time (``?players=K``); links lead to the other rounds and pages. Each is a few queries
whatever the size (a count and a slice), and a table keeps its number in its round on
every page.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from django.core.paginator import Page, Paginator
from django.db.models import Count, Prefetch, Q

from prefscore.games.models import Pulka, PulkaSeat
from prefscore.web.integers import request_int

from .. import results, services, titles
from ..models import Round, Tournament, TournamentEntry
from .tournament import Leaver, RoundView, _table, summary

TABLES_PER_PAGE = 50
ENTRIES_PER_PAGE = 100


@dataclass(frozen=True)
class Paging:
    """What the address asks for: a round, a page of its tables, a page of players."""

    round_number: int | None = None
    tables: int = 1
    players: int = 1

    @classmethod
    def of(cls, query: Mapping[str, str]) -> Paging:
        """From the query string; anything but a plain number is the default."""
        return cls(
            request_int(query.get("round")),
            request_int(query.get("tables")) or 1,
            request_int(query.get("players")) or 1,
        )


@dataclass(frozen=True)
class PageLinks:
    """Where the pager leads: the page numbers before and after, if any."""

    number: int
    count: int
    previous: int | None
    next: int | None

    @classmethod
    def of(cls, page: Page) -> PageLinks:  # type: ignore[type-arg]
        return cls(
            page.number,
            page.paginator.num_pages,
            page.previous_page_number() if page.has_previous() else None,
            page.next_page_number() if page.has_next() else None,
        )


@dataclass(frozen=True)
class RoundsPage:
    """The published rounds for the links, the one shown with a page of its tables."""

    rounds: tuple[RoundView, ...]  # the one shown, or none
    links: tuple[tuple[int, str], ...]  # every published round: number, title
    shown: int | None
    tables: PageLinks | None
    playing: int


def rounds_page(tournament: Tournament, at: Paging) -> RoundsPage:
    """The round asked for (else the latest published) and one page of its tables."""
    rounds = list(tournament.rounds.all())
    named = titles.titles_of(((r.number, r.stage) for r in rounds), tournament.stage_rounds)
    published = [r for r in rounds if r.status == Round.Status.PUBLISHED]
    live = tournament.pulkas.exclude(status=Pulka.Status.ARCHIVED)
    playing = live.filter(
        status=Pulka.Status.RUNNING, round_number__in=[r.number for r in published]
    ).count()
    links = tuple((r.number, named[r.number]) for r in reversed(published))
    shown = next((r for r in published if r.number == at.round_number), None)
    shown = shown or (published[-1] if published else None)
    if shown is None:
        return RoundsPage((), links, None, None, playing)
    in_round = live.filter(round_number=shown.number)
    # A table keeps the number of its draw on every screen (services.table_numbers).
    numbers = services.table_numbers(
        shown, list(in_round.only("pk", "tournament_id").order_by("pk"))
    )
    by_number = sorted(numbers, key=numbers.__getitem__)
    page = Paginator(by_number, TABLES_PER_PAGE).get_page(at.tables)
    tables = (
        in_round.filter(pk__in=list(page.object_list))
        .select_related("closure")
        .annotate(deal_count=Count("deals", filter=results.PLAYED_DEALS))
        .prefetch_related(Prefetch("seats", queryset=PulkaSeat.objects.select_related("player")))
    )
    ordered = sorted(tables, key=lambda pulka: numbers[pulka.pk])
    short = results.continued([shown])
    left = leavers(tournament, shown, ordered, short)
    views = tuple(_table(numbers[p.pk], p, p.pk in short, left.get(p.pk)) for p in ordered)
    view = RoundView(shown, views, summary(shown), named[shown.number])
    return RoundsPage((view,), links, shown.number, PageLinks.of(page), playing)


def entries_page(
    entries: Sequence[TournamentEntry], at: Paging
) -> tuple[Sequence[TournamentEntry], PageLinks]:
    """One page of the players, in the order given (by name)."""
    page = Paginator(list(entries), ENTRIES_PER_PAGE).get_page(at.players)
    return list(page.object_list), PageLinks.of(page)


def leavers(
    tournament: Tournament, round_: Round, tables: Sequence[Pulka], continued: dict[int, int]
) -> dict[int, Leaver]:
    """Who left each table of ``round_`` a drop closed (§4.9), by pulka id: a seated
    player out of the tournament since this round. One query, and only when a table on
    the page was closed by a drop; ``tables`` come with their closure and seats, and
    ``continued`` is the round's ``results.continued``."""
    dropped = [p for p in tables if getattr(services.closure_of(p), "reason", "") == "drop"]
    if not dropped:
        return {}
    seated = {seat.player_id for pulka in dropped for seat in pulka.seats.all()}
    out = {
        entry.player_id: entry
        for entry in tournament.entries.filter(
            Q(left_after_round=round_.number) | Q(forfeited_round=round_.number),
            player_id__in=seated,
            state__in=(TournamentEntry.State.DROPPED, TournamentEntry.State.DISQUALIFIED),
        ).select_related("player")
    }
    # A first sheet's leaver is not among the three who went on (one of them may leave
    # the sheet of three later in the round, and forfeit it too).
    went_on = {first: later for later, first in continued.items()}
    seats_of = {pulka.pk: {seat.player_id for seat in pulka.seats.all()} for pulka in tables}
    found = {}
    for pulka in dropped:
        stayed = seats_of.get(went_on.get(pulka.pk, 0), set())
        candidates = [s.player_id for s in pulka.seats.all() if s.player_id not in stayed]
        entry = next((out[key] for key in candidates if key in out), None)
        if entry is not None:
            found[pulka.pk] = Leaver(
                entry.player.name,
                entry.state == TournamentEntry.State.DISQUALIFIED,
                entry.forfeited_round == round_.number,
            )
    return found
