"""The season pages: the archive, the table, a player's line, the form (docs/seasons.md).

The table is public or members-only as the season says, like the club's leaderboard; the
form is for the club's organisers and admins. Every page reads the stored lines in a fixed
number of queries, whatever the number of events or players.
"""

from __future__ import annotations

import copy

from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.http import HttpResponse
from django.shortcuts import get_object_or_404
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods, require_safe

from prefscore.clubs.models import Club, Player
from prefscore.clubs.permissions import ORGANISERS, club_and_role_for, may
from prefscore.games.views.sharing import card_response
from prefscore.stats import exports as stats_exports
from prefscore.stats import recounts
from prefscore.tournaments.services import TournamentError
from prefscore.web.htmx import HtmxHttpRequest, invalid_status, redirect_to, render_page

from . import counts, divisions, exports, presenters, qualification
from .cards import season_card, season_preview
from .division_forms import ConfirmForm, DivisionsForm, MarkedForm
from .forms import SeasonForm
from .models import POLICY_FIELDS, Season
from .policy import record_changes, record_marks
from .qualification import QualifyForm

# The moves are confirmed from the stored table, so not while its count waits.
_COUNTING_NOW = gettext_lazy(
    "The season's table is being counted after its change: confirm the moves once it is."
)


def _readable(request: HtmxHttpRequest, slug: str, season_slug: str) -> tuple[Season, str | None]:
    """The season and the reader's role, if he may read it: members, anyone when public."""
    club = get_object_or_404(Club, slug=slug)
    season = get_object_or_404(Season, club=club, slug=season_slug)
    role = club.role_of(request.user)
    if role is None and not season.public:
        if not request.user.is_authenticated:
            raise _SignIn
        raise PermissionDenied(_("You may not do this in this club."))
    return season, role


class _SignIn(Exception):
    pass


