"""Tournament screens: the club's list, a new tournament, its page, and the standings.

Organisers and admins of the club run a tournament (register players, draw rounds, cut
to the final, publish the standings); members see it; outsiders get 403. The standings
page alone is open to anyone, signed in or not, when the organiser made it public
(docs/tournaments.md §4.11); otherwise it is the members' like the rest.

A successful form redirects (``HX-Redirect`` under htmx); a refused one re-renders its
region with the message next to the field. Nothing is scored here: the sheets are the
engine's, the seating and the ranking too.
"""

from __future__ import annotations

import secrets
from typing import Any

from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import HttpResponse
from django.shortcuts import get_object_or_404
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from prefscore.clubs.models import Club
from prefscore.clubs.permissions import MEMBERS, ORGANISERS, may
from prefscore.games.access import club_and_role_for
from prefscore.games.presenters import joining
from prefscore.web.htmx import HtmxHttpRequest, redirect_to, render_page

from .. import checkin, decisions, discipline, regulations, seeds, services, stages, titles
from ..forms.checkin import BulkCheckInForm
from ..forms.tournament import (
    CutForm,
    DecisionReasonForm,
    EntryForm,
    MoveForm,
    PublishForm,
    SwapForm,
    TournamentForm,
)
from ..models import Round, Tournament, TournamentEntry
from ..presenters import control, paging
from ..presenters.card import standings_preview
from ..presenters.tournament import settings_lines, standings_table, summary

DETAIL = "tournaments/detail.html"


def _tournament(
    request: HtmxHttpRequest, club: str, slug: str, roles: tuple[str, ...] = MEMBERS
) -> tuple[Tournament, str]:
    """The tournament if the user has one of ``roles`` in its club, else 404/403."""
    club_obj, role = club_and_role_for(request, club, roles=roles)
    tournament = get_object_or_404(Tournament, club=club_obj, slug=slug)
    tournament.club = club_obj
    return tournament, role


def detail_url(tournament: Tournament, anchor: str = "") -> str:
    url = reverse("tournaments:detail", args=[tournament.club.slug, tournament.slug])
    return f"{url}#{anchor}" if anchor else url


# --- the club's tournaments ---------------------------------------------------------------


@require_safe
@login_required
def tournament_list(request: HtmxHttpRequest, club: str) -> HttpResponse:
    club_obj, role = club_and_role_for(request, club, roles=MEMBERS)
    context = {
        "club": club_obj,
        "tournaments": list(club_obj.tournaments.all()),
        "may_run": may(role, ORGANISERS),
    }
    return render_page(request, "tournaments/list.html", context)


@require_http_methods(["GET", "HEAD", "POST"])
@login_required
def create(request: HtmxHttpRequest, club: str) -> HttpResponse:
    """A new tournament: its regulations are fixed here (docs/tournaments.md §4.1)."""
    club_obj, _role = club_and_role_for(request, club, roles=ORGANISERS)
    form = TournamentForm(request.POST if request.method == "POST" else None, club=club_obj)
    if request.method == "POST" and form.is_valid():
        tournament = form.save(request.user)
        return redirect_to(request, detail_url(tournament))
    return render_page(request, "tournaments/new.html", {"club": club_obj, "form": form}, "form")


# --- one tournament -------------------------------------------------------------------------


def move_form(tournament: Tournament, number: int, data: Any = None) -> MoveForm:
    """The players still in the tournament and the draft's tables, for "move" (§4.5)."""
    round_ = tournament.rounds.filter(number=number).first()
    players = list(
        tournament.entries.exclude(state__in=TournamentEntry.OUT)
        .order_by("player__name")
        .values_list("player_id", "player__name")
    )
    return MoveForm(data, players=players, tables=len(round_.tables) if round_ else 0)


