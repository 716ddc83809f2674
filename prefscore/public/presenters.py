"""What a club's public results page shows: only what the club made public elsewhere too
(a tournament's public standings, a public season, the leaderboard when public), and its
card. Read afresh at every request: kept on the server, its values saved 0.45 ms of the
page's 6.2 ms of CPU (bench/public_page.py, docs/benchmarks.md), not worth a page a
minute behind. A stranger's browser keeps the page a minute instead (``SECONDS``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.http import HttpRequest
from django.urls import reverse
from django.utils.translation import gettext as _

from prefscore.cards.layout import Card, Preview, Row, name, words
from prefscore.clubs.models import Club, Player, Role
from prefscore.games.presenters.joining import absolute
from prefscore.seasons.models import Season
from prefscore.stats import presenters as stats_presenters
from prefscore.stats import ratings
from prefscore.stats.models import ClubStatsSettings
from prefscore.tournaments.models import Tournament

SECONDS = 60  # how long a stranger's browser (or a proxy) may keep the public page
TOP = 10


@dataclass(frozen=True, slots=True)
class Link:
    title: str
    url: str


@dataclass(frozen=True, slots=True)
class Leader:
    place: int
    name: str
    rating: str
    pulkas: int


@dataclass(frozen=True, slots=True)
class ClubPage:
    club: str
    tournaments: tuple[Link, ...]
    seasons: tuple[Link, ...]
    leaders: tuple[Leader, ...]  # empty unless the leaderboard is public


def club_page(club: Club) -> ClubPage:
    """The page's values: only what the club made public elsewhere too."""
    tournaments = Tournament.objects.filter(
        club=club, public=True, status=Tournament.Status.FINISHED
    ).order_by("-created_at")
    seasons = Season.objects.filter(club=club, public=True).order_by("-starts_on")
    leaders: tuple[Leader, ...] = ()
    if ClubStatsSettings.objects.filter(club=club, rating_public=True).exists():
        stored = ratings.stored(club.pk)
        players = {p.pk: p for p in Player.objects.filter(pk__in=stored)}
        rows = stats_presenters.leader_rows(stored, players)[:TOP]
        leaders = tuple(Leader(r.place, r.player.name, r.rating, r.pulkas) for r in rows)
    return ClubPage(
        club=club.name,
        tournaments=tuple(
            Link(t.name, reverse("tournaments:standings", args=[club.slug, t.slug]))
            for t in tournaments
        ),
        seasons=tuple(
            Link(s.name, reverse("seasons:table", args=[club.slug, s.slug])) for s in seasons
        ),
        leaders=leaders,
    )


def club_card(page: ClubPage) -> Card:
    """The page's card: the leaderboard's top ten when public, else what the club shows."""
    if page.leaders:
        rows = tuple(
            Row(p.name, (p.rating, str(p.pulkas)), rank=str(p.place)) for p in page.leaders
        )
        headings: tuple[str, ...] = (_("Rating"), _("Pulkas"))
    else:
        shown = (*page.tournaments, *page.seasons)[:TOP]
        rows = tuple(Row(link.title, ()) for link in shown)
        headings = ()
    return Card(
        title=(name(page.club),),
        subtitle=(words(_("The club's results")),),
        name_heading=_("Player") if page.leaders else _("Tournaments and seasons"),
        headings=headings,
        rows=rows,
        footer=_("prefscore: the preferans score sheet"),
        ranked=bool(page.leaders),
    )


def preview(request: HttpRequest, club: Club, page: ClubPage) -> Preview:
    leaders = " · ".join(f"{p.place}. {p.name}" for p in page.leaders[:3])
    return Preview(
        title=page.club,
        description=leaders or _("The club's results"),
        url=absolute(request, reverse("public:club", args=[club.slug])),
        image=absolute(request, reverse("public:card", args=[club.slug])),
    )


def robots(club: Club) -> str:
    """The page's robots rule, the club's setting (meta robots and X-Robots-Tag alike)."""
    return "index, follow" if club.search_engines else "noindex, nofollow"


def context(request: HttpRequest, club: Club, page: ClubPage, role: str | None) -> dict[str, Any]:
    return {
        "club": club,
        "page": page,
        "preview": preview(request, club, page) if club.public_page else None,
        "robots": robots(club),
        "member": role is not None,
        "may_change": role == Role.ADMIN,
    }
