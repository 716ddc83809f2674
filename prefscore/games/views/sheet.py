"""The table screen: the drawn sheet, the protocol and the entry form; the poll; recording
a deal, and changing or undoing the last one under the pencil rule.

``sheet_page`` shows a pulka; ``poll`` lets the other devices at the table ask cheaply
whether anything changed (docs/design.md, "How a deal flows", step 6). The regions the
screen swaps are partials of ``games/sheet.html``; the entry and correction views
answer through ``render_table``, ``refuse`` and ``changed`` below, with the same regions.
What the screen shows is ``presenters.table_context``'s.

An action the page's outbox sends again is carried out once (docs/design.md, "Never
lose a deal"): ``once_per_entry`` below. Each entry the outbox sends
(static/js/outbox.js) carries a client id. A deal keeps it on its row
(``record`` tells a replay from another device's deal by it); every other action
of the table (an undo or a change under the pencil, a correction, a forgotten deal
proposed or consented to, a proposal to abandon and its answers, a manual entry) is
remembered by it once carried out (``SentEntry``), so that the same entry sent again
after a lost answer is answered as its success, never judged again: a second undo would
be refused, a second proposal would be a second one.

``record`` and ``pencil``: with htmx each answer swaps the table's regions out of band; without it a success
redirects to the sheet (POST/redirect/GET) and a refusal shows the page again.
Errors: a wrong entry 422 (htmx) or 200 (page), a deal recorded first elsewhere 409,
a finished pulka 409, a pencil that is not yours 403.

The deal number and the client id the page gives each entry (static/js/outbox.js)
make recording idempotent: a phone that lost the answer sends the same entry again,
and if a deal of this pulka carries its client id (or, from a page without the
script, that deal stands as this user recorded it with the same facts), the answer is
the success it missed (the sheet as it stands), never a second deal. A deal recorded
first by someone else (or another entry of one's own) is 409: both entries side by
side, what is on the sheet and what was sent, with the choice to record the entry as
the next deal or to discard it (``presenters.conflict``); the 409 carries
``X-Entry-Conflict`` for the outbox to tell it from a refusal.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import wraps
from typing import Any
from uuid import UUID

from django.conf import settings
from django.contrib.auth import SESSION_KEY
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.http import HttpResponse, HttpResponseForbidden, HttpResponseNotModified
from django.urls import reverse
from django.utils.cache import add_never_cache_headers
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST, require_safe

from prefscore.web.htmx import (
    HtmxHttpRequest,
    invalid_status,
    redirect_to,
    render_page,
    render_partials,
    swaps_region,
)
from prefscore.web.integers import request_int
from scoring.engine.errors import DealError

from .. import poll_tickets, presenters, recording, services
from ..access import pulka_and_seats_for, pulka_for
from ..forms import DealForm
from ..models import Correction, Deal, Pulka, SentEntry
from ..pencil import pencil_deal, undone_facts
from ..presenters import entry_form, table_context
from ..presenters.conflict import entry_conflict
from ..presenters.joining import join_panel, read_with_pulka
from ..recording import score_before_last
from ..seating import Seating

# Every region of the screen, in page order; the poll element carries the version.
REGIONS = ("status", "forgotten", "sheet", "entry", "protocol", "poll")
TEMPLATE = "games/sheet.html"


def render_regions(
    request: HtmxHttpRequest,
    context: dict[str, Any],
    regions: Sequence[str] = REGIONS,
    status: int = 200,
) -> HttpResponse:
    """The regions as out-of-band swaps: htmx puts each in place by its id."""
    return render_partials(request, TEMPLATE, regions, context, status=status, oob=True)


def render_table(
    request: HtmxHttpRequest,
    context: dict[str, Any],
    status: int = 200,
    regions: Sequence[str] = REGIONS,
) -> HttpResponse:
    """The regions for htmx, or the whole page without it: each viewer's own, with the
    version's shared regions in it as values (docs/design.md, "How the table screen is
    cached")."""
    if swaps_region(request):
        return render_regions(request, context, regions, status)
    return render_page(request, TEMPLATE, context, status=status)


def refuse(
    request: HtmxHttpRequest, pulka: Pulka, status: int, message: str, **known: Any
) -> HttpResponse:
    """The message above the table's own form, with the sheet as it stands now.

    ``known`` (deals, corrections) spares the queries when the caller has them.
    """
    context = presenters.table_context(request, pulka, notice=message, **known)
    return render_table(request, context, status)


