"""The table screen: the drawn sheet, the protocol and the entry form; the poll.

``sheet_page`` shows a pulka; ``poll`` lets the other devices at the table ask cheaply
whether anything changed (design.md, "How a deal flows", step 6). The regions the
screen swaps are partials of ``games/sheet.html``; the entry views reuse the helpers
below to answer with the same regions.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from datetime import timedelta
from typing import Any
from urllib.parse import urlencode

from django.contrib.auth import SESSION_KEY
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.core.signing import BadSignature, TimestampSigner
from django.http import HttpRequest, HttpResponse, HttpResponseForbidden, HttpResponseNotModified
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from django.utils.cache import add_never_cache_headers, patch_vary_headers
from django.utils.formats import time_format
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from scoring.conventions import convention_label
from scoring.engine.deals import parse_deal
from scoring.engine.pulka import ScoredPulka, fold
from scoring.engine.sheet import SheetState

from .. import presenters, services, trail
from ..access import pulka_for
from ..corrections import may_arbitrate
from ..forms import DealForm
from ..models import Correction, Deal, ForgottenDeal, Pulka

# Every region of the screen, in page order; the poll element carries the version.
REGIONS = ("status", "forgotten", "sheet", "entry", "protocol", "poll")
TEMPLATE = "games/sheet.html"


def load_deals(pulka: Pulka) -> list[Deal]:
    """The standing deals with who recorded them: one query whatever their number."""
    rows = pulka.deals.current().select_related("entered_by").order_by("number")
    return list(rows.only("pulka", "number", "facts", "entered_at", "entered_by__username"))


def load_corrections(pulka: Pulka) -> list[Correction]:
    """The corrections the engine folds in (Кодекс 4.2.7), with who asked: one query."""
    return list(pulka.corrections.select_related("asked_by"))


def score_before_last(
    pulka: Pulka, deals: Sequence[Deal], corrections: Sequence[Correction]
) -> SheetState:
    """The sheet as it stood when the last deal was dealt: what a pencil change needs."""
    last = deals[-1].number
    earlier = [c for c in corrections if c.after_deal < last]
    return services.score(pulka, list(deals[:-1]), earlier).state


def effective_facts(deals: Sequence[Deal], corrections: Sequence[Correction]) -> list[Any]:
    """Each standing deal's facts as they stand now: its last correction's, or its own."""
    facts = [deal.facts for deal in deals]
    for correction in services.in_log_order(corrections):
        if 1 <= correction.deal_number <= len(facts):
            facts[correction.deal_number - 1] = correction.facts
    return facts


def state_before(scored: ScoredPulka, facts: Sequence[Any], number: int) -> SheetState:
    """The sheet as it stood when deal ``number`` was dealt, every correction applied.

    That is the state a correction of the deal is scored in (Кодекс 4.2.7; the engine
    refolds the log with the deal replaced): its dealer, who sits out, the all-pass
    price and the lowest contract allowed.
    """
    earlier = [parse_deal(f) for f in facts[: number - 1]]
    state, _records = fold(scored.pulka, earlier)
    dealer = facts[number - 1].get("dealer")
    if dealer in state.names:
        state = replace(state, dealer=state.names.index(dealer))
    return state


def pencil_holder(pulka: Pulka, deals: Sequence[Deal]) -> Deal | None:
    """The last deal while its recorder still holds the pencil (Кодекс 4.2.8).

    Until he puts it down the error does not exist yet: he changes the deal freely,
    and nobody corrects it.
    """
    if not deals or deals[-1].entered_by_id is None:
        return None
    last = deals[-1]
    if timezone.now() - last.entered_at > timedelta(minutes=pulka.club.pencil_minutes):
        return None
    return last


def line_actions(
    request: HttpRequest, pulka: Pulka, deals: Sequence[Deal], seats: Sequence[int]
) -> presenters.LineActions:
    """Which deal lines offer the viewer "Correct" and "Arbiter's decision".

    Players at the table correct any deal of a running pulka (after the next deal the
    rules let only the favoured player, which the correction itself decides, 4.2.9),
    but not the last deal while its recorder holds the pencil; in a finished pulka only
    the last deal. Organisers and admins decide as arbiters in tournament pulkas.
    """
    if pulka.status == Pulka.Status.ARCHIVED or not deals:
        return presenters.LineActions()
    held = pencil_holder(pulka, deals)
    numbers = range(1, len(deals) + 1) if not pulka.is_frozen else [len(deals)]
    correctable = frozenset(n for n in numbers if held is None or n != held.number)
    held_text = ""
    if held is not None and held.entered_by_id != request.user.pk:
        held_text = _(
            "%(user)s holds the pencil on this deal until %(time)s: until then only he "
            "changes it (Кодекс 4.2.8)."
        ) % {
            "user": held.entered_by.get_username() if held.entered_by else "—",
            "time": time_format(timezone.localtime(presenters.pencil_until(pulka, held)), "H:i"),
        }
    return presenters.LineActions(
        correctable=correctable if seats else frozenset(),
        arbiter=may_arbitrate(pulka, request.user),
        held=held.number if held is not None and seats else None,
        held_text=held_text,
    )


def table_context(
    request: HttpRequest,
    pulka: Pulka,
    *,
    deals: list[Deal] | None = None,
    corrections: list[Correction] | None = None,
    scored: ScoredPulka | None = None,
    form: DealForm | None = None,
    change: int | None = None,
    propose: bool = False,
    entry: presenters.EntryForm | None = None,
    notice: str = "",
) -> dict[str, Any]:
    """Everything the table screen shows, from the pulka and its standing deals.

    ``change`` asks for the last deal's facts in the form again (pencil rule, Кодекс
    4.2.8); it is honoured only for whoever holds the pencil. ``propose`` puts the form
    in forgotten-deal mode (Кодекс 4.2.10) for a player at the table; ``entry`` is a
    form made by the caller (a correction). ``form`` is a bound form to show again with
    its errors. ``deals``, ``corrections`` and ``scored`` spare the queries and the
    scoring when the caller has them already.
    """
    if deals is None:
        deals = load_deals(pulka)
    if corrections is None:
        corrections = load_corrections(pulka)
    if scored is None:
        scored = services.score(pulka, deals, corrections)
    seating = trail.Seating.of(pulka)
    seats = seating.of_user(request.user)
    proposal = trail.latest_proposal(pulka)
    pending = proposal is not None and proposal.status == ForgottenDeal.Status.PENDING
    may_propose = bool(seats) and not pending and not pulka.is_frozen
    pencil = services.pencil_deal(pulka, request.user, deals)
    changing = pencil is not None and change == pencil.number
    if entry is not None:
        pass
    elif changing:
        assert pencil is not None
        before = score_before_last(pulka, deals, corrections)
        entry = _change_form(pulka, before, pencil, form)
    elif propose and may_propose:
        entry = _propose_form(pulka, scored.state, len(deals) + 1, form)
    elif not pulka.is_frozen:
        entry = presenters.entry_form(
            scored.state,
            reverse("games:record", args=[pulka.pk]),
            len(deals) + 1,
            form.typed() if form is not None else {},
            form.grouped_errors() if form is not None else {},
        )
    paper = presenters.paper_of(scored)
    protocol = presenters.protocol_lines(
        scored,
        deals,
        pencil,
        paper=paper,
        corrections=services.in_log_order(corrections),
        actions=line_actions(request, pulka, deals, seats),
    )
    banner = trail.forgotten_banner(
        pulka, proposal, seating, request.user, scored.state, deals[-1] if deals else None
    )
    return {
        "pulka": pulka,
        "convention": convention_label(pulka.convention_name),
        "names": scored.pulka.names,
        "finished": pulka.status == Pulka.Status.FINISHED,
        "closed": scored.state.closed,
        "deal_count": len(deals),
        "drawn": presenters.draw_sheet(scored, paper),
        "rows": presenters.sheet_rows(scored, paper),
        "protocol": protocol,
        "corrected": bool(corrections),
        "forgotten": banner,
        "may_propose": may_propose and (entry is None or entry.mode == "record"),
        "pencil": pencil,
        "pencil_until": presenters.pencil_until(pulka, pencil) if pencil else None,
        "entry": entry,
        "notice": notice,
        "poll_url": poll_url(request, pulka),
    }


def _change_form(
    pulka: Pulka, before: SheetState, pencil: Deal, form: DealForm | None
) -> presenters.EntryForm:
    """The last deal's form again, in the state it was dealt in."""
    if form is not None:
        values, errors = form.typed(), form.grouped_errors()
    else:
        values = presenters.values_from_facts(pencil.facts, before.names)
        errors = {}
    return presenters.entry_form(
        before,
        reverse("games:pencil", args=[pulka.pk, pencil.number]),
        pencil.number,
        values,
        errors,
        mode="change",
    )


