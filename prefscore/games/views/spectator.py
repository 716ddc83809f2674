"""The spectator link: a table's sheet, live, for people outside the club.

Anyone holding the link sees the drawn sheet, the protocol and the status line, and
nothing else (``presenters.spectator``). The poll asks, every 2 s, whether the sheet
changed: one query (the version, through the link's code and the club's switch), no
session, no account; a link whose signature fails costs no query at all. When the link
is revoked, or the club switches spectators off, the poll answers 404 and tells htmx to
reload, so the page itself says so (docs/design.md, "Joining a table, and watching it").
"""

from __future__ import annotations

from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponse, HttpResponseNotFound, HttpResponseNotModified
from django.urls import reverse
from django.utils.cache import add_never_cache_headers
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe

from prefscore.web.htmx import HtmxHttpRequest, redirect_to, render_page, render_partials
from prefscore.web.integers import request_int

from .. import joining
from ..models import Pulka
from ..presenters.spectator import spectator_context

TEMPLATE = "games/spectator.html"
REGIONS = ("status", "result", "sheet", "protocol", "poll")


def _watched(token: str) -> Pulka:
    try:
        pulka = joining.pulka_for_spectator(token)
    except joining.SpectatorsOff:
        raise PermissionDenied(_("The club has switched spectator links off.")) from None
    if pulka is None:
        raise Http404(_("This spectator link no longer works."))
    return pulka


def _private(response: HttpResponse) -> HttpResponse:
    """The token is in the address: never cached, never indexed, never sent on as a
    Referer by a link from the page."""
    add_never_cache_headers(response)
    response["Referrer-Policy"] = "no-referrer"
    response["X-Robots-Tag"] = "noindex, nofollow"
    return response


@require_safe
def watch(request: HtmxHttpRequest, token: str) -> HttpResponse:
    pulka = _watched(token)
    context = spectator_context(pulka, token)
    return _private(render_page(request, TEMPLATE, context, REGIONS, oob=True))


@require_safe
def watch_poll(request: HtmxHttpRequest, token: str) -> HttpResponse:
    """304 while the version is the one shown (``?v=``), else the new regions."""
    version = joining.spectator_version(token)
    if version is None:
        response: HttpResponse = HttpResponseNotFound(_("This spectator link no longer works."))
        if request.htmx:
            response["HX-Refresh"] = "true"  # the page reloads and says why
    elif request_int(request.GET.get("v", "")) == version:
        response = HttpResponseNotModified()
    elif request.htmx:
        context = spectator_context(_watched(token), token)
        response = render_partials(request, TEMPLATE, REGIONS, context, oob=True)
    else:
        response = redirect_to(request, reverse("games:watch", args=[token]))
    return _private(response)
