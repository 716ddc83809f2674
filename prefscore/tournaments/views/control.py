"""The organiser's controls of a tournament: entries, rounds, tables, regulations.

Organisers and admins only (403 to members, 404 for what is not this tournament's).
A change that alters the whole page answers with a fresh load of it (``reload_at``);
a refusal re-renders the region with the reason, and nothing is saved. What each control
does: docs/tournaments.md §7.
"""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpResponse
from django.shortcuts import get_object_or_404
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from prefscore.clubs.permissions import ORGANISERS
from prefscore.games.models import Pulka
from prefscore.web.htmx import HtmxHttpRequest, invalid_status, redirect_to, render_page

from .. import entries, regulations, rounds, stages, tables
from ..forms.regulations import RegulationsForm
from ..forms.tournament import CloseTableForm, CutForm, EntryForm, LeaveForm, SwapForm
from ..models import Tournament
from ..presenters import leaving
from ..services import TournamentError, live_pulkas
from .tournament import _detail, _tournament, move_form, reload_at


@require_POST
@login_required
def register(request: HtmxHttpRequest, club: str, slug: str) -> HttpResponse:
    """Register club players; late entries join from the next round drawn (§4.2)."""
    tournament, role = _tournament(request, club, slug, ORGANISERS)
    form = EntryForm(request.POST, tournament=tournament)
    if not form.is_valid():
        return _detail(request, tournament, role, "entries", entry_form=form)
    try:
        entries.register(tournament, form.cleaned_data["players"])
    except TournamentError as error:
        form.add_error("players", str(error))
        return _detail(request, tournament, role, "entries", entry_form=form)
    return reload_at(request, tournament, "entries")


@require_POST
@login_required
def entry_state(request: HtmxHttpRequest, club: str, slug: str, entry: int) -> HttpResponse:
    """Check in, drop, disqualify or take back a player (docs/tournaments.md §4.2). A drop
    or a disqualification without its reason is asked first (:func:`leave`): the page
    says what it does at the player's table, and takes the reason."""
    tournament, role = _tournament(request, club, slug, ORGANISERS)
    get_object_or_404(tournament.entries, pk=entry)
    action, reason = str(request.POST.get("action", "")), str(request.POST.get("reason", ""))
    if action in LEAVING and not reason.strip():
        url = reverse("tournaments:leave", args=[club, slug, entry]) + f"?action={action}"
        return redirect_to(request, url)
    try:
        entries.move(tournament, entry, action, request.user, reason)
    except TournamentError as error:
        return _detail(request, tournament, role, "entries", entry_error=str(error))
    return reload_at(request, tournament, "entries")


LEAVING = ("drop", "disqualify")


@require_http_methods(["GET", "HEAD", "POST"])
@login_required
def leave(request: HtmxHttpRequest, club: str, slug: str, entry: int) -> HttpResponse:
    """Drop or disqualify a player, once the organiser has read what it does at his
    table and said why (docs/tournaments.md §4.9, §4.15)."""
    tournament, _role = _tournament(request, club, slug, ORGANISERS)
    found = get_object_or_404(tournament.entries.select_related("player"), pk=entry)
    data = request.POST if request.method == "POST" else request.GET
    action = str(data.get("action")) if data.get("action") in LEAVING else "drop"
    form = LeaveForm(request.POST if request.method == "POST" else None)
    if request.method == "POST" and form.is_valid():
        try:
            entries.move(tournament, found.pk, action, request.user, form.cleaned_data["reason"])
        except TournamentError as error:
            form.add_error(None, str(error))
        else:
            return reload_at(request, tournament, "entries")
    context = {
        "club": tournament.club,
        "tournament": tournament,
        "entry": found,
        "form": form,
        "view": leaving.confirmation(tournament, found, action),
        "finished": tournament.finished,
    }
    status = invalid_status(request) if form.errors else 200
    return render_page(request, "tournaments/leave.html", context, "form", status=status)


@require_POST
@login_required
def draw(request: HtmxHttpRequest, club: str, slug: str) -> HttpResponse:
    """Draw the next round as a draft (docs/tournaments.md §4.3, §4.5)."""
    tournament, role = _tournament(request, club, slug, ORGANISERS)
    try:
        round_ = stages.draw_next(tournament.pk, request.user)
    except TournamentError as error:
        return _detail(request, tournament, role, "draw", draw_error=str(error))
    return reload_at(request, tournament, f"draft-{round_.number}")


@require_POST
@login_required
def cut(request: HtmxHttpRequest, club: str, slug: str) -> HttpResponse:
    """Cut the field to the top N for a semi-final or the final (docs/tournaments.md §4.10)."""
    tournament, role = _tournament(request, club, slug, ORGANISERS)
    form = CutForm(request.POST)
    if form.is_valid():
        size, stage = form.cleaned_data["size"], form.cleaned_data["stage"]
        try:
            round_ = rounds.draw_stage(tournament.pk, size, stage, request.user)
        except TournamentError as error:
            form.add_error("size", str(error))
            # Also above the form: a refused cut may leave no cut form on the page.
            return _detail(request, tournament, role, "draw", cut_form=form, draw_error=str(error))
        else:
            return reload_at(request, tournament, f"draft-{round_.number}")
    return _detail(request, tournament, role, "draw", cut_form=form)