def _propose_form(
    pulka: Pulka, state: SheetState, number: int, form: DealForm | None
) -> presenters.EntryForm:
    """The next deal's form, proposing a forgotten deal for the table's consent."""
    return presenters.entry_form(
        state,
        reverse("games:propose", args=[pulka.pk]),
        number,
        form.typed() if form is not None else {},
        form.grouped_errors() if form is not None else {},
        mode="propose",
        notes=(
            _(
                "A deal played but not recorded is added once every player at the table "
                "agrees, each on his own device; one refusal drops it, and so does "
                "recording the next deal (Кодекс 4.2.10)."
            ),
        ),
    )


def render_regions(
    request: HttpRequest,
    context: dict[str, Any],
    regions: Sequence[str] = REGIONS,
    status: int = 200,
) -> HttpResponse:
    """The regions as out-of-band swaps: htmx puts each in place by its id."""
    oob = {**context, "oob": True}
    html = "".join(render_to_string(f"{TEMPLATE}#{name}", oob, request=request) for name in regions)
    return HttpResponse(html, status=status)


def render_table(
    request: HttpRequest,
    context: dict[str, Any],
    status: int = 200,
    regions: Sequence[str] = REGIONS,
) -> HttpResponse:
    """The regions for htmx, or the whole page without it."""
    if request.htmx:
        response = render_regions(request, context, regions, status)
    else:
        response = render(request, TEMPLATE, context, status=status)
    patch_vary_headers(response, ["HX-Request"])
    return response