@require_safe
def archive(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    """The club's seasons, current and past: members see all, others the public ones. A
    club without a public season is members-only here too: an outsider is refused as on
    its other pages (signing in first, then 403), and learns not even its name."""
    club = get_object_or_404(Club, slug=slug)
    role = club.role_of(request.user)
    seasons = list(Season.objects.filter(club=club, **({} if role else {"public": True})))
    if role is None and not seasons:
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        raise PermissionDenied(_("You may not do this in this club."))
    context = {"club": club, "seasons": seasons, "may_change": may(role, ORGANISERS)}
    return render_page(request, "seasons/archive.html", context, "seasons")


@require_safe
def table(request: HtmxHttpRequest, slug: str, season: str) -> HttpResponse:
    """The season table (docs/seasons.md §4–§6), from the stored lines; printable."""
    return _table_page(request, slug, season, "seasons/table.html")


@require_safe
def projector(request: HtmxHttpRequest, slug: str, season: str) -> HttpResponse:
    """The season table in large type for a screen in the room, polling its region."""
    return _table_page(request, slug, season, "seasons/projector.html")


def _table_page(request: HtmxHttpRequest, slug: str, season: str, template: str) -> HttpResponse:
    try:
        found, role = _readable(request, slug, season)
    except _SignIn:
        return redirect_to_login(request.get_full_path())
    waits = _count_state(found)  # before the table: see _count_state
    rows = _rows(found)
    context = {
        "club": found.club,
        "season": found,
        "rows": rows,
        # Its card in a chat's preview, when public (cards.py; docs/design.md, "Sharing a result").
        "preview": season_preview(request, found, rows),
        "member": role is not None,
        "may_change": may(role, ORGANISERS),
        "changes": list(found.policy_changes.select_related("changed_by")),
        **waits,
    }
    return render_page(request, template, context, "standings")


def _count_state(season: Season) -> dict[str, bool]:
    """The template's words: "updating…" (and ask again) or "the count failed". Read
    before the table it speaks of: a count that lands between the two reads then leaves
    the page asking again, where the other order could show the table from before the
    count, even empty, as counted, and never ask again."""
    state = counts.state(season)
    return {
        "updating": state in (recounts.UPDATING, counts.COUNTING),
        "season_counting": state == counts.COUNTING,
        "count_failed": state == recounts.FAILED,
    }


def _waiting(season: Season) -> HttpResponse | None:
    """The table's CSV or JSON while its count is to land, or failed: 503, said in words
    (a script tries again after Retry-After); None when the stored table is current."""
    state = counts.state(season)
    if not state:
        return None
    if state == recounts.FAILED:
        text = _("The count of the season's table failed; the server's owner sees why.")
    else:
        text = (
            _("updating…") + " " + _("The season's table is being counted; try again in a moment.")
        )
    response = HttpResponse(text + "\n", status=503, content_type="text/plain; charset=utf-8")
    if state != recounts.FAILED:
        response["Retry-After"] = "2"
    return response


def _rows(season: Season) -> list[presenters.LineRow]:
    lines = season.lines.select_related("player", "division").order_by("position")
    return [presenters.line_row(line) for line in lines]


@require_safe
def card(request: HtmxHttpRequest, slug: str, season: str) -> HttpResponse:
    """The season table's card, readable as the table is; the reader's line marked."""
    try:
        found, _role = _readable(request, slug, season)
    except _SignIn:
        return redirect_to_login(request.get_full_path())
    reader = None
    if request.user.is_authenticated:
        mine = Player.objects.filter(club=found.club, user=request.user)
        reader = mine.values_list("pk", flat=True).first()
    shown = season_card(found, _rows(found), reader)
    return card_response(request, shown, public=found.public)


@require_safe
def player_line(request: HtmxHttpRequest, slug: str, season: str, player: int) -> HttpResponse:
    """A player's season line (docs/seasons.md §7): each event, what counts, what is dropped."""
    try:
        found, role = _readable(request, slug, season)
    except _SignIn:
        return redirect_to_login(request.get_full_path())
    waits = _count_state(found)  # before the line: see _count_state
    line = get_object_or_404(found.lines.select_related("player"), player_id=player)
    context = {
        "club": found.club,
        "season": found,
        "row": presenters.line_row(line),
        "member": role is not None,
        **waits,
    }
    return render_page(request, "seasons/player.html", context, "line")


@require_http_methods(["GET", "HEAD", "POST"])
@login_required
def edit(request: HtmxHttpRequest, slug: str, season: str | None = None) -> HttpResponse:
    """Create a season, or change one: a frozen policy's changes are logged (§8)."""
    club, _role = club_and_role_for(request, slug, roles=ORGANISERS)
    found = get_object_or_404(Season, club=club, slug=season) if season else Season(club=club)
    before = {name: copy.deepcopy(getattr(found, name)) for name in POLICY_FIELDS}
    form = SeasonForm(request.POST or None, instance=found, club=club)
    if request.method == "POST" and form.is_valid():
        with transaction.atomic():  # the settings, their log and the count asked: all or none
            saved = form.save(commit=False)
            if saved.created_by_id is None:
                saved.created_by = request.user  # type: ignore[assignment]
            saved.save()
            form.save_m2m()  # the season's tournaments: saved with commit=False, kept only here
            record_changes(saved, before, request.user)
            counts.ask(saved)  # the worker counts the table (counts.py)
        return redirect_to(request, reverse("seasons:table", args=[club.slug, saved.slug]))
    context = {"club": club, "season": found if season else None, "form": form}
    status = invalid_status(request) if form.errors else 200
    return render_page(request, "seasons/edit.html", context, "form", status=status)


@require_http_methods(["GET", "HEAD", "POST"])
@login_required
def qualify(request: HtmxHttpRequest, slug: str, season: str) -> HttpResponse:
    """The top of the table and the organiser's wildcards enter the final (docs/seasons.md §9)."""
    club, _role = club_and_role_for(request, slug, roles=ORGANISERS)
    found = get_object_or_404(Season.objects.select_related("final"), club=club, slug=season)
    form = QualifyForm(request.POST or None, club=club)
    if request.method == "POST" and form.is_valid():
        if found.final is None:
            form.add_error(None, _("Choose the season's final first (change the season)."))
        else:
            try:
                qualification.qualify(
                    found, form.cleaned_data["top"], form.cleaned_data["wildcards"], request.user
                )
            except TournamentError as error:
                form.add_error(None, str(error))
            else:
                return redirect_to(request, reverse("seasons:qualify", args=[slug, season]))
    context = {
        "club": club,
        "season": found,
        "form": form,
        "qualified": list(found.qualifications.select_related("player")),
    }
    status = invalid_status(request) if form.errors else 200
    return render_page(request, "seasons/qualify.html", context, "form", status=status)


@require_safe
def table_csv(request: HtmxHttpRequest, slug: str, season: str) -> HttpResponse:
    """The season table as CSV (columns: exports.COLUMNS), to whoever may read the table."""
    try:
        found, _role = _readable(request, slug, season)
    except _SignIn:
        return redirect_to_login(request.get_full_path())
    waiting = _waiting(found)
    if waiting is not None:
        return waiting
    name = f"{found.club.slug}-{found.slug}.csv"
    return stats_exports.csv_response(name, exports.csv_rows(found))


@require_safe
def table_json(request: HtmxHttpRequest, slug: str, season: str) -> HttpResponse:
    """The season table as JSON, every line with its events, to whoever may read the table."""
    try:
        found, _role = _readable(request, slug, season)
    except _SignIn:
        return redirect_to_login(request.get_full_path())
    waiting = _waiting(found)
    if waiting is not None:
        return waiting
    name = f"{found.club.slug}-{found.slug}.json"
    return stats_exports.json_response(name, exports.as_json(found))


@require_http_methods(["GET", "HEAD", "POST"])
@login_required
def divisions_page(request: HtmxHttpRequest, slug: str, season: str) -> HttpResponse:
    """Set the divisions; preview promotion and relegation, then confirm (§10)."""
    club, _role = club_and_role_for(request, slug, roles=ORGANISERS)
    found = get_object_or_404(Season, club=club, slug=season)
    action = request.POST.get("action")
    setting = DivisionsForm(request.POST if action == "set" else None, club=club)
    confirming = ConfirmForm(
        request.POST if action == "confirm" else request.GET or None,
        season=found,
        initial={"count": 1},
    )
    here = reverse("seasons:divisions", args=[slug, season])
    if action == "set" and setting.is_valid():
        divisions.replace(found, setting.cleaned_data["text"])
        return redirect_to(request, here)
    if action == "confirm" and confirming.is_valid():
        try:
            divisions.confirm(
                found,
                confirming.cleaned_data["next_season"],
                confirming.cleaned_data["count"],
                request.user,
            )
        except divisions.DivisionError as error:
            if error.args == ("counting",):
                confirming.add_error(None, _COUNTING_NOW)
            else:
                confirming.add_error(
                    "next_season", _("Choose another season of the club, without divisions yet.")
                )
        else:
            next_slug = confirming.cleaned_data["next_season"].slug
            return redirect_to(request, reverse("seasons:divisions", args=[slug, next_slug]))
    count = confirming.cleaned_data["count"] if confirming.is_bound and confirming.is_valid() else 1
    waits = _count_state(found)  # before the table the preview reads: see _count_state
    context = {
        "club": club,
        "season": found,
        "setting": setting,
        "confirming": confirming,
        "current": list(found.divisions.prefetch_related("players")),
        "preview": presenters.moves(divisions.preview(found, count)),
        "moves": list(found.moves.select_related("player")),
        **waits,
    }
    status = invalid_status(request) if setting.errors or confirming.errors else 200
    return render_page(request, "seasons/divisions.html", context, "moves", status=status)


@require_http_methods(["GET", "HEAD", "POST"])
@login_required
def marked(request: HtmxHttpRequest, slug: str, season: str) -> HttpResponse:
    """Mark the club evenings' pulkas that count for the season (docs/seasons.md §1, §8)."""
    club, _role = club_and_role_for(request, slug, roles=ORGANISERS)
    found = get_object_or_404(Season, club=club, slug=season)
    before = sorted(found.marked_pulkas.values_list("pk", flat=True))
    form = MarkedForm(request.POST or None, season=found, initial={"pulkas": before})
    if request.method == "POST" and form.is_valid():
        with transaction.atomic():
            found.marked_pulkas.set(form.cleaned_data["pulkas"])
            after = sorted(found.marked_pulkas.values_list("pk", flat=True))
            record_marks(found, before, after, request.user)
            counts.ask(found)
        return redirect_to(request, reverse("seasons:table", args=[slug, season]))
    context = {"club": club, "season": found, "form": form}
    status = invalid_status(request) if form.errors else 200
    return render_page(request, "seasons/marked.html", context, "form", status=status)