def _detail_context(
    tournament: Tournament, role: str, at: paging.Paging | None = None, **overrides: Any
) -> dict[str, Any]:
    at = at or paging.Paging()
    entries = list(tournament.entries.select_related("player"))
    may_run = may(role, ORGANISERS)
    rounds = list(tournament.rounds.all())
    draft_round = next((r for r in rounds if r.status == Round.Status.DRAFT), None)
    cut = any(r.stage != Round.Stage.QUALIFYING for r in rounds)
    names = {str(entry.player_id): entry.player.name for entry in entries}
    titles_by_number = titles.titles_of(
        ((r.number, r.stage) for r in rounds), tournament.stage_rounds
    )
    draft = control.draft_view(
        draft_round,
        names,
        summary(draft_round) if draft_round else "",
        titles_by_number.get(draft_round.number, "") if draft_round else "",
    )
    open_ = tournament.status not in (Tournament.Status.FINAL, Tournament.Status.FINISHED)
    shown = paging.rounds_page(tournament, at)
    published, playing = shown.links, shown.playing
    listed, players_page = paging.entries_page(entries, at)
    finished = tournament.finished
    stage_left = stages.rounds_left(tournament) if cut else 0
    idle = draft is None and not playing and not finished
    context: dict[str, Any] = {
        "club": tournament.club,
        "tournament": tournament,
        "may_run": may_run,
        "entries": control.entry_rows(
            list(listed),
            may_run and not tournament.finished,
            discipline.marks(tournament),
            seeds.outside_seeds(tournament),
        ),
        "players_page": players_page,
        "active_count": sum(1 for entry in entries if not entry.dropped),
        "rounds": shown.rounds,
        "round_links": published,
        "shown_round": shown.shown,
        "tables_page": shown.tables,
        "any_round": bool(rounds),
        "draft": draft,
        "swap_form": SwapForm(seated=list(draft.seated)) if draft else None,
        "move_form": move_form(tournament, draft.round.number) if draft else None,
        "playing": playing,
        "may_draw": idle and (not cut or stage_left > 0),
        "stage_left": stage_left,
        "may_cut": idle and bool(published) and open_ and not stage_left,
        "may_finish": idle and bool(published),
        "finished": control.finished_line(tournament) if finished else "",
        "settings": settings_lines(tournament),
        "frozen": tournament.regulations_frozen_at is not None,
        "may_edit_regulations": may_run and regulations.may_edit(tournament, role) and open_,
        "changes": control.change_rows(
            list(tournament.regulation_changes.select_related("changed_by"))
        ),
        "entry_form": EntryForm(tournament=tournament),
        "cut_form": CutForm(),
        "publish_form": PublishForm(initial={"public": tournament.public}),
        "draw_error": "",
        "open": open_ and not cut,
        "decisions": decisions.decision_rows(tournament),
        "reopen_form": DecisionReasonForm(),
        "recut_form": DecisionReasonForm(),
        "cut_change": control.cut_change_view(tournament) if may_run and cut else None,
    }
    context.update(overrides)
    return context


def _detail(
    request: HtmxHttpRequest, tournament: Tournament, role: str, partial: str, **overrides: Any
) -> HttpResponse:
    """The tournament page, or with htmx the ``partial`` region a form changed."""
    context = _detail_context(tournament, role, paging.Paging.of(request.GET), **overrides)
    context.update(_checkin_context(request, tournament, context, overrides))
    return render_page(request, DETAIL, context, partial)


def checkin_qr(request: HtmxHttpRequest, tournament: Tournament) -> Any:
    """The QR code of the tournament's signed check-in link while check-in is open (§4.2),
    else None: for its page and the projector."""
    if not checkin.is_open(tournament):
        return None
    link = request.build_absolute_uri(
        reverse(
            "tournaments:check_in_self",
            args=[tournament.club.slug, tournament.slug, checkin.token(tournament)],
        )
    )
    return joining.qr_code(link, _("Check in to %(name)s") % {"name": tournament.name})