def _round_action(
    request: HtmxHttpRequest, club: str, slug: str, number: int, action: str
) -> HttpResponse:
    tournament, role = _tournament(request, club, slug, ORGANISERS)
    try:
        if action == "publish":
            rounds.publish_round(tournament.pk, number, request.user)
            return reload_at(request, tournament, f"round-{number}")
        if action == "redraw":
            rounds.redraw(tournament.pk, number)
        elif action == "discard":
            rounds.discard_draft(tournament.pk, number)
            return reload_at(request, tournament, "draw")
        elif action == "move":
            move = move_form(tournament, number, request.POST)
            if not move.is_valid():
                return _detail(request, tournament, role, "draw", move_form=move)
            data = move.cleaned_data
            rounds.move_player(tournament.pk, number, data["player"], data["table"])
        else:
            form = SwapForm(request.POST, seated=_seated(tournament, number))
            if not form.is_valid():
                return _detail(request, tournament, role, "draw", swap_form=form)
            data = form.cleaned_data
            rounds.swap_players(tournament.pk, number, data["first"], data["second"])
    except TournamentError as error:
        return _detail(request, tournament, role, "draw", draw_error=str(error))
    return reload_at(request, tournament, f"draft-{number}")


def _seated(tournament: Tournament, number: int) -> list[tuple[int, str]]:
    round_ = tournament.rounds.filter(number=number).first()
    if round_ is None:
        return []
    keys = [int(key) for table in round_.tables for key in table["players"]]
    names = dict(
        tournament.entries.filter(player_id__in=keys).values_list("player_id", "player__name")
    )
    return [(key, names.get(key, str(key))) for key in keys]


@require_POST
@login_required
def move(request: HtmxHttpRequest, club: str, slug: str, number: int) -> HttpResponse:
    """Move a player to a table of the draft (§4.5)."""
    return _round_action(request, club, slug, number, "move")


@require_POST
@login_required
def publish_round(request: HtmxHttpRequest, club: str, slug: str, number: int) -> HttpResponse:
    """Publish a draft: its pulkas start, the round is locked (§4.5)."""
    return _round_action(request, club, slug, number, "publish")


@require_POST
@login_required
def redraw(request: HtmxHttpRequest, club: str, slug: str, number: int) -> HttpResponse:
    """Draw the draft again with the next seed (§4.5)."""
    return _round_action(request, club, slug, number, "redraw")


@require_POST
@login_required
def discard_round(request: HtmxHttpRequest, club: str, slug: str, number: int) -> HttpResponse:
    """Throw the draft away: nothing was played at its tables (§4.5)."""
    return _round_action(request, club, slug, number, "discard")


@require_POST
@login_required
def swap(request: HtmxHttpRequest, club: str, slug: str, number: int) -> HttpResponse:
    """Swap two players of the draft (§4.5)."""
    return _round_action(request, club, slug, number, "swap")


@require_POST
@login_required
def finish(request: HtmxHttpRequest, club: str, slug: str) -> HttpResponse:
    """End the tournament by hand: the standings become final (docs/tournaments.md §4.10)."""
    tournament, role = _tournament(request, club, slug, ORGANISERS)
    try:
        stages.finish_by_hand(tournament.pk, request.user)
    except TournamentError as error:
        return _detail(request, tournament, role, "draw", draw_error=str(error))
    return reload_at(request, tournament, "draw")


@require_http_methods(["GET", "HEAD", "POST"])
@login_required
def close_table(request: HtmxHttpRequest, club: str, slug: str, pulka: int) -> HttpResponse:
    """Close a table by the time or deal limit, or enter its final sheet (Кодекс 4.2.16)."""
    tournament, _role = _tournament(request, club, slug, ORGANISERS)
    table = get_object_or_404(live_pulkas(tournament), pk=pulka)
    names = list(table.player_names)
    form = CloseTableForm(request.POST if request.method == "POST" else None, names=names)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            tables.close_table(
                table.pk, tournament, data["reason"], request.user, data["whists"], data["note"]
            )
        except TournamentError as error:
            form.add_error(None, str(error))
        else:
            return reload_at(request, tournament, f"round-{table.round_number}")
    context = {
        "club": tournament.club,
        "tournament": tournament,
        "table": table,
        "form": form,
        "running": table.status == Pulka.Status.RUNNING,
    }
    return render_page(request, "tournaments/close_table.html", context, "form")


@require_http_methods(["GET", "HEAD", "POST"])
@login_required
def edit_regulations(request: HtmxHttpRequest, club: str, slug: str) -> HttpResponse:
    """Change the regulations: freely until round 1 is published, then logged (§4.1)."""
    tournament, role = _tournament(request, club, slug, ORGANISERS)
    if not regulations.may_edit(tournament, role):
        raise PermissionDenied(_("Only a club admin may change frozen regulations."))
    data = request.POST if request.method == "POST" else None
    form = RegulationsForm(data, tournament=tournament)
    if request.method == "POST" and form.is_valid():
        try:
            regulations.save_regulations(tournament, form.values(), form.frozen, request.user)
        except TournamentError as error:
            form.add_error(None, str(error))
        else:
            return reload_at(request, tournament, "regulations")
    context = {"club": tournament.club, "tournament": tournament, "form": form}
    return render_page(request, "tournaments/regulations.html", context, "form")