def changed(request: HtmxHttpRequest, pk: int, **known: Any) -> HttpResponse:
    """After a change: the sheet page again, or with htmx the regions in place.

    ``known`` (deals, corrections, scored as the change left them, and the ``version``
    it left) spares reloading and scoring; it is used only when nothing else changed the
    pulka meanwhile.
    """
    if not request.htmx:
        return redirect_to(request, reverse("games:sheet", args=[pk]))
    pulka = reread(pk)
    if known.pop("version", None) != pulka.version:
        known = {}
    context = presenters.table_context(request, pulka, **known)
    return render_table(request, context)


def reread(pk: int) -> Pulka:
    """The pulka as it stands now, after a change here or on another device."""
    return Pulka.objects.select_related("club").get(pk=pk)


def signed_out(request: HtmxHttpRequest) -> HttpResponse:
    """403 for a polling device no longer signed in; htmx is sent to the sign-in page.

    A redirect would be followed inside the XMLHttpRequest and swap nothing; the
    ``HX-Redirect`` header takes the whole page there instead, back here afterwards.
    """
    response = HttpResponseForbidden(_("Sign in to see this pulka."))
    if request.htmx:
        back = request.htmx.current_url_abs_path or request.get_full_path()
        response["HX-Redirect"] = redirect_to_login(back).url
    return response


def _change_param(request: HtmxHttpRequest) -> int | None:
    return request_int(request.GET.get("change", ""), max_digits=7)


def _undone(request: HtmxHttpRequest, pulka: Pulka) -> dict[str, Any]:
    """The facts of the deal this viewer undid, if ``?undone=`` names it (pencil.undone_facts)."""
    number = request_int(request.GET.get("undone", ""), max_digits=7)
    if number is None:
        return {}  # no query on an ordinary visit
    standing = pulka.deals.current().count()
    return undone_facts(pulka, request.user, number, standing)


