"""The table screen: the drawn sheet, the protocol and the entry form; the poll.

``sheet_page`` shows a pulka; ``poll`` lets the other devices at the table ask cheaply
whether anything changed (docs/design.md, "How a deal flows", step 6). The regions the
screen swaps are partials of ``games/sheet.html``; the entry and correction views
answer through ``render_table``, ``refuse`` and ``changed`` below, with the same regions.
What the screen shows is ``presenters.table_context``'s.

An action the page's outbox sends again is carried out once (docs/design.md, "Never
lose a deal"): ``once_per_entry`` below. Each entry the outbox sends
(static/js/outbox.js) carries a client id. A deal keeps it on its row
(``views/entry.py`` tells a replay from another device's deal by it); every other action
of the table (an undo or a change under the pencil, a correction, a forgotten deal
proposed or consented to, a proposal to abandon and its answers, a manual entry) is
remembered by it once carried out (``SentEntry``), so that the same entry sent again
after a lost answer is answered as its success, never judged again: a second undo would
be refused, a second proposal would be a second one.
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
from django.views.decorators.http import require_safe

from prefscore.web import (
    HtmxHttpRequest,
    redirect_to,
    render_page,
    render_partials,
    request_int,
    swaps_region,
)

from .. import access, presenters
from ..access import Seating, pulka_and_seats_for, pulka_for
from ..models import Pulka, SentEntry
from ..presenters.joining import join_panel, read_with_pulka

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


@login_required
@require_safe
def sheet_page(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """The table screen of one pulka; ``?change=N`` puts deal N back in the form,
    ``?propose=1`` turns the form into a forgotten deal's proposal (Кодекс 4.2.10)."""
    pulka, seats = pulka_and_seats_for(request, pk)  # one query, the join panel's links too
    context = presenters.table_context(
        request,
        pulka,
        seating=Seating(seats),
        change=_change_param(request),
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
    claim = access.claim(request.GET.get("t", ""), pk)
    session_key = request.COOKIES.get(settings.SESSION_COOKIE_NAME, "")
    if claim is None or not session_key:
        return None
    found = Pulka.objects.version_for_session(pk, claim.user_id, session_key)
    if found is None or not access.holds(claim, session_key, found[1]):
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
