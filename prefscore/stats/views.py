"""A player's statistics, the club leaderboard and the exports (docs/exports.md, docs/rating.md).

Members of a club see its players' pages and its leaderboard; the leaderboard is
public when a club admin has made it so (``ClubStatsSettings``). Every page reads the
summary rows in a fixed number of queries, whatever the number of pulkas.
"""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.http import HttpResponse
from django.shortcuts import get_object_or_404
from django.urls import reverse
from django.views.decorators.http import require_POST, require_safe

from prefscore.clubs.models import Club, Player
from prefscore.clubs.permissions import ADMINS, club_and_role_for, club_for, may
from prefscore.web.htmx import HtmxHttpRequest, redirect_to, render_page

from . import exports, presenters, ratings, recounts
from .forms import StatsFilter
from .models import ClubStatsSettings, PulkaSummary


@require_safe
@login_required
def player_stats(request: HtmxHttpRequest, slug: str, player: int) -> HttpResponse:
    """How one player of the club plays, filtered by period, convention and table size."""
    club = club_for(request, slug)
    found = get_object_or_404(Player, pk=player, club=club)
    # The recount's state is read before the figures (as in every page that says
    # "updating…"): a recount landing between the two reads then leaves the page asking
    # again, never showing the figures from before it as if they were counted.
    waits = recounts.words(recounts.state(club.pk))
    mine = PulkaSummary.objects.filter(player=found)
    conventions = list(mine.values_list("convention_name", flat=True).distinct())
    form = StatsFilter(request.GET or None, conventions=presenters.convention_choices(conventions))
    rows = list(form.apply(mine).order_by("finished_at", "pk"))
    rival_ids = {int(pk) for row in rows for pk in row.against}
    names = dict(Player.objects.filter(pk__in=rival_ids).values_list("pk", "name"))
    context = {
        "club": club,
        "player": found,
        "form": form,
        "page": presenters.player_page(rows, names),
        "csv_url": reverse("stats:player_csv", args=[club.slug, found.pk]),
        **waits,
    }
    return render_page(request, "stats/player.html", context, "figures")


@require_safe
def leaderboard(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    """The club rating (docs/rating.md): members always, anyone when it is public."""
    club = get_object_or_404(Club, slug=slug)
    settings = ClubStatsSettings.objects.filter(club=club).first()
    public = settings is not None and settings.rating_public
    role = club.role_of(request.user)
    if role is None and not public:
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        club_for(request, slug)  # refuses with the club's 403
    waits = recounts.words(recounts.state(club.pk))  # before the figures: player_stats
    stored = ratings.stored(club.pk)
    players = {p.pk: p for p in Player.objects.filter(pk__in=stored)}
    context = {
        "club": club,
        "rows": presenters.leader_rows(stored, players),
        "public": public,
        "may_change": may(role, ADMINS),
        "member": role is not None,
        **waits,
    }
    return render_page(request, "stats/leaderboard.html", context, "figures")


@require_POST
@login_required
def leaderboard_settings(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    """A club admin makes the leaderboard public, or members-only again."""
    club, _role = club_and_role_for(request, slug, roles=ADMINS)
    public = request.POST.get("public") == "1"
    ClubStatsSettings.objects.update_or_create(club=club, defaults={"rating_public": public})
    return redirect_to(request, reverse("stats:leaderboard", args=[club.slug]))


@require_safe
@login_required
def club_results_csv(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    """The club's results per pulka and player (columns: exports.CLUB_COLUMNS)."""
    club = club_for(request, slug)
    return exports.csv_response(f"{club.slug}-results.csv", exports.club_rows(club))


@require_safe
@login_required
def player_csv(request: HtmxHttpRequest, slug: str, player: int) -> HttpResponse:
    """One player's statistics per pulka (columns: exports.PLAYER_COLUMNS)."""
    club = club_for(request, slug)
    found = get_object_or_404(Player, pk=player, club=club)
    return exports.csv_response(f"{club.slug}-player-{found.pk}.csv", exports.player_rows(found))


@require_safe
def my_data(request: HtmxHttpRequest) -> HttpResponse:
    """Everything prefscore holds about the signed-in user, as JSON (data portability)."""
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    return exports.json_response("prefscore-my-data.json", exports.my_data(request.user))