@login_required
@require_safe
def sheet_page(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """The table screen of one pulka; ``?change=N`` puts deal N back in the form,
    ``?propose=1`` turns the form into a forgotten deal's proposal (Кодекс 4.2.10),
    ``?undone=N`` puts the deal N its viewer just undid back in his form (no JavaScript).
    """
    pulka, seats = pulka_and_seats_for(request, pk)  # one query, the join panel's links too
    context = presenters.table_context(
        request,
        pulka,
        seating=Seating(seats),
        change=_change_param(request),
        undone=_undone(request, pulka),
        propose=request.GET.get("propose") == "1",
        whole_protocol=request.GET.get("protocol") == "all",
    )
    if not swaps_region(request):  # the join panel, from the links read with the pulka
        panel = join_panel(request, pulka, context["seating"], read_with_pulka(pulka))
        context = {**context, "join_panel": panel}
    return render_table(request, context)


def version_for_ticket(request: HtmxHttpRequest, pk: int) -> int | None:
    """The version, if the device's ticket is valid, sealed to its live session and its
    account's current password, and the account still belongs to the club: one query."""
    claim = poll_tickets.claim(request.GET.get("t", ""), pk)
    session_key = request.COOKIES.get(settings.SESSION_COOKIE_NAME, "")
    if claim is None or not session_key:
        return None
    found = Pulka.objects.version_for_session(pk, claim.user_id, session_key)
    if found is None or not poll_tickets.holds(claim, session_key, found[1]):
        return None
    return found[0]


@require_safe
def poll(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """304 while the pulka's version is the one shown (``?v=``), else the new regions.

    Every device polls every 2 s, so the usual answer costs one query: the version,
    through the memberships of the user its signed ticket names (or, without a ticket,
    of the session's user), so a removed member stops at once. The ticket counts only
    with the live session and the password it was sealed to (``tickets``); a stale one
    gets the full check below, which also hands the device a fresh ticket. A 304 tells nothing the
    device did not claim itself; any other answer goes through ``request.user`` and
    :func:`pulka_and_seats_for`, which check the session fully (a changed password, an inactive
    account) before a figure leaves. Anonymous devices get 403, not a sign-in page.
    """
    version = version_for_ticket(request, pk)
    if version is None and not request.GET.get("t"):  # a stale ticket gets the full check
        user_id = request.session.get(SESSION_KEY)
        if user_id is None:
            return signed_out(request)
        version = Pulka.objects.version_for_member(pk, user_id)
    shown = request_int(request.GET.get("v", ""))
    if version is not None and shown == version:
        response: HttpResponse = HttpResponseNotModified()
    else:
        if not request.user.is_authenticated:
            return signed_out(request)
        # 404 for an unknown pulka, 403 for an outsider's
        pulka, seats = pulka_and_seats_for(request, pk)
        if request.htmx:
            context = presenters.table_context(request, pulka, seating=Seating(seats))
            response = render_regions(request, context)
        else:
            response = redirect_to(request, reverse("games:sheet", args=[pk]))
    add_never_cache_headers(response)
    return response


# --- once per entry -----------------------------------------------------------------

View = Callable[..., HttpResponse]


def client_id(request: HtmxHttpRequest) -> UUID | None:
    """The id the page's outbox gave this entry (static/js/outbox.js), if it is one."""
    try:
        return UUID(request.POST.get("client_id", ""))
    except ValueError:
        return None


def once_per_entry(view: View) -> View:
    """``view`` for a POST with a client id: carried out once, its replays answered
    with the table as it stands (its success). Who may not see the pulka is refused
    as the view would refuse him (403/404), replay or not."""

    @wraps(view)
    def wrapper(request: HtmxHttpRequest, pk: int, *args: Any, **kwargs: Any) -> HttpResponse:
        sent = client_id(request) if request.method == "POST" else None
        if sent is not None and SentEntry.objects.filter(pulka_id=pk, client_id=sent).exists():
            pulka_for(request, pk)
            return changed(request, pk)
        response = view(request, pk, *args, **kwargs)
        if sent is not None and response.status_code < 400:
            SentEntry.objects.get_or_create(pulka_id=pk, client_id=sent)
        return response

    return wrapper


# --- recording a deal, the pencil -----------------------------------------------------


@login_required
@require_POST
def record(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """Record the next deal from the entry form (docs/design.md, "How a deal flows").

    The log at the version read comes from the cache (``recording``): a deal on a
    table whose phones have seen the version reads no deal and folds nothing again.
    """
    pulka, seats = pulka_and_seats_for(request, pk, change=True)  # one query
    seating = Seating(seats)  # the seats the answer's screen shows, read with the pulka
    log = recording.log_of(pulka)
    deals, corrections = list(log.deals), list(log.corrections)
    number = request_int(request.POST.get("number", ""), max_digits=7)
    if number is not None and 1 <= number <= len(deals):
        # Answered before: a deal this entry made stands, or the 409 (no second deal).
        return _already_recorded(request, pulka, log, number, seating)
    if pulka.is_frozen:
        return refuse(
            request,
            pulka,
            409,
            _("This pulka is over: it takes no more deals."),
            deals=deals,
            corrections=corrections,
            scored=log.scored,
            seating=seating,
        )
    form = DealForm(log.scored.state, request.POST)
    if form.is_valid():
        try:
            done = recording.record(
                pulka,
                log,
                form.facts,
                request.user,
                form.cleaned_data["number"],
                client_id(request),
            )
        except DealError as error:
            form.add_engine_error(error)
        except services.Conflict:
            # Recorded meanwhile, here or on another device: judged as a repeat.
            pulka = reread(pk)
            number = form.cleaned_data["number"]
            return _already_recorded(request, pulka, recording.log_of(pulka), number, seating)
        except services.NotAllowed as error:
            return refuse(request, reread(pk), 409, str(error))
        else:
            return _recorded(request, done, seating)
    context = table_context(
        request,
        pulka,
        deals=deals,
        corrections=corrections,
        scored=log.scored,
        form=form,
        seating=seating,
    )
    return render_table(request, context, invalid_status(request), regions=("entry",))


def _recorded(request: HtmxHttpRequest, done: recording.Done, seating: Seating) -> HttpResponse:
    """The sheet page again, or with htmx the regions of the version the deal made: as
    it stood when the deal was saved, which the next poll brings up to date. Its shared
    regions are rendered here, once, for every other device's next poll."""
    if not request.htmx:
        return redirect_to(request, reverse("games:sheet", args=[done.pulka.pk]))
    log = done.log
    context = table_context(
        request,
        done.pulka,
        deals=list(log.deals),
        corrections=list(log.corrections),
        scored=log.scored,
        seating=seating,
    )
    return render_table(request, context)


def _already_recorded(
    request: HtmxHttpRequest,
    pulka: Pulka,
    log: recording.Log,
    number: int,
    seating: Seating | None = None,
) -> HttpResponse:
    """A form for a deal that stands already (or one beyond the next): a repeat of this
    user's own record is answered as its success; anything else is the 409 that offers
    the entry again. ``log`` is the log at ``pulka.version``; ``seating`` its seats,
    when the caller read them."""
    deals, corrections = list(log.deals), list(log.corrections)
    sent = client_id(request)
    if sent is not None:
        if Deal.objects.filter(pulka=pulka, client_id=sent).exists():
            return changed(request, pulka.pk)  # this very entry, recorded before
    elif _is_repeat(request, pulka, deals, corrections, number):
        return changed(request, pulka.pk)
    if number > len(deals):  # a form from a future that never came: out of date
        conflict = _("This form is out of date: reload the page.")
    elif deals[number - 1].entered_by_id == request.user.pk:  # an earlier try, other facts
        conflict = _("You recorded deal %(number)s already, as the protocol shows.")
    else:
        conflict = _("Deal %(number)s was already recorded on another device.")
    conflict %= {"number": number}
    known: dict[str, Any] = {"deals": deals, "corrections": corrections, "scored": log.scored}
    if seating is not None:
        known["seating"] = seating
    if pulka.is_frozen:
        return refuse(request, pulka, 409, conflict, **known)
    if number <= len(deals):  # both entries side by side: the player chooses
        both = entry_conflict(pulka, deals, corrections, log.scored, number, request.POST, sent)
        context = table_context(request, pulka, conflict=both, notice=conflict, **known)
        response = render_table(request, context, 409)
        response["X-Entry-Conflict"] = str(number)
        return response
    state = log.scored.state
    again = DealForm(state, request.POST)  # the seats' fields of the next deal
    offered = entry_form(
        state, reverse("games:record", args=[pulka.pk]), len(deals) + 1, again.typed()
    )
    kept = _("Your entry is kept below: check it and record it as deal %(number)s.") % {
        "number": offered.number
    }
    return refuse(request, pulka, 409, f"{conflict} {kept}", entry=offered, **known)


def _is_repeat(
    request: HtmxHttpRequest,
    pulka: Pulka,
    deals: list[Deal],
    corrections: list[Correction],
    number: int,
) -> bool:
    """Deal ``number`` stands as this user recorded it, with the facts this form gives
    when read in the state that deal was dealt in (its dealer, who sat out)."""
    if not 1 <= number <= len(deals):
        return False
    deal = deals[number - 1]
    if deal.entered_by_id != request.user.pk:
        return False
    earlier = [c for c in corrections if c.after_deal < number]
    state = services.score(pulka, deals[: number - 1], earlier).state
    form = DealForm(state, request.POST)
    return form.is_valid() and form.facts == deal.facts


@login_required
@require_POST
@once_per_entry
def pencil(request: HtmxHttpRequest, pk: int, number: int) -> HttpResponse:
    """Undo or change the last deal while its recorder holds the pencil (Кодекс 4.2.8).

    ``action`` is ``undo`` or ``change``; a change carries the whole form again.
    """
    pulka = pulka_for(request, pk, change=True)
    log = recording.log_of(pulka)
    deals, corrections = list(log.deals), list(log.corrections)
    holder = pencil_deal(pulka, request.user, deals)
    if holder is None or holder.number != number:
        message = _(
            "Only whoever recorded the last deal may change or undo it, and only until the "
            "next deal is recorded or %(minutes)s minutes pass."
        ) % {"minutes": pulka.club.pencil_minutes}
        return refuse(request, pulka, 403, message)
    action = request.POST.get("action", "")
    if action not in ("undo", "change"):
        return refuse(request, pulka, 400, _("Choose whether to undo or to change the deal."))
    form = None
    if action == "change":
        form = DealForm(score_before_last(pulka, deals, corrections), request.POST)
        if not form.is_valid():
            return _change_again(request, pulka, deals, corrections, form, number)
    try:
        services.pencil_change(pulka.pk, request.user, number, form.facts if form else None)
    except services.NotAllowed as error:
        return refuse(request, reread(pk), 403, str(error))
    except DealError as error:
        assert form is not None
        form.add_engine_error(error)
        return _change_again(request, pulka, deals, corrections, form, number)
    if action == "undo" and request.htmx:
        # His own form holds the deal just undone, to be put right and recorded again.
        fresh = reread(pk)
        context = table_context(request, fresh, undone=holder.facts)
        return render_table(request, context)
    if action == "undo" and not request.htmx:  # the sheet reads the undone deal back
        return redirect_to(request, f"{reverse('games:sheet', args=[pk])}?undone={number}")
    return changed(request, pk)


def _change_again(
    request: HtmxHttpRequest,
    pulka: Pulka,
    deals: list[Deal],
    corrections: list[Correction],
    form: DealForm,
    number: int,
) -> HttpResponse:
    context = table_context(
        request, pulka, deals=deals, corrections=corrections, form=form, change=number
    )
    return render_table(request, context, invalid_status(request), regions=("entry",))