def signed_out(request: HttpRequest) -> HttpResponse:
    """403 for a polling device no longer signed in; htmx is sent to the sign-in page.

    A redirect would be followed inside the XMLHttpRequest and swap nothing; the
    ``HX-Redirect`` header takes the whole page there instead, back here afterwards.
    """
    response = HttpResponseForbidden(_("Sign in to see this pulka."))
    if request.htmx:
        back = request.htmx.current_url_abs_path or request.get_full_path()
        response["HX-Redirect"] = redirect_to_login(back).url
    return response


def _change_param(request: HttpRequest) -> int | None:
    value = request.GET.get("change", "")
    return int(value) if value.isdigit() and len(value) < 8 else None


@login_required
@require_GET
def sheet_page(request: HttpRequest, pk: int) -> HttpResponse:
    """The table screen of one pulka; ``?change=N`` puts deal N back in the form,
    ``?propose=1`` turns the form into a forgotten deal's proposal (Кодекс 4.2.10)."""
    pulka = pulka_for(request, pk)
    context = table_context(
        request,
        pulka,
        change=_change_param(request),
        propose=request.GET.get("propose") == "1",
    )
    return render_table(request, context)


# A poll ticket lets a device ask "anything new?" without loading its session: it is
# signed for one user and one pulka when the sheet is shown, and lives a playing evening.
POLL_TICKET_SALT = "prefscore.poll"
POLL_TICKET_AGE = 12 * 60 * 60


def poll_url(request: HttpRequest, pulka: Pulka) -> str:
    """The poll address with the version shown and this device's signed ticket."""
    ticket = TimestampSigner(salt=POLL_TICKET_SALT).sign(f"{pulka.pk}.{request.user.pk}")
    query = urlencode({"v": pulka.version, "t": ticket})
    return f"{reverse('games:poll', args=[pulka.pk])}?{query}"


def _ticket_user(request: HttpRequest, pk: int) -> Any:
    """The user id a valid ticket for this pulka was issued to, else None."""
    try:
        value = TimestampSigner(salt=POLL_TICKET_SALT).unsign(
            request.GET.get("t", ""), max_age=POLL_TICKET_AGE
        )
    except BadSignature:
        return None
    pulka_id, _dot, user_id = value.partition(".")
    return user_id if pulka_id == str(pk) and user_id.isdigit() else None


@require_GET
def poll(request: HttpRequest, pk: int) -> HttpResponse:
    """304 while the pulka's version is the one shown (``?v=``), else the new regions.

    Every device polls every 2 s, so the usual answer costs one query: the version,
    through the memberships of the user its signed ticket names (or, without a ticket,
    of the session's user), so a removed member stops at once. A 304 tells nothing the
    device did not claim itself; any other answer goes through ``request.user`` and
    :func:`pulka_for`, which check the session fully (a changed password, an inactive
    account) before a figure leaves. Anonymous devices get 403, not a sign-in page.
    """
    user_id = _ticket_user(request, pk) or request.session.get(SESSION_KEY)
    if user_id is None:
        return signed_out(request)
    version = Pulka.objects.version_for_member(pk, user_id)
    shown = request.GET.get("v", "")
    if version is not None and shown.isdigit() and int(shown) == version:
        response: HttpResponse = HttpResponseNotModified()
    else:
        if not request.user.is_authenticated:
            return signed_out(request)
        pulka = pulka_for(request, pk)  # 404 for an unknown pulka, 403 for an outsider's
        if request.htmx:
            response = render_regions(request, table_context(request, pulka))
        else:
            response = redirect("games:sheet", pk=pk)
    add_never_cache_headers(response)
    return response
