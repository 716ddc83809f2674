"""The home page, creating a club, and a club's page with its players and pulkas.

They live in games, not in clubs, because they list pulkas: clubs sits below games
and knows nothing of them. Their URLs keep the "clubs" namespace (``games/club_urls.py``).

Who may add a guest: every member of the club, not only admins and organisers. Guests
arrive at the table with whoever invited them, and a guest is only a name to seat; the
club's admins link guests to accounts and merge players on the players page
(``prefscore.clubs.player_views``).
"""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.db.models import Count, Q, QuerySet
from django.http import HttpResponse
from django.urls import reverse
from django.views.decorators.http import require_POST, require_safe

from prefscore.clubs import approvals
from prefscore.clubs.forms import ClubForm, GuestForm
from prefscore.clubs.models import Club
from prefscore.clubs.permissions import club_for
from prefscore.web.htmx import HtmxHttpRequest, redirect_to, render_page, swaps_region
from scoring.conventions import convention_label

from ..models import Pulka

# Lists of pulkas that only grow show the latest ones (every running pulka of a club).
LATEST_SHOWN = 20


def pulka_rows(pulkas: QuerySet[Pulka]) -> list[Pulka]:
    """Pulkas with their standing deal count and convention label: one query."""
    rows: list[Pulka] = list(
        pulkas.annotate(
            deal_count=Count("deals", filter=Q(deals__withdrawn_at__isnull=True), distinct=True)
        )
    )
    for pulka in rows:
        pulka.convention_label = convention_label(pulka.convention_name)  # type: ignore[attr-defined]
    return rows


@require_safe
def home(request: HtmxHttpRequest) -> HttpResponse:
    """The welcome; for a signed-in player his clubs, a new club form, running pulkas."""
    context = {}
    if request.user.is_authenticated:
        context = {"form": ClubForm(), **_home_lists(request)}
    return render_page(request, "home.html", context)


def _home_lists(request: HtmxHttpRequest) -> dict[str, object]:
    clubs = Club.objects.for_user(request.user).annotate(
        running=Count("pulkas", filter=Q(pulkas__status=Pulka.Status.RUNNING), distinct=True)
    )
    pulkas = seated_pulkas(request).select_related("club")
    return {
        "clubs": list(clubs),
        "pulkas": pulka_rows(pulkas[:LATEST_SHOWN]),
        # Sign-ins waiting for this person to approve them (prefscore/clubs/approvals.py).
        "approvals_waiting": approvals.approvable_by(request.user).count(),
    }


def seated_pulkas(request: HtmxHttpRequest, club: Club | None = None) -> QuerySet[Pulka]:
    """The running pulkas where the user sits, through his players: "your pulkas".

    An account has one player per club and a player one seat per pulka, so the join
    gives each pulka once.
    """
    pulkas = Pulka.objects.visible_to(request.user).in_progress()
    if club is not None:
        pulkas = pulkas.filter(club=club)
    return pulkas.filter(seats__player__user=request.user.pk)


@require_POST
@login_required
def create_club(request: HtmxHttpRequest) -> HttpResponse:
    """Create a club; its creator becomes its admin and one of its players."""
    form = ClubForm(request.POST)
    club = form.save(request.user) if form.is_valid() else None
    if club is not None:
        return redirect_to(request, club_url(club))
    context: dict[str, object] = {"form": form}
    if not swaps_region(request):
        context.update(_home_lists(request))  # the whole page: its lists too
    return render_page(request, "home.html", context, "create-club")


def club_url(club: Club) -> str:
    return reverse("clubs:club", args=[club.slug])


@require_safe
@login_required
def club_page(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    club = club_for(request, slug)
    context = _club_context(request, club, GuestForm(club=club))
    return render_page(request, "clubs/club.html", context)


@require_POST
@login_required
def add_guest(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    """Add a guest player by name; any member may (see the module docstring).

    With htmx the players' region comes back with an empty form; without it the page,
    after a redirect when the guest was added (POST/redirect/GET).
    """
    club = club_for(request, slug)
    form = GuestForm(request.POST, club=club)
    if form.is_valid() and form.save() is not None:
        if not request.htmx:
            return redirect_to(request, club_url(club))
        form = GuestForm(club=club)
    if not swaps_region(request):
        return render_page(request, "clubs/club.html", _club_context(request, club, form))
    context = {"club": club, "players": list(club.players.all()), "guest_form": form}
    return render_page(request, "clubs/club.html", context, "players")


def _club_context(request: HtmxHttpRequest, club: Club, guest_form: GuestForm) -> dict[str, object]:
    pulkas = Pulka.objects.filter(club=club)
    finished = pulkas.finished()
    return {
        "club": club,
        "players": list(club.players.all()),
        "yours": pulka_rows(seated_pulkas(request, club)[:LATEST_SHOWN]),
        "running": pulka_rows(pulkas.in_progress()),
        "finished": pulka_rows(finished[:LATEST_SHOWN]),
        "abandoned": pulka_rows(pulkas.abandoned()[:LATEST_SHOWN]),
        "guest_form": guest_form,
    }