def _checkin_context(
    request: HtmxHttpRequest, tournament: Tournament, context: dict[str, Any], overrides: Any
) -> dict[str, Any]:
    """Check-in while it is open (§4.2): the QR code of the signed link, the bulk form."""
    qr = checkin_qr(request, tournament)
    if qr is None:
        return {"checkin_open": False}
    form = overrides.get("checkin_form")
    if form is None and context["may_run"]:
        form = BulkCheckInForm(tournament=tournament)
    return {"checkin_open": True, "checkin_qr": qr, "checkin_form": form}


def reload_at(request: HtmxHttpRequest, tournament: Tournament, anchor: str) -> HttpResponse:
    """After a change of the whole page: load it afresh at ``anchor``.

    ``HX-Redirect`` to the same address with only a new ``#fragment`` does not reload
    the page in the browser, so the address carries a fresh query each time.
    """
    url = reverse("tournaments:detail", args=[tournament.club.slug, tournament.slug])
    if not request.htmx:
        return redirect_to(request, f"{url}#{anchor}")
    return redirect_to(request, f"{url}?at={secrets.token_hex(4)}#{anchor}")


@require_safe
@login_required
def detail(request: HtmxHttpRequest, club: str, slug: str) -> HttpResponse:
    tournament, role = _tournament(request, club, slug)
    context = _detail_context(tournament, role, paging.Paging.of(request.GET))
    context.update(_checkin_context(request, tournament, context, {}))
    return render_page(request, DETAIL, context)


@require_POST
@login_required
def publish(request: HtmxHttpRequest, club: str, slug: str) -> HttpResponse:
    """Make the standings public (anyone with the link), or members' only again."""
    tournament, role = _tournament(request, club, slug, ORGANISERS)
    form = PublishForm(request.POST)
    form.is_valid()  # a checkbox: absent means off, nothing can be wrong
    tournament.public = bool(form.cleaned_data.get("public"))
    tournament.save(update_fields=["public"])
    if not request.htmx:
        return redirect_to(request, detail_url(tournament, "publish"))
    return _detail(request, tournament, role, "publish")


# --- standings ----------------------------------------------------------------------------


def _readable(
    request: HtmxHttpRequest, club: str, slug: str
) -> tuple[Tournament, str | None] | HttpResponse:
    """The tournament if its standings are public or the user a member; else sign in / 403."""
    club_obj = get_object_or_404(Club, slug=club)
    tournament = get_object_or_404(Tournament, club=club_obj, slug=slug)
    tournament.club = club_obj
    if not tournament.public and not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    role = club_obj.role_of(request.user)
    if not tournament.public and role is None:
        raise PermissionDenied(_("You may not do this in this club."))
    return tournament, role


@require_safe
def standings(request: HtmxHttpRequest, club: str, slug: str) -> HttpResponse:
    """Live standings (docs/tournaments.md §4.11): anyone's when public, else members only."""
    found = _readable(request, club, slug)
    if isinstance(found, HttpResponse):
        return found
    tournament, role = found
    club_obj = tournament.club
    table = standings_table(tournament, services.standings(tournament))
    context = {
        "club": club_obj,
        "tournament": tournament,
        "table": table,
        "member": role is not None,
        # Its card in a chat's preview, when public (presenters/card.py; docs/design.md, "Sharing a result").
        "preview": standings_preview(request, tournament, table),
    }
    return render_page(request, "tournaments/standings.html", context, "standings")


@require_safe
def bracket(request: HtmxHttpRequest, club: str, slug: str) -> HttpResponse:
    """The stages, their tables and who advanced (§4.10); readable like the standings."""
    found = _readable(request, club, slug)
    if isinstance(found, HttpResponse):
        return found
    tournament, role = found
    context = {
        "club": tournament.club,
        "tournament": tournament,
        "stages": control.bracket(tournament, services.standings(tournament)),
        "member": role is not None,
    }
    return render_page(request, "tournaments/bracket.html", context)
